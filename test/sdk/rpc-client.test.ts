// The RPC client (ZotRpcClient) driving the compiled binary's `zot rpc` against the mock LLM:
// hello, prompts with their events and answer, calls while a turn streams, a queued prompt,
// abort, refusals as RpcError, a dying process, the token, run_command, compaction.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import { type AgentEvent, RpcError, type SpawnOptions, ZotExitError, ZotRpcClient } from "../../src/sdk/rpc-client.ts";
import { scriptedExtension } from "../fixtures/extensions/make.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { cleanEnv, tempDir, ZOT } from "../support/zot.ts";

let mock: MockLlm | undefined;
let client: ZotRpcClient | undefined;
afterEach(async () => {
  await client?.close();
  await mock?.stop();
  client = undefined;
  mock = undefined;
});

const SLOW: ScriptTurn = { text: "one two three four five six seven eight nine ten ".repeat(5), chunk_size: 4, chunk_delay_ms: 15 };

async function connect(turns: ScriptTurn[], options: SpawnOptions & { home?: string } = {}): Promise<ZotRpcClient> {
  mock = startMockLlm(turns);
  const home = options.home ?? tempDir("zot-rpc-home-");
  client = await ZotRpcClient.spawn({
    zot: ZOT,
    cwd: options.cwd ?? tempDir("zot-rpc-cwd-"),
    env: cleanEnv(home),
    token: options.token,
    // No tools, unless the test names some.
    args: ["--provider", "anthropic", "--api-key", "sk-rpc", "--base-url", mock.url, ...(options.args?.includes("--tools") ? [] : ["--no-tools"]), ...(options.args ?? [])],
  });
  return client;
}

/** Resolves at the first event of `type` that the client sees. */
function firstEvent(c: ZotRpcClient, type: AgentEvent["type"]): Promise<AgentEvent> {
  return new Promise((resolve) => {
    const off = c.onEvent((event) => {
      if (event.type !== type) return;
      off();
      resolve(event);
    });
  });
}

describe("ZotRpcClient", () => {
  test("spawn says hello: the protocol version, zot's version, provider and model", async () => {
    const c = await connect([]);
    const { version } = JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "package.json"), "utf8"));
    expect(c.info).toEqual({ protocol_version: 1, version, provider: "anthropic", model: "claude-sonnet-5-5" });
    await c.ping();
  });

  test("prompt resolves after done with the turn's events and the answer -p would print", async () => {
    const c = await connect([{ text: "Hello over the pipe, in pieces.", usage: { input: 30, output: 8 } }]);
    const seen: AgentEvent[] = [];
    const everything = c.events()[Symbol.asyncIterator]();
    const result = await c.prompt("hi", { onEvent: (event) => seen.push(event) });
    expect(result.outcome).toBe("ok");
    expect(result.text).toBe("Hello over the pipe, in pieces.");
    expect(result.events).toEqual(seen);
    expect(result.events.map((e) => e.type).filter((t) => t !== "text_delta")).toEqual([
      "user_message",
      "turn_start",
      "assistant_start",
      "usage",
      "assistant_message",
      "turn_end",
      "done",
    ]);
    const deltas = result.events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Hello over the pipe, in pieces.");
    // events() saw the same stream.
    for (const event of result.events) expect((await everything.next()).value).toEqual(event);
    expect(mock!.requests[0].body.messages[0].content.at(-1).text).toBe("hi");
  });

  test("other commands answer while a turn streams; the turn's events are not disturbed", async () => {
    const c = await connect([SLOW]);
    const running = c.prompt("talk slowly");
    await firstEvent(c, "text_delta");
    const [state, models] = await Promise.all([c.getState(), c.getModels(), c.ping()]);
    expect(state).toMatchObject({ provider: "anthropic", model: "claude-sonnet-5-5", busy: true, queued: 0 });
    expect(models.some((m) => m.id === "claude-haiku-4-5" && m.provider === "anthropic")).toBe(true);
    const result = await running;
    expect(result.text).toBe(SLOW.text!);
    expect(result.events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : [])).join("")).toBe(SLOW.text!);
    expect(result.events.at(-1)).toEqual({ type: "done" });
    expect((await c.getState()).busy).toBe(false);
  });

  test("a second prompt waits its turn; each result holds only its own events", async () => {
    const c = await connect([{ ...SLOW, text: "first answer", chunk_size: 2 }, { text: "second answer" }]);
    const first = c.prompt("one");
    const second = c.prompt("two");
    await firstEvent(c, "text_delta");
    expect((await c.getState()).queued).toBe(1);
    const [a, b] = await Promise.all([first, second]);
    expect([a.text, b.text]).toEqual(["first answer", "second answer"]);
    expect(a.events.filter((e) => e.type === "user_message")).toHaveLength(1);
    expect(b.events.filter((e) => e.type === "user_message")).toHaveLength(1);
    expect(b.events[0]).toMatchObject({ type: "user_message", content: [{ type: "text", text: "two" }] });
  });

  test("abort mid-stream: turn_end aborted, then done; the outcome says aborted", async () => {
    const c = await connect([SLOW, { text: "after the abort" }]);
    const running = c.prompt("go on and on");
    await firstEvent(c, "text_delta");
    await c.abort();
    const result = await running;
    expect(result.outcome).toBe("aborted");
    expect(result.events.slice(-2)).toEqual([{ type: "turn_end", stop: "aborted" }, { type: "done" }]);
    // The process goes on.
    expect((await c.prompt("again")).text).toBe("after the abort");
  });

  test("abort while the model's tools run: each call's tool_result, cancelled, then done; the outcome says aborted", async () => {
    const c = await connect(
      [{ tool_calls: [{ name: "bash", args: { command: "sleep 20" } }, { name: "bash", args: { command: "echo never" } }] }, { text: "after the abort" }],
      { args: ["--tools", "bash"] },
    );
    const running = c.prompt("run them");
    await firstEvent(c, "tool_call");
    await Bun.sleep(200);
    await c.abort();
    const result = await running;
    expect(result.outcome).toBe("aborted");
    const results = result.events.filter((e) => e.type === "tool_result");
    expect(results.map((e) => [e.type === "tool_result" && e.status, e.type === "tool_result" && e.is_error])).toEqual([
      ["cancelled", true],
      ["cancelled", true],
    ]);
    expect(result.events.at(-1)).toEqual({ type: "done" });
    expect((await c.prompt("again")).text).toBe("after the abort");
  });

  test("a provider error ends the turn with outcome error and the provider's words", async () => {
    const c = await connect([{ error: { message: "the mock is overloaded", status: 400 } }]);
    const result = await c.prompt("hi");
    expect(result.outcome).toBe("error");
    expect(result.error).toContain("the mock is overloaded");
    expect(result.events.at(-1)).toEqual({ type: "done" });
  });

  test("refusals reject with RpcError naming the command; the process goes on", async () => {
    const c = await connect([SLOW]);
    const wrongProvider = await c.setModel("gpt-4.1").catch((error) => error);
    expect(wrongProvider).toBeInstanceOf(RpcError);
    expect(wrongProvider.command).toBe("set_model");
    expect(wrongProvider.message).toContain("gpt-4.1");

    const running = c.prompt("slow");
    await firstEvent(c, "text_delta");
    const busy = await c.clear().catch((error) => error);
    expect(busy).toBeInstanceOf(RpcError);
    expect(busy.command).toBe("clear");
    await c.abort();
    await running;

    const unknown = await c.runCommand("no-such-command").catch((error) => error);
    expect(unknown).toBeInstanceOf(RpcError);
    expect(unknown.command).toBe("run_command");

    expect(await c.setModel("claude-haiku-4-5")).toBe("claude-haiku-4-5");
    expect((await c.getState()).model).toBe("claude-haiku-4-5");
  });

  test("a prompt too big for one line (over 16 MiB) rejects with zot's reason instead of waiting forever; the next works", async () => {
    const c = await connect([{ text: "small one" }]);
    const huge = await c.prompt("x".repeat(17 * 1024 * 1024)).catch((error) => error);
    expect(huge).toBeInstanceOf(RpcError);
    expect(huge.command).toBe("prompt");
    expect(huge.message).toContain("over the limit");
    expect((await c.prompt("small")).text).toBe("small one");
  }, 20_000);

  test("messages, clear and set_model change what the next prompt sends", async () => {
    const c = await connect([{ text: "first" }, { text: "second" }]);
    await c.prompt("one");
    const messages = await c.getMessages();
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ["user", [{ type: "text", text: "one" }]],
      ["assistant", [{ type: "text", text: "first" }]],
    ]);
    await c.clear();
    expect(await c.getMessages()).toEqual([]);
    await c.setModel("claude-haiku-4-5");
    await c.prompt("two");
    expect(mock!.requests[1].body.model).toBe("claude-haiku-4-5");
    expect(mock!.requests[1].body.messages).toHaveLength(1);
  });

  test("the process dying rejects every waiting call with the exit and stderr; later calls too", async () => {
    const c = await connect([SLOW]);
    const running = c.prompt("slow");
    await firstEvent(c, "text_delta");
    process.kill(c.pid!, "SIGKILL");
    const error = await running.catch((e) => e);
    expect(error).toBeInstanceOf(ZotExitError);
    expect(error.signal).toBe("SIGKILL");
    expect(error.message).toContain("killed by SIGKILL");
    expect(await c.ping().catch((e) => e)).toBe(error);
    expect(await c.exited).toBeNull();
  });

  test("a zot that cannot start: spawn rejects with the exit code and what zot said on stderr", async () => {
    mock = startMockLlm([]);
    const home = tempDir("zot-rpc-home-");
    const error = await ZotRpcClient.spawn({ zot: ZOT, cwd: home, env: cleanEnv(home), args: ["--provider", "nope"] }).catch((e) => e);
    expect(error).toBeInstanceOf(ZotExitError);
    expect(error.code).toBe(2);
    expect(error.stderr).toContain('--provider must be one of anthropic, openai, ollama, scripted (got "nope")');
    expect(error.message).toContain('(got "nope")');
  });

  test("a binary that is not there: spawn says so and how to point at zot", async () => {
    const error = await ZotRpcClient.spawn({ zot: "/nonexistent/zot" }).catch((e) => e);
    expect(error).toBeInstanceOf(ZotExitError);
    expect(error.message).toContain("/nonexistent/zot");
    expect(error.message).toContain("ZOT_BIN");
  });

  test("token: set as ZOTCORE_RPC_TOKEN for the process and sent in hello", async () => {
    const c = await connect([{ text: "authorised" }], { token: "s3cret" });
    const environ = readFileSync(`/proc/${c.pid}/environ`, "utf8").split("\0");
    expect(environ).toContain("ZOTCORE_RPC_TOKEN=s3cret");
    // With ZOTCORE_RPC_TOKEN set, zot exits unless the first line is hello with it: it answers.
    expect((await c.prompt("hi")).text).toBe("authorised");
  });

  test("close() ends stdin: the running turn and the one queued behind it finish, then zot exits 0", async () => {
    const c = await connect([SLOW, { text: "the queued answer" }]);
    const running = c.prompt("slow");
    const queued = c.prompt("next");
    await firstEvent(c, "text_delta");
    expect(await c.close()).toBe(0);
    const result = await running;
    expect(result.outcome).toBe("ok");
    expect(result.text).toBe(SLOW.text!);
    expect((await queued).text).toBe("the queued answer");
    expect((await c.ping().catch((e) => e)).message).toContain("closed");
    client = undefined;
  });

  test("close({ abort: true }): the running turn is aborted, the queued one dropped, zot exits 130", async () => {
    const c = await connect([SLOW, { text: "never asked" }]);
    const running = c.prompt("slow");
    const queued = c.prompt("next").catch((error) => error);
    await firstEvent(c, "text_delta");
    expect(await c.close({ abort: true })).toBe(130);
    const result = await running;
    expect(result.outcome).toBe("aborted");
    expect(result.events.slice(-2)).toEqual([{ type: "turn_end", stop: "aborted" }, { type: "done" }]);
    expect(await queued).toBeInstanceOf(ZotExitError);
    expect(mock!.requests).toHaveLength(1);
    client = undefined;
  });

  test("run_command: an extension's display answer, and a prompt answer whose turn follows", async () => {
    const cwd = tempDir("zot-rpc-cwd-");
    const commands = {
      weather: { eval: "{'action': 'display', 'display': f['args'].capitalize() + ': sunny'}" },
      ask: { eval: "{'action': 'prompt', 'prompt': 'What is the weather in ' + f['args'] + '?'}" },
    };
    scriptedExtension(join(cwd, ".zot", "extensions"), "weather", {
      after_hello: Object.keys(commands).map((name) => ({ type: "register_command", name, description: `the ${name} command` })),
      commands,
    });
    // The project's extension runs for this run only: --trust (the folder is not trusted).
    const c = await connect([{ text: "Foggy in Oslo." }, { ...SLOW, text: "a slow answer" }, { text: "Rain in Bergen." }], { cwd, args: ["--trust"] });
    const listed = await c.getCommands();
    expect(listed).toContainEqual({ name: "weather", description: "the weather command", source: "extension", extension: "weather" });

    const shown = await c.runCommand("weather", "berlin");
    expect(shown).toMatchObject({ command: "weather", action: "display", text: "Berlin: sunny" });
    expect(shown.turn).toBeUndefined();

    const asked = await c.runCommand("/ask", "Oslo");
    expect(asked).toMatchObject({ command: "ask", extension: "weather", action: "prompt", text: "What is the weather in Oslo?" });
    expect(asked.turn?.text).toBe("Foggy in Oslo.");
    expect(asked.turn?.events[0]).toMatchObject({ type: "user_message", content: [{ type: "text", text: "What is the weather in Oslo?" }] });
    expect(asked.turn?.events.at(-1)).toEqual({ type: "done" });

    // Sent while a prompt streams, the command's turn waits behind it; each keeps its own events.
    const slow = c.prompt("take your time");
    await firstEvent(c, "text_delta");
    const [slowResult, bergen] = await Promise.all([slow, c.runCommand("ask", "Bergen")]);
    expect(slowResult.text).toBe("a slow answer");
    expect(bergen.turn?.text).toBe("Rain in Bergen.");
    expect(bergen.turn?.events[0]).toMatchObject({ content: [{ text: "What is the weather in Bergen?" }] });

    const reloaded = await c.reloadExtensions();
    expect(reloaded).toMatchObject({ stopped: 1, loaded: 1, ready: 1 });
  });

  test("compact resolves after done with the summary", async () => {
    const home = tempDir("zot-rpc-home-");
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { anthropic: { models: [{ id: "tiny", contextWindow: 400 }] } } }));
    const answer = (n: number): ScriptTurn => ({ text: `answer ${n}: ${"words ".repeat(50)}`, usage: { input: 10, output: 10 } });
    const c = await connect([answer(1), answer(2), answer(3), { text: "SUMMARY: three questions" }], {
      home,
      args: ["--model", "tiny", "--auto-compact", "off"],
    });
    for (const q of ["q1", "q2", "q3"]) await c.prompt(q);
    const before = (await c.getState()).message_count;
    const seen: string[] = [];
    const result = await c.compact("keep the questions", { onEvent: (event) => seen.push(event.type) });
    expect(result.outcome).toBe("ok");
    expect(result.summary).toBe("SUMMARY: three questions");
    expect(result.events.find((e) => e.type === "compact_done")).toMatchObject({ reason: "manual", messages_before: before });
    expect(seen).toEqual(result.events.map((e) => e.type));
    expect(seen.at(-1)).toBe("done");
    expect((await c.getState()).message_count).toBeLessThan(before);
    expect(JSON.stringify(mock!.requests[3].body)).toContain("keep the questions");
  });

  test("a compaction zot refuses (nothing to compact) resolves with outcome error", async () => {
    const c = await connect([{ text: "short" }]);
    await c.prompt("hi");
    const result = await c.compact();
    expect(result.outcome).toBe("error");
    expect(result.error).toContain("nothing to compact");
  });
});

describe("ZotRpcClient sessions", () => {
  test("a recording process lists, forks, exports, imports and resumes its sessions through typed methods", async () => {
    const cwd = tempDir("zot-rpc-sess-cwd-");
    const c = await connect([{ text: "First answer." }, { text: "Second answer." }], { cwd, args: ["--session", "new"] });
    await c.prompt("first question");
    await c.prompt("second question");
    const { sessions } = await c.listSessions();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ current: true, first_prompt: "first question", messages: 4 });
    const original = sessions[0].id;

    const fork = await c.forkSession({ at: 1 });
    expect(fork).toMatchObject({ parent: original, at: 1, turns: 2 });
    expect((await c.getState()).session?.id).toBe(fork.id);
    expect(await c.getMessages()).toHaveLength(2);
    const tree = await c.sessionTree();
    expect(JSON.stringify(tree)).toContain(fork.id);

    const exported = await c.exportSession(join(tempDir("zot-rpc-export-"), "shared"), { session: original });
    expect(exported.file).toEndWith(".zotsession");
    expect(readFileSync(exported.file, "utf8")).not.toContain(cwd);
    const imported = await c.importSession(exported.file);
    expect(imported.id).not.toBe(original);

    const resumed = await c.resumeSession(original);
    expect(resumed.message_count).toBe(4);
    expect((await c.getState()).session?.id).toBe(original);
    await expect(c.resumeSession("no-such-session")).rejects.toBeInstanceOf(RpcError);
  });

  test("confirm: the handler answers the calls zot asks about; a no reaches the model with its reason", async () => {
    mock = startMockLlm([
      { tool_calls: [{ id: "t1", name: "bash", args: { command: "touch yes.txt" } }, { id: "t2", name: "bash", args: { command: "touch no.txt" } }] },
      { text: "done" },
    ]);
    const home = tempDir("zot-rpc-home-");
    const cwd = tempDir("zot-rpc-cwd-");
    const asked: string[] = [];
    client = await ZotRpcClient.spawn({
      zot: ZOT,
      cwd,
      env: cleanEnv(home),
      args: ["--provider", "anthropic", "--api-key", "sk-rpc", "--base-url", mock.url, "--no-yolo"],
      confirm: (request) => {
        asked.push(request.preview);
        return request.preview === "touch yes.txt" ? { answer: "yes" } : { answer: "no", reason: "only the first" };
      },
    });
    expect(client.info.confirm).toBe(true);
    const turn = await client.prompt("make them");
    expect(asked).toEqual(["touch yes.txt", "touch no.txt"]);
    const results = turn.events.filter((e) => e.type === "tool_result");
    expect(results.map((e) => e.type === "tool_result" && [e.id, e.is_error])).toEqual([["t1", false], ["t2", true]]);
    expect(JSON.stringify(mock.requests[1].body.messages.at(-1))).toContain("the user declined: only the first");
    expect(readFileSync(join(cwd, "yes.txt"), "utf8")).toBe("");
  });
});
