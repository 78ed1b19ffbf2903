// The contract between the agent loop and a tool. Pure types: built-in tools, extension tools and
// SDK tools all satisfy it. Rule: execute never throws for a failure the model should see; it
// returns is_error with a sentence the model can act on.
import type { ToolResultContent } from "./messages.ts";

export interface ToolResult {
  content: ToolResultContent[];
  is_error: boolean;
  /** local detail for the UI and logs, never sent to the model */
  details?: Record<string, unknown>;
}

export interface ToolContext {
  cwd: string;
  signal: AbortSignal;
  /**
   * streams a chunk of progress (bash output) as a tool_progress event; a promise back means the
   * reader of the events is behind: make no more output until it settles (it settles on abort too)
   */
  onProgress(text: string): void | Promise<void>;
  /**
   * the jail (`--jail`, `/jail`): the built-in tools refuse paths outside `cwd` and bash is
   * confined to it (src/tools/sandbox.ts); extension tools receive it and may honour it
   */
  jailed?: boolean;
}

export interface Tool {
  name: string;
  description: string;
  /** JSON Schema of the arguments object */
  parameters: Record<string, unknown>;
  /** set when an extension provides the tool */
  extension?: string;
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}

export function textResult(text: string, isError = false, details?: Record<string, unknown>): ToolResult {
  return { content: [{ type: "text", text }], is_error: isError, ...(details ? { details } : {}) };
}
