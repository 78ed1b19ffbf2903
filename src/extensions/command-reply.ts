// An extension's reply to one of its slash commands (command_response), normalised into the
// CommandResult every front end reads.
// Rule: a non-empty `error` wins over any action; an answer that says nothing is a noop, never an
// error of the user's; `display` text with no action is shown (what its author meant).
import type { ExtFrameOf } from "../protocol/ext-frames.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import type { CommandResult } from "../protocol/slash-command.ts";

/** A `command_response` normalised: a non-empty `error` wins; a blank prompt or insert is a noop. */
export function commandResult(
  base: { command: string; extension: string },
  reply: ExtFrameOf<"command_response">,
): CommandResult {
  if (reply.error) return { ...base, action: "error", text: reply.error };
  switch (reply.action) {
    case "error":
      return { ...base, action: "error", text: "the command failed (no error text given)" };
    case "prompt":
      return reply.prompt?.trim() ? { ...base, action: "prompt", text: reply.prompt } : { ...base, action: "noop" };
    case "insert":
      return reply.insert ? { ...base, action: "insert", text: reply.insert } : { ...base, action: "noop" };
    case "display":
      return { ...base, action: "display", text: reply.display ?? "" };
    case "open_panel":
      if (!reply.open_panel) return { ...base, action: "error", text: 'the command answered open_panel without an "open_panel" object ({"id": …, "title": …, "lines": […]})' };
      return { ...base, action: "open_panel", panel: reply.open_panel, text: reply.open_panel.title ?? "" };
    case "tool_prompt": {
      const name = reply.tool_name?.trim();
      if (!name) return { ...base, action: "error", text: 'the command answered tool_prompt without a "tool_name" (the tool to run before the prompt)' };
      if (!reply.prompt?.trim()) return { ...base, action: "error", text: 'the command answered tool_prompt without a "prompt" (the turn that follows the tool)' };
      const args = reply.tool_args ?? {};
      if (!isJsonObject(args)) return { ...base, action: "error", text: `the command answered tool_prompt with "tool_args" that are not a JSON object (${Array.isArray(args) ? "an array" : typeof args})` };
      return { ...base, action: "tool_prompt", text: reply.prompt, tool: { name, args } };
    }
    case undefined:
    case "":
      return reply.display ? { ...base, action: "display", text: reply.display } : { ...base, action: "noop" };
    case "noop":
      return { ...base, action: "noop" };
    default:
      return { ...base, action: "error", text: `unknown action "${reply.action}" (this zot knows prompt, tool_prompt, insert, display, open_panel, noop)` };
  }
}
