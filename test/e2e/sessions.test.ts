// Sessions as a user meets them, through the compiled binary and the mock LLM: every -p/--json run
// is recorded; -c, --session and -r resume it with its transcript, model and cost; a damaged or
// interrupted session still resumes; a session in use by another zot is never written twice.
import { afterEach, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionDir } from "../../src/session/paths.ts";
import { eventually, scriptedExtension } from "../fixtures/extensions/make.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { trustDir } from "../support/trust.ts";
import { cleanEnv, ndjson, tempDir, ZOT, zot } from "../support/zot.ts";

let mock: MockLlm;
afterEach(() => mock?.stop());

const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];

/** A home and a working directory, and zot run in them. */
function place() {
  const home = tempDir("zot-sess-home-");
  const cwd = tempDir("zot-sess-cwd-");
  return { home, cwd, run: (args: string[], stdin?: string) => zot(args, { home, cwd, stdin }) };
}

function sessionFiles(home: string, cwd: string): string[] {
  const dir = sessionDir(home, cwd);
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".jsonl")).map((f) => join(dir, f)) : [];
}

const texts = (body: any): string[] =>
  body.messages.flatMap((m: any) => (typeof m.content === "string" ? [m.content] : m.content.filter((b: any) => b.type === "text").map((b: any) => b.text)));

describe("resuming", () => {
  test("-c resumes the newest session: the transcript goes back to the model, on the model it ended on", async () => {
    const { home, cwd, run } = place();
    mock = startMockLlm([{ text: "Paris." }, { text: "About 2.1 million." }]);
    const first = await run(["-p", "capital of France?", ...anthropic(mock), "--model", "claude-opus-4-5"]);
    expect(first.code).toBe(0);
    expect(sessionFiles(home, cwd)).toHaveLength(1);

    // Neither --provider nor --model: both come from the session (the original forgot the model).
    const second = await run(["-p", "-c", "how many people live there?", "--api-key", "k", "--base-url", mock.url]);
    expect(second.stderr).toBe("");
    expect(second.stdout).toBe("About 2.1 million.\n");
    expect(mock.requests[1]!.body.model).toBe("claude-opus-4-5");
    expect(texts(mock.requests[1]!.body)).toEqual(["capital of France?", "Paris.", "how many people live there?"]);
    expect(sessionFiles(home, cwd)).toHaveLength(1);
  });

  test("an explicit --model wins over the session's; --provider naming another provider takes that provider's default", async () => {
    const { run } = place();
    mock = startMockLlm([{ text: "one" }, { text: "two" }, { text: "three" }]);
    await run(["-p", "hi", ...anthropic(mock), "--model", "claude-opus-4-5"]);
    await run(["-p", "-c", "again", ...anthropic(mock), "--model", "claude-sonnet-4-5"]);
    expect(mock.requests[1]!.body.model).toBe("claude-sonnet-4-5");
    const third = await run(["-p", "-c", "once more", "--provider", "openai", "--api-key", "k", "--base-url", `${mock.url}/v1`]);
    expect(third.code).toBe(0);
    expect(mock.requests[2]!.path).toBe("/v1/responses");
    // the switch to sonnet was recorded, and the openai run sees the whole transcript
    expect(mock.requests[2]!.body.input.filter((i: any) => i.role === "user")).toHaveLength(3);
  });

  test("--json on resume: the cumulative usage and cost go on from where the session left them", async () => {
    const { run } = place();
    const usage = { input: 1000, output: 100, cache_read: 0, cache_write: 0 };
    mock = startMockLlm([{ text: "a", usage }, { text: "b", usage }]);
    await run(["--json", "one", ...anthropic(mock), "--model", "claude-sonnet-4-5"]);
    const second = await run(["--json", "-c", "two", ...anthropic(mock)]);
    const event = ndjson(second.stdout).find((e) => e.type === "usage");
    expect(event.cumulative.input).toBe(2000);
    expect(event.cumulative.output).toBe(200);
    // claude-sonnet-4-5: $3 in, $15 out per million, twice
    expect(event.cumulative.cost_usd).toBeCloseTo(2 * (1000 * 3 + 100 * 15) / 1e6, 12);
  });

  test("--session takes an id, a unique start of one, or a path; a session of another directory says where it belongs", async () => {
    const { home, cwd, run } = place();
    mock = startMockLlm([{ text: "first" }, { text: "by id" }, { text: "by path" }]);
    await run(["-p", "start", ...anthropic(mock)]);
    const [file] = sessionFiles(home, cwd);
    const id = file!.split("/").at(-1)!.replace(".jsonl", "");
    expect((await run(["-p", "--session", id.slice(0, 20), "by id?", ...anthropic(mock)])).stdout).toBe("by id\n");
    expect((await run(["-p", "--session", file!, "by path?", ...anthropic(mock)])).stdout).toBe("by path\n");
    expect(texts(mock.requests[2]!.body)).toEqual(["start", "first", "by id?", "by id", "by path?"]);

    const other = await zot(["-p", "--session", id, "hi", ...anthropic(mock)], { home, cwd: tempDir("zot-sess-other-") });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`session ${id} belongs to ${cwd}; run zot there, or pass --cwd ${cwd}`);
  });

  test("--cwd through a link and a shell in the link are one folder: one set of sessions", async () => {
    const home = tempDir("zot-sess-home-");
    const real = tempDir("zot-sess-real-");
    const link = join(tempDir("zot-sess-links-"), "link");
    symlinkSync(real, link);
    const script = join(real, "s.json");
    writeFileSync(script, JSON.stringify([{ text: "first" }, { text: "second" }]));
    const first = await zot(["-p", "hello", "--cwd", link, "--provider", "scripted", "--script", script], { home, cwd: tempDir("zot-sess-elsewhere-") });
    expect(first.code).toBe(0);
    const listed = await zot(["sessions", "list", "--json"], { home, cwd: link });
    const [session] = JSON.parse(listed.stdout);
    expect(session?.cwd).toBe(realpathSync(real));
    const resumed = await zot(["-p", "again", "--session", session.id, "--provider", "scripted", "--script", script], { home, cwd: link });
    expect([resumed.code, resumed.stderr]).toEqual([0, expect.not.stringContaining("belongs to")]);
  });

  test("-c with no earlier session starts a new one and says so", async () => {
    const { home, cwd, run } = place();
    mock = startMockLlm([{ text: "fresh" }]);
    const result = await run(["-p", "-c", "hi", ...anthropic(mock)]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`zot: no earlier session in ${cwd}; starting a new one\n`);
    expect(sessionFiles(home, cwd)).toHaveLength(1);
  });

  test("--no-session neither reads nor writes one", async () => {
    const { home, cwd, run } = place();
    mock = startMockLlm([{ text: "one" }, { text: "two" }]);
    await run(["-p", "remember 42", ...anthropic(mock)]);
    const result = await run(["-p", "--no-session", "what number?", ...anthropic(mock)]);
    expect(result.code).toBe(0);
    expect(texts(mock.requests[1]!.body)).toEqual(["what number?"]);
    expect(sessionFiles(home, cwd)).toHaveLength(1);
    expect(readFileSync(sessionFiles(home, cwd)[0]!, "utf8")).not.toContain("what number?");
  });
});

describe("what is named like a session and is not one", () => {
  test("a named pipe or a link to /dev/zero among the sessions is passed over by the list and -c, and named by -r", async () => {
    const { home, cwd, run } = place();
    const script = join(tempDir("zot-sess-script-"), "turns.json");
    writeFileSync(script, JSON.stringify([{ text: "first" }, { text: "again" }]));
    expect((await run(["-p", "one", "--provider", "scripted", "--script", script])).code).toBe(0);
    const dir = sessionDir(home, cwd);
    Bun.spawnSync(["mkfifo", join(dir, "20991231-235959-deadbeef.jsonl")]);
    symlinkSync("/dev/zero", join(dir, "20991231-235958-deadbeef.jsonl"));
    const list = await run(["sessions", "list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('"one"');
    expect(list.stdout).not.toContain("deadbeef");
    const resumed = await run(["-c", "-p", "two", "--provider", "scripted", "--script", script]);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).not.toContain("deadbeef");
    const named = await run(["-r", "20991231-235959-deadbeef", "-p", "x", "--provider", "scripted"]);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain("20991231-235959-deadbeef.jsonl is not a session file: it is a named pipe, not a regular file");
  });
});

describe("bad input gets a clear error and changes nothing", () => {
  test.each([
    [["--no-session", "-c"], "--no-session and --continue cannot be used together"],
    [["--no-session", "--session", "x"], "--no-session and --session cannot be used together"],
    [["-c", "-r"], "--continue and --resume cannot be used together"],
    [["-c", "--session", "x"], "--continue and --session cannot be used together"],
    [["--session", ""], "--session needs an id"],
    [["--session", "no-such-id"], 'no session "no-such-id"'],
    [["--session", "/nowhere/at/all.jsonl"], "no session file /nowhere/at/all.jsonl"],
    // -r <something shaped as an id or a session file>: that session, or this error; never the prompt.
    [["-r", "20261127-9999"], 'no session "20261127-9999" in'],
    [["-r", "./no-such.jsonl"], "/no-such.jsonl; `zot sessions list` shows this directory's sessions"],
  ])("%p", async (flags, message) => {
    const { home, cwd, run } = place();
    const result = await run(["-p", "hi", "--provider", "scripted", ...flags]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(sessionFiles(home, cwd)).toHaveLength(0);
  });

  test("-p -r <a session that is not there> with no prompt says the session is not there, not that the prompt is missing", async () => {
    const { run } = place();
    for (const [ref, message] of [
      ["20261127-9999", 'no session "20261127-9999" in'],
      ["./no-such.jsonl", "/no-such.jsonl; `zot sessions list` shows this directory's sessions"],
    ]) {
      const result = await run(["-p", "--provider", "scripted", "-r", ref!]);
      expect([ref, result.code]).toEqual([ref, 2]);
      expect(result.stderr).toContain(message!);
      expect(result.stderr).not.toContain("no prompt");
    }
  });
});

describe("damage and interruption", () => {
  test("a session cut off mid-record resumes with every whole record; the damage is reported and repaired", async () => {
    const { home, cwd, run } = place();
    mock = startMockLlm([{ text: "one" }, { text: "two" }]);
    await run(["-p", "first", ...anthropic(mock)]);
    const [file] = sessionFiles(home, cwd);
    appendFileSync(file!, '{"type":"message","message":{"role":"user","content":[{"type":"te');
    const result = await run(["-p", "-c", "second", ...anthropic(mock)]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/the last record was cut off mid-write \(\d+ bytes\); it was dropped/);
    expect(texts(mock.requests[1]!.body)).toEqual(["first", "one", "second"]);
    const again = await run(["sessions", "show", file!]);
    expect(again.stdout).not.toContain("damage");
  });

  test("-c passes over a newer file that is not a session, says so, and resumes the newest real one", async () => {
    const { home, cwd, run } = place();
    mock = startMockLlm([{ text: "one" }, { text: "two" }]);
    await run(["-p", "first", ...anthropic(mock)]);
    const junk = join(sessionDir(home, cwd), "29991231-235959-ffffffff.jsonl");
    await Bun.write(junk, "not a session\n");
    const result = await run(["-p", "-c", "second", ...anthropic(mock)]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`zot: ${junk} is not a zot session: its first line is not JSON; skipped\n`);
    expect(texts(mock.requests[1]!.body)).toEqual(["first", "one", "second"]);
    expect(readFileSync(junk, "utf8")).toBe("not a session\n");
  });

  test("-c stops at a newest session this zot cannot open (a newer zot's) rather than go on with an older conversation", async () => {
    const { home, cwd, run } = place();
    mock = startMockLlm([{ text: "one" }, { text: "two" }]);
    await run(["-p", "last month's conversation", ...anthropic(mock)]);
    await run(["-p", "today's conversation", ...anthropic(mock)]);
    const [older, newest] = sessionFiles(home, cwd).sort();
    writeFileSync(newest!, readFileSync(newest!, "utf8").replace('"format":2', '"format":99'));
    const before = readFileSync(older!, "utf8");
    const result = await run(["-p", "-c", "fix it then", ...anthropic(mock)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`the newest session of ${cwd} cannot be opened: ${newest} was written by a newer zot`);
    expect(result.stderr).toContain("--continue stops rather than go on with an older conversation");
    expect(mock.requests).toHaveLength(2); // no model call
    expect(readFileSync(older!, "utf8")).toBe(before);
  });

  test("-c on another Claude model leaves out the first model's signed thinking (its signature is good for that model only); on the same model it goes back", async () => {
    const { run } = place();
    mock = startMockLlm([{ thinking: "sonnet's private reasoning", text: "one" }, { text: "two" }, { text: "three" }]);
    await run(["-p", "first", ...anthropic(mock), "--model", "claude-sonnet-4-5"]);
    const thinking = (body: any) => body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).filter((b: any) => b.type === "thinking");
    await run(["-p", "-c", "second", ...anthropic(mock), "--model", "claude-sonnet-4-5"]);
    expect(thinking(mock.requests[1]!.body)).toEqual([{ type: "thinking", thinking: "sonnet's private reasoning", signature: "mocksig_1" }]);
    const switched = await run(["-p", "-c", "third", ...anthropic(mock), "--model", "claude-opus-4-5"]);
    expect(switched.code).toBe(0);
    expect(mock.requests[2]!.body.model).toBe("claude-opus-4-5");
    expect(thinking(mock.requests[2]!.body)).toEqual([]);
    expect(texts(mock.requests[2]!.body)).toEqual(["first", "one", "second", "two", "third"]);
  });

  test("a session of a folder that moved opens in the new place with a note naming the import that makes it this folder's; after it, -c there finds it", async () => {
    const home = tempDir("zot-sess-home-");
    const parent = tempDir("zot-sess-move-");
    const old = join(parent, "old-name");
    const moved = join(parent, "new-name");
    mkdirSync(old);
    mock = startMockLlm([{ text: "one" }, { text: "two" }, { text: "three" }]);
    await zot(["-p", "design talk", ...anthropic(mock)], { home, cwd: old });
    const [file] = sessionFiles(home, old);
    const id = file!.split("/").at(-1)!.replace(".jsonl", "");
    renameSync(old, moved);
    const resumed = await zot(["-p", "--session", id, "go on", ...anthropic(mock)], { home, cwd: moved });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`To make it this folder's (its paths moved here, found by zot -c and zot sessions list here), once this run is over: zot sessions import ${file}`);
    const imported = await zot(["sessions", "import", file!], { home, cwd: moved });
    expect(imported.code).toBe(0);
    const again = await zot(["-p", "-c", "and now?", ...anthropic(mock)], { home, cwd: moved });
    expect(again.code).toBe(0);
    expect(texts(mock.requests[2]!.body)).toEqual(["design talk", "one", "go on", "two", "and now?"]);
  });

  test("zot killed while a tool runs: the resumed session answers the call as interrupted", async () => {
    const { home, cwd } = place();
    mock = startMockLlm([{ tool_calls: [{ id: "toolu_1", name: "bash", args: { command: "sleep 30" } }] }, { text: "ok" }]);
    const proc = Bun.spawn([ZOT, "-p", "run it", ...anthropic(mock)], { cwd, env: cleanEnv(home), stdout: "ignore", stderr: "ignore" });
    await eventually(() => sessionFiles(home, cwd).some((f) => readFileSync(f, "utf8").includes("sleep 30")), "the tool call recorded");
    proc.kill("SIGKILL");
    await proc.exited;
    const result = await zot(["-p", "-c", "what happened?", ...anthropic(mock)], { home, cwd });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("1 tool call(s) have no recorded result (zot stopped, or could not save it; the call may have finished); the model is told so");
    const toolResult = mock.requests[1]!.body.messages[2].content[0];
    expect(toolResult).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1", is_error: true });
  });

  test("zot killed after a write finished but before its sibling did: on resume the model is told the write happened", async () => {
    const { home, cwd } = place();
    mock = startMockLlm([
      {
        tool_calls: [
          { id: "toolu_w", name: "write", args: { path: "done.txt", content: "written\n" } },
          { id: "toolu_s", name: "bash", args: { command: "touch started && sleep 30" } },
        ],
      },
      { text: "ok" },
    ]);
    const proc = Bun.spawn([ZOT, "-p", "write, then wait", ...anthropic(mock)], { cwd, env: cleanEnv(home), stdout: "ignore", stderr: "ignore" });
    await eventually(() => existsSync(join(cwd, "started")), "the second call running");
    proc.kill("SIGKILL");
    await proc.exited;
    expect(readFileSync(join(cwd, "done.txt"), "utf8")).toBe("written\n");
    const result = await zot(["-p", "-c", "what happened?", ...anthropic(mock)], { home, cwd });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("1 tool call(s) have no recorded result (zot stopped, or could not save it; the call may have finished); the model is told so");
    const [write, bash] = mock.requests[1]!.body.messages[2].content;
    expect(write).toEqual({ type: "tool_result", tool_use_id: "toolu_w", content: "wrote 8 bytes to done.txt (created a new file)" });
    expect(bash).toMatchObject({ type: "tool_result", tool_use_id: "toolu_s", is_error: true });
  });
});

describe("two zot processes on one directory", () => {
  test("the second never writes the first's file: -c names the pid that holds it; a plain run starts its own", async () => {
    const { home, cwd } = place();
    mock = startMockLlm([{ text: "first, slowly", delay_ms: 2500 }, { text: "second" }]);
    const first = Bun.spawn([ZOT, "-p", "slow one", ...anthropic(mock)], { cwd, env: cleanEnv(home), stdout: "pipe", stderr: "pipe" });
    await eventually(() => sessionFiles(home, cwd).length === 1, "the first session file");
    const [firstFile] = sessionFiles(home, cwd);

    const blocked = await zot(["-p", "-c", "me too", ...anthropic(mock)], { home, cwd });
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain(`is in use by another zot (pid ${first.pid}`);
    expect(blocked.stderr).toContain("zot sessions fork");

    const own = await zot(["-p", "my own", ...anthropic(mock)], { home, cwd });
    expect(own.stdout).toBe("second\n");
    expect(await first.exited).toBe(0);
    expect(await new Response(first.stdout).text()).toBe("first, slowly\n");

    const files = sessionFiles(home, cwd);
    expect(files).toHaveLength(2);
    const firstText = readFileSync(firstFile!, "utf8");
    expect(firstText).toContain("slow one");
    expect(firstText).not.toContain("my own");
    expect(firstText).not.toContain("me too");
    // the lock went with the first process
    expect(existsSync(`${firstFile}.lock`)).toBe(false);
  });
});

describe("--resume", () => {
  test("with no terminal to ask on, it says to pass --session or --continue", async () => {
    const setsid = Bun.which("setsid");
    if (!setsid) throw new Error("setsid (util-linux) is needed to run zot without a controlling terminal");
    const { home, cwd } = place();
    const proc = Bun.spawn([setsid, "-w", ZOT, "-p", "-r", "hi", "--provider", "scripted"], { cwd, env: cleanEnv(home), stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(2);
    expect(stderr).toContain("--resume asks which session to resume on the terminal, and there is none; pass --session <id>");
  });

  test("in a terminal: a numbered list, newest first, and the number typed picks the session", async () => {
    const { home, cwd, run } = place();
    mock = startMockLlm([{ text: "about cats" }, { text: "about dogs" }, { text: "picked" }]);
    await run(["-p", "tell me about cats", ...anthropic(mock)]);
    await Bun.sleep(20);
    await run(["-p", "tell me about dogs", ...anthropic(mock)]);
    let screen = "";
    const proc = Bun.spawn([ZOT, "-p", "-r", "more please", ...anthropic(mock)], {
      cwd,
      env: cleanEnv(home),
      terminal: { cols: 200, rows: 30, data: (_t, data) => (screen += new TextDecoder().decode(data)) },
    });
    await eventually(() => screen.includes("resume which session? [1-2]"), "the numbered list");
    expect(screen).toMatch(/1\).*"tell me about dogs"/);
    expect(screen).toMatch(/2\).*"tell me about cats"/);
    proc.terminal!.write("2\r");
    expect(await proc.exited).toBe(0);
    expect(screen).toContain("picked");
    expect(texts(mock.requests[2]!.body)).toEqual(["tell me about cats", "about cats", "more please"]);
  });
});

describe("zot sessions", () => {
  test("list and show: newest first with model, messages, cost and first prompt; show prints the transcript and the audit trail", async () => {
    const { home, cwd, run } = place();
    trustDir(home, cwd);
    scriptedExtension(join(cwd, ".zot", "extensions"), "guard", {
      after_hello: [{ type: "subscribe", intercept: ["tool_call"] }],
      intercept: { tool_call: { modified_args: { command: "echo safe" }, reason: "no deleting today" } },
    });
    mock = startMockLlm([
      { tool_calls: [{ name: "bash", args: { command: "rm -rf build" } }], usage: { input: 1000, output: 10 } },
      { text: "cleaned", usage: { input: 1000, output: 10 } },
    ]);
    const result = await run(["-p", "clean the build", ...anthropic(mock), "--model", "claude-sonnet-4-5"]);
    expect(result.code).toBe(0);

    const list = await run(["sessions", "list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^\d{8}-\d{6}-[0-9a-f]{8}  \d{4}-\d\d-\d\d \d\d:\d\d  claude-sonnet-4-5  4 msgs  \$0\.0063  "clean the build"\n$/);

    const json = JSON.parse((await run(["sessions", "list", "--json"])).stdout);
    expect(json).toHaveLength(1);
    expect(json[0]).toMatchObject({ model: "claude-sonnet-4-5", provider: "anthropic", messages: 4, first_prompt: "clean the build", cwd });

    const show = await run(["sessions", "show", json[0].id]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain("model     anthropic/claude-sonnet-4-5");
    expect(show.stdout).toContain("1 interception decision");
    expect(show.stdout).toMatch(/user #1 {3}clean the build/);
    expect(show.stdout).toMatch(/!! guard modify at tool_call: no deleting today\n {12}before {2}bash \{"command":"rm -rf build"\}\n {12}after {3}bash \{"command":"echo safe"\}/);
    expect(show.stdout).toMatch(/assistant cleaned/);
  });

  test("list and show write a prompt's and an answer's escapes as text, never to the terminal", async () => {
    const { cwd, run } = place();
    const script = join(cwd, "s.json");
    writeFileSync(script, JSON.stringify([{ text: "answer \u001b]0;TITLE\u0007with a title" }]));
    await run(["-p", "prompt \u001b]52;c;ZXZpbA==\u0007 to clip", "--provider", "scripted", "--script", script]);
    const list = await run(["sessions", "list"]);
    expect(list.stdout).toContain('"prompt  to clip"');
    expect(list.stdout).not.toContain("\u001b");
    const id = JSON.parse((await run(["sessions", "list", "--json"])).stdout)[0].id;
    const show = await run(["sessions", "show", id]);
    expect(show.stdout).toContain("with a title");
    expect(show.stdout).not.toContain("\u001b");
    expect(show.stdout).not.toContain("\u0007");
  });

  test("a session file someone else wrote: what import, show, fork and export quote from it reaches the terminal without its escapes", async () => {
    const { cwd, run } = place();
    const evil = "\u001b]0;PWNED\u0007\u001b[2J\u001b]52;c;ZXZpbA==\u0007";
    const header = { type: "session", format: 2, id: "20261127-000000-aaaaaaaa", cwd: "<zot:cwd>", created: "2026-11-27T00:00:00Z", model: "scripted", provider: "scripted", zot_version: "0.1.0" };
    const hello = { type: "message", message: { role: "user", content: [{ type: "text", text: "hello" }], time: "2026-11-27T00:00:00Z" } };
    const lines = (...records: object[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";
    writeFileSync(join(cwd, "evil.zotsession"), lines(header, { type: "message", message: { role: evil, content: [], time: "t" } }, { type: evil }, hello));
    writeFileSync(join(cwd, "evil-header.zotsession"), lines({ ...header, format: evil }));
    writeFileSync(join(cwd, "evil-id.jsonl"), lines({ ...header, id: `20261127-${evil}`, cwd }, hello));
    writeFileSync(join(cwd, "dotted-id.jsonl"), lines({ ...header, id: "../../escaped", cwd }, hello));
    const runs = [
      await run(["sessions", "import", "evil.zotsession"]),
      await run(["sessions", "show", "./evil-header.zotsession"]),
      await run(["-p", "hi", "--session", "./evil-header.zotsession", "--provider", "scripted"]),
      await run(["sessions", "fork", "./evil-id.jsonl"]),
    ];
    expect(runs[0]!.stderr).toContain("skipped");
    expect(runs[1]!.stderr).toContain("is not a zot session");
    expect(runs[3]!.stdout).toStartWith("forked 20261127- after turn 1 of 1 as ");
    for (const r of runs) expect(r.stdout + r.stderr).not.toMatch(/[\u001b\u0007]/);
    // An id that is no id names no file: the default export is session.zotsession, here.
    const exported = await run(["sessions", "export", "./dotted-id.jsonl"]);
    expect(exported.stdout).toBe(`exported to ${join(realpathSync(cwd), "session.zotsession")}\n`);
  });

  test("after a compaction, show numbers the turns as fork --at does; the summed-up prompts have no number", async () => {
    const { cwd, run } = place();
    const script = join(cwd, "s.json");
    const scripted = (...turns: object[]) => {
      writeFileSync(script, JSON.stringify(turns));
      return ["--provider", "scripted", "--script", script];
    };
    await run(["-p", "q1", ...scripted({ text: "a1" })]);
    await run(["-p", "-c", "q2", ...scripted({ text: "a2" })]);
    const compact = await run(["rpc", "-c", ...scripted({ text: "THE SUMMARY" })], '{"id":1,"type":"compact"}\n');
    expect(compact.stdout).toContain('"type":"compact_done"');
    await run(["-p", "-c", "q3", ...scripted({ text: "a3" })]);
    const id = (await run(["sessions", "list", "--json"])).stdout;
    const sessionId = JSON.parse(id)[0].id;
    const show = await run(["sessions", "show", sessionId]);
    // q1 was summed up; q2 was kept, and is turn 1 of what a resume loads.
    expect(show.stdout).toMatch(/user {6}q1\n/);
    expect(show.stdout).toMatch(/user #1 {3}q2\n/);
    expect(show.stdout).toMatch(/user #2 {3}q3\n/);
    const fork = await run(["sessions", "fork", sessionId, "--at", "1"]);
    expect(fork.code).toBe(0);
    expect(fork.stdout).toContain("after turn 1 of 2");
    const beyond = await run(["sessions", "fork", sessionId, "--at", "3"]);
    expect(beyond.code).toBe(2);
    expect(beyond.stderr).toContain("the prompts before its compaction live on only in the summary");
  });

  test("a one-shot task compacted between its tool steps has no numbered turn: fork copies all of it, and both resume alike", async () => {
    const { home, cwd, run } = place();
    for (const name of ["a", "b"]) await Bun.write(join(cwd, `${name}.txt`), `${name} line of text, long enough to be worth keeping\n`.repeat(1500));
    mock = startMockLlm([
      { tool_calls: [{ name: "read", args: { path: "a.txt" } }], usage: { input: 3_000, output: 20 } },
      // 18% of the window, over --auto-compact 10: before the next step, a compaction sums up the prompt and the first step.
      { tool_calls: [{ name: "read", args: { path: "b.txt" } }], usage: { input: 180_000, output: 20 } },
      { text: "## Goal\nsummarise a.txt and b.txt" },
      { text: "final answer" },
      { text: "parent goes on" },
      { text: "fork goes on" },
    ]);
    const task = await run(["-p", "summarise a.txt and b.txt", "--auto-compact", "10", ...anthropic(mock)]);
    expect(task.stdout).toBe("final answer\n");
    expect(JSON.stringify(mock.requests[2]!.body)).toContain("summar");
    const [parentFile] = sessionFiles(home, cwd);
    const parentBefore = readFileSync(parentFile!, "utf8");
    expect(parentBefore).toContain('"type":"compaction"');
    const parentId = parentFile!.split("/").at(-1)!.replace(".jsonl", "");
    expect((await run(["sessions", "show", parentId])).stdout).not.toContain("user #");

    const fork = await run(["sessions", "fork", parentId]);
    expect(fork.stderr).toBe("");
    expect(fork.code).toBe(0);
    expect(fork.stdout).toStartWith(`forked ${parentId} whole (it has no numbered user turn) as `);
    const forkId = /as (\S+) \(4 messages\)/.exec(fork.stdout)?.[1];
    expect(forkId).toBeDefined();
    expect(readFileSync(parentFile!, "utf8")).toBe(parentBefore);
    expect((await run(["sessions", "show", forkId!])).stdout).toContain(`forked    from ${parentId} whole (it had no numbered user turn)`);
    const at = await run(["sessions", "fork", parentId, "--at", "1"]);
    expect(at.code).toBe(2);
    expect(at.stderr).toContain("has no numbered user turn (a compaction summed up every prompt it had; zot sessions show lists them without a number): leave out the turn number to fork all of it");

    // rpc forks it too, and the fork's transcript is the parent's.
    const messagesOf = async (id: string) => {
      const out = await run(["rpc", "--session", id, ...anthropic(mock)], '{"id":1,"type":"get_messages"}\n');
      return ndjson(out.stdout).find((l) => l.command === "get_messages")!.data.messages;
    };
    const rpcFork = await run(["rpc", "--no-session", ...anthropic(mock)], `{"id":1,"type":"fork_session","session":"${parentId}"}\n`);
    expect(ndjson(rpcFork.stdout).find((l) => l.command === "fork_session")).toMatchObject({ success: true, data: { at: 0, turns: 0, messages: 4 } });
    const parentMessages = await messagesOf(parentId);
    expect(parentMessages.map((m: any) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(parentMessages[0].content[0].text).toContain("## Goal\nsummarise a.txt and b.txt");
    expect(await messagesOf(forkId!)).toEqual(parentMessages);

    // Resumed, both send the model the same conversation.
    await run(["-p", "--session", parentId, "go on", ...anthropic(mock)]);
    await run(["-p", "--session", forkId!, "go on", ...anthropic(mock)]);
    const [parentCall, forkCall] = mock.requests.slice(-2);
    expect(texts(parentCall!.body)[0]).toContain("summarise a.txt and b.txt");
    expect(forkCall!.body.messages).toEqual(parentCall!.body.messages);
  });

  test("-p prints a summary only for the /compact it was asked: an automatic compaction before a silent answer prints nothing", async () => {
    const { run } = place();
    mock = startMockLlm([
      { text: "a1" },
      { tool_calls: [{ name: "bash", args: { command: "echo hi" } }], usage: { input: 190_000, output: 10 } },
      { text: "THE SUMMARY" },
      { text: "" },
    ]);
    await run(["-p", "q1", ...anthropic(mock)]);
    // The call reports 19% of the window: before the next step, an automatic compaction.
    const silent = await run(["-p", "-c", "q2", "--auto-compact", "10", ...anthropic(mock)]);
    expect(mock.requests).toHaveLength(4);
    expect(JSON.stringify(mock.requests[3].body)).toContain("THE SUMMARY");
    expect(silent.stdout).toBe("");
    expect(silent.stderr).toContain("zot: ");
  });

  test("a look at a session with another provider (rpc get_messages, nothing prompted) records no model switch", async () => {
    const { home, cwd, run } = place();
    mock = startMockLlm([{ text: "a1" }, { text: "a2" }]);
    await run(["-p", "q1", "--provider", "openai", "--model", "gpt-4o", "--api-key", "k", "--base-url", `${mock.url}/v1`]);
    const [file] = sessionFiles(home, cwd);
    const before = readFileSync(file!, "utf8");
    const look = await run(["rpc", "-c", ...anthropic(mock)], '{"id":1,"type":"get_messages"}\n');
    expect(look.stdout).toContain('"command":"get_messages","success":true');
    expect(readFileSync(file!, "utf8")).toBe(before);
    // Prompting on it is a switch, and recorded.
    await run(["-p", "-c", "q2", ...anthropic(mock)]);
    expect(readFileSync(file!, "utf8")).toContain('"type":"model_change"');
  });

  test("/compact as the prompt of -p -c (and --json) compacts the session, guided by its words, and prints the summary", async () => {
    const { run } = place();
    mock = startMockLlm([{ text: "a1" }, { text: "a2" }, { text: "THE SUMMARY" }, { text: "a3" }, { text: "SECOND SUMMARY" }]);
    await run(["-p", "q1", ...anthropic(mock)]);
    await run(["-p", "-c", "q2", ...anthropic(mock)]);
    const compact = await run(["-p", "-c", "/compact keep the names", ...anthropic(mock)]);
    expect(compact.code).toBe(0);
    expect(compact.stdout).toContain("THE SUMMARY");
    // The summariser was asked (with the focus), not the model with "/compact" as a prompt.
    expect(JSON.stringify(mock.requests[2].body)).toContain("keep the names");
    expect(JSON.stringify(mock.requests[2].body)).not.toContain('"text":"/compact');
    await run(["-p", "-c", "q3", ...anthropic(mock)]);
    expect(texts(mock.requests[3].body)[0]).toContain("THE SUMMARY");
    const json = ndjson((await run(["--json", "-c", "/compact", ...anthropic(mock)])).stdout);
    expect(json.map((e) => e.type)).toEqual(expect.arrayContaining(["compact_start", "compact_done", "done"]));
    expect(json.some((e) => e.type === "user_message")).toBe(false);
  });

  test("text piped into -p -c /compact is what the summary should keep; piped into /clear it is refused, nothing cleared, rather than lost", async () => {
    const { home, cwd, run } = place();
    mock = startMockLlm([{ text: "a1" }, { text: "a2" }, { text: "THE SUMMARY" }, { text: "a3" }]);
    await run(["-p", "q1", ...anthropic(mock)]);
    await run(["-p", "-c", "q2", ...anthropic(mock)]);
    const compact = await run(["-p", "-c", "/compact", ...anthropic(mock)], "keep the API names\n");
    expect(compact.code).toBe(0);
    expect(compact.stdout).toContain("THE SUMMARY");
    expect(JSON.stringify(mock.requests[2].body)).toContain("keep the API names");
    const [file] = sessionFiles(home, cwd);
    const before = readFileSync(file!, "utf8");
    const clear = await run(["-p", "-c", "/clear", ...anthropic(mock)], "stray text\n");
    expect(clear.code).toBe(1);
    expect(clear.stderr).toContain("/clear takes no piped text, which would be lost; nothing was cleared");
    expect(readFileSync(file!, "utf8")).toBe(before);
    expect(mock.requests).toHaveLength(3);
  });

  test("fork --at and tree: the fork holds the first turns and resumes from there; the parent is untouched", async () => {
    const { home, cwd, run } = place();
    mock = startMockLlm([{ text: "a1" }, { text: "a2" }, { text: "a3" }, { text: "forked answer" }]);
    await run(["-p", "q1", ...anthropic(mock)]);
    await run(["-p", "-c", "q2", ...anthropic(mock)]);
    await run(["-p", "-c", "q3", ...anthropic(mock)]);
    const [parentFile] = sessionFiles(home, cwd);
    const parentBefore = readFileSync(parentFile!, "utf8");
    const parentId = parentFile!.split("/").at(-1)!.replace(".jsonl", "");

    const fork = await run(["sessions", "fork", parentId, "--at", "1"]);
    expect(fork.code).toBe(0);
    const forkId = /as (\S+) \(2 messages\)/.exec(fork.stdout)?.[1];
    expect(forkId).toBeDefined();
    // The hint leads with the TUI, not a one-shot -p.
    expect(fork.stdout).toContain(`resume it with: zot --session ${forkId} (or /sessions in zot; zot --session ${forkId} -p "…" for one prompt)`);
    expect(readFileSync(parentFile!, "utf8")).toBe(parentBefore);

    const tree = await run(["sessions", "tree"]);
    const lines = tree.stdout.trimEnd().split("\n");
    expect(lines[0]).toContain(`  ${parentId}`);
    expect(lines[1]).toMatch(new RegExp(`^\\* └─ ${forkId} \\(fork at turn 1\\)`));

    await run(["-p", "--session", forkId!, "q2 again", ...anthropic(mock)]);
    expect(texts(mock.requests[3]!.body)).toEqual(["q1", "a1", "q2 again"]);

    for (const [at, message] of [["0", "--at takes a user turn number"], ["4", "--at must be a user turn from 1 to 3"]] as const) {
      const bad = await run(["sessions", "fork", parentId, "--at", at]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain(message);
    }
  });

  test("export strips the directory and home; import re-homes it elsewhere under a fresh id, and it resumes there", async () => {
    const { home, cwd, run } = place();
    const userHome = tempDir("zot-sess-userhome-");
    mock = startMockLlm([{ tool_calls: [{ name: "read", args: { path: `${cwd}/notes.txt` } }] }, { text: `read ${cwd}/notes.txt` }, { text: "resumed" }]);
    await Bun.write(join(cwd, "notes.txt"), "hello");
    await zot(["-p", `look at ${cwd}/notes.txt and ${userHome}/.profile`, ...anthropic(mock)], { home, cwd, env: { HOME: userHome } });
    const [file] = sessionFiles(home, cwd);
    const id = file!.split("/").at(-1)!.replace(".jsonl", "");

    const exported = await zot(["sessions", "export", id, "shared"], { home, cwd, env: { HOME: userHome } });
    expect(exported.code).toBe(0);
    const exportFile = join(cwd, "shared.zotsession");
    expect(exported.stdout).toBe(`exported to ${exportFile}\n`);
    const text = readFileSync(exportFile, "utf8");
    expect(text).not.toContain(cwd);
    expect(text).not.toContain(userHome);
    expect(text).toContain("<zot:cwd>/notes.txt");
    expect(text).toContain("<zot:home>/.profile");
    const again = await zot(["sessions", "export", id, "shared"], { home, cwd });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("already exists; pass --force");

    const elsewhere = tempDir("zot-sess-elsewhere-");
    const otherHome = tempDir("zot-sess-otherhome-");
    const imported = await zot(["sessions", "import", exportFile], { home, cwd: elsewhere, env: { HOME: otherHome } });
    expect(imported.code).toBe(0);
    const newId = /imported as (\S+);/.exec(imported.stdout)?.[1];
    expect(newId).toBeDefined();
    expect(imported.stdout).toContain(`resume it with: zot --session ${newId} (or /sessions in zot;`);
    expect(newId).not.toBe(id);
    const [importedFile] = sessionFiles(home, elsewhere);
    expect(importedFile).toEndWith(`${newId}.jsonl`);
    expect(readFileSync(importedFile!, "utf8")).toContain(`${elsewhere}/notes.txt`);

    const resumed = await zot(["-p", "-c", "go on", ...anthropic(mock)], { home, cwd: elsewhere });
    expect(resumed.stdout).toBe("resumed\n");
    expect(texts(mock.requests[2]!.body)[0]).toBe(`look at ${elsewhere}/notes.txt and ${otherHome}/.profile`);
  });

  test("bad input: unknown subcommand, missing id, a file that is not a session", async () => {
    const { cwd, run } = place();
    expect((await run(["sessions", "frobnicate"])).stderr).toContain('unknown sessions subcommand "frobnicate"; valid subcommands: list, tree, show, export, import, fork');
    expect((await run(["sessions", "show"])).stderr).toContain("pass the session's id");
    await Bun.write(join(cwd, "notes.zotsession"), "just text\n");
    const imported = await run(["sessions", "import", join(cwd, "notes.zotsession")]);
    expect(imported.code).toBe(2);
    expect(imported.stderr).toContain("is not a zot session: its first line is not JSON");
    const empty = await run(["sessions", "list"]);
    expect(empty.code).toBe(0);
    expect(empty.stderr).toBe(`no sessions in ${cwd} yet; every zot run there records one (the TUI, -p and --json; not --no-session)\n`);
  });
});
