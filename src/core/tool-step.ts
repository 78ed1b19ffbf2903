// What happened to one tool call, step by step, for observers that need more than the wire events
// say (extensions' permission_decision and tool_result notifications): who let it run or stopped
// it, whether it ran, and how it ended. Rule: observation only; nothing here changes the call.
import type { ToolArgs } from "./intercept.ts";
import type { ToolResult } from "../protocol/tool.ts";

export type ToolStatus = "completed" | "failed" | "blocked" | "cancelled" | "timed_out";

/** The approve_tool stage decided (or the turn was cancelled before it could run the tool). */
export interface ToolApproval {
  kind: "approval";
  id: string;
  name: string;
  args: ToolArgs;
  decision: "approved" | "denied" | "cancelled";
  /** the participant that denied it (the confirmation gate is "confirm") */
  by?: string;
  reason?: string;
  /** the stage that stopped it: tool_call (before approval) or approve_tool */
  stage?: "tool_call" | "approve_tool";
  /** the extension that asked for the call (call_tool, tool_prompt), not the model */
  origin?: string;
}

/** The call is over: its result is what the model gets. */
export interface ToolOutcome {
  kind: "outcome";
  id: string;
  name: string;
  /** the arguments it ran with (after rewrites), or the last proposed ones if it did not run */
  args: ToolArgs;
  status: ToolStatus;
  /** whether the tool itself ran */
  executed: boolean;
  result: ToolResult;
  extension?: string;
  /** the extension that asked for the call (call_tool, tool_prompt), not the model */
  origin?: string;
}

export type ToolStep = ToolApproval | ToolOutcome;
