// The in-process SDK (createZot) with the real Anthropic SDK against the mock LLM: a prompt's
// events, one run at a time, abort mid-stream, state and messages, models, compaction, extensions.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createZot, type Zot, ZotBusyError, type ZotOptions } from "../../src/sdk/runtime.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import { alive, scriptedExtension } from "../fixtures/extensions/make.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { tempDir } from "../support/zot.ts";

let mock: MockLlm | undefined;
let zot: Zot | undefined;
afterEach(async () => {
  await zot?.close();
  await mock?.stop();
  zot = undefined;
  mock = undefined;
});

async function start(turns: Parameters<typeof startMockLlm>[0], options: ZotOptions = {}): Promise<Zot> {
  mock = startMockLlm(turns);
  zot = await createZot({
    provider: "anthropic",
    apiKey: "sk-sdk",
    baseUrl: mock.url,
    home: tempDir("zot-sdk-home-"),
    cwd: tempDir("zot-sdk-cwd-"),
    tools: "none",
    ...options,
  });
  return zot;
}

async function collect(run: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

const SLOW = { text: "one two three four five six seven eight nine ten ".repeat(5), chunk_size: 4, chunk_delay_ms: 15 };

describe("createZot", () => {
  test("a prompt yields every event of its turn, ending with done, and its result holds the answer", async () => {
    await start([{ text: "Hello from the mock, in pieces.", usage: { input: 40, output: 9 } }]);
    const run = zot!.prompt("hi there");
    const events = await collect(run);
    expect(events.map((e) => e.type).filter((t) => t !== "text_delta")).toEqual([
      "user_message",
      "turn_start",
      "assistant_start",
      "usage",
      "assistant_message",
      "turn_end",
      "done",
    ]);
    const deltas = events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Hello from the mock, in pieces.");
    const result = await run.result;
    expect(result).toMatchObject({ text: "Hello from the mock, in pieces.", outcome: "ok" });
    expect(result.events).toEqual(events);
    const body = mock!.requests[0].body;
    expect(body.messages.at(-1).content.at(-1).text).toBe("hi there");
    expect(mock!.requests[0].headers.authorization).toBe("Bearer sk-sdk");
  });

  test("a second prompt, a compaction, clear and setModel while one runs throw ZotBusyError; after it ends, prompts run again", async () => {
    await start([SLOW, { text: "second answer" }]);
    const first = zot!.prompt("first");
    expect(() => zot!.prompt("second")).toThrow(ZotBusyError);
    expect(() => zot!.compact()).toThrow(ZotBusyError);
    expect(() => zot!.clear()).toThrow(ZotBusyError);
    await expect(zot!.setModel("claude-haiku-4-5")).rejects.toThrow(ZotBusyError);
    expect(zot!.state().busy).toBe(true);
    const events = await collect(first);
    expect(events.at(-1)).toEqual({ type: "done" });
    expect(zot!.state().busy).toBe(false);
    // The rejected calls sent nothing: one request so far, and the next prompt is the second.
    expect(mock!.requests.length).toBe(1);
    expect((await zot!.prompt("second").result).text).toBe("second answer");
    expect(mock!.requests.length).toBe(2);
  });

  test("a prompt with neither text nor images is refused at once, as rpc and -p refuse it; nothing reaches the model", async () => {
    await start([{ text: "unused" }]);
    expect(() => zot!.prompt("")).toThrow("prompt: give a text, images, or both");
    expect(() => zot!.prompt("   ")).toThrow(TypeError);
    expect(mock!.requests).toHaveLength(0);
  });

  test("with no key it says so in the SDK's words instead of playing the built-in demo", async () => {
    const made = createZot({ home: tempDir("zot-sdk-home-"), cwd: tempDir("zot-sdk-cwd-"), env: { PATH: process.env.PATH }, tools: "none" });
    await expect(made).rejects.toThrow('no API key found, and createZot does not get the built-in demo: set ANTHROPIC_API_KEY or OPENAI_API_KEY, give it an apiKey, or provider: "ollama"');
  });

  test("an image rpc would refuse (its type, over 5 MB of base64, not base64) is refused at once, as rpc refuses it; nothing reaches the model", async () => {
    await start([{ text: "unused" }]);
    expect(() => zot!.prompt("look", { images: [{ mime_type: "image/bmp" as "image/png", data: "AAAA" }] })).toThrow('prompt: field "images[0].mime_type": mime_type must be image/png');
    expect(() => zot!.prompt("look", { images: [{ mime_type: "image/png", data: "A".repeat(5 * 1024 * 1024 + 4) }] })).toThrow("at most 5 MB of base64");
    expect(() => zot!.prompt("look", { images: [{ mime_type: "image/png", data: "not base64!" }] })).toThrow(TypeError);
    expect(mock!.requests).toHaveLength(0);
    expect(zot!.state().busy).toBe(false);
  });

  test('provider: "scripted" without a script is refused, never the demo (which runs ls -la in the cwd); noDemo: undefined does not turn that off', async () => {
    const options = { home: tempDir("zot-sdk-home-"), cwd: tempDir("zot-sdk-cwd-"), env: { PATH: process.env.PATH }, tools: "none" as const };
    const refusal = 'the scripted provider without a script is the built-in demo, which createZot does not get; give it an apiKey, or provider: "ollama", or provider: "scripted" with a script';
    await expect(createZot({ ...options, provider: "scripted" })).rejects.toThrow(refusal);
    // A JavaScript caller can pass what the type leaves out.
    await expect(createZot({ ...options, noDemo: undefined } as Parameters<typeof createZot>[0])).rejects.toThrow("createZot does not get the built-in demo");
  });

  test("abort() mid-stream ends the turn with turn_end aborted, then done", async () => {
    await start([SLOW]);
    const run = zot!.prompt("go on and on");
    const events: AgentEvent[] = [];
    for await (const event of run) {
      events.push(event);
      if (event.type === "text_delta" && events.filter((e) => e.type === "text_delta").length === 2) zot!.abort();
    }
    const types = events.map((e) => e.type);
    expect(types.slice(-2)).toEqual(["turn_end", "done"]);
    expect(events.find((e) => e.type === "turn_end")).toEqual({ type: "turn_end", stop: "aborted" });
    expect(events.filter((e) => e.type === "text_delta").length).toBeLessThan(SLOW.text.length / SLOW.chunk_size);
    expect((await run.result).outcome).toBe("aborted");
    expect(zot!.state().busy).toBe(false);
  });

  test("state, messages, setModel and models have the shapes of zot rpc's answers", async () => {
    await start([{ text: "first", usage: { input: 20_000, output: 20 } }, { text: "second" }]);
    await zot!.prompt("one").result;
    const state = zot!.state();
    expect(state).toMatchObject({ provider: "anthropic", model: "claude-sonnet-5-5", message_count: 2, busy: false, queued: 0 });
    expect(state.usage).toMatchObject({ input: 20_000, output: 20 });
    expect(state.context).toEqual({ tokens: 20_020, window: 1_000_000, fraction: 20_020 / 1_000_000 });

    const messages = zot!.messages();
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(messages[1].content).toEqual([{ type: "text", text: "first" }]);

    const models = zot!.models();
    expect(models.every((m) => m.provider === "anthropic")).toBe(true);
    expect(models.find((m) => m.id === "claude-haiku-4-5")).toEqual({
      id: "claude-haiku-4-5",
      provider: "anthropic",
      context_window: 200_000,
      max_output: 64_000,
      reasoning: true,
    });

    await expect(zot!.setModel("gpt-4.1")).rejects.toThrow(/unknown model "gpt-4.1" for anthropic \(it is an openai model/);
    await expect(zot!.setModel("")).rejects.toThrow(/needs a model id/);
    expect(await zot!.setModel("claude-haiku-4-5")).toBe("claude-haiku-4-5");
    expect(zot!.state().model).toBe("claude-haiku-4-5");
    await zot!.prompt("two").result;
    expect(mock!.requests[1].body.model).toBe("claude-haiku-4-5");
    // The second request carried the whole transcript.
    expect(mock!.requests[1].body.messages.length).toBe(3);

    zot!.clear();
    expect(zot!.state().message_count).toBe(0);
    expect(zot!.messages()).toEqual([]);
  });

  test("images go to the model; messages() reports them as byte counts", async () => {
    await start([{ text: "a red pixel" }]);
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
    await zot!.prompt("what is this?", { images: [{ mime_type: "image/png", data: png }] }).result;
    const sent = mock!.requests[0].body.messages[0].content;
    expect(sent.find((b: any) => b.type === "image").source).toMatchObject({ media_type: "image/png", data: png });
    expect(zot!.messages()[0].content).toContainEqual({ type: "image", mime_type: "image/png", bytes: Buffer.from(png, "base64").length });
  });

  test("compact() summarises the transcript with the model: compact_done carries the summary, then done", async () => {
    // A model with a small window, so a few turns are more than the recent part compaction keeps.
    const home = tempDir("zot-sdk-home-");
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { anthropic: { models: [{ id: "tiny", contextWindow: 400 }] } } }));
    const answer = (n: number) => ({ text: `answer ${n}: ${"words ".repeat(50)}`, usage: { input: 10, output: 10 } });
    await start([answer(1), answer(2), answer(3), { text: "SUMMARY: we talked" }], { home, model: "tiny", autoCompact: 0 });
    for (const prompt of ["one", "two", "three"]) await zot!.prompt(prompt).result;
    const before = zot!.state().message_count;
    const run = zot!.compact("keep the numbers");
    expect(() => zot!.prompt("not now")).toThrow(ZotBusyError);
    const events = await collect(run);
    expect(events[0]).toEqual({ type: "compact_start", reason: "manual" });
    expect(events.at(-1)).toEqual({ type: "done" });
    const done = events.find((e) => e.type === "compact_done");
    expect(done).toMatchObject({ summary: "SUMMARY: we talked", reason: "manual", messages_before: before });
    const result = await run.result;
    expect(result).toMatchObject({ outcome: "ok", summary: "SUMMARY: we talked" });
    expect(zot!.state().message_count).toBeLessThan(before);
    expect(JSON.stringify(zot!.messages()[0])).toContain("SUMMARY: we talked");
    expect(JSON.stringify(mock!.requests[3].body)).toContain("keep the numbers");
  });

  test("a compaction with nothing to compact ends with an error event and done; result says error", async () => {
    await start([{ text: "short" }]);
    await zot!.prompt("hi").result;
    const result = await zot!.compact().result;
    expect(result.outcome).toBe("error");
    expect(result.error).toContain("nothing to compact");
    expect(result.events.at(-1)).toEqual({ type: "done" });
    expect(zot!.state().busy).toBe(false);
  });
});

describe("createZot and Claude Code's settings", () => {
  test("a trusted folder's settings env reaches that runtime's commands only: never the host's process.env, nor a later runtime in an untrusted folder", async () => {
    const trusted = tempDir("zot-sdk-trusted-");
    mkdirSync(join(trusted, ".claude"), { recursive: true });
    writeFileSync(join(trusted, ".claude", "settings.json"), JSON.stringify({ env: { SDK_TEST_FROM_SETTINGS: "from-A" } }));
    const echo = { tool_calls: [{ name: "bash", args: { command: 'echo "seen=${SDK_TEST_FROM_SETTINGS:-nothing}"' } }] };
    const seen = async (cwd: string, trust: boolean): Promise<string> => {
      await start([echo, { text: "ok" }], { cwd, trust, tools: ["bash"] });
      await zot!.prompt("go").result;
      const text = JSON.stringify(mock!.requests[1]?.body.messages.at(-1).content);
      await zot!.close();
      await mock!.stop();
      zot = undefined;
      mock = undefined;
      return /seen=[\w-]+/.exec(text)?.[0] ?? text;
    };
    expect(await seen(trusted, true)).toBe("seen=from-A");
    expect(process.env.SDK_TEST_FROM_SETTINGS).toBeUndefined();
    expect(await seen(tempDir("zot-sdk-untrusted-"), false)).toBe("seen=nothing");
  });

  test("a settings file's permissions.defaultMode is the command line's to read: an embedding program's options stand", async () => {
    const cwd = tempDir("zot-sdk-mode-");
    mkdirSync(join(cwd, ".claude"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "settings.json"), JSON.stringify({ permissions: { defaultMode: "dontAsk" } }));
    await start([{ tool_calls: [{ name: "bash", args: { command: "touch ran" } }] }, { text: "ok" }], { cwd, trust: true, tools: ["bash"] });
    await zot!.prompt("go").result;
    expect(existsSync(join(cwd, "ran"))).toBe(true);
  });

  test("createZot({ home }) keeps the keys that home's models.json names from the commands, whatever ZOT_HOME the environment has", async () => {
    const home = tempDir("zot-sdk-home-");
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { gateway: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "$SDK_GATEWAY_KEY", models: [{ id: "g-1" }] } } }));
    const env = { ...process.env, ZOT_HOME: tempDir("zot-sdk-other-home-"), SDK_GATEWAY_KEY: "secret-gateway-key" };
    await start([{ tool_calls: [{ name: "bash", args: { command: 'echo "key=${SDK_GATEWAY_KEY:-stripped}"' } }] }, { text: "ok" }], { home, env, tools: ["bash"] });
    await zot!.prompt("go").result;
    const text = JSON.stringify(mock!.requests[1]?.body.messages.at(-1).content);
    expect(text).toContain("key=stripped");
  });
});

describe("createZot and extensions", () => {
  function projectWithExtension(): { cwd: string; countfile: string; pidfile: string } {
    const cwd = tempDir("zot-sdk-cwd-");
    const countfile = join(cwd, "started");
    const pidfile = join(cwd, "pid");
    scriptedExtension(join(cwd, ".zot", "extensions"), "probe", {
      countfile,
      pidfile,
      on_ack: [{ type: "notify", level: "warn", message: "probe is up" }],
    });
    return { cwd, countfile, pidfile };
  }

  test("are off by default: the project's extension never starts", async () => {
    const { cwd, countfile } = projectWithExtension();
    await start([{ text: "ok" }], { cwd });
    await zot!.prompt("hi").result;
    expect(existsSync(countfile)).toBe(false);
  });

  test("extensions: true loads them as zot does; their startup note reaches the first listener; close() stops them", async () => {
    const { cwd, countfile, pidfile } = projectWithExtension();
    const notes: AgentEvent[] = [];
    mock = startMockLlm([{ text: "ok" }]);
    // The project's extensions run in a trusted folder only: `trust` is --trust for embedders.
    zot = await createZot({ provider: "anthropic", apiKey: "k", baseUrl: mock.url, home: tempDir(), cwd, extensions: true, trust: true });
    zot.onEvent((event) => event.type === "ext_notify" && notes.push(event));
    expect(readFileSync(countfile, "utf8")).toBe("1");
    const pid = Number(readFileSync(pidfile, "utf8"));
    expect(alive(pid)).toBe(true);
    await zot.prompt("hi").result;
    await zot.close();
    expect(alive(pid)).toBe(false);
    expect(notes).toEqual([{ type: "ext_notify", extension: "probe", level: "warn", message: "probe is up" }]);
  });
});
