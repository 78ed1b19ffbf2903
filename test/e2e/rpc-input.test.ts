// What reaches `zot rpc` from outside, through the compiled binary: the ZOTCORE_RPC_TOKEN flow,
// floods of bad lines, an over-long line, start-up errors, `--schema`, and the `zot --rpc` alias.
import { describe, expect, test } from "bun:test";
import { AgentEvent } from "../../src/protocol/events.ts";
import { RPC_COMMAND_TYPES, RPC_MAX_LINE_BYTES } from "../../src/protocol/rpc-frames.ts";
import { type RpcProcess, rpcFixture, type Turns } from "../support/rpc-process.ts";
import { zot } from "../support/zot.ts";

const fixture = rpcFixture();
const start = (env: Record<string, string> = {}, turns: Turns = []): RpcProcess => fixture.start(turns, ["--no-ext"], { env });

describe("ZOTCORE_RPC_TOKEN", () => {
  const env = { ZOTCORE_RPC_TOKEN: "s3cret" };

  test("the right token: hello answers, then commands work", async () => {
    const r = start(env);
    const hello = await r.call({ type: "hello", token: "s3cret", id: 0 });
    expect(hello).toMatchObject({ id: 0, command: "hello", success: true, data: { protocol_version: 1, provider: "anthropic" } });
    expect((await r.call({ type: "ping" })).data).toEqual({ pong: true });
    expect(await r.close()).toBe(0);
  });

  for (const [what, frame] of [
    ["a wrong token", { type: "hello", token: "guess", id: "h" }],
    ["no token", { type: "hello", id: "h" }],
  ] as const) {
    test(`${what}: "invalid token", and the process exits 1 without running what came after`, async () => {
      const r = start(env, [{ text: "never" }]);
      r.send(frame);
      r.send({ type: "prompt", message: "sneaky", id: "p" });
      expect(await r.exited()).toBe(1);
      expect(r.lines).toHaveLength(1);
      expect(r.lines[0]).toMatchObject({ type: "response", id: "h", command: "hello", success: false });
      expect(r.lines[0].error).toStartWith("invalid token");
      expect(r.stderr).toContain("zot: rpc: invalid token");
      expect(fixture.mock.requests).toHaveLength(0);
    });
  }

  test('another command first: "auth required", exit 1', async () => {
    const r = start(env, [{ text: "never" }]);
    r.send({ type: "prompt", message: "hi", id: 5 });
    expect(await r.exited()).toBe(1);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]).toMatchObject({ type: "response", id: 5, command: "prompt", success: false });
    expect(r.lines[0].error).toStartWith("auth required: ");
    expect(fixture.mock.requests).toHaveLength(0);
  });

  test('a line that is not JSON first: "auth required", exit 1; blank lines before hello do not count', async () => {
    const r = start(env);
    r.send("");
    r.send("hello?");
    expect(await r.exited()).toBe(1);
    expect(r.lines).toEqual([{ type: "response", command: "parse", success: false, error: expect.stringMatching(/^auth required: /) }]);
  });

  test("without the variable, hello is optional", async () => {
    const r = start();
    expect((await r.call({ type: "get_state" })).success).toBe(true);
    expect((await r.call({ type: "hello", token: "anything" })).success).toBe(true);
    expect(await r.close()).toBe(0);
  });
});

describe("bad input never stops the server", () => {
  test("10,000 garbage lines are each answered, then a good command is answered", async () => {
    const r = start();
    const garbage: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      garbage.push(i % 4 === 0 ? `garbage ${i}` : i % 4 === 1 ? `{"type":"nope${i}"}` : i % 4 === 2 ? "[]" : `{"type":"prompt","message":${i}}`);
    }
    r.write(`${garbage.join("\n")}\n`);
    const good = await r.call({ type: "ping", id: "good" });
    expect(good.data).toEqual({ pong: true });
    const answers = r.lines.slice(0, -1);
    expect(answers).toHaveLength(10_000);
    expect(answers.every((a) => a.type === "response" && a.success === false)).toBe(true);
    expect(answers.slice(0, 4).map((a) => a.command)).toEqual(["parse", "nope1", "", "prompt"]);
    expect(r.lines.at(-1).id).toBe("good");
    expect(await r.close()).toBe(0);
  });

  test("an over-long line is answered with its size and the limit, skipped, and the next command works", async () => {
    const r = start();
    const size = RPC_MAX_LINE_BYTES + 1000;
    const big = Buffer.alloc(size, "a");
    big.write('{"type":"prompt","message":"', 0);
    r.write(big);
    r.write("\n");
    const good = await r.call({ type: "ping", id: "after" });
    expect(good.success).toBe(true);
    expect(r.lines).toHaveLength(2);
    // Its first bytes say it was a prompt (they hold no id, so none is echoed).
    expect(r.lines[0]).toMatchObject({ type: "response", command: "prompt", success: false });
    expect(r.lines[0].id).toBeUndefined();
    expect(r.lines[0].error).toContain(`${size} bytes`);
    expect(r.lines[0].error).toContain(`${RPC_MAX_LINE_BYTES} bytes`);
    // With its id (and type) in its first bytes, the answer names the command and echoes the id.
    const named = Buffer.alloc(size, "a");
    named.write('{"id":"big-1","type":"prompt","message":"', 0);
    r.write(named);
    r.write("\n");
    expect(await r.waitFor((line) => line.id === "big-1", 2)).toMatchObject({ line: { type: "response", command: "prompt", success: false } });
    expect(await r.close()).toBe(0);
  });
});

describe("start-up", () => {
  test("a missing key: one line on stderr, exit 2, nothing on stdout", async () => {
    const run = await zot(["rpc", "--provider", "anthropic"], { stdin: '{"type":"ping"}\n' });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toStartWith("zot: ");
    expect(run.stderr).toContain("ANTHROPIC_API_KEY");
  });

  test("a bad flag, a prompt argument, or -p: exit 2 with a sentence", async () => {
    for (const args of [["rpc", "--bogus"], ["rpc", "hello there"], ["rpc", "-p"], ["rpc", "--max-steps", "x"]]) {
      const run = await zot(args, { stdin: "" });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toStartWith("zot: ");
    }
    expect((await zot(["rpc", "hello there"], { stdin: "" })).stderr).toContain("zot rpc takes no prompt");
  });

  test("zot --rpc is zot rpc with the rest of the flags", async () => {
    const rpc = fixture.start([{ text: "Via the alias." }], ["--no-ext"], { command: "--rpc" });
    expect((await rpc.call({ type: "hello" })).data.model).toBe("claude-sonnet-5-5");
    const events = await rpc.prompt("hi");
    expect(events.find((e) => e.type === "assistant_message").content).toEqual([{ type: "text", text: "Via the alias." }]);
    expect(await rpc.close()).toBe(0);
  });

  test("zot rpc --help and zot --help name the rpc flags", async () => {
    const help = await zot(["rpc", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--schema");
    expect(help.stdout).not.toContain("--print");
    expect((await zot(["--help"])).stdout).toContain("--rpc");
  });
});

describe("--schema", () => {
  test("one JSON document: a schema for every command, both envelopes, data per command, every event type", async () => {
    for (const args of [["rpc", "--schema"], ["--rpc", "--schema"]]) {
      const run = await zot(args);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("");
      const doc = JSON.parse(run.stdout);
      expect(doc.protocol_version).toBe(1);
      expect(Object.keys(doc.commands).sort()).toEqual([...RPC_COMMAND_TYPES].sort());
      const eventTypes = AgentEvent.options.map((o) => o.entries.type.literal);
      expect(Object.keys(doc.events).sort()).toEqual([...eventTypes].sort());
      expect(doc.commands.prompt.properties.type).toEqual({ const: "prompt" });
      expect(doc.commands.prompt.properties.images.items.properties.data).toMatchObject({ type: "string", contentEncoding: "base64" });
      expect(doc.commands.set_model.required).toEqual(["type", "model"]);
      expect(doc.events.turn_end.properties.stop.enum).toEqual(["end_turn", "tool_use", "length", "error", "aborted"]);
      expect(doc.events.compact_done.required).toContain("summary");
      expect(doc.responses.success.properties.success).toEqual({ const: true });
      expect(doc.responses.failure.required).toEqual(["type", "command", "success", "error"]);
      expect(Object.keys(doc.responses.data).sort()).toEqual(RPC_COMMAND_TYPES.filter((t) => t !== "abort" && t !== "clear" && t !== "confirm").sort());
      expect(doc.responses.data.get_state.required).toContain("context");
      // The newer original's additions.
      expect(doc.commands.set_reasoning.properties.reasoning.enum).toEqual(["off", "minimum", "minimal", "low", "medium", "high", "xhigh", "max", "maximum"]);
      expect(doc.responses.data.set_reasoning.required).toEqual(["reasoning", "applied"]);
      const reasoningTokens = { anyOf: [{ type: "number" }, { type: "null" }], default: null };
      expect(doc.events.usage.properties.reasoning).toEqual(reasoningTokens);
      expect(doc.events.usage.properties.cumulative.properties.reasoning).toEqual(reasoningTokens);
      expect(doc.responses.data.get_state.properties.usage.properties.reasoning).toEqual(reasoningTokens);
      expect(doc.events.ext_display.required).toEqual(["type", "extension", "text"]);
      expect(doc.events.ext_clear_notes.required).toEqual(["type", "extension"]);
    }
  });

  test("every line the server sends fits the schema it prints", async () => {
    const doc = JSON.parse((await zot(["rpc", "--schema"])).stdout);
    /** Top-level check: every required field present, no field the schema does not name. */
    const fits = (schema: any, value: any) => {
      for (const key of schema.required ?? []) expect(value).toHaveProperty(key);
      for (const key of Object.keys(value)) expect(Object.keys(schema.properties)).toContain(key);
    };
    const r = start({}, [{ tool_calls: [{ id: "t1", name: "bash", args: { command: "echo hi" } }] }, { text: "Done." }]);
    const from = r.lines.length;
    await r.call({ type: "prompt", message: "go" });
    await r.eventsUntilDone(from);
    for (const type of RPC_COMMAND_TYPES.filter((t) => !["prompt", "compact", "run_command", "reload_extensions"].includes(t))) {
      await r.call({ type, ...(type === "set_model" ? { model: "claude-haiku-4-5" } : type === "set_reasoning" ? { reasoning: "max" } : {}) });
    }
    await r.call({ type: "frobnicate" });
    const seen = new Set<string>();
    for (const line of r.lines) {
      if (line.type === "response") {
        fits(line.success ? doc.responses.success : doc.responses.failure, line);
        if (line.success && line.data !== undefined) fits(doc.responses.data[line.command], line.data);
        seen.add(`response:${line.command}`);
      } else {
        fits(doc.events[line.type], line);
        seen.add(line.type);
      }
    }
    expect(seen).toContain("tool_result");
    expect(seen).toContain("response:get_state");
    expect(seen).toContain("response:set_reasoning");
    expect(seen).toContain("response:frobnicate");
    expect(await r.close()).toBe(0);
  });
});

describe("text that is not text", () => {
  test("a prompt with a lone UTF-16 surrogate (\\ud800 in the JSON) reaches the model and the session as U+FFFD, never as half a character the API refuses", async () => {
    const r = start({}, [{ text: "ok" }]);
    const from = r.lines.length;
    r.send('{"id":"p","type":"prompt","message":"lone \\ud800 surrogate"}');
    await r.eventsUntilDone(from);
    const sent = JSON.stringify(fixture.mock.requests[0]?.body.messages);
    expect(sent).toContain("lone \uFFFD surrogate");
    expect(sent).not.toMatch(/\\ud800/i);
    const messages = await r.call({ type: "get_messages" });
    expect(JSON.stringify(messages)).toContain("lone \uFFFD surrogate");
  });
});

test("zot rpc with a directory on stdin says so (exit 2), not the system's EISDIR", async () => {
  const { cleanEnv, tempDir, ZOT } = await import("../support/zot.ts");
  const proc = Bun.spawn(["bash", "-c", `"$ZOT" rpc --provider scripted < "$DIR"; echo "rc=$?"`], {
    env: cleanEnv(tempDir("zot-rpc-dir-home-"), { ZOT, DIR: tempDir("zot-rpc-dir-") }),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  expect(stdout).toBe("rc=2\n");
  expect(stderr).toContain("zot rpc reads its commands from stdin, and stdin is a directory");
});
