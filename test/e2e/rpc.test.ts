// `zot rpc` through the compiled binary and the mock LLM: every command's success and failure
// responses, the envelope and its id echo, and the turns a prompt streams.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type RpcProcess, rpcFixture, type Turns } from "../support/rpc-process.ts";
import { tempDir } from "../support/zot.ts";

const fixture = rpcFixture();
const start = (turns: Turns = [], extra: string[] = []): RpcProcess => fixture.start(turns, ["--no-ext", ...extra]);

// 1×1 transparent PNG
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

describe("envelope", () => {
  test("the id comes back as it was sent: string, number, or absent", async () => {
    const r = start();
    expect(await r.call({ type: "ping", id: "abc" })).toEqual({
      type: "response",
      id: "abc",
      command: "ping",
      success: true,
      data: { pong: true },
    });
    expect(await r.call({ type: "ping", id: 42 })).toEqual({ type: "response", id: 42, command: "ping", success: true, data: { pong: true } });
    const from = r.lines.length;
    r.send({ type: "ping" });
    const { line } = await r.waitFor((l) => l.type === "response", from);
    expect(line).toEqual({ type: "response", command: "ping", success: true, data: { pong: true } });
    expect("id" in line).toBe(false);
    // A failure echoes a usable id too.
    expect(await r.call({ type: "set_model", id: 7 })).toEqual({
      type: "response",
      id: 7,
      command: "set_model",
      success: false,
      error: 'set_model: field "model": this field is required',
    });
    expect(await r.close()).toBe(0);
  });

  test("bad lines: not JSON, not an object, no type, unknown type, a mistyped field; blank lines are ignored", async () => {
    const r = start();
    const from = r.lines.length;
    r.send("{oops");
    r.send("");
    r.send("   ");
    r.send("[1,2]");
    r.send({ id: "n1", message: "hi" });
    r.send({ id: "u1", type: "frobnicate" });
    r.send({ id: "t1", type: "prompt", message: 5 });
    r.send({ id: "i1", type: "prompt", images: [{ mime_type: "image/svg+xml", data: "aGk=" }] });
    r.send({ id: "i2", type: "prompt", images: [{ mime_type: "image/png", data: "not base64!" }] });
    r.send({ id: "i3", type: "prompt", images: [{ mime_type: "image/png", data: "" }] });
    r.send({ id: "i4", type: "prompt", images: [{ mime_type: "image/png", data: Buffer.from("hello world").toString("base64") }] });
    r.send({ id: { nested: true }, type: "ping" });
    // 1e400 reads as Infinity, which JSON would write back as null.
    r.send('{"id":1e400,"type":"ping"}');
    await r.waitFor((l) => l.command === "ping" && String(l.error).includes("finite"), from, "the last answer");
    const answers = r.lines.slice(from);
    expect(answers).toHaveLength(11);
    expect(answers.every((a) => a.type === "response" && a.success === false)).toBe(true);
    expect(answers[0].command).toBe("parse");
    expect(answers[0].error).toStartWith("not JSON: ");
    expect("id" in answers[0]).toBe(false);
    expect(answers[1]).toMatchObject({ command: "" });
    expect(answers[1].error).toContain("known commands: hello, prompt, abort");
    expect(answers[2]).toMatchObject({ id: "n1", command: "" });
    expect(answers[2].error).toContain('has no "type"');
    expect(answers[3]).toMatchObject({ id: "u1", command: "frobnicate" });
    expect(answers[3].error).toStartWith('unknown command "frobnicate" (known commands: ');
    expect(answers[3].error).toContain("reload_extensions");
    expect(answers[4]).toMatchObject({ id: "t1", command: "prompt" });
    expect(answers[4].error).toStartWith('prompt: field "message": ');
    // An image the providers refuse would poison every later request while it stayed in the transcript.
    expect(answers[5].error).toStartWith('prompt: field "images[0].mime_type": mime_type must be image/png, image/jpeg, image/gif or image/webp');
    expect(answers[6].error).toBe('prompt: field "images[0].data": data must be standard base64');
    expect(answers[7].error).toBe('prompt: field "images[0].data": data is empty: an image must have its bytes');
    expect(answers[8].error).toStartWith('prompt: field "images[0].data": the bytes are not image/png');
    expect(answers[9]).toMatchObject({ command: "ping" });
    expect(answers[9].error).toStartWith('ping: field "id": ');
    expect("id" in answers[9]).toBe(false);
    expect(answers[10]).toEqual({ type: "response", command: "ping", success: false, error: 'ping: field "id": a number id must be finite (this one read as Infinity)' });
    // The process goes on.
    expect((await r.call({ type: "ping" })).success).toBe(true);
    expect(await r.close()).toBe(0);
  });
});

describe("commands", () => {
  test("hello, ping, get_state, get_models, set_model, clear, abort when idle", async () => {
    const r = start();
    const hello = await r.call({ type: "hello" });
    expect(hello.data).toEqual({ protocol_version: 1, version: expect.any(String), provider: "anthropic", model: "claude-sonnet-5-5" });
    const state = await r.call({ type: "get_state" });
    expect(state.data).toEqual({
      provider: "anthropic",
      model: "claude-sonnet-5-5",
      cwd: r.cwd,
      message_count: 0,
      busy: false,
      queued: 0,
      usage: { input: 0, output: 0, cache_read: 0, cache_write: 0, cost_usd: 0, reasoning: null },
      context: { tokens: 0, window: 1_000_000, fraction: 0 },
      session: null,
    });
    const models = (await r.call({ type: "get_models" })).data.models;
    expect(models.every((m: any) => m.provider === "anthropic")).toBe(true);
    expect(models).toContainEqual({ id: "claude-haiku-4-5", provider: "anthropic", context_window: 200_000, max_output: 64_000, reasoning: true });

    expect(await r.call({ type: "set_model", model: "claude-haiku-4-5", id: 1 })).toEqual({
      type: "response",
      id: 1,
      command: "set_model",
      success: true,
      data: { model: "claude-haiku-4-5" },
    });
    expect((await r.call({ type: "get_state" })).data.model).toBe("claude-haiku-4-5");
    const other = await r.call({ type: "set_model", model: "gpt-5" });
    expect(other.success).toBe(false);
    expect(other.error).toContain('unknown model "gpt-5" for anthropic');
    expect(other.error).toContain("get_models");
    expect((await r.call({ type: "set_model", model: "   " })).success).toBe(false);
    // An id no catalog lists is read as --model reads it: sent as asked, with default limits and a note.
    const proxied = await r.call({ type: "set_model", model: "vendor/some-model" });
    expect(proxied.success).toBe(true);
    expect(proxied.data.model).toBe("vendor/some-model");
    expect(proxied.data.note).toContain("not in zot's catalog");
    expect((await r.call({ type: "get_state" })).data.model).toBe("vendor/some-model");

    expect(await r.call({ type: "clear", id: "c" })).toEqual({ type: "response", id: "c", command: "clear", success: true });
    expect(await r.call({ type: "abort", id: "a" })).toEqual({ type: "response", id: "a", command: "abort", success: true });
    const empty = await r.call({ type: "prompt", message: "  " });
    expect(empty).toMatchObject({ command: "prompt", success: false, error: 'prompt: give a "message", "images", or both' });
    expect(await r.close()).toBe(0);
    expect(r.stderr).toBe("");
  });

  test("the switched model is the one the next request names", async () => {
    const r = start([{ text: "Hi." }]);
    await r.call({ type: "set_model", model: "claude-opus-4-5" });
    const from = r.lines.length;
    await r.call({ type: "prompt", message: "hello" });
    await r.eventsUntilDone(from);
    expect(fixture.mock.requests[0].body.model).toBe("claude-opus-4-5");
    expect(await r.close()).toBe(0);
  });

  test("models.json models of the provider are listed and can be switched to", async () => {
    const home = tempDir("zot-rpc-home-");
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { anthropic: { models: [{ id: "my-proxy-model", contextWindow: 4000 }] } } }));
    const rpc = fixture.start([], ["--no-ext"], { home });
    const models = (await rpc.call({ type: "get_models" })).data.models;
    expect(models).toContainEqual({ id: "my-proxy-model", provider: "anthropic", context_window: 4000, max_output: 8192, reasoning: false });
    expect((await rpc.call({ type: "set_model", model: "my-proxy-model" })).data).toEqual({ model: "my-proxy-model" });
    expect((await rpc.call({ type: "get_state" })).data.context.window).toBe(4000);
    expect(await rpc.close()).toBe(0);
  });
});

describe("prompt", () => {
  test("started, then the turn's events in order, ending with done; get_messages and get_state after", async () => {
    const r = start([{ text: "Hello there, friend.", usage: { input: 20_000, output: 7 } }]);
    const from = r.lines.length;
    const started = await r.call({ type: "prompt", message: "hi", id: "p1" });
    expect(started).toEqual({ type: "response", id: "p1", command: "prompt", success: true, data: { started: true } });
    const events = await r.eventsUntilDone(from);
    const types = events.map((e) => e.type).filter((t) => t !== "text_delta");
    expect(types).toEqual(["user_message", "turn_start", "assistant_start", "usage", "assistant_message", "turn_end", "done"]);
    expect(r.lines.slice(from).findIndex((l) => l.type === "response")).toBe(0);
    expect(events.filter((e) => e.type === "text_delta").map((e) => e.delta).join("")).toBe("Hello there, friend.");
    expect(events.find((e) => e.type === "turn_end")).toEqual({ type: "turn_end", stop: "end_turn" });
    expect(events.every((e) => !("id" in e) || e.type.startsWith("tool"))).toBe(true);

    const messages = (await r.call({ type: "get_messages" })).data.messages;
    expect(messages.map((m: any) => [m.role, m.content])).toEqual([
      ["user", [{ type: "text", text: "hi" }]],
      ["assistant", [{ type: "text", text: "Hello there, friend." }]],
    ]);
    const state = (await r.call({ type: "get_state" })).data;
    expect(state).toMatchObject({ message_count: 2, busy: false, queued: 0, usage: { input: 20_000, output: 7 } });
    expect(state.usage.cost_usd).toBeGreaterThan(0);
    expect(state.context).toEqual({ tokens: 20_007, window: 1_000_000, fraction: 20_007 / 1_000_000 });
    expect(await r.close()).toBe(0);
  });

  test("a prompt that is /clear empties the transcript, as a Claude Agent SDK program's does; /help is refused, never sent to the model", async () => {
    const r = start([{ text: "first" }]);
    await r.prompt("hi");
    expect((await r.call({ type: "get_state" })).data.message_count).toBe(2);
    await r.prompt("/clear");
    expect((await r.call({ type: "get_state" })).data.message_count).toBe(0);
    const help = await r.prompt("/help");
    expect(help.find((e) => e.type === "command_result")).toMatchObject({ command: "help", extension: "zot", action: "error" });
    expect(help.find((e) => e.type === "command_result")?.text).toContain("/help is a command of zot's interactive TUI");
    expect(fixture.mock.requests).toHaveLength(1);
    expect(await r.close()).toBe(0);
  });

  test("images: sent to the model as image blocks, shown as a byte count in events and get_messages", async () => {
    const r = start([{ text: "A tiny image." }]);
    const from = r.lines.length;
    await r.call({ type: "prompt", message: "what is this?", images: [{ mime_type: "image/png", data: PNG.toString("base64") }] });
    const events = await r.eventsUntilDone(from);
    const wireImage = { type: "image", mime_type: "image/png", bytes: PNG.length };
    expect(events[0]).toMatchObject({ type: "user_message", content: [{ type: "text", text: "what is this?" }, wireImage] });
    const sent = fixture.mock.requests[0].body.messages[0].content;
    expect(sent[1]).toMatchObject({ type: "image", source: { type: "base64", media_type: "image/png", data: PNG.toString("base64") } });
    const messages = (await r.call({ type: "get_messages" })).data.messages;
    expect(messages[0].content).toEqual([{ type: "text", text: "what is this?" }, wireImage]);
    expect(JSON.stringify(r.lines)).not.toContain(PNG.toString("base64"));
    expect(await r.close()).toBe(0);
  });

  test("images without a message", async () => {
    const r = start([{ text: "An image." }]);
    const from = r.lines.length;
    await r.call({ type: "prompt", images: [{ mime_type: "image/png", data: PNG.toString("base64") }] });
    const events = await r.eventsUntilDone(from);
    expect(events[0].content).toEqual([{ type: "image", mime_type: "image/png", bytes: PNG.length }]);
    expect(await r.close()).toBe(0);
  });

  test("a provider error: turn_end error, an error event, done; the process goes on", async () => {
    const r = start([{ error: { status: 401, message: "invalid x-api-key" } }, { text: "Fine now." }]);
    let from = r.lines.length;
    await r.call({ type: "prompt", message: "hi" });
    const events = await r.eventsUntilDone(from);
    expect(events.map((e) => e.type)).toEqual(["user_message", "turn_start", "turn_end", "error", "done"]);
    expect(events[2]).toMatchObject({ stop: "error" });
    expect(events[3].message).toContain("invalid x-api-key");
    from = r.lines.length;
    await r.call({ type: "prompt", message: "again" });
    expect((await r.eventsUntilDone(from)).find((e) => e.type === "assistant_message").content).toEqual([{ type: "text", text: "Fine now." }]);
    expect(await r.close()).toBe(0);
  });

  test("tools run in the loop, and their events come through", async () => {
    const r = start([{ tool_calls: [{ id: "t1", name: "bash", args: { command: "echo from-bash" } }] }, { text: "Done: {{last_tool_result}}" }]);
    const from = r.lines.length;
    await r.call({ type: "prompt", message: "run it" });
    const events = await r.eventsUntilDone(from);
    expect(events.find((e) => e.type === "tool_call")).toEqual({ type: "tool_call", id: "t1", name: "bash", args: { command: "echo from-bash" } });
    const result = events.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ id: "t1", name: "bash", is_error: false });
    expect(JSON.stringify(result.content)).toContain("from-bash");
    expect(events.filter((e) => e.type === "turn_end").map((e) => e.stop)).toEqual(["tool_use", "end_turn"]);
    expect(await r.close()).toBe(0);
  });
});
