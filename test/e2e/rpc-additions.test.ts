// The RPC additions of the newer original that its clients use, through the compiled binary and the
// mock LLM: set_reasoning (what the next request carries, its busy refusal), usage.reasoning from
// each wire API, and ext_display / ext_clear_notes from a real extension process.
// Rule: assert what reaches the model and what the client reads, never how zot stores it.
import { describe, expect, test } from "bun:test";
import { scriptedExtension } from "../fixtures/extensions/make.ts";
import { anthropicMock, type RpcProcess, rpcFixture, type Turns } from "../support/rpc-process.ts";
import { tempDir } from "../support/zot.ts";

const fixture = rpcFixture();
const openaiMock = (url: string, model = "gpt-5") => ["--provider", "openai", "--model", model, "--api-key", "k", "--base-url", `${url}/v1`];

function start(turns: Turns, provider: (url: string) => string[] = anthropicMock, extra: string[] = ["--no-ext"]): RpcProcess {
  return fixture.start(turns, extra, { provider });
}

/** After a prompt at medium: max, minimum and off, each answered with what it applies and followed by a prompt. */
async function laterLevels(r: RpcProcess): Promise<void> {
  for (const [reasoning, applied, prompt] of [["max", "max", "two"], ["minimum", "low", "three"], ["off", "off", "four"]]) {
    expect((await r.call({ type: "set_reasoning", reasoning })).data).toEqual({ reasoning, applied });
    await r.prompt(prompt!);
  }
}

describe("set_reasoning", () => {
  test("anthropic, a model that takes a budget (claude-sonnet-4-6): each level reaches the next request as a thinking budget (max the largest that leaves room for the answer); off sends none", async () => {
    const r = start([{ text: "1" }, { text: "2" }, { text: "3" }, { text: "4" }], (url) => [...anthropicMock(url), "--model", "claude-sonnet-4-6"]);
    expect(await r.call({ type: "set_reasoning", reasoning: "medium", id: "r1" })).toEqual({
      type: "response",
      id: "r1",
      command: "set_reasoning",
      success: true,
      data: { reasoning: "medium", applied: "medium" },
    });
    await r.prompt("one");
    await laterLevels(r);
    const thinking = fixture.mock.requests.map((q) => q.body.thinking);
    expect(thinking).toEqual([
      { type: "enabled", budget_tokens: 8192 },
      { type: "enabled", budget_tokens: 49152 },
      { type: "enabled", budget_tokens: 2048 },
      undefined,
    ]);
    expect(fixture.mock.requests.map((q) => q.body.output_config)).toEqual([undefined, undefined, undefined, undefined]);
    expect(await r.close()).toBe(0);
  });

  test("anthropic, the default model (claude-sonnet-5-5, adaptive): each level reaches the next request as output_config.effort, never a budget; off sends no effort (it still thinks, unasked); xhigh and max are sent as they are", async () => {
    const r = start([{ text: "1" }, { text: "2" }, { text: "3" }, { text: "4" }]);
    expect((await r.call({ type: "set_reasoning", reasoning: "medium" })).data).toEqual({ reasoning: "medium", applied: "medium" });
    await r.prompt("one");
    await laterLevels(r);
    expect(fixture.mock.requests.map((q) => q.body.model)).toEqual(Array(4).fill("claude-sonnet-5-5"));
    expect(fixture.mock.requests.map((q) => q.body.output_config)).toEqual([{ effort: "medium" }, { effort: "max" }, { effort: "low" }, undefined]);
    // A 5.5 model thinks unasked: every request, "off" too, asks for its thinking summarized, with no budget.
    const adaptive = { type: "adaptive", display: "summarized", block_binding: { prefix_mismatch_behavior: "drop_block" } };
    expect(fixture.mock.requests.map((q) => q.body.thinking)).toEqual([adaptive, adaptive, adaptive, adaptive]);
    expect(fixture.mock.requests.map((q) => q.headers["anthropic-beta"])).toEqual(Array(4).fill("thinking-binding-controls-2026-08-01"));
    expect(await r.close()).toBe(0);
  });

  test("openai responses: the next request's reasoning effort (xhigh sent as high, which every reasoning model takes); off sends none", async () => {
    const r = start([{ text: "1" }, { text: "2" }, { text: "3" }], (url) => openaiMock(url), ["--no-ext", "--reasoning", "low"]);
    await r.prompt("as started");
    expect((await r.call({ type: "set_reasoning", reasoning: "xhigh" })).data).toEqual({ reasoning: "xhigh", applied: "xhigh" });
    await r.prompt("harder");
    await r.call({ type: "set_reasoning", reasoning: "off" });
    await r.prompt("none");
    expect(fixture.mock.requests.map((q) => q.path)).toEqual(["/v1/responses", "/v1/responses", "/v1/responses"]);
    expect(fixture.mock.requests.map((q) => q.body.reasoning?.effort)).toEqual(["low", "high", undefined]);
    expect(await r.close()).toBe(0);
  });

  test("refused while a prompt runs or waits, with 'agent is busy' (not queued); abort still works; a level zot does not know is a field error", async () => {
    const slow = { text: "word ".repeat(2000), chunk_size: 5, chunk_delay_ms: 50 };
    const r = start([slow, { text: "queued" }, { text: "after" }]);
    const from = r.lines.length;
    r.send({ type: "prompt", message: "talk", id: "p1" });
    r.send({ type: "prompt", message: "queued", id: "p2" });
    await r.waitFor((l) => l.type === "text_delta", from, "the first text_delta");
    for (const command of [{ type: "set_reasoning", reasoning: "high" }, { type: "clear" }, { type: "set_model", model: "claude-haiku-4-5" }]) {
      const refused = await r.call(command);
      expect(refused).toMatchObject({ type: "response", command: command.type, success: false });
      expect(refused.error).toStartWith("agent is busy: cannot ");
      expect(refused.error).toContain("a prompt or compaction is running and 1 more queued; send abort or wait for done");
    }
    expect(await r.call({ type: "abort" })).toMatchObject({ success: true });
    await r.waitFor((l) => l.id === "p2", from, "the queued prompt starting");
    await r.eventsUntilDone(r.lines.findIndex((l) => l.id === "p2"));
    // Nothing was queued: the refused level never reached a request (the default model, claude-sonnet-5-5,
    // thinks unasked; a level would be its output_config.effort).
    await r.prompt("after");
    expect(fixture.mock.requests.map((q) => q.body.output_config)).toEqual([undefined, undefined, undefined]);
    expect(fixture.mock.requests.map((q) => q.body.thinking?.budget_tokens)).toEqual([undefined, undefined, undefined]);

    const bad = await r.call({ type: "set_reasoning", reasoning: "extreme" });
    expect(bad.success).toBe(false);
    expect(bad.error).toStartWith('set_reasoning: field "reasoning": ');
    expect(bad.error).toContain('"xhigh"');
    expect(await r.close()).toBe(0);
  });
});

describe("usage.reasoning", () => {
  test("openai responses: the reasoning tokens the stream reports, in the event, its cumulative and get_state", async () => {
    const r = start(
      [
        { thinking: "hmm", text: "one", usage: { input: 50, output: 40, reasoning: 32 } },
        { text: "two", usage: { input: 60, output: 10, reasoning: 0 } },
      ],
      (url) => openaiMock(url),
    );
    const first = (await r.prompt("think")).find((e) => e.type === "usage");
    expect(first).toMatchObject({ input: 50, output: 40, reasoning: 32, cumulative: { output: 40, reasoning: 32 } });
    const second = (await r.prompt("again")).find((e) => e.type === "usage");
    expect(second).toMatchObject({ output: 10, reasoning: 0, cumulative: { output: 50, reasoning: 32 } });
    expect((await r.call({ type: "get_state" })).data.usage).toMatchObject({ output: 50, reasoning: 32 });
    expect(await r.close()).toBe(0);
  });

  test("openai chat completions: completion_tokens_details.reasoning_tokens", async () => {
    const r = start([{ text: "chat", usage: { input: 20, output: 9, reasoning: 7 } }], (url) => openaiMock(url, "gpt-4.1"));
    const usage = (await r.prompt("hi")).find((e) => e.type === "usage");
    expect(fixture.mock.requests[0].path).toBe("/v1/chat/completions");
    expect(usage).toMatchObject({ output: 9, reasoning: 7, cumulative: { reasoning: 7 } });
    expect(await r.close()).toBe(0);
  });

  test("anthropic reports no split of its thinking tokens: null in the event, its cumulative and get_state", async () => {
    const r = start([{ thinking: "hmm", text: "one", usage: { input: 50, output: 40 } }], anthropicMock, ["--no-ext", "--reasoning", "low"]);
    expect((await r.call({ type: "get_state" })).data.usage.reasoning).toBeNull();
    const usage = (await r.prompt("think")).find((e) => e.type === "usage");
    expect(usage).toMatchObject({ output: 40, reasoning: null, cumulative: { output: 40, reasoning: null } });
    expect((await r.call({ type: "get_state" })).data.usage).toMatchObject({ output: 40, reasoning: null });
    expect(await r.close()).toBe(0);
  });
});

describe("extension notes", () => {
  /** A command that displays, and a note shown at turn_start and taken back (clear_notes) at turn_end. */
  function notesExtension(): string {
    return scriptedExtension(tempDir("zot-rpc-ext-"), "notes", {
      after_hello: [
        { type: "register_command", name: "status", description: "show the status" },
        { type: "subscribe", events: ["turn_start", "turn_end"] },
      ],
      commands: { status: { eval: "{'action': 'display', 'display': 'all good: ' + f['args']}" } },
      on_event: {
        turn_start: [{ type: "notify", level: "info", message: "working…" }],
        turn_end: [{ type: "clear_notes" }],
      },
    });
  }

  test("a display answer is an ext_display event, in run_command (whose answer is unchanged) and in a /command prompt", async () => {
    const r = start([], anthropicMock, ["--no-ext", "--ext", notesExtension()]);
    let from = r.lines.length;
    const answer = await r.call({ type: "run_command", name: "status", args: "berlin" });
    expect(answer.data).toEqual({ command: "status", extension: "notes", action: "display", text: "all good: berlin" });
    const shown = r.lines.slice(from).filter((l) => l.type === "ext_display");
    expect(shown).toEqual([{ type: "ext_display", extension: "notes", text: "all good: berlin" }]);
    expect(r.lines.indexOf(shown[0])).toBeLessThan(r.lines.indexOf(answer));

    from = r.lines.length;
    const events = (await r.prompt("/status oslo")).filter((e) => e.type !== "ext_notify");
    expect(events).toEqual([
      { type: "ext_display", extension: "notes", text: "all good: oslo" },
      { type: "command_result", command: "status", extension: "notes", action: "display", text: "all good: oslo" },
      { type: "done" },
    ]);
    expect(fixture.mock.requests).toHaveLength(0);
    expect(await r.close()).toBe(0);
  });

  test("an extension's clear_notes is an ext_clear_notes event naming it", async () => {
    const r = start([{ text: "Done." }], anthropicMock, ["--no-ext", "--ext", notesExtension()]);
    const from = r.lines.length;
    await r.prompt("hi");
    const note = await r.waitFor((l) => l.type === "ext_notify", from, "the extension's note");
    expect(note.line).toEqual({ type: "ext_notify", extension: "notes", level: "info", message: "working…" });
    const cleared = await r.waitFor((l) => l.type === "ext_clear_notes", from, "the extension's clear_notes");
    expect(cleared.line).toEqual({ type: "ext_clear_notes", extension: "notes" });
    expect(cleared.index).toBeGreaterThan(note.index);
    expect(await r.close()).toBe(0);
  });
});
