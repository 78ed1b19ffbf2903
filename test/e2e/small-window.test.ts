// A local server with a small window (vLLM --max-model-len 8192, llama.cpp -c 4096), as a user runs
// zot against it: the README's one instruction (the model's window in models.json) makes the model
// work, and a window zot does not know is learnt from the server's refusal or named in its numbers.
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { tempDir, zot } from "../support/zot.ts";

let mock: MockLlm;
afterEach(() => mock?.stop());

const local = (m: MockLlm) => ["-p", "hi", "--no-session", "--provider", "openai", "--api-key", "k", "--base-url", `${m.url}/v1`, "--model", "qwen-local"];

test("a model given an 8K window in models.json is asked for an output that leaves the prompt its room", async () => {
  mock = startMockLlm([{ text: "answered" }]);
  const home = tempDir("zot-home-");
  writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { openai: { models: [{ id: "qwen-local", contextWindow: 8192 }] } } }));
  const run = await zot(local(mock), { home });
  expect(run.stderr).toBe("");
  expect(run.stdout).toBe("answered\n");
  const body = mock.requests[0]!.body;
  // What a vLLM server checks: the prompt (four characters a token, at least) and max_tokens within the window.
  expect(body.max_tokens).toBeLessThan(8192);
  expect(Math.ceil(JSON.stringify(body.messages).length / 4) + body.max_tokens).toBeLessThanOrEqual(8192);
});

test("without models.json, a vLLM refusal that counts the prompt is asked again for what fits, and answered", async () => {
  const refusal =
    "This model's maximum context length is 8192 tokens. However, you requested 8943 tokens (751 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.";
  mock = startMockLlm([{ error: { status: 400, message: refusal } }, { text: "answered" }]);
  const run = await zot(local(mock));
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("answered\n");
  expect(mock.requests.map((r) => r.body.max_tokens)).toEqual([8192, 8192 - 751 - 256]);
});
