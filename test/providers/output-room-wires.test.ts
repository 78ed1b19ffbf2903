// Every wire asks for no more output than the window leaves (ModelRequest.outputRoom, set by
// core/output-room.ts), a thinking budget included.
import { expect, test } from "bun:test";
import type { ModelInfo } from "../../src/protocol/models.ts";
import type { ModelRequest } from "../../src/protocol/provider.ts";
import { toAnthropicRequest } from "../../src/providers/anthropic.ts";
import { chatRequestBody } from "../../src/providers/openai-chat.ts";
import { responsesRequestBody } from "../../src/providers/openai-responses.ts";
import { testModel } from "../support/test-model.ts";

const TIME = "2025-01-01T00:00:00.000Z";
const request = (model: ModelInfo, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  model,
  system: "s",
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }], time: TIME }],
  tools: [],
  ...extra,
});

test("Chat Completions and Responses: max_tokens, max_completion_tokens and max_output_tokens are capped by the room", () => {
  const chat = testModel({ provider: "openai", api: "openai-chat", context_window: 8192, max_output: 8192 });
  expect(chatRequestBody(request(chat)).max_tokens).toBe(8192);
  expect(chatRequestBody(request(chat, { outputRoom: 6000 })).max_tokens).toBe(6000);
  expect(chatRequestBody(request({ ...chat, reasoning: true }, { outputRoom: 6000 })).max_completion_tokens).toBe(6000);
  // A hook's smaller limit stays.
  expect(chatRequestBody(request(chat, { outputRoom: 6000, maxTokens: 500 })).max_tokens).toBe(500);
  const responses = testModel({ provider: "openai", api: "openai-responses", context_window: 8192, max_output: 8192 });
  expect(responsesRequestBody(request(responses, { outputRoom: 6000 })).max_output_tokens).toBe(6000);
});

test("Anthropic: max_tokens is capped, and a thinking budget shrinks to half the room, or goes when under the API's least", () => {
  const claude = testModel({ id: "claude-sonnet-4-5", provider: "anthropic", api: "anthropic-messages", context_window: 32_000, max_output: 64_000, reasoning: true });
  const roomy = toAnthropicRequest(request(claude, { reasoning: "high" }));
  expect(roomy.max_tokens).toBe(64_000);
  expect(roomy.thinking).toEqual({ type: "enabled", budget_tokens: 16384 });
  const tight = toAnthropicRequest(request(claude, { reasoning: "high", outputRoom: 20_000 }));
  expect(tight.max_tokens).toBe(20_000);
  expect(tight.thinking).toEqual({ type: "enabled", budget_tokens: 10_000 });
  const tiny = toAnthropicRequest(request(claude, { reasoning: "high", outputRoom: 1500 }));
  expect(tiny.max_tokens).toBe(1500);
  expect(tiny.thinking).toBeUndefined();
});
