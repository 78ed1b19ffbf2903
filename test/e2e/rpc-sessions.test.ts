// `zot rpc` and sessions, through the compiled binary and the mock LLM: nothing is recorded unless
// --session or --continue asks; a recorded session resumes with its transcript, model and usage;
// the additive session commands (list_sessions, session_tree, fork_session, export_session,
// import_session, resume_session) answer with data or a clear error; what would change the
// transcript is refused while a turn runs.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RPC_COMMAND_TYPES } from "../../src/protocol/rpc-frames.ts";
import { lockPathOf } from "../../src/session/lock.ts";
import { sessionDir } from "../../src/session/paths.ts";
import { anthropicMock, type RpcProcess, rpcFixture, type Turns } from "../support/rpc-process.ts";
import { tempDir, zot } from "../support/zot.ts";

const fixture = rpcFixture();

/** A home and a working directory shared by several zot processes, and one mock LLM. */
function place(turns: Turns = []) {
  const mock = fixture.llm(turns);
  const home = tempDir("zot-rpcsess-home-");
  const cwd = tempDir("zot-rpcsess-cwd-");
  const flags = [...anthropicMock(mock.url), "--no-ext"];
  return {
    home,
    cwd,
    mock,
    rpc(args: string[] = []): RpcProcess {
      return fixture.start([], ["--no-ext", ...args], { home, cwd });
    },
    /** one `zot -p` run in the same place: a recorded session */
    async print(prompt: string, args: string[] = []) {
      const run = await zot(["-p", prompt, ...flags, ...args], { home, cwd });
      expect(run.code).toBe(0);
      return run;
    },
    files(): string[] {
      const dir = sessionDir(home, cwd);
      return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".jsonl")).map((f) => join(dir, f)) : [];
    },
  };
}


const state = async (r: RpcProcess) => (await r.call({ type: "get_state" })).data;
const texts = (messages: any[]): string[] => messages.map((m) => m.content.find((b: any) => b.type === "text")?.text);
/** Texts the model was sent in the last request. */
const sentToModel = (m: typeof fixture.mock): string[] =>
  m.requests.at(-1)!.body.messages.map((msg: any) => (typeof msg.content === "string" ? msg.content : msg.content.find((b: any) => b.type === "text")?.text));

/** The messages a session file records, in order. */
const recordedMessages = (file: string): any[] =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.type === "message")
    .map((entry) => entry.message);

/** A turn that streams for a long while (about 64 bytes every 50 ms). */
const SLOW = { text: "word ".repeat(2000), chunk_size: 5, chunk_delay_ms: 50 };

describe("persistence flags", () => {
  test("by default nothing is read or written, and get_state says session null", async () => {
    const p = place([{ text: "One." }]);
    await p.print("an earlier -p run", ["--no-session"]);
    const r = p.rpc();
    await r.prompt("hello");
    expect((await state(r)).session).toBeNull();
    expect(await r.close()).toBe(0);
    expect(existsSync(sessionDir(p.home, p.cwd))).toBe(false);
  });

  test("--session new records; --continue resumes it with transcript, model and usage", async () => {
    const p = place([{ text: "Noted: 7.", usage: { input: 100, output: 10 } }, { text: "It was 7." }]);
    const first = p.rpc(["--session", "new"]);
    const started = (await state(first)).session;
    expect(started).toEqual({ id: expect.stringMatching(/^\d{8}-\d{6}-[0-9a-f]{8}$/), file: expect.any(String), resumed: false });
    expect(existsSync(started.file)).toBe(false);
    expect((await first.call({ type: "set_model", model: "claude-haiku-4-5" })).success).toBe(true);
    await first.prompt("remember 7");
    const usage = (await state(first)).usage;
    expect(usage.input).toBe(100);
    expect(await first.close()).toBe(0);
    expect(p.files()).toEqual([started.file]);
    expect(readFileSync(started.file, "utf8")).toContain("remember 7");
    expect(existsSync(lockPathOf(started.file))).toBe(false);

    // No --model: the model comes back from the session.
    const second = p.rpc(["-c"]);
    const resumed = await state(second);
    expect(resumed).toMatchObject({ model: "claude-haiku-4-5", message_count: 2, usage, session: { id: started.id, file: started.file, resumed: true } });
    await second.prompt("what was it?");
    expect(p.mock.requests.at(-1)!.body.model).toBe("claude-haiku-4-5");
    expect(sentToModel(p.mock)).toEqual(["remember 7", "Noted: 7.", "what was it?"]);
    expect(await second.close()).toBe(0);
    expect(p.files()).toHaveLength(1);
    expect(readFileSync(started.file, "utf8")).toContain("what was it?");
  });

  test("--session <id> resumes that one; --continue with none starts a new one and says so", async () => {
    const p = place([{ text: "A." }, { text: "B." }, { text: "C." }]);
    const fresh = p.rpc(["--continue"]);
    const made = (await state(fresh)).session;
    expect(made.resumed).toBe(false);
    await fresh.prompt("first");
    expect(await fresh.close()).toBe(0);
    expect(fresh.stderr).toContain(`no earlier session in ${p.cwd}; starting a new one`);
    await p.print("a newer session");

    const byId = p.rpc(["--session", made.id.slice(0, 18)]);
    expect((await state(byId)).session).toEqual({ id: made.id, file: made.file, resumed: true });
    await byId.prompt("second");
    expect(await byId.close()).toBe(0);
    expect(texts(recordedMessages(made.file))).toEqual(["first", "A.", "second", "C."]);
  });

  test("zot -p --session new starts a new session beside the earlier ones, not resuming any", async () => {
    const p = place([{ text: "One." }, { text: "Two." }]);
    await p.print("first");
    await p.print("second", ["--session", "new"]);
    expect(p.files()).toHaveLength(2);
    expect(sentToModel(p.mock)).toEqual(["second"]);
  });

  test.each([
    [["-r"], "zot rpc cannot ask which session to resume"],
    [["--resume"], "pass --continue or --session <id>"],
    [["--no-session", "-c"], "--no-session and --continue cannot be used together"],
    [["-c", "--session", "new"], "--continue and --session cannot be used together"],
    [["--session", ""], "--session needs an id"],
    [["--session", "no-such-id"], 'no session "no-such-id"'],
  ])("%p is a usage error before stdin is read", async (flags, message) => {
    const home = tempDir("zot-rpcsess-home-");
    const cwd = tempDir("zot-rpcsess-cwd-");
    const run = await zot(["rpc", "--provider", "scripted", ...flags], { home, cwd, stdin: '{"type":"ping"}\n' });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(message);
    expect(existsSync(sessionDir(home, cwd))).toBe(false);
  });

  test("a session another zot records is refused, naming its pid", async () => {
    const p = place([{ text: "Held." }]);
    const owner = p.rpc(["--session", "new"]);
    await owner.prompt("hold it");
    const { id } = (await state(owner)).session;
    const run = await zot(["rpc", ...anthropicMock(p.mock.url), "--no-ext", "--session", id], { home: p.home, cwd: p.cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`session ${id} is in use by another zot (pid ${owner.pid}`);
    const other = p.rpc();
    const refused = await other.call({ type: "resume_session", session: id });
    expect(refused.success).toBe(false);
    expect(refused.error).toStartWith(`resume_session: session ${id} is in use by another zot (pid ${owner.pid}`);
    expect((await state(other)).session).toBeNull();
  });

  test("another directory's session is refused in rpc's words: start zot rpc there, not a flag no command takes", async () => {
    const p = place([{ text: "Elsewhere." }]);
    await p.print("from the first folder");
    const [file] = p.files();
    const id = file!.split("/").at(-1)!.replace(".jsonl", "");
    const elsewhere = fixture.start([], ["--no-ext"], { home: p.home, cwd: tempDir("zot-rpcsess-other-") });
    const refused = await elsewhere.call({ type: "resume_session", session: id });
    expect(refused.success).toBe(false);
    expect(refused.error).toBe(`resume_session: session ${id} belongs to ${p.cwd}; start zot rpc in ${p.cwd} (its working directory, or --cwd ${p.cwd}) to resume it`);
  });
});

describe("session commands", () => {
  test("list_sessions: this directory's sessions, newest first, the current one marked; an unreadable file is a problem", async () => {
    const p = place([{ text: "Old.", usage: { input: 1000, output: 100 } }, { text: "New." }, { text: "Mine." }]);
    await p.print("the old question");
    await Bun.sleep(20);
    await p.print("the new question", ["--model", "claude-haiku-4-5"]);
    writeFileSync(join(sessionDir(p.home, p.cwd), "29991231-235959-ffffffff.jsonl"), "not a session\n");
    const r = p.rpc(["--session", "new"]);
    const empty = await r.call({ type: "list_sessions", id: "l1" });
    expect(empty.data.sessions.map((s: any) => s.first_prompt)).toEqual(["the new question", "the old question"]);
    expect(empty.data.problems).toHaveLength(1);
    expect(empty.data.problems[0]).toContain("29991231-235959-ffffffff.jsonl is not a zot session");

    await Bun.sleep(20);
    await r.prompt("my own question");
    const { sessions } = (await r.call({ type: "list_sessions" })).data;
    const mine = (await state(r)).session;
    expect(sessions.map((s: any) => [s.first_prompt, s.current])).toEqual([
      ["my own question", true],
      ["the new question", false],
      ["the old question", false],
    ]);
    expect(sessions[0]).toMatchObject({ id: mine.id, file: mine.file, messages: 2, model: "claude-sonnet-5-5", provider: "anthropic", locked_by: r.pid });
    expect(sessions[1]).toMatchObject({ model: "claude-haiku-4-5", messages: 2 });
    expect(sessions[2].cost_usd).toBeGreaterThan(0);
    expect(Object.keys(sessions[2]).sort()).toEqual(
      ["id", "file", "created", "updated", "model", "provider", "messages", "cost_usd", "first_prompt", "current"].sort(),
    );
  });

  test("fork_session without a recorded session writes the fork and stays; session_tree shows it under its parent", async () => {
    const p = place([{ text: "One." }, { text: "Two." }, { text: "Three." }]);
    await p.print("turn one");
    const [parentFile] = p.files();
    const parentId = parentFile!.split("/").at(-1)!.replace(".jsonl", "");
    await p.print("turn two", ["-c"]);
    const before = readFileSync(parentFile!);
    const r = p.rpc();

    const fork = await r.call({ type: "fork_session", session: parentId, at: 1 });
    expect(fork.data).toEqual({
      id: expect.any(String),
      file: expect.any(String),
      parent: parentId,
      at: 1,
      turns: 2,
      messages: 2,
      switched: false,
      notes: [],
    });
    expect(readFileSync(parentFile!)).toEqual(before);
    expect((await state(r)).session).toBeNull();
    expect((await state(r)).message_count).toBe(0);

    const tree = (await r.call({ type: "session_tree" })).data;
    expect(tree.problems).toEqual([]);
    expect(tree.roots).toHaveLength(1);
    expect(tree.roots[0]).toMatchObject({ id: parentId, messages: 4, current: false });
    expect(tree.roots[0].children).toHaveLength(1);
    expect(tree.roots[0].children[0]).toMatchObject({ id: fork.data.id, parent: parentId, fork_point: 1, messages: 2, children: [] });

    for (const [frame, error] of [
      [{ type: "fork_session", session: parentId, at: 3 }, 'fork_session: "at" must be a user turn from 1 to 2'],
      [{ type: "fork_session", session: parentId, at: 0 }, 'fork_session: field "at": at must be a user turn, 1 or more'],
      [{ type: "fork_session", session: "nope" }, 'fork_session: no session "nope"'],
      [{ type: "fork_session" }, 'fork_session: this process records no session, so name one with "session"'],
    ] as const) {
      const answer = await r.call(frame);
      expect(answer.success).toBe(false);
      expect(answer.error).toStartWith(error);
    }
    expect(p.files()).toHaveLength(2);
  });

  test("fork_session while recording: the fork becomes this process's session, the parent is untouched", async () => {
    const p = place([{ text: "One." }, { text: "Two." }, { text: "Branch." }]);
    const r = p.rpc(["--session", "new"]);
    const nothingYet = await r.call({ type: "fork_session" });
    expect(nothingYet.error).toMatch(/^fork_session: this process's session \S+ has nothing recorded yet; send a prompt first$/);
    await r.prompt("turn one");
    await r.prompt("turn two");
    const parent = (await state(r)).session;
    const parentBytes = readFileSync(parent.file);

    const fork = (await r.call({ type: "fork_session", at: 1 })).data;
    expect(fork).toMatchObject({ parent: parent.id, at: 1, turns: 2, messages: 2, switched: true });
    expect((await state(r)).session).toEqual({ id: fork.id, file: fork.file, resumed: true });
    expect(texts((await r.call({ type: "get_messages" })).data.messages)).toEqual(["turn one", "One."]);
    expect(existsSync(lockPathOf(parent.file))).toBe(false);

    await r.prompt("another way");
    expect(sentToModel(p.mock)).toEqual(["turn one", "One.", "another way"]);
    expect(readFileSync(parent.file)).toEqual(parentBytes);
    expect(readFileSync(fork.file, "utf8")).toContain("another way");
    expect(await r.close()).toBe(0);
  });

  test("export_session and import_session: a portable file with the paths stripped, imported under a fresh id", async () => {
    const p = place([{ text: "Listed." }]);
    const r = p.rpc(["--session", "new"]);
    await r.prompt(`look at ${p.cwd}/src`);
    const mine = (await state(r)).session;

    const exported = await r.call({ type: "export_session", path: "out/copy" });
    expect(exported.success).toBe(false);
    expect(exported.error).toStartWith("export_session: could not write");
    const done = (await r.call({ type: "export_session", path: "copy" })).data;
    expect(done).toEqual({ file: join(p.cwd, "copy.zotsession"), problems: [] });
    const text = readFileSync(done.file, "utf8");
    expect(text).toContain("look at <zot:cwd>/src");
    expect(text).not.toContain(p.cwd);
    const again = await r.call({ type: "export_session", path: "copy.zotsession" });
    // In the words of the protocol, not the command line's.
    expect(again.error).toBe(`export_session: ${done.file} already exists; send "force": true to overwrite it, or name another file`);
    expect((await r.call({ type: "export_session", path: "copy", force: true })).success).toBe(true);
    const noPath = await r.call({ type: "export_session" });
    expect(noPath.error).toBe('export_session: field "path": this field is required');

    const unimported = await r.call({ type: "resume_session", session: done.file });
    expect(unimported.error).toContain(`import it first: import_session {"path": ${JSON.stringify(done.file)}}`);
    const imported = (await r.call({ type: "import_session", path: "copy.zotsession" })).data;
    expect(imported).toEqual({ id: expect.any(String), file: expect.any(String), problems: [] });
    expect(imported.id).not.toBe(mine.id);
    expect(readFileSync(imported.file, "utf8")).toContain(`look at ${p.cwd}/src`);
    const ids = (await r.call({ type: "list_sessions" })).data.sessions.map((s: any) => s.id);
    expect(ids.sort()).toEqual([mine.id, imported.id].sort());
    const missing = await r.call({ type: "import_session", path: "nowhere.zotsession" });
    expect(missing.error).toBe(`import_session: no session file ${join(p.cwd, "nowhere.zotsession")}`);
    expect((await state(r)).session.id).toBe(mine.id);
  });

  test("resume_session of its own session, with $ZOT_HOME behind a link: the session already, not one in use by another zot", async () => {
    const p = place([{ text: "Blue." }]);
    await p.print("favourite colour?");
    const link = join(tempDir("zot-rpcsess-link-"), "home");
    symlinkSync(p.home, link);
    const r = fixture.start([], ["--no-ext", "-c"], { home: link, cwd: p.cwd });
    const { id } = (await state(r)).session;
    const same = await r.call({ type: "resume_session", session: id });
    expect(same.error).toBeUndefined();
    expect(same.data.notes).toEqual([`session ${id} is this process's session already`]);
    expect(await r.close()).toBe(0);
  });

  test("resume_session: the transcript, model and usage become that session's, and it is recorded from then on", async () => {
    const p = place([{ text: "Blue.", usage: { input: 500, output: 50 } }, { text: "Scratch." }, { text: "Still blue." }]);
    await p.print("favourite colour?", ["--model", "claude-haiku-4-5"]);
    const [file] = p.files();
    const id = file!.split("/").at(-1)!.replace(".jsonl", "");
    const r = p.rpc(["--session", "new"]);
    await r.prompt("scratch work");
    const scratch = (await state(r)).session;

    const resumed = await r.call({ type: "resume_session", session: id });
    expect(resumed.data).toMatchObject({
      session: { id, file, resumed: true },
      provider: "anthropic",
      model: "claude-haiku-4-5",
      message_count: 2,
      notes: [],
    });
    expect(resumed.data.usage.input).toBe(500);
    expect(existsSync(lockPathOf(scratch.file))).toBe(false);
    expect(existsSync(lockPathOf(file!))).toBe(true);
    expect(await state(r)).toMatchObject({ model: "claude-haiku-4-5", message_count: 2, session: { id } });
    await r.prompt("and now?");
    expect(p.mock.requests.at(-1)!.body.model).toBe("claude-haiku-4-5");
    expect(sentToModel(p.mock)).toEqual(["favourite colour?", "Blue.", "and now?"]);
    expect(readFileSync(file!, "utf8")).toContain("and now?");
    expect(readFileSync(scratch.file, "utf8")).not.toContain("and now?");

    const same = await r.call({ type: "resume_session", session: id });
    expect(same.data.notes).toEqual([`session ${id} is this process's session already`]);
    expect(same.data.message_count).toBe(4);
    const unknown = await r.call({ type: "resume_session", session: "nope" });
    expect(unknown.error).toStartWith('resume_session: no session "nope"');
    const none = await r.call({ type: "resume_session" });
    expect(none.error).toBe('resume_session: field "session": this field is required');
    expect(await r.close()).toBe(0);
    expect(existsSync(lockPathOf(file!))).toBe(false);
  });

  test("set_model, resume_session and a prompt sent back to back are done in order: the prompt continues the resumed session", async () => {
    const p = place([{ text: "Blue." }, { text: "Still blue." }]);
    await p.print("favourite colour?");
    const [file] = p.files();
    const id = file!.split("/").at(-1)!.replace(".jsonl", "");
    const r = p.rpc();
    const from = r.lines.length;
    const frames = [
      { type: "set_model", model: "claude-haiku-4-5", id: "m" },
      { type: "resume_session", session: id, id: "s" },
      { type: "prompt", message: "and now?", id: "p" },
    ];
    // One write: the resume and the prompt reach zot before the switch can have answered.
    r.write(frames.map((frame) => `${JSON.stringify(frame)}\n`).join(""));
    await r.eventsUntilDone(from);
    const responses = r.lines.slice(from).filter((l) => l.type === "response");
    expect(responses.map((l) => [l.id, l.success])).toEqual([["m", true], ["s", true], ["p", true]]);
    expect(sentToModel(p.mock)).toEqual(["favourite colour?", "Blue.", "and now?"]);
    expect(readFileSync(file!, "utf8")).toContain("and now?");
    expect(await r.close()).toBe(0);
  });

  test("clear while recording starts a new session, as the TUI's /clear and Claude Code's: the old one keeps its conversation; a prompt sent right after goes into the new one; zot -p -c /clear does the same", async () => {
    const p = place([{ text: "Noted." }, { text: "Fresh." }, { text: "Again." }]);
    const r = p.rpc(["--session", "new"]);
    await r.prompt("the important design discussion");
    const before = (await state(r)).session;
    const from = r.lines.length;
    // One write: the prompt reaches zot before the switch can have answered.
    r.write([{ type: "clear", id: "c" }, { type: "prompt", message: "a new topic", id: "p" }].map((frame) => `${JSON.stringify(frame)}\n`).join(""));
    await r.eventsUntilDone(from);
    const after = (await state(r)).session;
    expect(after.id).not.toBe(before.id);
    expect(sentToModel(p.mock)).toEqual(["a new topic"]);
    expect(await r.close()).toBe(0);
    expect(texts(recordedMessages(before.file))).toEqual(["the important design discussion", "Noted."]);
    expect(readFileSync(before.file, "utf8")).not.toContain('"rewind"');
    expect(texts(recordedMessages(after.file))).toEqual(["a new topic", "Fresh."]);

    // The same through a prompt: the conversation -c continued stays whole in its session.
    const newest = after.file;
    const cleared = await zot(["-p", "-c", "/clear", ...anthropicMock(p.mock.url), "--no-ext"], { home: p.home, cwd: p.cwd });
    expect(cleared.code).toBe(0);
    expect(readFileSync(newest, "utf8")).not.toContain('"rewind"');
    expect(texts(recordedMessages(newest))).toEqual(["a new topic", "Fresh."]);
    // The next -c goes on from the cleared (empty) conversation, not the one before the clear.
    const fresh = await zot(["-p", "-c", "start over", ...anthropicMock(p.mock.url), "--no-ext"], { home: p.home, cwd: p.cwd });
    expect(fresh.code).toBe(0);
    expect(sentToModel(p.mock)).toEqual(["start over"]);
  });

  test("without --session, resume_session starts recording into the resumed session", async () => {
    const p = place([{ text: "Hi." }, { text: "Again." }]);
    await p.print("first");
    const [file] = p.files();
    const r = p.rpc();
    const { data } = await r.call({ type: "resume_session", session: file });
    expect(data.session).toEqual({ id: expect.any(String), file, resumed: true });
    await r.prompt("second");
    expect(await r.close()).toBe(0);
    expect(readFileSync(file!, "utf8")).toContain("second");
    expect(p.files()).toHaveLength(1);
  });

  test("while a turn runs: resume_session and a switching fork are refused; list, tree and export are answered", async () => {
    const p = place([{ text: "Saved." }, SLOW]);
    await p.print("keep me");
    const [other] = p.files();
    const r = p.rpc(["--session", "new"]);
    const from = r.lines.length;
    await r.call({ type: "prompt", message: "talk" });
    await r.waitFor((l) => l.type === "text_delta", from, "the first text_delta");
    for (const frame of [
      { type: "resume_session", session: other },
      { type: "fork_session", session: other },
    ]) {
      const refused = await r.call(frame);
      expect(refused.success).toBe(false);
      expect(refused.error).toStartWith("agent is busy: cannot ");
      expect(refused.error).toContain("send abort or wait for done");
    }
    expect((await r.call({ type: "list_sessions" })).success).toBe(true);
    expect((await r.call({ type: "session_tree" })).success).toBe(true);
    expect((await r.call({ type: "export_session", session: other, path: "while-busy" })).success).toBe(true);
    expect((await state(r)).session.resumed).toBe(false);
    await r.call({ type: "abort" });
    await r.eventsUntilDone(from);
    expect((await r.call({ type: "resume_session", session: other })).success).toBe(true);
  });
});

test("--schema covers the session commands and get_state's session", async () => {
  const doc = JSON.parse((await zot(["rpc", "--schema"])).stdout);
  for (const type of ["list_sessions", "session_tree", "fork_session", "export_session", "import_session", "resume_session"]) {
    expect(RPC_COMMAND_TYPES).toContain(type as any);
    expect(doc.commands[type].properties.type).toEqual({ const: type });
    expect(doc.responses.data[type]).toBeDefined();
  }
  expect(doc.commands.resume_session.required).toEqual(["type", "session"]);
  expect(doc.commands.export_session.required).toEqual(["type", "path"]);
  expect(doc.responses.data.get_state.required).toContain("session");
  const tree = doc.responses.data.session_tree;
  const node = tree.properties.roots.items;
  const ref = node.$ref ?? node.properties.children.items.$ref;
  expect(ref).toMatch(/^#\/\$defs\//);
  expect(tree.$defs[ref.split("/").at(-1)].properties.children.items.$ref).toBe(ref);
});
