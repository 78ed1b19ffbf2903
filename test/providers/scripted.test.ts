// The scripted provider: chunked streaming, tool calls, the tool-result template, errors, abort,
// exhaustion; and script files (JSON, JSONL) with errors naming the file, line and field.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Message } from "../../src/protocol/messages.ts";
import { BUILTIN_MODELS } from "../../src/providers/catalog.ts";
import { type ModelRequest, type ProviderBatch, type ProviderEvent, ProviderError } from "../../src/protocol/provider.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import { createScriptedProvider, DEMO_SCRIPT, loadScript, ScriptFileError } from "../../src/providers/scripted.ts";

const model = BUILTIN_MODELS.find((m) => m.id === "scripted")!;
const request = (messages: Message[] = []): ModelRequest => ({ model, system: "sys", messages, tools: [] });
const never = () => new AbortController().signal;

async function collect(stream: AsyncIterable<ProviderBatch>, into: ProviderEvent[] = []): Promise<ProviderEvent[]> {
  for await (const batch of stream) into.push(...batch);
  return into;
}

async function failure(stream: AsyncIterable<ProviderBatch>, events: ProviderEvent[] = []): Promise<unknown> {
  try {
    await collect(stream, events);
  } catch (error) {
    return error;
  }
  throw new Error("expected the stream to fail");
}

const toolResult = (callId: string, text: string): Message => ({
  role: "tool",
  content: [{ type: "tool_result", call_id: callId, is_error: false, content: [{ type: "text", text }] }],
  time: new Date().toISOString(),
});

describe("streaming", () => {
  test("text arrives in chunks of 12 characters by default, then usage, then done", async () => {
    const text = "The quick brown fox jumps over the lazy dog.";
    const events = await collect(createScriptedProvider([{ text }]).stream(request(), never()));
    const deltas = events.filter((e) => e.type === "text_delta").map((e) => (e as { delta: string }).delta);
    expect(deltas).toEqual(["The quick br", "own fox jump", "s over the l", "azy dog."]);
    expect(events.at(-2)?.type).toBe("usage");
    expect(events.at(-1)).toEqual({ type: "done", content: [{ type: "text", text }], stop: "end_turn" });
  });

  test("onOpen is told as each turn begins to answer, not for a turn that fails before it", async () => {
    const heard: string[] = [];
    const provider = createScriptedProvider([{ text: "one" }, { error: "boom" }, { text: "two" }], () => heard.push("open"));
    for (const _ of [1, 2, 3]) {
      await collect(provider.stream(request(), never()), []).then(
        (events) => heard.push(...events.map((e) => e.type)),
        () => heard.push("failed"),
      );
    }
    expect(heard).toEqual(["open", "text_delta", "usage", "done", "failed", "open", "text_delta", "usage", "done"]);
  });

  test("chunk_size, thinking before text, and the script's own usage", async () => {
    const turn: ScriptTurn = { thinking: "hmm…", text: "abcdef", chunk_size: 4, usage: { input: 10, output: 3 } };
    const events = await collect(createScriptedProvider([turn]).stream(request(), never()));
    expect(events.map((e) => e.type)).toEqual(["thinking_delta", "text_delta", "text_delta", "usage", "done"]);
    expect(events[0]).toEqual({ type: "thinking_delta", delta: "hmm…" });
    expect(events[2]).toEqual({ type: "text_delta", delta: "ef" });
    expect(events[3]).toEqual({ type: "usage", usage: { input: 10, output: 3, cache_read: 0, cache_write: 0, reasoning: null } });
    expect((events[4] as { content: unknown }).content).toEqual([
      { type: "thinking", text: "hmm…" },
      { type: "text", text: "abcdef" },
    ]);
  });

  test("tool calls: start, arguments in several fragments, end; generated ids across turns", async () => {
    const provider = createScriptedProvider([
      { text: "Let me look.", tool_calls: [{ name: "bash", args: { command: "ls -la /tmp" } }, { id: "mine", name: "read", args: { path: "a.txt" } }] },
      { tool_calls: [{ name: "read", args: {} }] },
    ]);
    const events = await collect(provider.stream(request(), never()));
    const starts = events.filter((e) => e.type === "tool_use_start");
    expect(starts).toEqual([
      { type: "tool_use_start", id: "call_1", name: "bash" },
      { type: "tool_use_start", id: "mine", name: "read" },
    ]);
    const args = events.filter((e) => e.type === "tool_use_args" && e.id === "call_1") as { delta: string }[];
    expect(args.length).toBeGreaterThan(1);
    expect(JSON.parse(args.map((a) => a.delta).join(""))).toEqual({ command: "ls -la /tmp" });
    // end follows that call's fragments, before the next call starts
    const types = events.map((e) => e.type);
    expect(types.indexOf("tool_use_end")).toBeLessThan(types.lastIndexOf("tool_use_start"));
    const done = events.at(-1) as Extract<ProviderEvent, { type: "done" }>;
    expect(done.stop).toBe("tool_use");
    expect(done.content).toEqual([
      { type: "text", text: "Let me look." },
      { type: "tool_call", id: "call_1", name: "bash", args: { command: "ls -la /tmp" } },
      { type: "tool_call", id: "mine", name: "read", args: { path: "a.txt" } },
    ]);
    const second = await collect(provider.stream(request(), never()));
    expect(second.find((e) => e.type === "tool_use_start")).toEqual({ type: "tool_use_start", id: "call_2", name: "read" });
    expect(provider.played).toBe(2);
  });

  test("an explicit stop wins", async () => {
    const events = await collect(createScriptedProvider([{ text: "cut", stop: "length" }]).stream(request(), never()));
    expect(events.at(-1)).toMatchObject({ type: "done", stop: "length" });
  });

  test("{{last_tool_result}} becomes the newest tool result's text", async () => {
    const messages: Message[] = [
      toolResult("a", "old result"),
      { role: "user", content: [{ type: "text", text: "next" }], time: "" },
      toolResult("b", "total 3\nfile.txt"),
    ];
    const events = await collect(
      createScriptedProvider([{ text: "Got: {{last_tool_result}}!" }]).stream(request(messages), never()),
    );
    expect(events.at(-1)).toMatchObject({ content: [{ type: "text", text: "Got: total 3\nfile.txt!" }] });
    const streamed = events.filter((e) => e.type === "text_delta").map((e) => (e as { delta: string }).delta).join("");
    expect(streamed).toBe("Got: total 3\nfile.txt!");
  });

  test("{{last_tool_output}} is the same without the bash tool's status line", async () => {
    const messages: Message[] = [toolResult("a", "total 3\nfile.txt\n[exit 0] 0.0s")];
    const events = await collect(
      createScriptedProvider([{ text: "[{{last_tool_output}}] [{{last_tool_result}}]" }]).stream(request(messages), never()),
    );
    expect(events.at(-1)).toMatchObject({
      content: [{ type: "text", text: "[total 3\nfile.txt] [total 3\nfile.txt\n[exit 0] 0.0s]" }],
    });
  });
});

describe("errors, abort, exhaustion", () => {
  test("an error without text fails before any event", async () => {
    const events: ProviderEvent[] = [];
    const error = await failure(createScriptedProvider([{ error: "overloaded" }]).stream(request(), never()), events);
    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(ProviderError);
    // Without a status, as a real provider's error inside its stream is coded.
    expect((error as ProviderError).code).toBe("server_error");
    expect((error as ProviderError).message).toBe("scripted: overloaded");
  });

  test("an error with a status reports it, coded as a real provider's would be", async () => {
    const provider = createScriptedProvider([
      { error: { message: "rate limited", status: 429 } },
      { error: { message: "invalid x-api-key", status: 401 } },
      { error: { message: "prompt is too long: 250000 tokens > 200000 maximum", status: 400 } },
      { error: { message: "no such model", status: 404 } },
    ]);
    const errors = [];
    for (let i = 0; i < 4; i++) errors.push((await failure(provider.stream(request(), never()))) as ProviderError);
    expect(errors.map((e) => [e.status, e.code])).toEqual([
      [429, "rate_limit"],
      [401, "auth"],
      [400, "context_overflow"],
      [404, "bad_request"],
    ]);
    expect(errors[0]!.message).toBe("scripted: http 429: rate limited");
  });

  test("an error with text streams the text, then fails", async () => {
    const events: ProviderEvent[] = [];
    const error = await failure(
      createScriptedProvider([{ text: "partial answer", error: "connection reset" }]).stream(request(), never()),
      events,
    );
    expect(events.map((e) => (e as { delta: string }).delta).join("")).toBe("partial answer");
    expect(events.some((e) => e.type === "done")).toBe(false);
    expect((error as Error).message).toContain("connection reset");
  });

  test("abort mid-stream stops promptly with an AbortError", async () => {
    const controller = new AbortController();
    const provider = createScriptedProvider([{ text: "x".repeat(400), chunk_size: 1, chunk_delay_ms: 20 }]);
    const events: ProviderEvent[] = [];
    let error: unknown;
    try {
      for await (const batch of provider.stream(request(), controller.signal)) {
        events.push(...batch);
        controller.abort();
      }
    } catch (e) {
      error = e;
    }
    expect((error as Error).name).toBe("AbortError");
    // Nothing after the batch that aborted (400 deltas 20 ms apart would time the test out).
    expect(events).toEqual([{ type: "text_delta", delta: "x" }]);
  });

  test("abort during delay_ms", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const events: ProviderEvent[] = [];
    const error = await failure(
      createScriptedProvider([{ text: "late", delay_ms: 10_000 }]).stream(request(), controller.signal),
      events,
    );
    expect((error as Error).name).toBe("AbortError");
    expect(events).toEqual([]);
  });

  test("an exhausted script says how many turns were played", async () => {
    const provider = createScriptedProvider([{ text: "one" }, { text: "two" }]);
    await collect(provider.stream(request(), never()));
    await collect(provider.stream(request(), never()));
    const error = await failure(provider.stream(request(), never()));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toBe("scripted: the script has no turn left (played 2)");
    expect((error as ProviderError).code).toBe("bad_request");
  });
});

describe("loadScript", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "zot-script-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, text);
    return p;
  };
  const errorOf = (p: string) => {
    try {
      loadScript(p);
    } catch (error) {
      expect(error).toBeInstanceOf(ScriptFileError);
      return (error as Error).message;
    }
    throw new Error("expected loadScript to fail");
  };

  test("a JSON array, {turns: [...]}, and JSONL all load", () => {
    const turns = [{ text: "a" }, { tool_calls: [{ name: "bash", args: { command: "ls" } }] }];
    expect(loadScript(file("a.json", JSON.stringify(turns)))).toEqual([
      { text: "a" },
      { tool_calls: [{ name: "bash", args: { command: "ls" } }] },
    ]);
    expect(loadScript(file("b.json", JSON.stringify({ turns })))).toHaveLength(2);
    expect(loadScript(file("c.jsonl", turns.map((t) => JSON.stringify(t)).join("\n") + "\n\n"))).toHaveLength(2);
    // JSONL content under another name is recognised too; tool args default to {}
    expect(loadScript(file("d.txt", '{"text":"x"}\n{"tool_calls":[{"name":"read"}]}'))[1]).toEqual({
      tool_calls: [{ name: "read", args: {} }],
    });
    // a one-line JSONL file is one turn
    expect(loadScript(file("e.jsonl", '{"text":"only"}'))).toEqual([{ text: "only" }]);
  });

  test("JSONL errors name the file, the line and the field", () => {
    const p = file("bad.jsonl", '{"text":"ok"}\n\n{"tool_calls":[{"args":{}}]}\n');
    const message = errorOf(p);
    expect(message).toContain(p);
    expect(message).toContain("line 3");
    expect(message).toContain('"tool_calls[0].name"');
  });

  test("a JSONL line that is not JSON names its line", () => {
    const message = errorOf(file("broken.jsonl", '{"text":"ok"}\n{"text": oops}\n'));
    expect(message).toContain("line 2");
    expect(message).toContain("not valid JSON");
  });

  test("JSON errors name the turn and the field", () => {
    const p = file("bad.json", JSON.stringify({ turns: [{ text: "ok" }, { chunk_size: "big" }] }));
    const message = errorOf(p);
    expect(message).toContain(p);
    expect(message).toContain("turn 2");
    expect(message).toContain('"turns.1.chunk_size"');
  });

  test("a misspelt field is an error, not a silent no-op", () => {
    const message = errorOf(file("typo.json", '[{"txt":"hello"}]'));
    expect(message).toContain('unknown field "0.txt"');
  });

  test("missing, empty and non-script files", () => {
    expect(errorOf(path.join(dir, "nope.json"))).toContain("does not exist");
    expect(errorOf(file("empty.json", "[]"))).toContain("no turns");
    expect(errorOf(file("num.json", "42"))).toContain("must be an array of turns");
  });
});

describe("DEMO_SCRIPT", () => {
  test("lists the cwd with bash, then answers from the result and says how to use a real model", async () => {
    const provider = createScriptedProvider(DEMO_SCRIPT);
    const first = await collect(provider.stream(request(), never()));
    const done1 = first.at(-1) as Extract<ProviderEvent, { type: "done" }>;
    expect(done1.stop).toBe("tool_use");
    const call = done1.content.find((b) => b.type === "tool_call");
    expect(call).toMatchObject({ name: "bash", args: { command: "ls -la" } });

    const listing = "total 8\n-rw-r--r-- 1 me me 42 README.md";
    const second = await collect(provider.stream(request([toolResult((call as { id: string }).id, listing)]), never()));
    const done2 = second.at(-1) as Extract<ProviderEvent, { type: "done" }>;
    const text = (done2.content[0] as { text: string }).text;
    expect(done2.stop).toBe("end_turn");
    expect(text).toContain(listing);
    expect(text).not.toContain("{{last_tool_");
    expect(text).not.toMatch(/\[exit \d+\]/);
    expect(text).toContain("--provider ollama");
    expect(text).toContain("ANTHROPIC_API_KEY");
  });
});
