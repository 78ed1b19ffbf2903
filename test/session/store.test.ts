// The store around the files: the lock (a live owner refused by pid, a dead one taken over),
// finding a session by id, prefix or path, the listing's summaries, and the forest of forks.
import { describe, expect, test } from "bun:test";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { findSession } from "../../src/session/find.ts";
import { ATTACHED_MARK } from "../../src/protocol/attached-prompt.ts";
import { listSessions, type SessionSummary } from "../../src/session/list.ts";
import { acquireLock, lockPathOf, SessionLockedError } from "../../src/session/lock.ts";
import { sessionDir, sessionPath } from "../../src/session/paths.ts";
import { sessionForest } from "../../src/session/tree.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { everyRecord, header } from "../support/session-fixtures.ts";
import { tempDir } from "../support/zot.ts";

function writeSession(home: string, cwd: string, id: string, extra: Partial<typeof header> = {}): string {
  const file = sessionPath(home, cwd, id);
  mkdirSync(sessionDir(home, cwd), { recursive: true });
  const writer = SessionWriter.create(file, { ...header, id, cwd, parent: undefined, fork_point: undefined, ...extra });
  for (const record of everyRecord) writer.write(record);
  writer.close();
  return file;
}

describe("the session lock", () => {
  test("a lock held by a live process is refused with its pid; a dead one's is taken over", async () => {
    const file = join(tempDir("zot-lock-"), "s.jsonl");
    const live = Bun.spawn(["sleep", "30"]);
    try {
      writeFileSync(lockPathOf(file), JSON.stringify({ pid: live.pid, host: hostname(), since: "2026-11-23T10:00:00Z" }));
      expect(() => acquireLock(file, "abc")).toThrow(SessionLockedError);
      expect(() => acquireLock(file, "abc")).toThrow(`session abc is in use by another zot (pid ${live.pid}, since 2026-11-23T10:00:00Z)`);
    } finally {
      live.kill();
    }
    await live.exited;
    // now that pid is dead: the lock is stale
    const lock = acquireLock(file, "abc");
    expect(JSON.parse(readFileSync(lockPathOf(file), "utf8")).pid).toBe(process.pid);
    expect(() => acquireLock(file, "abc")).toThrow(`pid ${process.pid}`);
    lock.release();
    expect(existsSync(lockPathOf(file))).toBe(false);
  });

  test("a lock file cut off while being written, and left so, counts as stale", () => {
    const file = join(tempDir("zot-lock-"), "s.jsonl");
    writeFileSync(lockPathOf(file), '{"pid":12');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockPathOf(file), old, old);
    acquireLock(file, "abc").release();
  });

  test("a lock an older zot is still writing (created empty, its owner written after) is waited for, not taken", async () => {
    const file = join(tempDir("zot-lock-"), "s.jsonl");
    const live = Bun.spawn(["sleep", "30"]);
    try {
      writeFileSync(lockPathOf(file), "");
      const owner = JSON.stringify({ pid: live.pid, host: hostname(), since: "2026-11-23T10:00:00Z" });
      const writer = Bun.spawn(["bash", "-c", `sleep 0.1; printf '%s' '${owner}' > '${lockPathOf(file)}'`]);
      expect(() => acquireLock(file, "abc")).toThrow(`pid ${live.pid}`);
      await writer.exited;
    } finally {
      live.kill();
    }
  });

  test("a pid now running another process (reused after the owner died, or after a reboot) is stale; the owner itself is not", async () => {
    const file = join(tempDir("zot-lock-"), "s.jsonl");
    const live = Bun.spawn(["sleep", "30"]);
    try {
      const start = readFileSync(`/proc/${live.pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19]!;
      const lockAs = (fields: Record<string, unknown>) =>
        writeFileSync(lockPathOf(file), JSON.stringify({ pid: live.pid, host: hostname(), since: "2026-11-23T10:00:00Z", ...fields }));
      lockAs({ start });
      expect(() => acquireLock(file, "abc")).toThrow(`pid ${live.pid}`);
      lockAs({ start: String(Number(start) - 1000) });
      acquireLock(file, "abc").release();
      lockAs({ start, boot: "a boot that is not this one" });
      acquireLock(file, "abc").release();
      expect(existsSync(lockPathOf(file))).toBe(false);
    } finally {
      live.kill();
    }
  });

  test("the lock names this process with its start time and boot, and is never seen half-written", () => {
    const file = join(tempDir("zot-lock-"), "s.jsonl");
    const lock = acquireLock(file, "abc");
    const owner = JSON.parse(readFileSync(lockPathOf(file), "utf8"));
    expect(owner).toMatchObject({ pid: process.pid, host: hostname(), start: expect.any(String), boot: readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() });
    lock.release();
    // no temp or takeover file is left beside it
    expect(readdirSync(dirname(file))).toEqual([]);
  });

  for (const stale of [false, true]) {
    test(`eight zot processes race for one lock${stale ? " left by a dead process" : ""}: exactly one gets it`, async () => {
      const dir = tempDir("zot-lock-race-");
      const file = join(dir, "s.jsonl");
      if (stale) writeFileSync(lockPathOf(file), JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), since: "2026-11-23T10:00:00Z" }));
      const go = join(dir, "go");
      const racers = Array.from({ length: 8 }, () =>
        Bun.spawn([process.execPath, join(import.meta.dir, "..", "fixtures", "session", "lock-racer.ts"), file, go], { stdin: "pipe", stdout: "pipe", stderr: "inherit" }),
      );
      const readers = racers.map((r) => r.stdout.getReader());
      const next = async (i: number) => new TextDecoder().decode((await readers[i]!.read()).value).trim();
      for (let i = 0; i < racers.length; i++) expect(await next(i)).toBe("ready");
      writeFileSync(go, "");
      const outcomes: string[] = [];
      for (let i = 0; i < racers.length; i++) outcomes.push(await next(i));
      for (const racer of racers) racer.stdin.end();
      await Promise.all(racers.map((r) => r.exited));
      expect(outcomes.filter((o) => o === "won")).toHaveLength(1);
      expect(outcomes.filter((o) => o === "locked")).toHaveLength(7);
    });
  }
});

describe("finding and listing sessions", () => {
  test("by full id, by a unique start, by path; an ambiguous start lists the matches; another directory's session is found and flagged", () => {
    const home = tempDir("zot-find-home-");
    const cwd = "/work/project";
    const a = writeSession(home, cwd, "20261123-100000-aaaaaaaa");
    const b = writeSession(home, cwd, "20261123-110000-bbbbbbbb");
    const other = writeSession(home, "/elsewhere", "20261124-090000-cccccccc");
    expect(findSession(home, cwd, "20261123-100000-aaaaaaaa")).toEqual({ file: a, elsewhere: false });
    expect(findSession(home, cwd, "20261123-11")).toEqual({ file: b, elsewhere: false });
    expect(findSession(home, cwd, b)).toEqual({ file: b, elsewhere: false });
    expect(findSession(home, cwd, "20261124")).toEqual({ file: other, elsewhere: true });
    expect(() => findSession(home, cwd, "20261123")).toThrow(
      '"20261123" matches 2 sessions (20261123-110000-bbbbbbbb, 20261123-100000-aaaaaaaa); give more of the id',
    );
    expect(() => findSession(home, cwd, "nope")).toThrow('no session "nope" in /work/project or elsewhere');
  });

  test("elsewhere, a start that one session in each of two directories has is ambiguous; a full id is not; a linked directory is searched", () => {
    const home = tempDir("zot-find-home-");
    const x = writeSession(home, "/dir-a", "20261125-100000-aaaaaaaa");
    writeSession(home, "/dir-b", "20261125-110000-bbbbbbbb");
    expect(() => findSession(home, "/dir-c", "20261125")).toThrow('"20261125" matches 2 sessions of other directories (');
    expect(findSession(home, "/dir-c", "20261125-100000-aaaaaaaa")).toEqual({ file: x, elsewhere: true });
    // A session folder moved away and linked back is found from another directory.
    const moved = tempDir("zot-find-moved-");
    const dir = sessionDir(home, "/dir-d");
    const file = writeSession(home, "/dir-d", "20261126-100000-dddddddd");
    renameSync(dir, join(moved, "d"));
    symlinkSync(join(moved, "d"), dir);
    expect(findSession(home, "/dir-c", "20261126-100000-dddddddd")).toEqual({ file, elsewhere: true });
  });

  test("a listing sums each session up (transcript length after compaction and rewind, last cost and model, first prompt) and reports files that are not sessions", () => {
    const home = tempDir("zot-list-home-");
    const cwd = "/work/project";
    writeSession(home, cwd, "20261123-100000-aaaaaaaa");
    writeFileSync(join(sessionDir(home, cwd), "20261123-120000-broken00.jsonl"), "not a session\n");
    const { sessions, problems } = listSessions(home, cwd);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      id: "20261123-100000-aaaaaaaa",
      cwd,
      model: "gpt-5",
      provider: "openai",
      messages: 4,
      cost_usd: 0.0006,
      first_prompt: 'look at this ✓ \u2028 "quoted" second line'.replace(/\s+/g, " "),
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("20261123-120000-broken00.jsonl is not a zot session");
  });

  test("a session unchanged since the last listing is summed up from the cache, not read again; a changed one is read; a removed one leaves the cache; a broken cache is none", () => {
    const home = tempDir("zot-list-home-");
    const cwd = "/work/project";
    const file = writeSession(home, cwd, "20261123-100000-aaaaaaaa");
    const gone = writeSession(home, cwd, "20261123-090000-bbbbbbbb");
    // A time a file can be given back exactly (utimes takes no nanoseconds from a Date).
    const mtime = new Date("2026-11-23T10:20:00.000Z");
    utimesSync(file, mtime, mtime);
    const first = listSessions(home, cwd).sessions;
    const cacheFile = join(home, "cache", "sessions", `${basename(sessionDir(home, cwd))}.json`);
    expect(Object.keys(JSON.parse(readFileSync(cacheFile, "utf8")).sessions).sort()).toEqual(["20261123-090000-bbbbbbbb.jsonl", "20261123-100000-aaaaaaaa.jsonl"]);
    // The same bytes' length, the same time and inode: taken from the cache (the new prompt is not seen).
    const text = readFileSync(file, "utf8");
    const fd = openSync(file, "r+");
    writeSync(fd, text.replace("look at this", "LOOK AT THIS"));
    closeSync(fd);
    utimesSync(file, mtime, mtime);
    expect(listSessions(home, cwd).sessions.find((s) => s.id === "20261123-100000-aaaaaaaa")?.first_prompt).toBe(first.find((s) => s.id === "20261123-100000-aaaaaaaa")?.first_prompt);
    // Written to since: read again.
    utimesSync(file, new Date(), new Date());
    expect(listSessions(home, cwd).sessions.find((s) => s.id === "20261123-100000-aaaaaaaa")?.first_prompt).toStartWith("LOOK AT THIS");
    rmSync(gone);
    listSessions(home, cwd);
    expect(Object.keys(JSON.parse(readFileSync(cacheFile, "utf8")).sessions)).toEqual(["20261123-100000-aaaaaaaa.jsonl"]);
    writeFileSync(cacheFile, "{ broken");
    expect(listSessions(home, cwd).sessions.map((s) => s.first_prompt)).toEqual([expect.stringMatching(/^LOOK AT THIS/)]);
  });

  test("after a rewind to nothing (a /clear in -p -c or rpc), the listing's first prompt is the one a resume starts from", () => {
    const home = tempDir("zot-list-home-");
    const cwd = "/work/project";
    const file = writeSession(home, cwd, "20261123-100000-aaaaaaaa");
    const time = "2026-11-23T10:30:00.000Z";
    const more = [
      { type: "rewind", time, to: 0, reason: "clear" },
      { type: "message", message: { role: "user", content: [{ type: "text", text: "a new topic" }], time } },
    ];
    writeFileSync(file, readFileSync(file, "utf8") + more.map((r) => `${JSON.stringify(r)}\n`).join(""));
    expect(listSessions(home, cwd).sessions[0]).toMatchObject({ messages: 1, first_prompt: "a new topic" });
  });

  test("a damaged record among the lines a listing reads (content a string, a usage or model change of the wrong shape) is passed over as a resume skips it; the session is listed", () => {
    const home = tempDir("zot-list-home-");
    const cwd = "/work/project";
    const file = writeSession(home, cwd, "20261123-100000-aaaaaaaa");
    const time = "2026-11-23T10:16:00.000Z";
    const usage = { input: 1, output: 1, cache_read: 0, cache_write: 0, cost_usd: 0.25, reasoning: null };
    const lines = readFileSync(file, "utf8").split("\n");
    lines.splice(
      1,
      0,
      JSON.stringify({ type: "message", message: { role: "user", content: "not-an-array" } }),
      // What its @mention attached is not part of the prompt as typed.
      JSON.stringify({ type: "message", message: { role: "user", content: [{ type: "text", text: `the first whole prompt\n\n${ATTACHED_MARK}\n<file path="a.md">\nA\n</file>` }], time } }),
    );
    writeFileSync(file, lines.join("\n"));
    const before = listSessions(home, cwd).sessions[0]!.messages;
    lines.splice(
      -1,
      0,
      JSON.stringify({ type: "message", message: { role: "assistant", content: "damaged too" } }),
      // Written by hand, `type` last: read whole, and counted.
      JSON.stringify({ message: { role: "user", content: [{ type: "text", text: "by hand" }], time }, type: "message" }),
      JSON.stringify({ message: { role: "assistant", content: [{ type: "text", text: "by hand too" }], time }, type: "message" }),
    );
    lines.splice(
      -1,
      0,
      JSON.stringify({ type: "usage", time, usage, cumulative: usage }),
      JSON.stringify({ type: "usage", time, usage, cumulative: { ...usage, cost_usd: "lots" } }),
      JSON.stringify({ type: "model_change", time, model: "claude-haiku-4-5", provider: "anthropic" }),
      JSON.stringify({ type: "model_change", time, model: 7, provider: "anthropic" }),
    );
    writeFileSync(file, lines.join("\n"));
    const { sessions, problems } = listSessions(home, cwd);
    expect(problems).toEqual([]);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      id: "20261123-100000-aaaaaaaa",
      model: "claude-haiku-4-5",
      provider: "anthropic",
      cost_usd: 0.25,
      first_prompt: "the first whole prompt",
      // The damaged message is not counted, as a resume does not load it; the two by hand are.
      messages: before + 2,
    });
  });
});

describe("the forest of forks", () => {
  const summary = (id: string, parent?: string, created = id): SessionSummary => ({
    id,
    file: `${id}.jsonl`,
    cwd: "/w",
    created,
    updated: created,
    model: "m",
    provider: "p",
    messages: 1,
    cost_usd: 0,
    first_prompt: "",
    ...(parent ? { parent, fork_point: 1 } : {}),
  });

  test("forks go under their parent in the order they were made; a missing parent makes a root; a parent loop hides nothing", () => {
    const forest = sessionForest([summary("d", "a", "4"), summary("a", undefined, "1"), summary("c", "a", "3"), summary("b", "gone", "2"), summary("x", "y"), summary("y", "x")]);
    const shape = (nodes: ReturnType<typeof sessionForest>): unknown => nodes.map((n) => [n.session.id, shape(n.children)]);
    expect(shape(forest)).toEqual([
      ["a", [["c", []], ["d", []]]],
      ["b", []],
      ["y", [["x", []]]],
    ]);
  });
});

describe("a session written by another JSON writer", () => {
  test("its first prompt is found with spaces after the colons (Python's json.dumps, a hand repair)", () => {
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-cwd-");
    const file = sessionPath(home, cwd, "20261123-100000-bbbbbbbb");
    mkdirSync(dirname(file), { recursive: true });
    const spaced = (value: unknown) => JSON.stringify(value).replaceAll('":', '": ').replaceAll(',"', ', "');
    const time = "2026-11-23T10:00:00.000Z";
    writeFileSync(
      file,
      [
        spaced({ ...header, id: "20261123-100000-bbbbbbbb", cwd, parent: undefined, fork_point: undefined }),
        spaced({ type: "message", message: { role: "user", content: [{ type: "text", text: "the spaced prompt" }], time } }),
        "",
      ].join("\n"),
    );
    expect(listSessions(home, cwd).sessions[0]).toMatchObject({ first_prompt: "the spaced prompt", messages: 1 });
  });
});
