// /sessions (the resume picker) and /session export|import|fork|tree against a fake AppContext and
// a real runtime recording real session files (the Anthropic SDK against the mock LLM).
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SlashCommand } from "../../src/modes/interactive/app-context.ts";
import { BUILTIN_SLASH_COMMANDS } from "../../src/modes/interactive/commands/index.ts";
import { createRuntime, type Runtime } from "../../src/runtime/runtime.ts";
import { summaryMessage } from "../../src/core/compact.ts";
import { SESSION_FORMAT } from "../../src/protocol/session-format.ts";
import type { SessionEntry } from "../../src/protocol/session-records.ts";
import { listSessions } from "../../src/session/list.ts";
import type { SessionChoice } from "../../src/session/open.ts";
import { sessionPath } from "../../src/session/paths.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { tempDir } from "../support/zot.ts";
import { ENTER, ESC, fakeApp } from "./fake-app.ts";

let mock: MockLlm | undefined;
const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((rt) => rt.dispose()));
  await mock?.stop();
  mock = undefined;
});

interface Place {
  home: string;
  cwd: string;
}

function place(): Place {
  return { home: tempDir("zot-cmd-home-"), cwd: tempDir("zot-cmd-cwd-") };
}

/** A runtime recording a new session in `where` (or, with "none", recording nothing). */
async function open(where: Place, session: SessionChoice | "none" = { kind: "new" }): Promise<Runtime> {
  mock ??= startMockLlm();
  const rt = await createRuntime({
    provider: "anthropic",
    apiKey: "sk-test",
    baseUrl: mock.url,
    ...where,
    tools: "none",
    extensions: { explicit: [], noDiscovery: true },
    env: {},
    session: session === "none" ? undefined : session,
  });
  runtimes.push(rt);
  return rt;
}

async function prompt(rt: Runtime, text: string): Promise<void> {
  mock!.push({ text: `answer to ${text}` });
  await rt.agent.prompt({ text }, new AbortController().signal);
}

function command(name: string): SlashCommand {
  return BUILTIN_SLASH_COMMANDS.find((c) => c.name === name)!;
}

const userTexts = (rt: Runtime) =>
  rt.agent.messages.filter((m) => m.role === "user").map((m) => (m.content[0] as { text: string }).text);

/** The picker opens once the sessions are listed (a step that reads files, so after a tick or two). */
async function pickerShown(app: ReturnType<typeof fakeApp>): Promise<void> {
  for (let i = 0; i < 500 && !app.overlay; i++) await Bun.sleep(1);
  if (!app.overlay) throw new Error("the /sessions picker did not open");
}

describe("/sessions", () => {
  test("the picker lists this directory's sessions and resumes the one picked: transcript, model, recording", async () => {
    const where = place();
    const rt = await open(where);
    await prompt(rt, "the parser question");
    const first = rt.session!;
    const app = fakeApp(rt);
    await command("model").run(app, "claude-haiku-4-5");
    await prompt(rt, "a second turn");
    await command("clear").run(app, "");
    await command("model").run(app, "claude-opus-4-6");
    await prompt(rt, "the docs question");

    const running = command("sessions").run(app, "");
    await pickerShown(app);
    const rows = app.screen(160).join("\n");
    expect(rows).toContain("Resume a session");
    expect(rows).toMatch(/the docs question .*claude-opus-4-6 .*this session/);
    expect(rows).toMatch(/the parser question .*claude-haiku-4-5 .*4 msgs/);
    app.typeText("parser");
    app.press(ENTER);
    await running;

    expect(app.overlay).toBeUndefined();
    expect(rt.session!.id).toBe(first.id);
    expect(userTexts(rt)).toEqual(["the parser question", "a second turn"]);
    expect(rt.agent.model.id).toBe("claude-haiku-4-5");
    expect(app.reloads).toBe(2);
    expect(app.notes.at(-1)).toEqual({ text: `resumed session ${first.id}: 2 turns, 4 messages, model claude-haiku-4-5`, level: "success" });
    // What follows is recorded into the resumed session.
    await prompt(rt, "back again");
    expect(readFileSync(first.file, "utf8")).toContain("back again");
    expect(mock!.requests.at(-1)!.body.model).toBe("claude-haiku-4-5");
    expect(JSON.stringify(mock!.requests.at(-1)!.body.messages)).toContain("the parser question");
  });

  test("a session another zot holds is refused with its pid, and the conversation goes on untouched", async () => {
    const where = place();
    const other = await open(where);
    await prompt(other, "held elsewhere");
    const rt = await open(where);
    await prompt(rt, "mine");
    const app = fakeApp(rt);
    const running = command("sessions").run(app, "");
    await pickerShown(app);
    expect(app.screen(160).join("\n")).toContain(`in use by pid ${process.pid}`);
    app.typeText("held");
    app.press(ENTER);
    await running;
    expect(app.notes.at(-1)?.level).toBe("error");
    expect(app.notes.at(-1)?.text).toContain(`could not open resumed session ${other.session!.id}`);
    expect(userTexts(rt)).toEqual(["mine"]);
    expect(app.reloads).toBe(0);
    await prompt(rt, "still mine");
    expect(readFileSync(rt.session!.file, "utf8")).toContain("still mine");
  });

  test("a running turn is cancelled only once a session is picked", async () => {
    const where = place();
    const old = await open(where);
    await prompt(old, "older");
    await old.dispose();
    const rt = await open(where);
    const app = fakeApp(rt);
    app.busy = true;
    const running = command("sessions").run(app, "");
    await pickerShown(app);
    expect(app.cancels).toBe(0);
    app.press(ENTER);
    await running;
    expect(app.log).toEqual(["cancel", "reload"]);
    expect(userTexts(rt)).toEqual(["older"]);
  });

  test("Esc keeps the conversation; with no other session there is nothing to pick", async () => {
    const where = place();
    const rt = await open(where);
    const app = fakeApp(rt);
    await command("sessions").run(app, "");
    expect(app.notes.at(-1)?.text).toBe(`no earlier session in ${where.cwd} to resume`);
    await prompt(rt, "one");
    await command("clear").run(app, "");
    await prompt(rt, "two");
    const running = command("sessions").run(app, "");
    await pickerShown(app);
    app.press(ESC);
    await running;
    expect(userTexts(rt)).toEqual(["two"]);
  });
});

describe("/session", () => {
  test("export writes a portable file, import brings it back under a new id", async () => {
    const where = place();
    const rt = await open(where);
    const app = fakeApp(rt);
    await command("session").run(app, "export");
    expect(app.notes.at(-1)?.text).toContain("has nothing recorded yet; send a prompt first");
    await prompt(rt, `look at ${where.cwd}/src`);
    await command("session").run(app, "export out");
    const exported = join(where.cwd, "out.zotsession");
    expect(app.notes.at(-1)).toEqual({ text: `exported session ${rt.session!.id} to ${exported} (this machine's paths replaced by placeholders)`, level: "success" });
    const text = readFileSync(exported, "utf8");
    expect(text).toContain("look at <zot:cwd>/src");
    expect(text).not.toContain(where.cwd);
    await command("session").run(app, "export out");
    expect(app.notes.at(-1)?.level).toBe("error");
    expect(app.notes.at(-1)?.text).toContain("already exists");
    await command("session").run(app, "export out --force");
    expect(app.notes.at(-1)?.level).toBe("success");
    // Quotes keep a name's spaces as written.
    await command("session").run(app, 'export "report  v2.zotsession"');
    expect(existsSync(join(where.cwd, "report  v2.zotsession"))).toBe(true);

    const elsewhere = place();
    const other = await open(elsewhere);
    const otherApp = fakeApp(other);
    writeFileSync(join(elsewhere.cwd, "in file.zotsession"), text);
    await command("session").run(otherApp, 'import "in file.zotsession"');
    const imported = listSessions(elsewhere.home, elsewhere.cwd).sessions;
    expect(imported).toHaveLength(1);
    expect(otherApp.notes.at(-1)).toEqual({ text: `imported as session ${imported[0]!.id} (${imported[0]!.file}); /sessions resumes it`, level: "success" });
    expect(readFileSync(imported[0]!.file, "utf8")).toContain(`look at ${elsewhere.cwd}/src`);
    await command("session").run(otherApp, "import missing.zotsession");
    expect(otherApp.notes.at(-1)?.level).toBe("error");
  });

  test("export with no file named writes to $ZOT_HOME/exports, not into the project", async () => {
    const where = place();
    const rt = await open(where);
    const app = fakeApp(rt);
    await prompt(rt, "one");
    const before = readdirSync(where.cwd);
    await command("session").run(app, "export");
    const exported = join(rt.home, "exports", `${rt.session!.id}.zotsession`);
    expect(app.notes.at(-1)).toEqual({ text: `exported session ${rt.session!.id} to ${exported} (this machine's paths replaced by placeholders)`, level: "success" });
    expect(readFileSync(exported, "utf8")).toContain('"cwd":"<zot:cwd>"');
    expect(readdirSync(where.cwd)).toEqual(before);
    // A second export of the same session says it exists, rather than overwrite it.
    await command("session").run(app, "export");
    expect(app.notes.at(-1)?.text).toContain("already exists");
  });

  test("fork <turn> makes the conversation a fork ending after that turn; the parent is untouched", async () => {
    const where = place();
    const rt = await open(where);
    for (const text of ["one", "two", "three"]) await prompt(rt, text);
    const parent = rt.session!;
    const parentBytes = readFileSync(parent.file, "utf8");
    const app = fakeApp(rt);
    await command("session").run(app, "fork 9");
    expect(app.notes.at(-1)).toEqual({ text: `the turn must be a user turn from 1 to 3 (session ${parent.id} has 3)`, level: "error" });
    await command("session").run(app, "fork 2");
    expect(rt.session!.id).not.toBe(parent.id);
    expect(userTexts(rt)).toEqual(["one", "two"]);
    expect(app.reloads).toBe(1);
    expect(app.notes.at(-1)?.text).toBe(`forked session ${parent.id} after turn 2 of 3; now in ${rt.session!.id}: 2 turns, 4 messages, model claude-sonnet-5-5`);
    await prompt(rt, "two and a half");
    expect(readFileSync(parent.file, "utf8")).toBe(parentBytes);
    expect(readFileSync(rt.session!.file, "utf8")).toContain("two and a half");

    await command("session").run(app, "tree");
    const tree = app.markdown.at(-1)!;
    const rows = tree.split("\n");
    const parentRow = rows.findIndex((r) => r.includes(parent.id));
    const forkRow = rows.findIndex((r) => r.includes(`└─ ${rt.session!.id} (fork at turn 2)`));
    expect(parentRow).toBeGreaterThan(0);
    expect(forkRow).toBe(parentRow + 1);
    expect(rows[forkRow]!.startsWith("*")).toBe(true);
  });

  test("fork of a session compacted in the middle of its only turn: all of it, as no turn number is there to cut at", async () => {
    const where = place();
    const id = "20261123-100000-0000000a";
    const T = "2026-11-23T10:00:00.000Z";
    const file = sessionPath(where.home, where.cwd, id);
    const header = { type: "session" as const, format: SESSION_FORMAT, id, cwd: where.cwd, created: T, model: "claude-sonnet-5-5", provider: "anthropic", zot_version: "0.1.0" };
    const writer = SessionWriter.create(file, header);
    const entries: SessionEntry[] = [
      { type: "message", message: { role: "user", content: [{ type: "text", text: "summarise a.txt" }], time: T } },
      { type: "message", message: { role: "assistant", content: [{ type: "tool_call", id: "t1", name: "read", args: { path: "a.txt" } }], time: T } },
      { type: "tool_result", time: T, result: { type: "tool_result", call_id: "t1", is_error: false, content: [{ type: "text", text: "a" }] } },
      { type: "message", message: { role: "assistant", content: [{ type: "tool_call", id: "t2", name: "read", args: { path: "b.txt" } }], time: T } },
      { type: "tool_result", time: T, result: { type: "tool_result", call_id: "t2", is_error: false, content: [{ type: "text", text: "b" }] } },
      { type: "compaction", time: T, reason: "auto", summary: "## Goal\nsummarise", message: summaryMessage("## Goal\nsummarise"), kept: 2, messages_before: 5 },
      { type: "message", message: { role: "assistant", content: [{ type: "text", text: "done" }], time: T } },
    ];
    for (const entry of entries) writer.write(entry);
    writer.close();
    const rt = await open(where, { kind: "open", ref: file });
    const before = rt.agent.messages;
    const app = fakeApp(rt);
    await command("session").run(app, "fork 1");
    expect(app.notes.at(-1)).toEqual({
      text: `session ${id} has no numbered user turn (a compaction summed up every prompt it had; zot sessions show lists them without a number): leave out the turn number to fork all of it`,
      level: "error",
    });
    await command("session").run(app, "fork");
    expect(rt.session!.id).not.toBe(id);
    expect(app.notes.at(-1)?.text).toBe(`forked session ${id} whole (it has no numbered user turn); now in ${rt.session!.id}: 0 turns, 4 messages, model claude-sonnet-5-5`);
    expect(rt.agent.messages).toEqual(before);
  });

  test("without a session: fork and export say why not; no subcommand shows the usage; a wrong one is an error", async () => {
    const rt = await open(place(), "none");
    await prompt(rt, "one");
    const app = fakeApp(rt);
    await command("session").run(app, "fork");
    expect(app.notes.at(-1)?.text).toContain("records no session (--no-session)");
    await command("session").run(app, "");
    expect(app.notes.at(-1)?.text).toContain("/session export [file]");
    await command("session").run(app, "frob");
    expect(app.notes.at(-1)).toEqual({ text: expect.stringContaining('unknown /session command "frob"'), level: "error" });
    expect(existsSync(join(rt.agent.cwd, "out.zotsession"))).toBe(false);
  });
});
