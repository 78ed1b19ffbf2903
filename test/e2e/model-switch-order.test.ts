// `zot rpc`'s set_model (and /model) take effect in the order the commands came: a prompt sent
// right after set_model, without waiting for its response, runs on the new model, even when the
// switch needs a new provider client (another wire API) that takes a while to load.
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

test("a clear sent while the model switch is in progress is refused with what to do (no done will come)", async () => {
  const r = fixture.start([], ["--no-ext"], { provider: openai });
  const from = r.lines.length;
  r.write(`${JSON.stringify({ type: "set_model", model: "gpt-4.1", id: "m" })}\n${JSON.stringify({ type: "clear", id: "c" })}\n`);
  const { line } = await r.waitFor((l) => l.id === "c", from, "the clear's response");
  expect(line.success).toBe(false);
  expect(line.error).toContain("a model switch is in progress");
  expect(line.error).not.toContain("done");
  expect((await r.waitFor((l) => l.id === "m", from, "the switch's response")).line.success).toBe(true);
  expect(await r.call({ type: "clear" })).toMatchObject({ success: true });
});
