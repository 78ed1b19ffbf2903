// Forks and portable files at the level of records: a fork replays to the parent's conversation up
// to a turn (also when a compaction reordered the transcript); an export holds no machine path,
// image bytes stay byte for byte, and an import replays to the same conversation re-homed.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { summaryMessage } from "../../src/core/compact.ts";
import type { Message } from "../../src/protocol/messages.ts";
import { SESSION_FORMAT } from "../../src/protocol/session-format.ts";
import type { SessionEntry } from "../../src/protocol/session-records.ts";
import { forkSession } from "../../src/session/fork.ts";
import { sessionDir, sessionPath } from "../../src/session/paths.ts";
import { exportSession, importSession } from "../../src/session/portable.ts";
import { readSessionFile } from "../../src/session/reader.ts";
import { replay } from "../../src/session/replay.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { tempDir } from "../support/zot.ts";

const T = "2026-11-23T10:00:00.000Z";
const msg = (role: Message["role"], text: string): Message => ({ role, content: [{ type: "text", text }], time: T });
const usage = (n: number): SessionEntry => ({
  type: "usage",
  time: T,
  usage: { input: n, output: 0, cache_read: 0, cache_write: 0, cost_usd: n / 1000, reasoning: null },
  cumulative: { input: n, output: 0, cache_read: 0, cache_write: 0, cost_usd: n / 1000, reasoning: null },
});

function write(home: string, cwd: string, id: string, entries: SessionEntry[]): string {
  const file = sessionPath(home, cwd, id);
  const header = { type: "session" as const, format: SESSION_FORMAT, id, cwd, created: T, model: "claude-sonnet-4-5", provider: "anthropic", zot_version: "0.1.0" };
  const writer = SessionWriter.create(file, header);
  for (const entry of entries) writer.write(entry);
  writer.close();
  return file;
}

const loaded = (file: string) => {
  const content = readSessionFile(file);
  return { ...content, ...replay(content.header, content.entries) };
};

describe("fork", () => {
  const turns = [msg("user", "q1"), msg("assistant", "a1"), msg("user", "q2"), msg("assistant", "a2"), msg("user", "q3"), msg("assistant", "a3")];

  test("after turn n: the parent's records up to turn n+1, parent and fork point in the header", () => {
    const home = tempDir("zot-fork-");
    const entries: SessionEntry[] = [
      { type: "message", message: turns[0]! },
      usage(10),
      { type: "message", message: turns[1]! },
      { type: "model_change", time: T, model: "claude-opus-4-5", provider: "anthropic" },
      { type: "message", message: turns[2]! },
      usage(20),
      { type: "message", message: turns[3]! },
      { type: "message", message: turns[4]! },
      { type: "message", message: turns[5]! },
    ];
    const parent = write(home, "/w", "20261123-100000-00000001", entries);
    const before = readFileSync(parent, "utf8");
    const fork = forkSession(parent, { home, atTurn: 2 });
    expect(fork).toMatchObject({ parent: "20261123-100000-00000001", turn: 2, turns: 3, messages: 4 });
    const forked = loaded(fork.file);
    expect(forked.messages).toEqual(turns.slice(0, 4));
    expect(forked.header).toMatchObject({ parent: "20261123-100000-00000001", fork_point: 2, cwd: "/w", model: "claude-opus-4-5" });
    expect(forked.cumulative.input).toBe(20);
    expect(readFileSync(parent, "utf8")).toBe(before);
    expect(forked.file.startsWith(sessionDir(home, "/w"))).toBe(true);
  });

  test("after a compaction reordered the transcript: the fork still replays to exactly the kept part", () => {
    const home = tempDir("zot-fork-");
    const summary = summaryMessage("## Goal\nearlier");
    const entries: SessionEntry[] = [
      ...turns.slice(0, 4).map((message): SessionEntry => ({ type: "message", message })),
      { type: "intercept", time: T, participant: "guard", stage: "tool_call", action: "deny", reason: "no" },
      usage(30),
      { type: "compaction", time: T, reason: "auto", summary: "earlier", message: summary, kept: 2, messages_before: 4 },
      { type: "message", message: turns[4]! },
      { type: "message", message: turns[5]! },
    ];
    const parent = write(home, "/w", "20261123-100000-00000002", entries);
    // the transcript is [summary, q2, a2, q3, a3]: the summary is no user turn, so q2 is turn 1
    const fork = forkSession(parent, { home, atTurn: 1 });
    const forked = loaded(fork.file);
    expect(forked.messages).toEqual([summary, turns[2]!, turns[3]!]);
    expect(forked.cumulative.input).toBe(30);
    expect(forked.entries.filter((e) => e.type === "intercept")).toHaveLength(1);
    expect(fork.turns).toBe(2);
  });

  describe("a session compacted in the middle of a turn (a one-shot task summed up between its tool steps)", () => {
    const summary = summaryMessage("## Goal\nsummarise a.txt");
    const call = (id: string): Message => ({ role: "assistant", content: [{ type: "tool_call", id, name: "read", args: { path: `${id}.txt` } }], time: T });
    const result = (id: string): Message => ({ role: "tool", content: [{ type: "tool_result", call_id: id, is_error: false, content: [{ type: "text", text: id }] }], time: T });
    // The prompt and the first step are summed up; the second step is kept, and the turn goes on after the summary.
    const compactedTask: SessionEntry[] = [
      { type: "message", message: msg("user", "summarise a.txt") },
      { type: "message", message: call("a") },
      { type: "message", message: result("a") },
      usage(60),
      { type: "message", message: call("b") },
      { type: "message", message: result("b") },
      usage(180),
      { type: "compaction", time: T, reason: "auto", summary: "## Goal\nsummarise a.txt", message: summary, kept: 2, messages_before: 5 },
      { type: "message", message: msg("assistant", "final answer") },
      usage(30),
    ];

    test("with no numbered turn, it forks whole (turn 0 of 0) and the fork replays to the parent's transcript", () => {
      const home = tempDir("zot-fork-");
      const parent = write(home, "/w", "20261123-100000-00000005", compactedTask);
      const fork = forkSession(parent, { home });
      expect(fork).toMatchObject({ turn: 0, turns: 0, messages: 4 });
      const forked = loaded(fork.file);
      expect(forked.messages).toEqual(loaded(parent).messages);
      expect(forked.messages[0]).toEqual(summary);
      expect(forked.header.fork_point).toBe(0);
      expect(forked.cumulative.input).toBe(30);
      expect(() => forkSession(parent, { home, atTurn: 1 })).toThrow(
        "has no numbered user turn (a compaction summed up every prompt it had; zot sessions show lists them without a number): leave out the turn number to fork all of it",
      );
    });

    test("the prompts after it are turns 1, 2, …: every fork holds the summary and the rest of the turn it cut into", () => {
      const home = tempDir("zot-fork-");
      const later = [msg("user", "q2"), msg("assistant", "a2"), msg("user", "q3"), msg("assistant", "a3")];
      const parent = write(home, "/w", "20261123-100000-00000006", [...compactedTask, ...later.map((message): SessionEntry => ({ type: "message", message }))]);
      const fork = forkSession(parent, { home, atTurn: 1 });
      expect(fork).toMatchObject({ turn: 1, turns: 2, messages: 6 });
      expect(loaded(fork.file).messages).toEqual([summary, call("b"), result("b"), msg("assistant", "final answer"), ...later.slice(0, 2)]);
      const whole = forkSession(parent, { home });
      expect(whole).toMatchObject({ turn: 2, turns: 2 });
      expect(loaded(whole.file).messages).toEqual(loaded(parent).messages);
    });
  });

  test("an empty session has nothing to fork", () => {
    const home = tempDir("zot-fork-");
    const parent = write(home, "/w", "20261123-100000-00000007", []);
    expect(() => forkSession(parent, { home })).toThrow("has no user turn to fork after");
  });
});

describe("export and import", () => {
  test("the working directory and home become placeholders only where they stand as paths; image bytes are untouched", () => {
    const home = tempDir("zot-port-");
    const cwd = "/tmp/p";
    const userHome = "/home/al";
    const bytes = "AAAA/tmp/p/BBBB/home/al/CC==";
    const message: Message = {
      role: "user",
      content: [
        { type: "text", text: "edit /tmp/p/src/a.ts, not /tmp/project or /x/tmp/p or /tmp/p.old; see /home/al/.rc and /home/alice" },
        { type: "image", mime_type: "image/png", data: bytes },
      ],
      time: T,
    };
    const said = "It is in /tmp/p. Built with gcc -I/tmp/p/include (at file:///tmp/p/index.mjs:3:7); your home is /home/al.";
    const file = write(home, cwd, "20261123-100000-00000003", [{ type: "message", message }, { type: "message", message: msg("assistant", "in /tmp/p") }, { type: "message", message: msg("assistant", said) }]);
    const out = tempDir("zot-port-out-");
    const { file: exported } = exportSession(file, { here: out, userHome });
    expect(exported).toBe(join(out, "20261123-100000-00000003.zotsession"));
    const text = readFileSync(exported, "utf8");
    expect(text).toContain(
      "edit <zot:cwd>/src/a.ts, not /tmp/project or /x/tmp/p or /tmp/p.old; see <zot:home>/.rc and /home/alice",
    );
    expect(text).toContain(`"data":"${bytes}"`);
    expect(text).toContain("in <zot:cwd>");
    // A path ending a sentence, after file:// or after a one-letter option is a path too.
    expect(text).toContain("It is in <zot:cwd>. Built with gcc -I<zot:cwd>/include (at file://<zot:cwd>/index.mjs:3:7); your home is <zot:home>.");
    expect(text).not.toContain("/home/al.");
    expect(loaded(exported).header.cwd).toBe("<zot:cwd>");

    const imported = importSession(exported, { home, cwd: "/srv/new", userHome: "/home/bo" });
    const back = loaded(imported.file);
    expect(back.header).toMatchObject({ cwd: "/srv/new", model: "claude-sonnet-4-5", provider: "anthropic" });
    expect(back.header.id).not.toBe("20261123-100000-00000003");
    expect(back.messages[0]!.content).toEqual([
      { type: "text", text: "edit /srv/new/src/a.ts, not /tmp/project or /x/tmp/p or /tmp/p.old; see /home/bo/.rc and /home/alice" },
      { type: "image", mime_type: "image/png", data: bytes },
    ]);
    expect(back.messages[2]!.content).toEqual([{ type: "text", text: "It is in /srv/new. Built with gcc -I/srv/new/include (at file:///srv/new/index.mjs:3:7); your home is /home/bo." }]);
    expect(imported.file.startsWith(sessionDir(home, "/srv/new"))).toBe(true);
  });

  test("reasoning its provider signed or encrypted travels byte for byte (the API refuses it changed); unsigned thinking is re-homed", () => {
    const home = tempDir("zot-port-");
    const cwd = "/tmp/p";
    const signed = { type: "thinking" as const, text: "The config lives at /tmp/p/config.json", signature: "sig/tmp/p==" };
    const encrypted = { type: "thinking" as const, text: "look in /tmp/p/src", opaque: "enc/tmp/p", reasoning_id: "rs_1" };
    const plain = { type: "thinking" as const, text: "plain /tmp/p/notes" };
    const said: Message = { role: "assistant", content: [signed, encrypted, plain, { type: "text", text: "see /tmp/p/config.json" }], time: T };
    const file = write(home, cwd, "20261123-100000-00000009", [{ type: "message", message: msg("user", "where?") }, { type: "message", message: said }]);
    const { file: exported } = exportSession(file, { here: tempDir("zot-port-out-"), userHome: "/home/al" });
    const imported = importSession(exported, { home, cwd: "/srv/bob", userHome: "/home/bo" });
    // Replay names the model an older zot left unnamed (the session's): the block itself is as it was.
    expect(loaded(imported.file).messages[1]!.content).toEqual([
      { ...signed, model: "claude-sonnet-4-5" },
      encrypted,
      { type: "thinking", text: "plain /srv/bob/notes" },
      { type: "text", text: "see /srv/bob/config.json" },
    ]);
  });

  test("an explicit name gets .zotsession added; an exported file cannot be resumed or forked before it is imported", () => {
    const home = tempDir("zot-port-");
    const file = write(home, "/w", "20261123-100000-00000004", [{ type: "message", message: msg("user", "hi") }]);
    const out = tempDir("zot-port-out-");
    const { file: exported } = exportSession(file, { here: out, dest: "mine", userHome: "/home/x" });
    expect(exported).toBe(join(out, "mine.zotsession"));
    expect(() => forkSession(exported, { home })).toThrow("is an exported session; import it first");
  });
});
