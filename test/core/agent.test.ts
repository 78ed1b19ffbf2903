import { describe, expect, test } from "bun:test";
import { Agent } from "../../src/core/agent.ts";
import type { Decision, Participant } from "../../src/core/intercept.ts";
import type { AgentEvent, InterceptStage } from "../../src/protocol/events.ts";
import type { ContentBlock } from "../../src/protocol/messages.ts";
import type { ModelInfo } from "../../src/protocol/models.ts";
import { type ModelRequest, type Provider, type ProviderBatch, ProviderError } from "../../src/protocol/provider.ts";
import type { Tool } from "../../src/protocol/tool.ts";
import { testModel } from "../support/test-model.ts";

const model: ModelInfo = testModel({ price_input: 3, price_output: 15, price_cache_read: 0.3, price_cache_write: 3.75 });

type Turn = { text?: string; calls?: { id: string; name: string; args: Record<string, unknown>; unparsed_args?: string }[]; error?: string; hang?: boolean };

/** A provider that plays turns and records every request; a unit-test stand-in, not the e2e mock. */
function provider(turns: Turn[]) {
  const requests: ModelRequest[] = [];
  const p: Provider & { requests: ModelRequest[] } = {
    name: "fake",
    requests,
    async *stream(request, signal): AsyncIterable<ProviderBatch> {
      requests.push(structuredClone(request));
      const turn = turns.shift();
      if (!turn) throw new ProviderError("fake: no turn left", "bad_request");
      const content: ContentBlock[] = [];
      if (turn.text) {
        // One batch per piece of four characters, as if each came in a read of its own.
        for (const piece of turn.text.match(/.{1,4}/gs) ?? []) yield [{ type: "text_delta", delta: piece }];
        content.push({ type: "text", text: turn.text });
      }
      if (turn.hang) {
        await new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true }));
      }
      if (turn.error) throw new ProviderError(turn.error, "rate_limit", { status: 429 });
      for (const call of turn.calls ?? []) {
        // A whole call in one read.
        yield [
          { type: "tool_use_start", id: call.id, name: call.name },
          { type: "tool_use_args", id: call.id, delta: JSON.stringify(call.args) },
          { type: "tool_use_end", id: call.id },
        ];
        content.push({ type: "tool_call", ...call });
      }
      yield [
        { type: "usage", usage: { input: 1000, output: 100, cache_read: 0, cache_write: 0 } },
        { type: "done", content, stop: turn.calls?.length ? "tool_use" : "end_turn" },
      ];
    },
  };
  return p;
}

function echoTool(seen: unknown[] = []): Tool {
  return {
    name: "echo",
    description: "echoes",
    parameters: { type: "object" },
    async execute(args, ctx) {
      seen.push(args);
      ctx.onProgress("working");
      return { content: [{ type: "text", text: `echo:${JSON.stringify(args)}` }], is_error: false };
    },
  };
}

function setup(turns: Turn[], tools: Tool[] = [echoTool()], maxSteps = 0) {
  const p = provider(turns);
  const agent = new Agent({ provider: p, model, tools, system: "sys", cwd: "/tmp", maxSteps });
  const events: AgentEvent[] = [];
  agent.onEvent((e) => events.push(e));
  return { agent, events, requests: p.requests };
}

function gate(name: string, stages: InterceptStage[], decide: (stage: InterceptStage, payload: any) => Decision): Participant {
  return { name, priority: 0, stages, timeoutMs: 1000, onFailure: "allow", decide: async (s, p) => decide(s, p) as any };
}

const types = (events: AgentEvent[]) => events.map((e) => e.type).filter((t) => t !== "text_delta" && !t.startsWith("tool_use_"));
const run = (agent: Agent, text = "hi", signal = new AbortController().signal) => agent.prompt({ text }, signal);

describe("the system prompt", () => {
  test("a rewrite of the run's own prompt keeps the sections others added after it, and a section can still go", async () => {
    const p = provider([{ text: "a" }, { text: "b" }]);
    const agent = new Agent({ provider: p, model, tools: [], system: "base", cwd: "/tmp" });
    agent.setSystemSection("SessionStart hooks", "\n\nhook context");
    agent.setSystemPrompt("base, rewritten by an extension");
    expect(agent.ownSystemPrompt).toBe("base, rewritten by an extension");
    await agent.prompt({ text: "hi" }, new AbortController().signal);
    expect(p.requests[0]?.system).toBe("base, rewritten by an extension\n\nhook context");
    agent.setSystemSection("SessionStart hooks", "");
    await agent.prompt({ text: "again" }, new AbortController().signal);
    expect(p.requests[1]?.system).toBe("base, rewritten by an extension");
  });
});

describe("Agent loop", () => {
  test("a text answer emits the documented event order and prices the usage", async () => {
    const { agent, events } = setup([{ text: "Hello there" }]);
    expect(await run(agent)).toEqual({ status: "ok" });
    expect(types(events)).toEqual([
      "user_message", "turn_start", "assistant_start", "usage", "assistant_message", "turn_end", "done",
    ]);
    const deltas = events.filter((e) => e.type === "text_delta").map((e) => (e as any).delta);
    expect(deltas.join("")).toBe("Hello there");
    expect(deltas.length).toBeGreaterThan(1);
    const usage = events.find((e) => e.type === "usage") as any;
    expect(usage.cost_usd).toBeCloseTo((1000 * 3 + 100 * 15) / 1e6, 10);
    expect(usage.cumulative.input).toBe(1000);
    expect(events.find((e) => e.type === "turn_end")).toEqual({ type: "turn_end", stop: "end_turn" });
  });

  test("tool calls run in order and their results reach the next request", async () => {
    const seen: unknown[] = [];
    const { agent, events, requests } = setup(
      [
        { text: "Running", calls: [{ id: "a", name: "echo", args: { n: 1 } }, { id: "b", name: "echo", args: { n: 2 } }] },
        { text: "Done" },
      ],
      [echoTool(seen)],
    );
    expect(await run(agent)).toEqual({ status: "ok" });
    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
    const second = requests[1].messages;
    const toolMessage = second[second.length - 1];
    expect(toolMessage.role).toBe("tool");
    expect(toolMessage.content.map((b: any) => [b.call_id, b.content[0].text])).toEqual([
      ["a", 'echo:{"n":1}'],
      ["b", 'echo:{"n":2}'],
    ]);
    expect(types(events)).toEqual([
      "user_message", "turn_start", "assistant_start", "usage", "assistant_message", "tool_call", "tool_call", "turn_end",
      "tool_progress", "tool_result", "tool_progress", "tool_result",
      "turn_start", "assistant_start", "usage", "assistant_message", "turn_end", "done",
    ]);
    expect((events.filter((e) => e.type === "usage").at(-1) as any).cumulative.input).toBe(2000);
  });

  test("an unknown tool gives the model an error naming the tools it has", async () => {
    const { agent, requests } = setup([{ calls: [{ id: "a", name: "nope", args: {} }] }, { text: "ok" }]);
    await run(agent);
    const result = requests[1].messages.at(-1)!.content[0] as any;
    expect(result.is_error).toBe(true);
    expect(result.content[0].text).toBe('unknown tool "nope"; available tools: echo');
  });

  test("max steps ends the prompt with an error after N model calls", async () => {
    const loopTurn = () => ({ calls: [{ id: crypto.randomUUID(), name: "echo", args: {} }] });
    const { agent, events, requests } = setup([loopTurn(), loopTurn(), loopTurn()], [echoTool()], 2);
    const outcome = await run(agent);
    expect(outcome).toEqual({ status: "error", code: "max_steps", message: 'max steps (2) exceeded: the model was still calling tools; send "go on" to let it continue, or allow more steps (--max-steps)' });
    expect(requests).toHaveLength(2);
    expect(events.slice(-2)).toEqual([{ type: "error", message: 'max steps (2) exceeded: the model was still calling tools; send "go on" to let it continue, or allow more steps (--max-steps)', code: "max_steps" }, { type: "done" }]);
  });

  test("a provider error ends the turn with stop error, then error, then done, both with its code; partial text is kept", async () => {
    const { agent, events } = setup([{ text: "partial", error: "anthropic: HTTP 429: slow down" }]);
    const outcome = await run(agent);
    expect(outcome).toEqual({ status: "error", code: "rate_limit", message: "anthropic: HTTP 429: slow down" });
    expect(events.slice(-3)).toEqual([
      { type: "turn_end", stop: "error", error: "anthropic: HTTP 429: slow down", code: "rate_limit" },
      { type: "error", message: "anthropic: HTTP 429: slow down", code: "rate_limit" },
      { type: "done" },
    ]);
    expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "partial" }] });
  });

  test("abort mid-stream: turn_end aborted, then done, and no error event", async () => {
    const { agent, events } = setup([{ text: "part", hang: true }]);
    const controller = new AbortController();
    const pending = run(agent, "hi", controller.signal);
    await Bun.sleep(10);
    controller.abort();
    expect(await pending).toEqual({ status: "aborted" });
    expect(events.slice(-2)).toEqual([{ type: "turn_end", stop: "aborted" }, { type: "done" }]);
    expect(events.some((e) => e.type === "error")).toBe(false);
  });

  test("abort while a tool is stuck where no signal reaches it: the turn still ends, the call keeps a result", async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const stuck: Tool = {
      name: "stuck",
      description: "blocks forever, ignoring its signal (a read of a hung mount)",
      parameters: { type: "object" },
      execute() {
        started();
        return new Promise(() => {});
      },
    };
    const { agent, events } = setup([{ calls: [{ id: "c1", name: "stuck", args: {} }] }, { text: "never" }], [stuck]);
    const controller = new AbortController();
    const pending = run(agent, "hi", controller.signal);
    await running;
    controller.abort();
    expect(await pending).toEqual({ status: "aborted" });
    expect(events.at(-1)).toEqual({ type: "done" });
    const result = events.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ id: "c1", is_error: true });
    expect(JSON.stringify(result)).toContain("did not stop");
  });

  test("an aborted tool that returns its own result in time keeps it", async () => {
    const polite: Tool = {
      name: "polite",
      description: "stops when asked",
      parameters: { type: "object" },
      execute(_args, ctx) {
        return new Promise((resolve) => {
          ctx.signal.addEventListener("abort", () => resolve({ content: [{ type: "text", text: "partial output, then stopped" }], is_error: true }));
        });
      },
    };
    const { agent, events } = setup([{ calls: [{ id: "c1", name: "polite", args: {} }] }, { text: "never" }], [polite]);
    const controller = new AbortController();
    const pending = run(agent, "hi", controller.signal);
    await Bun.sleep(20);
    controller.abort();
    expect(await pending).toEqual({ status: "aborted" });
    expect(JSON.stringify(events.find((e) => e.type === "tool_result"))).toContain("partial output, then stopped");
  });

  test("a consumer that holds back stops tool output and the model stream until it lets go", async () => {
    let release!: () => void;
    let held: Promise<void> | undefined = new Promise<void>((resolve) => (release = resolve));
    const chatty: Tool = {
      name: "chatty",
      description: "streams three chunks",
      parameters: { type: "object" },
      async execute(_args, ctx) {
        for (const chunk of ["one", "two", "three"]) await ctx.onProgress(chunk);
        return { content: [{ type: "text", text: "done" }], is_error: false };
      },
    };
    const { agent, events } = setup([{ calls: [{ id: "c1", name: "chatty", args: {} }] }, { text: "after" }], [chatty]);
    agent.holdBack(() => held);
    const pending = run(agent);
    for (let i = 0; i < 20; i++) await Bun.sleep(5);
    // The stream stopped at its first event, before any tool ran.
    expect(events.some((e) => e.type === "tool_progress")).toBe(false);
    held = undefined;
    release();
    expect(await pending).toEqual({ status: "ok" });
    expect(events.filter((e) => e.type === "tool_progress").map((e) => (e as { text: string }).text)).toEqual(["one", "two", "three"]);
  });

  test("a call whose arguments were not one JSON object is not run: the model is told, quoting what it sent", async () => {
    const seen: unknown[] = [];
    const { agent, requests } = setup([{ calls: [{ id: "c1", name: "echo", args: {}, unparsed_args: '{"text": "cut' }] }, { text: "again" }], [echoTool(seen)]);
    expect(await run(agent)).toEqual({ status: "ok" });
    expect(seen).toEqual([]);
    const result = agent.messages.find((m) => m.role === "tool")!.content[0] as { content: { text: string }[] };
    expect(result.content[0]!.text).toBe('not run: the arguments of this echo call were not one JSON object ("{\\"text\\": \\"cut"); make the call again with its arguments as a JSON object');
    expect(requests).toHaveLength(2);
  });

  test("a server that reports no usage leaves the context meter to the estimate of what was sent, not at 0", async () => {
    const silent: Provider = {
      name: "fake",
      async *stream(): AsyncIterable<ProviderBatch> {
        yield [{ type: "text_delta", delta: "ok" }];
        yield [{ type: "done", content: [{ type: "text", text: "ok" }], stop: "end_turn" }];
      },
    };
    const agent = new Agent({ provider: silent, model, tools: [], system: "sys", cwd: "/tmp", maxSteps: 0 });
    await agent.prompt({ text: "x".repeat(40_000) }, new AbortController().signal);
    // About 10,000 tokens of prompt (four characters a token).
    expect(agent.contextUse().tokens).toBeGreaterThan(9_000);
  });

  test("turn_start block ends the turn with the reason", async () => {
    const { agent, events, requests } = setup([{ text: "never" }]);
    agent.chain.add(gate("quota", ["turn_start"], () => ({ action: "block", reason: "out of quota" })));
    const outcome = await run(agent);
    expect(outcome).toEqual({ status: "blocked", reason: "turn blocked by quota: out of quota" });
    expect(requests).toHaveLength(0);
    expect(events).toContainEqual({ type: "turn_end", stop: "error", error: "out of quota", code: "blocked" });
    expect(events.slice(-2)).toEqual([{ type: "error", message: "turn blocked by quota: out of quota", code: "blocked" }, { type: "done" }]);
    expect(events).toContainEqual({ type: "intercept", participant: "quota", stage: "turn_start", action: "block", reason: "out of quota" });
  });

  test("tool_call deny is the tool error the model sees; modify rewrites the args the tool gets", async () => {
    const seen: unknown[] = [];
    const { agent, requests } = setup(
      [{ calls: [{ id: "a", name: "echo", args: { cmd: "rm -rf /" } }, { id: "b", name: "echo", args: { cmd: "ls" } }] }, { text: "ok" }],
      [echoTool(seen)],
    );
    agent.chain.add(
      gate("guard", ["tool_call"], (_s, p) =>
        p.args.cmd.startsWith("rm") ? { action: "deny", reason: "dangerous" } : { action: "modify", value: { cmd: "ls -la" } },
      ),
    );
    await run(agent);
    expect(seen).toEqual([{ cmd: "ls -la" }]);
    const results = requests[1].messages.at(-1)!.content as any[];
    expect(results[0]).toMatchObject({ call_id: "a", is_error: true, content: [{ text: "dangerous" }] });
    expect(results[1]).toMatchObject({ call_id: "b", is_error: false });
  });

  test("respond gives a result without running the tool; after_tool can rewrite a result", async () => {
    const seen: unknown[] = [];
    const { agent, requests, events } = setup(
      [{ calls: [{ id: "a", name: "echo", args: { x: 1 } }, { id: "b", name: "echo", args: { x: 2 } }] }, { text: "ok" }],
      [echoTool(seen)],
    );
    agent.chain.add(
      gate("cache", ["tool_call"], (_s, p) =>
        p.args.x === 1 ? { action: "respond", result: { content: [{ type: "text", text: "from cache" }], is_error: false } } : { action: "continue" },
      ),
    );
    agent.chain.add(
      gate("redactor", ["after_tool"], (_s, p) => ({
        action: "modify",
        value: { ...p.result, content: [{ type: "text", text: "[redacted]" }] },
      })),
    );
    await run(agent);
    expect(seen).toEqual([{ x: 2 }]);
    const results = requests[1].messages.at(-1)!.content as any[];
    expect(results.map((r) => r.content[0].text)).toEqual(["from cache", "[redacted]"]);
    expect(events.filter((e) => e.type === "tool_result").map((e: any) => e.content[0].text)).toEqual(["from cache", "[redacted]"]);
  });

  test("assistant_message rewrite changes what is shown; the transcript keeps what the model said", async () => {
    const { agent, events } = setup([{ text: "my secret is 42" }]);
    agent.chain.add(gate("redact", ["assistant_message"], (_s, p) => ({ action: "modify", value: p.text.replace("42", "**") })));
    await run(agent);
    const shown = events.find((e) => e.type === "assistant_message") as any;
    expect(shown.content).toEqual([{ type: "text", text: "my secret is **" }]);
    expect(agent.messages.at(-1)!.content).toEqual([{ type: "text", text: "my secret is 42" }]);
  });

  test("assistant_message block hides the message from events but keeps it in the transcript", async () => {
    const { agent, events } = setup([{ text: "hidden" }]);
    agent.chain.add(gate("hide", ["assistant_message"], () => ({ action: "block", reason: "nope" })));
    expect(await run(agent)).toEqual({ status: "ok" });
    expect(events.some((e) => e.type === "assistant_message")).toBe(false);
    expect(agent.messages.at(-1)!.content).toEqual([{ type: "text", text: "hidden" }]);
  });

  test("tool call ids are unique in what is sent: a server's id reused across steps, and an after_llm rewrite's repeats, are renamed", async () => {
    const seen: unknown[] = [];
    const { agent, events, requests } = setup(
      [
        { calls: [{ id: "c1", name: "echo", args: { n: 1 } }] },
        // A server that numbers its calls per answer gives this step's call the first step's id.
        { calls: [{ id: "c1", name: "echo", args: { n: 2 } }] },
        { calls: [{ id: "x", name: "echo", args: { n: 0 } }] },
        { text: "done" },
      ],
      [echoTool(seen)],
    );
    let step = 0;
    agent.chain.add(
      gate("hook", ["after_llm"], (_s, p) => {
        if (++step !== 3) return { action: "continue" };
        // A hook's tool_calls with one id twice.
        const call = (n: number) => ({ type: "tool_call", id: "dup", name: "echo", args: { n } });
        return { action: "modify", value: { ...p.response, content: [call(3), call(4)], stop: "tool_use" } };
      }),
    );
    expect(await run(agent)).toEqual({ status: "ok" });
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    const ids = (messages: ModelRequest["messages"]) =>
      messages.flatMap((m) => m.content.flatMap((b: any) => (b.type === "tool_call" ? [`call ${b.id}`] : b.type === "tool_result" ? [`result ${b.call_id}`] : [])));
    expect(ids(requests[3].messages)).toEqual(["call c1", "result c1", "call c1_2", "result c1_2", "call dup", "call dup_2", "result dup", "result dup_2"]);
    expect(events.filter((e) => e.type === "tool_call").map((e: any) => e.id)).toEqual(["c1", "c1_2", "dup", "dup_2"]);
    // The stream's own events take the renamed id as they come, so a front end never sees an ended call start again.
    expect(events.filter((e) => e.type.startsWith("tool_use_")).map((e: any) => `${e.type} ${e.id}`)).toEqual([
      "tool_use_start c1", "tool_use_args c1", "tool_use_end c1",
      "tool_use_start c1_2", "tool_use_args c1_2", "tool_use_end c1_2",
      "tool_use_start x", "tool_use_args x", "tool_use_end x",
    ]);
  });

  test("an id a /clear took out of the transcript is still not given again: a front end still shows that call", async () => {
    const { agent, events } = setup([{ calls: [{ id: "c1", name: "echo", args: { n: 1 } }] }, { text: "one" }, { calls: [{ id: "c1", name: "echo", args: { n: 2 } }] }, { text: "two" }]);
    expect(await run(agent)).toEqual({ status: "ok" });
    await agent.clear();
    expect(await run(agent)).toEqual({ status: "ok" });
    expect(events.filter((e) => e.type === "tool_use_start" || e.type === "tool_result").map((e: any) => `${e.type} ${e.id}`)).toEqual([
      "tool_use_start c1", "tool_result c1", "tool_use_start c1_2", "tool_result c1_2",
    ]);
  });

  test("ids stay taken through a resume and a clear before any call, and a call that started and was aborted keeps its id", async () => {
    const { agent, events } = setup([{ calls: [{ id: "c1", name: "echo", args: { n: 1 } }] }, { text: "one" }]);
    // A resumed transcript whose call c1 is on screen, cleared before any call of this run.
    agent.replaceTranscript([
      { role: "user", content: [{ type: "text", text: "before" }], time: "2026-11-27T10:00:00.000Z" },
      { role: "assistant", content: [{ type: "tool_call", id: "c1", name: "echo", args: {} }], time: "2026-11-27T10:00:00.000Z" },
      { role: "tool", content: [{ type: "tool_result", call_id: "c1", is_error: false, content: [{ type: "text", text: "old" }] }], time: "2026-11-27T10:00:00.000Z" },
    ]);
    agent.clear();
    expect(await run(agent)).toEqual({ status: "ok" });
    expect(events.filter((e) => e.type === "tool_use_start").map((e: any) => e.id)).toEqual(["c1_2"]);

    // A call that started streaming and was aborted: a front end drew it, so its id is not given again.
    let calls = 0;
    const hanging: Provider = {
      name: "fake",
      async *stream(_request, signal): AsyncIterable<ProviderBatch> {
        calls++;
        yield [{ type: "tool_use_start", id: "k1", name: "echo" }];
        if (calls === 1) await new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true }));
        yield [{ type: "tool_use_end", id: "k1" }, { type: "done", content: [{ type: "tool_call", id: "k1", name: "echo", args: {} }], stop: "end_turn" }];
      },
    };
    const other = new Agent({ provider: hanging, model, tools: [echoTool()], system: "sys", cwd: "/tmp" });
    const seen: AgentEvent[] = [];
    other.onEvent((e) => seen.push(e));
    const controller = new AbortController();
    const first = other.prompt({ text: "go" }, controller.signal);
    while (!seen.some((e) => e.type === "tool_use_start")) await Bun.sleep(5);
    controller.abort();
    expect((await first).status).toBe("aborted");
    await other.prompt({ text: "again" }, new AbortController().signal);
    expect(seen.filter((e) => e.type === "tool_use_start").map((e: any) => e.id)).toEqual(["k1", "k1_2"]);
  });

  test("before_llm modify reaches the provider (tool injection)", async () => {
    const { agent, requests } = setup([{ text: "ok" }]);
    agent.chain.add(
      gate("inject", ["before_llm"], (_s, p) => ({
        action: "modify",
        value: { ...p.request, tools: [...p.request.tools, { name: "plugin", description: "d", parameters: {} }] },
      })),
    );
    await run(agent);
    expect(requests[0].tools.map((t) => t.name)).toEqual(["echo", "plugin"]);
  });

  test("abort_turn during tool calls keeps the transcript valid: every call has a result", async () => {
    const { agent, events } = setup([
      { calls: [{ id: "a", name: "echo", args: {} }, { id: "b", name: "echo", args: {} }] },
    ]);
    agent.chain.add(gate("stop", ["tool_call"], () => ({ action: "abort_turn", reason: "enough" })));
    const outcome = await run(agent);
    expect(outcome).toEqual({ status: "error", code: "intercepted", message: "enough" });
    const last = agent.messages.at(-1)!;
    expect(last.role).toBe("tool");
    expect(last.content.map((b: any) => b.call_id)).toEqual(["a", "b"]);
    expect(events.slice(-2)).toEqual([{ type: "error", message: "enough", code: "intercepted" }, { type: "done" }]);
  });

  test("a turn ended at after_tool: the call that ran is reported as run (its output withheld), the next as cancelled; a hard abort still says how each call ended", async () => {
    const { agent, events } = setup([
      { calls: [{ id: "a", name: "echo", args: { x: 1 } }, { id: "b", name: "echo", args: {} }] },
    ]);
    agent.chain.add(gate("stop", ["after_tool"], () => ({ action: "abort_turn", reason: "enough" })));
    expect(await run(agent)).toEqual({ status: "error", code: "intercepted", message: "enough" });
    const results = events.filter((e) => e.type === "tool_result") as any[];
    expect(results.map((e) => [e.id, e.status ?? "ok", e.content[0].text])).toEqual([
      ["a", "ok", "turn aborted: enough"],
      ["b", "cancelled", "turn aborted: enough"],
    ]);
    expect(agent.messages.at(-1)!.content.map((b: any) => b.call_id)).toEqual(["a", "b"]);

    const hard = setup([{ calls: [{ id: "c", name: "echo", args: {} }, { id: "d", name: "echo", args: {} }] }]);
    hard.agent.chain.add(gate("kill", ["tool_call"], () => ({ action: "hard_abort", reason: "stop everything" })));
    await run(hard.agent);
    expect((hard.events.filter((e) => e.type === "tool_result") as any[]).map((e) => [e.id, e.status])).toEqual([
      ["c", "cancelled"],
      ["d", "cancelled"],
    ]);
  });

  test("abort_turn at assistant_message after the model asked for tools leaves every call with a result", async () => {
    const { agent, requests } = setup([{ text: "let me look", calls: [{ id: "a", name: "echo", args: {} }] }, { text: "next" }]);
    agent.chain.add(gate("stop", ["assistant_message"], () => ({ action: "abort_turn", reason: "enough" })));
    expect(await run(agent)).toEqual({ status: "error", code: "intercepted", message: "enough" });
    const last = agent.messages.at(-1)!;
    expect(last.role).toBe("tool");
    expect(last.content).toMatchObject([{ type: "tool_result", call_id: "a", is_error: true }]);
    agent.chain.remove("stop");
    await run(agent, "again");
    const calls = requests[1].messages.flatMap((m) => m.content).filter((b) => b.type === "tool_call").map((b: any) => b.id);
    const answered = requests[1].messages.flatMap((m) => m.content).filter((b) => b.type === "tool_result").map((b: any) => b.call_id);
    expect(answered).toEqual(calls);
  });

  test("hard_abort takes this prompt's messages back out of the transcript", async () => {
    const { agent } = setup([{ text: "first answer" }, { calls: [{ id: "a", name: "echo", args: {} }] }]);
    await run(agent, "one");
    expect(agent.messages).toHaveLength(2);
    agent.chain.add(gate("kill", ["tool_call"], () => ({ action: "hard_abort", reason: "stop everything" })));
    const events: AgentEvent[] = [];
    agent.onEvent((e) => events.push(e));
    const outcome = await run(agent, "two");
    expect(outcome).toEqual({ status: "error", code: "intercepted", message: "stop everything" });
    expect(events.slice(-2)).toEqual([{ type: "error", message: "stop everything", code: "intercepted" }, { type: "done" }]);
    expect(agent.messages).toHaveLength(2);
    expect(agent.messages[0].content).toEqual([{ type: "text", text: "one" }]);
    // The context is what is left (a few words, estimated at the fake's calibration: its 1,000
    // tokens for a request of a few words hit the bound, 8 a word's worth), not the taken-back
    // call's 1,100 tokens, so the next prompt does not start with a compaction of what the
    // hard_abort already removed.
    expect(agent.contextUse().tokens).toBeGreaterThan(0);
    expect(agent.contextUse().tokens).toBeLessThan(300);
  });

  test("a participant that ends the turn before the model is called: turn_end and error carry the code intercepted", async () => {
    const { agent, events, requests } = setup([{ text: "never" }]);
    agent.chain.add(gate("kill", ["before_llm"], () => ({ action: "hard_abort", reason: "not now" })));
    expect(await run(agent)).toEqual({ status: "error", code: "intercepted", message: "not now" });
    expect(requests).toHaveLength(0);
    expect(events.slice(-3)).toEqual([
      { type: "turn_end", stop: "aborted", error: "not now", code: "intercepted" },
      { type: "error", message: "not now", code: "intercepted" },
      { type: "done" },
    ]);
    agent.chain.remove("kill");
    agent.chain.add(gate("stop", ["before_llm"], () => ({ action: "abort_turn", reason: "enough" })));
    await run(agent, "again");
    expect(events.slice(-3)).toEqual([
      { type: "turn_end", stop: "error", error: "enough", code: "intercepted" },
      { type: "error", message: "enough", code: "intercepted" },
      { type: "done" },
    ]);
  });

  test("approve_tool deny is the tool error; the tool never runs", async () => {
    const seen: unknown[] = [];
    const { agent, requests } = setup([{ calls: [{ id: "a", name: "echo", args: {} }] }, { text: "ok" }], [echoTool(seen)]);
    agent.chain.add(gate("gate", ["approve_tool"], () => ({ action: "deny", reason: "user declined" })));
    await run(agent);
    expect(seen).toEqual([]);
    expect((requests[1].messages.at(-1)!.content[0] as any).content[0].text).toBe("user declined");
  });

  test("a tool that throws becomes an error result, and the loop goes on", async () => {
    const broken: Tool = { name: "broken", description: "", parameters: {}, execute: async () => { throw new Error("kaput"); } };
    const { agent, requests } = setup([{ calls: [{ id: "a", name: "broken", args: {} }] }, { text: "ok" }], [broken]);
    expect(await run(agent)).toEqual({ status: "ok" });
    expect((requests[1].messages.at(-1)!.content[0] as any).content[0].text).toBe("broken failed: kaput");
  });
});

describe("a model for one prompt (a Markdown command's model:)", () => {
  const small = testModel({ id: "small-model", context_window: 10_000, price_input: 1, price_output: 5 });

  test("its turns go to that model and its client, priced at it; the agent's own model and client are back after, and no switch is announced", async () => {
    const own = provider([{ text: "on the own model" }]);
    const other = provider([{ calls: [{ id: "c1", name: "echo", args: { n: 1 } }] }, { text: "on the small model" }]);
    const agent = new Agent({ provider: own, model, tools: [echoTool()], system: "sys", cwd: "/tmp" });
    const switches: string[] = [];
    agent.onModelChange((m) => switches.push(m.id));
    const events: AgentEvent[] = [];
    agent.onEvent((e) => events.push(e));
    const outcome = await agent.prompt({ text: "quick look", model: { info: small, provider: other } }, new AbortController().signal);
    expect(outcome.status).toBe("ok");
    expect(other.requests.map((r) => r.model.id)).toEqual(["small-model", "small-model"]);
    expect(own.requests).toEqual([]);
    const usage = events.find((e) => e.type === "usage") as any;
    expect(usage.cost_usd).toBeCloseTo((1000 * 1 + 100 * 5) / 1e6, 10);
    expect(agent.model.id).toBe(model.id);
    expect(switches).toEqual([]);
    await agent.prompt({ text: "and now" }, new AbortController().signal);
    expect(own.requests.map((r) => r.model.id)).toEqual([model.id]);
  });

  test("meanwhile the agent's model is still its own, and a switch made then is the agent's own, for after the prompt", async () => {
    const seen: string[] = [];
    let agent: Agent;
    const other = provider([{ text: "small answer" }]);
    const watching: typeof other = { ...other, async *stream(request, signal) {
      seen.push(agent.model.id);
      agent.switchModel(testModel({ id: "switched-meanwhile" }));
      yield* other.stream(request, signal);
    } };
    agent = new Agent({ provider: provider([]), model, tools: [], system: "sys", cwd: "/tmp" });
    await agent.prompt({ text: "x", model: { info: small, provider: watching } }, new AbortController().signal);
    expect(other.requests.map((r) => r.model.id)).toEqual(["small-model"]);
    expect(seen).toEqual([model.id]);
    expect(agent.model.id).toBe("switched-meanwhile");
  });

  test("the agent's own model is back after a prompt on another that failed", async () => {
    const failing = provider([{ error: "overloaded" }, { error: "overloaded" }, { error: "overloaded" }, { error: "overloaded" }]);
    const agent = new Agent({ provider: provider([]), model, tools: [], system: "sys", cwd: "/tmp" });
    const outcome = await agent.prompt({ text: "x", model: { info: small, provider: failing } }, new AbortController().signal);
    expect(outcome.status).not.toBe("ok");
    expect(agent.model.id).toBe(model.id);
  });

  test("a lent model whose window the prompt outgrows hands the prompt back to the agent's own: nothing is compacted", async () => {
    // The fake reports 1,100 tokens a call: past 85 % of a 1,200-token window after the first.
    const narrow = testModel({ id: "narrow-model", context_window: 1_200 });
    const lent = provider([{ calls: [{ id: "c1", name: "echo", args: { n: 1 } }] }]);
    const own = provider([{ text: "finished on the own model" }]);
    const agent = new Agent({ provider: own, model, tools: [echoTool()], system: "sys", cwd: "/tmp" });
    const events: AgentEvent[] = [];
    agent.onEvent((e) => events.push(e));
    const heard: string[] = [];
    const outcome = await agent.prompt({ text: "look", model: { info: narrow, provider: lent, handedBack: (why) => heard.push(why) } }, new AbortController().signal);
    expect(outcome.status).toBe("ok");
    expect(lent.requests.map((r) => r.model.id)).toEqual(["narrow-model"]);
    expect(own.requests.map((r) => r.model.id)).toEqual([model.id]);
    expect(heard).toEqual(["the conversation reached the compaction point of its window; the rest of the prompt runs on " + model.id + " instead of narrow-model"]);
    expect(events.some((e) => e.type === "compact_start")).toBe(false);
    expect(agent.messages.length).toBe(4);
  });

  test("a lent model that overflows hands the prompt back, and the same request goes to the agent's own", async () => {
    const overflowing: Provider & { requests: ModelRequest[] } = {
      name: "fake",
      requests: [],
      async *stream(request): AsyncIterable<ProviderBatch> {
        overflowing.requests.push(structuredClone(request));
        throw new ProviderError("prompt is too long", "context_overflow");
      },
    };
    const own = provider([{ text: "fine on the own model" }]);
    const agent = new Agent({ provider: own, model, tools: [], system: "sys", cwd: "/tmp" });
    const events: AgentEvent[] = [];
    agent.onEvent((e) => events.push(e));
    const heard: string[] = [];
    const outcome = await agent.prompt({ text: "big", model: { info: small, provider: overflowing, handedBack: (why) => heard.push(why) } }, new AbortController().signal);
    expect(outcome.status).toBe("ok");
    expect(overflowing.requests.length).toBe(1);
    expect(own.requests.map((r) => r.model.id)).toEqual([model.id]);
    expect(heard[0]).toStartWith("the conversation overflowed its window");
    expect(events.some((e) => e.type === "compact_start")).toBe(false);
  });

  test("fitsIn: the transcript must stay under the compaction point of the model's window", async () => {
    const agent = new Agent({ provider: provider([{ text: "answer" }]), model, tools: [], system: "sys", cwd: "/tmp" });
    expect(agent.fitsIn(small)).toBe(true);
    await agent.prompt({ text: "fill" }, new AbortController().signal);
    // The fake reports 1,000 input + 100 output tokens: 11 % of 10K, well under 85 %.
    expect(agent.fitsIn(small)).toBe(true);
    expect(agent.fitsIn(testModel({ id: "tiny", context_window: 1_200 }))).toBe(false);
    // The prompt's own text counts: 40,000 characters are ~10,000 tokens.
    expect(agent.fitsIn(small, "x".repeat(40_000))).toBe(false);
  });
});
