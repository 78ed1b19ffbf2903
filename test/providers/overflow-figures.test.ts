// The numbers servers put in their context-overflow refusals, read as what they say.
import { expect, test } from "bun:test";
import { overflowFigures } from "../../src/providers/overflow-figures.ts";

test("vLLM and OpenAI: the window, the prompt and the completion asked for", () => {
  expect(
    overflowFigures(
      "This model's maximum context length is 8192 tokens. However, you requested 8943 tokens (751 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.",
    ),
  ).toEqual({ window: 8192, prompt: 751, output: 8192 });
  expect(overflowFigures("This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.")).toEqual({
    window: 128000,
    prompt: 130412,
  });
  expect(
    overflowFigures("'max_tokens' or 'max_completion_tokens' is too large: 8192. This model's maximum context length is 8192 tokens and your request has 751 input tokens (8192 > 8192 - 751)."),
  ).toEqual({ window: 8192, prompt: 751, output: 8192 });
});

test("SGLang, TGI and LM Studio", () => {
  expect(
    overflowFigures(
      "Requested token count exceeds the model's maximum context length of 8192 tokens. You requested a total of 8943 tokens: 751 tokens from the input messages and 8192 tokens for the completion.",
    ),
  ).toEqual({ window: 8192, prompt: 751, output: 8192 });
  expect(overflowFigures("Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 751 `inputs` tokens and 8192 `max_new_tokens`")).toEqual({
    window: 4096,
    prompt: 751,
    output: 8192,
  });
  expect(overflowFigures("Trying to keep the first 5210 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens")).toEqual({ window: 4096 });
});

test("Anthropic: a prompt too long, and an input and max_tokens over the limit", () => {
  expect(overflowFigures("prompt is too long: 210000 tokens > 200000 maximum")).toEqual({ window: 200000, prompt: 210000 });
  expect(overflowFigures("input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again")).toEqual({
    window: 200000,
    prompt: 188240,
    output: 21333,
  });
});

test("llama.cpp: the window and the prompt in fields beside the message, the body's error object or the body", () => {
  const fields = { code: 400, type: "exceed_context_size_error", message: "the request exceeds the available context size, try increasing it", n_prompt_tokens: 5000, n_ctx: 4096 };
  expect(overflowFigures(fields.message, fields)).toEqual({ window: 4096, prompt: 5000 });
  expect(overflowFigures(fields.message, { error: fields })).toEqual({ window: 4096, prompt: 5000 });
});

test("a refusal that names no number gives none", () => {
  expect(overflowFigures("context length exceeded")).toBeUndefined();
  expect(overflowFigures("the request exceeds the available context size, try increasing it", { n_ctx: "big" })).toBeUndefined();
});
