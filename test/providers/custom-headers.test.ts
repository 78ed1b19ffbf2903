import { expect, test } from "bun:test";
import { customHeaders } from "../../src/providers/custom-headers.ts";

test("the provider's own server gets the run's headers (a settings file's env included); another server gets each taken out", () => {
  const env = { ANTHROPIC_CUSTOM_HEADERS: "x-gateway-key: gw-1\nno colon here\nX-Team:  core ", OPENAI_CUSTOM_HEADERS: "x-portkey-api-key: pk" };
  expect(customHeaders("anthropic-messages", { provider: "anthropic", ownServer: true }, env, {})).toEqual({ "x-gateway-key": "gw-1", "X-Team": "core" });
  expect(customHeaders("openai-chat", { provider: "openai", ownServer: false }, env, { OPENAI_CUSTOM_HEADERS: "x-shell: 1" })).toEqual({ "x-portkey-api-key": null, "x-shell": null });
  // ollama's server, and the other vendor's wire behind a provider (a LiteLLM proxy), are no server of theirs
  expect(customHeaders("openai-chat", { provider: "ollama", ownServer: true }, env, {})).toEqual({ "x-portkey-api-key": null });
  expect(customHeaders("anthropic-messages", { provider: "openai", ownServer: true }, env, {})).toEqual({ "x-gateway-key": null, "X-Team": null });
  expect(customHeaders("scripted", { provider: "scripted", ownServer: true }, env, {})).toBeUndefined();
  expect(customHeaders("openai-responses", { provider: "openai", ownServer: true }, {}, {})).toBeUndefined();
});
