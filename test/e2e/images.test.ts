// Images travel both ways: the read tool returns a PNG as an image block, and it reaches the
// model in the next request in the provider's own image format.
import { afterEach, expect, test } from "bun:test";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";

let mock: MockLlm;
afterEach(() => mock?.stop());

// A 1×1 transparent PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

test("anthropic: a PNG read by the tool reaches the next request as a base64 image block", async () => {
  const cwd = tempDir("zot-img-");
  await Bun.write(`${cwd}/pixel.png`, PNG);
  mock = startMockLlm([{ tool_calls: [{ name: "read", args: { path: "pixel.png" } }] }, { text: "a single pixel" }]);
  const run = await zot(["--json", "describe pixel.png", "--provider", "anthropic", "--api-key", "k", "--base-url", mock.url], { cwd });
  expect(run.code).toBe(0);
  const result = mock.requests[1].body.messages.at(-1).content[0];
  expect(result.type).toBe("tool_result");
  const image = result.content.find((b: any) => b.type === "image");
  expect(image.source).toEqual({ type: "base64", media_type: "image/png", data: PNG.toString("base64") });
  // On the wire (--json) images are a byte count, never the base64 itself.
  const event = ndjson(run.stdout).find((e) => e.type === "tool_result");
  expect(event.content).toContainEqual({ type: "image", mime_type: "image/png", bytes: PNG.length });
  expect(run.stdout).not.toContain(PNG.toString("base64"));
});

test("openai chat: a tool's image is sent in a user message after the tool message", async () => {
  const cwd = tempDir("zot-img-");
  await Bun.write(`${cwd}/pixel.png`, PNG);
  mock = startMockLlm([{ tool_calls: [{ name: "read", args: { path: "pixel.png" } }] }, { text: "ok" }]);
  const run = await zot(
    ["-p", "look", "--provider", "openai", "--model", "gpt-4.1", "--api-key", "k", "--base-url", `${mock.url}/v1`],
    { cwd },
  );
  expect(run.code).toBe(0);
  const messages = mock.requests[1].body.messages;
  const toolIndex = messages.findIndex((m: any) => m.role === "tool");
  const after = messages[toolIndex + 1];
  expect(after.role).toBe("user");
  expect(JSON.stringify(after.content)).toContain(`data:image/png;base64,${PNG.toString("base64")}`);
});
