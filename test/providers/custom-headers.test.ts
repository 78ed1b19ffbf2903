import { expect, test } from "bun:test";
import { customHeaders } from "../../src/providers/custom-headers.ts";

test("the provider's own server gets the run's headers, a settings file's over the shell's; another server gets each taken out", () => {
  const settings = { ANTHROPIC_CUSTOM_HEADERS: "x-gateway-key: gw-1\nno colon here\nX-Team:  core ", OPENAI_CUSTOM_HEADERS: "x-portkey-api-key: pk" };
  const shell = { ANTHROPIC_CUSTOM_HEADERS: "x-from-shell: shell-secret", OPENAI_CUSTOM_HEADERS: "x-shell: 1" };
  // a settings file's value replaces the shell's, as in Claude Code: the shell's own header is taken out
  expect(customHeaders("anthropic-messages", true, settings, shell)).toEqual({ "x-from-shell": null, "x-gateway-key": "gw-1", "X-Team": "core" });
  // the shell's alone, to its own server: the SDK sends it as it is
  expect(customHeaders("openai-chat", true, shell, shell)).toBeUndefined();
  // another server: none of either
  expect(customHeaders("openai-chat", false, settings, shell)).toEqual({ "x-portkey-api-key": null, "x-shell": null });
  expect(customHeaders("openai-responses", false, shell, shell)).toEqual({ "x-shell": null });
  expect(customHeaders("scripted", true, settings, shell)).toBeUndefined();
  expect(customHeaders("openai-responses", true, {}, {})).toBeUndefined();
});
