// Compaction over `zot rpc`, through the compiled binary and the mock LLM: the `compact` command
// (and its failure and abort), automatic compaction past --auto-compact, and the compact-and-retry
// after the provider refuses a prompt as too long. A models.json model with a 40,000-token window
// (10,000 tokens kept verbatim) makes a two-prompt conversation long enough to compact.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type RpcProcess, rpcFixture, type Turns } from "../support/rpc-process.ts";
import { tempDir } from "../support/zot.ts";

const fixture = rpcFixture();

/** About 12,000 tokens: more than the small window keeps verbatim. */
const LONG = `Here is the whole log: ${"line of output ".repeat(3200)}`;
const SUMMARY = "## Goal\nFix the build.\n\n## Next Steps\n1. rerun the tests";

/** Manual and overflow compaction only, unless a test turns automatic compaction on. */
function start(turns: Turns, extra: string[] = ["--auto-compact", "off"]): RpcProcess {
  const home = tempDir("zot-rpc-home-");
  writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { anthropic: { models: [{ id: "small", contextWindow: 40_000 }] } } }));
  return fixture.start(turns, ["--model", "small", "--no-ext", ...extra], { home });
}

const types = (events: any[]) => events.map((e) => e.type).filter((t) => t !== "text_delta");

describe("compact command", () => {
  test("compact_start, the summary call's usage, compact_done with the summary, done; get_messages shows the summary", async () => {
    const r = start([{ text: "First answer." }, { text: "Second answer." }, { text: SUMMARY, usage: { input: 900, output: 40 } }]);
    await r.prompt(LONG);
    await r.prompt("now the short question");
    const before = (await r.call({ type: "get_state" })).data;

    const { started, events } = await r.compact({ instructions: "keep the build commands", id: "k" });
    expect(started).toEqual({ type: "response", id: "k", command: "compact", success: true, data: { started: true } });
    expect(types(events)).toEqual(["compact_start", "usage", "compact_done", "done"]);
    expect(events[0]).toEqual({ type: "compact_start", reason: "manual" });
    expect(events[1]).toMatchObject({ input: 900, output: 40 });
    expect(events[2]).toEqual({ type: "compact_done", summary: SUMMARY, reason: "manual", messages_before: 4, messages_after: 3, tokens_before: before.context.tokens });

    // The summarising request saw the older part and the instructions.
    const request = JSON.stringify(fixture.mock.requests[2].body);
    expect(request).toContain("line of output");
    expect(request).toContain("keep the build commands");

    const messages = (await r.call({ type: "get_messages" })).data.messages;
    expect(messages).toHaveLength(3);
    expect(messages[0].role).toBe("user");
    expect(messages[0].content[0].text).toContain(SUMMARY);
    expect(messages.slice(1).map((m: any) => m.content[0].text)).toEqual(["now the short question", "Second answer."]);
    const after = (await r.call({ type: "get_state" })).data;
    expect(after.usage.input).toBe(before.usage.input + 900);
    expect(after.context.tokens).toBeLessThan(before.context.tokens);
    expect(await r.close()).toBe(0);
  });

  test("a summary the output limit cut off is refused: an error saying so, and the transcript is kept whole", async () => {
    const r = start([{ text: "First answer." }, { text: "Second answer." }, { text: "## Goal\nFix the build.\n\n## Critical Context\nThe parser bug is in parse_e", stop: "length" }]);
    await r.prompt(LONG);
    await r.prompt("now the short question");
    const { events } = await r.compact();
    expect(types(events)).toEqual(["compact_start", "usage", "error", "done"]);
    expect(events.find((e) => e.type === "error").message).toStartWith("the summary was cut off at the model's output limit");
    const messages = (await r.call({ type: "get_messages" })).data.messages;
    expect(messages).toHaveLength(4);
    expect(JSON.stringify(messages)).not.toContain("parse_e");
    expect(await r.close()).toBe(0);
  });

  test("nothing to compact: an error event, then done; the transcript is untouched", async () => {
    const r = start([]);
    const { events } = await r.compact();
    expect(types(events)).toEqual(["compact_start", "error", "done"]);
    expect(events[1].message).toStartWith("nothing to compact");
    expect(fixture.mock.requests).toHaveLength(0);
    expect(await r.close()).toBe(0);
  });

  test("abort during the summary: done without compact_done, the transcript as it was", async () => {
    const r = start([{ text: "First answer." }, { text: "Second answer." }, { text: SUMMARY, delay_ms: 10_000 }]);
    await r.prompt(LONG);
    await r.prompt("short");
    const from = r.lines.length;
    await r.call({ type: "compact" });
    await r.waitFor((l) => l.type === "compact_start", from);
    await r.call({ type: "abort" });
    const events = await r.eventsUntilDone(from);
    expect(types(events)).toEqual(["compact_start", "done"]);
    expect((await r.call({ type: "get_state" })).data.message_count).toBe(4);
    expect(await r.close()).toBe(0);
  });

  test("run_command /compact compacts too, answering when it starts", async () => {
    const r = start([{ text: "First answer." }, { text: "Second answer." }, { text: SUMMARY }]);
    await r.prompt(LONG);
    await r.prompt("short");
    const from = r.lines.length;
    const answer = await r.call({ type: "run_command", name: "/compact", args: "focus on tests" });
    expect(answer.data).toEqual({ command: "compact", action: "started" });
    const events = await r.eventsUntilDone(from);
    expect(events.find((e) => e.type === "compact_done")).toMatchObject({ summary: SUMMARY, reason: "manual" });
    expect(JSON.stringify(fixture.mock.requests[2].body)).toContain("focus on tests");
    expect(await r.close()).toBe(0);
  });

  test("a compact queues behind a running prompt like a second prompt", async () => {
    const r = start([{ text: "First answer." }, { text: "word ".repeat(60), chunk_size: 5, chunk_delay_ms: 2 }, { text: SUMMARY }]);
    await r.prompt(LONG);
    const from = r.lines.length;
    r.send({ type: "prompt", message: "short", id: "p" });
    r.send({ type: "compact", id: "k" });
    const started = await r.waitFor((l) => l.id === "k", from, "the compact's started response");
    const promptDone = r.lines.findIndex((l, i) => i >= from && l.type === "done");
    expect(promptDone).toBeGreaterThan(-1);
    expect(promptDone).toBeLessThan(started.index);
    expect((await r.eventsUntilDone(started.index)).find((e) => e.type === "compact_done")).toMatchObject({ reason: "manual" });
    expect(await r.close()).toBe(0);
  });
});

describe("automatic compaction", () => {
  test("past --auto-compact, the next turn compacts first (reason auto), then calls the model with the summary", async () => {
    const r = start(
      [{ text: "First answer.", usage: { input: 30_000, output: 10 } }, { text: SUMMARY }, { text: "Answer after the summary." }],
      ["--auto-compact", "50"],
    );
    await r.prompt(LONG);
    expect((await r.call({ type: "get_state" })).data.context.fraction).toBeGreaterThanOrEqual(0.5);
    const events = await r.prompt("short question");
    expect(types(events)).toEqual([
      "user_message",
      "turn_start",
      "compact_start",
      "usage",
      "compact_done",
      "assistant_start",
      "usage",
      "assistant_message",
      "turn_end",
      "done",
    ]);
    expect(events.find((e) => e.type === "compact_done")).toMatchObject({ reason: "auto", summary: SUMMARY });
    const sent = fixture.mock.requests[2].body.messages;
    expect(sent[0].content[0].text).toContain(SUMMARY);
    expect(JSON.stringify(sent)).not.toContain("line of output line of output");
    expect(sent.at(-1).content[0].text).toBe("short question");
    expect(await r.close()).toBe(0);
  });

  test("--auto-compact off: no compaction however full the context", async () => {
    const r = start([{ text: "First answer.", usage: { input: 39_000, output: 10 } }, { text: "Second." }], ["--auto-compact", "off"]);
    await r.prompt(LONG);
    const events = await r.prompt("short question");
    expect(types(events)).not.toContain("compact_start");
    expect(fixture.mock.requests).toHaveLength(2);
    expect(await r.close()).toBe(0);
  });
});

describe("context overflow", () => {
  test("the provider refuses the prompt as too long: compact (reason overflow), then the call is retried once", async () => {
    const r = start([
      { text: "First answer." },
      { error: { status: 400, message: "prompt is too long: 250000 tokens > 200000 maximum" } },
      { text: SUMMARY },
      { text: "Answer after the retry." },
    ]);
    await r.prompt(LONG);
    const events = await r.prompt("short question");
    expect(types(events)).toContain("compact_start");
    expect(events.find((e) => e.type === "compact_start")).toEqual({ type: "compact_start", reason: "overflow" });
    expect(events.find((e) => e.type === "compact_done")).toMatchObject({ reason: "overflow", summary: SUMMARY });
    expect(events.find((e) => e.type === "assistant_message").content).toEqual([{ type: "text", text: "Answer after the retry." }]);
    expect(events.at(-2)).toEqual({ type: "turn_end", stop: "end_turn" });
    expect(events.some((e) => e.type === "error")).toBe(false);
    expect(fixture.mock.requests).toHaveLength(4);
    expect(fixture.mock.requests[3].body.messages[0].content[0].text).toContain(SUMMARY);
    expect(await r.close()).toBe(0);
  });

  test("when the compaction after an overflow fails too, the turn has one error event, which says so", async () => {
    const tooLong = { error: { status: 400, message: "prompt is too long: 250000 tokens > 200000 maximum" } };
    const r = start([{ text: "First answer." }, tooLong, tooLong]);
    await r.prompt(LONG);
    const events = await r.prompt("short question");
    const errors = events.filter((e) => e.type === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toContain("compacting the conversation to fit failed too");
    expect(events.at(-1)).toEqual({ type: "done" });
    expect(await r.close()).toBe(0);
  });

  test("a second overflow after compacting ends the turn with the provider's error", async () => {
    const tooLong = { error: { status: 400, message: "prompt is too long: 250000 tokens > 200000 maximum" } };
    const r = start([{ text: "First answer." }, tooLong, { text: SUMMARY }, tooLong]);
    await r.prompt(LONG);
    const events = await r.prompt("short question");
    expect(events.find((e) => e.type === "turn_end")).toMatchObject({ stop: "error" });
    expect(events.find((e) => e.type === "error").message).toContain("prompt is too long");
    expect(events.at(-1)).toEqual({ type: "done" });
    expect(fixture.mock.requests).toHaveLength(4);
    expect(await r.close()).toBe(0);
  });
});
