// `zot rpc`'s set_model (and /model) take effect in the order the commands came: a prompt sent
// right after set_model, without waiting for its response, runs on the new model, even when the
// switch needs a new provider client (another wire API) that takes a while to load; and what a
// client pipelines behind a switch (set_reasoning, clear, another switch) waits for it, not refused.
import { expect, test } from "bun:test";
import { rpcFixture } from "../support/rpc-process.ts";

const fixture = rpcFixture();
const openai = (url: string) => ["--provider", "openai", "--api-key", "k", "--base-url", `${url}/v1`, "--model", "gpt-5"];

for (const [how, frame] of [
  ["set_model", { type: "set_model", model: "gpt-4.1", id: "m" }],
  ["run_command /model", { type: "run_command", name: "model", args: "gpt-4.1", id: "m" }],
] as const) {
  test(`a prompt sent right after ${how} (Responses → Chat Completions) goes to the new model`, async () => {
    const r = fixture.start([{ text: "hi" }], ["--no-ext"], { provider: openai });
    const from = r.lines.length;
    // One write: both lines reach zot together, before the switch can have finished.
    r.write(`${JSON.stringify(frame)}\n${JSON.stringify({ type: "prompt", message: "x", id: "p" })}\n`);
    await r.eventsUntilDone(from);
    const switched = r.lines.findIndex((l) => l.id === "m");
    const started = r.lines.findIndex((l) => l.id === "p");
    expect(r.lines[switched]).toMatchObject({ success: true });
    expect(switched).toBeLessThan(started);
    expect(fixture.mock.requests.map((q) => [q.path, q.body.model])).toEqual([["/v1/chat/completions", "gpt-4.1"]]);
  });
}

test("set_model, set_reasoning, clear and a prompt sent back to back are done in order: none refused as busy, the prompt thinks on the new model", async () => {
  const r = fixture.start([{ text: "hi" }], ["--no-ext"], { provider: openai });
  const from = r.lines.length;
  const frames = [
    { type: "set_model", model: "gpt-4.1", id: "m" },
    { type: "set_reasoning", reasoning: "high", id: "r" },
    { type: "clear", id: "c" },
    { type: "get_state", id: "s" },
    { type: "set_model", model: "gpt-5", id: "m2" },
    { type: "prompt", message: "x", id: "p" },
  ];
  // One write: every line reaches zot together, before the switch can have finished.
  r.write(frames.map((frame) => `${JSON.stringify(frame)}\n`).join(""));
  await r.eventsUntilDone(from);
  const responses = r.lines.slice(from).filter((l) => l.type === "response");
  expect(responses.filter((l) => !l.success)).toEqual([]);
  // get_state is answered at once, while the switch runs: no prompt or compaction runs or waits.
  expect(responses.map((l) => l.id)).toEqual(["s", "m", "r", "c", "m2", "p"]);
  expect(responses[0].data).toMatchObject({ busy: false, queued: 0 });
  expect(fixture.mock.requests.map((q) => [q.path, q.body.model, q.body.reasoning?.effort])).toEqual([["/v1/responses", "gpt-5", "high"]]);
});
