// A command's answer normalised (src/extensions/slash-command.ts), for the tool_prompt action: what
// it becomes, the prompt it starts, and every malformed answer as an error naming what is missing.
import { expect, test } from "bun:test";
import { commandPrompt } from "../../src/conversation/slash-commands.ts";
import { commandResult } from "../../src/extensions/command-reply.ts";

const base = { command: "peek", extension: "svc" };
const reply = (fields: Record<string, unknown>) => commandResult(base, { type: "command_response", id: "1", action: "tool_prompt", ...fields });

test("tool_prompt: the tool (args default {}) and the prompt; it starts a prompt that runs the tool first, as the command's extension", () => {
  const result = reply({ tool_name: " read ", prompt: "Summarize it" });
  expect(result).toEqual({ ...base, action: "tool_prompt", text: "Summarize it", tool: { name: "read", args: {} } });
  expect(commandPrompt(result, { context: "stdin" })).toEqual({ context: "stdin", text: "Summarize it", tool: { name: "read", args: {}, origin: "svc" } });
  expect(commandPrompt(commandResult(base, { type: "command_response", id: "1", action: "display", display: "x" }))).toBeUndefined();
});

test("tool_prompt without a tool_name or a prompt, or with args that are not an object, fails the command", () => {
  expect(reply({ prompt: "x" })).toMatchObject({ action: "error", text: 'the command answered tool_prompt without a "tool_name" (the tool to run before the prompt)' });
  expect(reply({ tool_name: "read", prompt: "  " })).toMatchObject({ action: "error", text: 'the command answered tool_prompt without a "prompt" (the turn that follows the tool)' });
  expect(reply({ tool_name: "read", prompt: "x", tool_args: [1] })).toMatchObject({
    action: "error",
    text: 'the command answered tool_prompt with "tool_args" that are not a JSON object (an array)',
  });
  expect(reply({ tool_name: "read", prompt: "x", tool_args: "p" })).toMatchObject({ action: "error" });
  // An error text wins over the action, as for every action.
  expect(reply({ tool_name: "read", prompt: "x", error: "no" })).toEqual({ ...base, action: "error", text: "no" });
});

test("no action: display text is shown (what its author meant); nothing at all is a noop", () => {
  expect(commandResult(base, { type: "command_response", id: "1", display: "collide ran" })).toEqual({ ...base, action: "display", text: "collide ran" });
  expect(commandResult(base, { type: "command_response", id: "1", action: "", display: "shown" })).toEqual({ ...base, action: "display", text: "shown" });
  expect(commandResult(base, { type: "command_response", id: "1" })).toEqual({ ...base, action: "noop" });
  expect(commandResult(base, { type: "command_response", id: "1", action: "noop", display: "not shown" })).toEqual({ ...base, action: "noop" });
});
