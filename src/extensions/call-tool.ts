// call_tool: an extension asks zot to run a tool, built-in or another extension's. This file holds
// the rules about what may be run; the host (zot-host.ts, call-tool-requests.ts) holds the rules
// about the request itself, and the agent runs the call like a model's.
// Rule: the call goes through everything a model's call goes through (the interception chain,
// the confirmation gate) and nothing is written to the transcript; only an active tool may be
// called (a deferred one once activated, a codemode one always, a model-only one never); a call
// chain never names a tool twice and never holds more than MAX_CHAIN calls, counting the first.
import type { ToolRun } from "../core/agent.ts";
import type { ToolArgs } from "../core/intercept.ts";
import type { Tool, ToolOrigin, ToolResult } from "../protocol/tool.ts";
import { textResult } from "../protocol/tool.ts";
import type { CallToolRequest } from "./call-tool-requests.ts";
import type { ExtToolDef } from "./ext-tool.ts";

/** The most calls one chain may hold, counting the tool the model (or an extension) called first. */
export const MAX_CHAIN = 4;

/** What running a call_tool needs. */
export interface CallToolDeps {
  /** the agent's tools now; undefined when no agent is attached (zot ext check) */
  tools(): readonly Tool[] | undefined;
  /** the registration of an extension tool, by name */
  extensionTool(name: string): ExtToolDef | undefined;
  /** whether an extension tool may be called now (deferred: once activated) */
  callable(def: ExtToolDef): boolean;
  run(call: { id: string; name: string; args: ToolArgs }, options: { origin: ToolOrigin; signal: AbortSignal }): Promise<ToolRun>;
}

/** Runs one accepted call_tool of `extension`. Never throws: a refusal is an is_error result naming the rule. */
export async function runCallTool(extension: string, request: CallToolRequest, deps: CallToolDeps): Promise<ToolResult> {
  const refuse = (why: string) => textResult(`call_tool ${request.name}: ${why}`, true);
  const tools = deps.tools();
  if (!tools) return refuse("no agent is running here to run tools");
  const tool = tools.find((t) => t.name === request.name);
  if (!tool) {
    const names = tools.map((t) => t.name).filter((name) => callableName(name, deps));
    return refuse(`there is no active tool of that name (active: ${names.join(", ") || "none"})`);
  }
  const def = tool.extension ? deps.extensionTool(tool.name) : undefined;
  if (def && !deps.callable(def)) {
    if (def.exposure === "model-only") return refuse(`the tool is model-only: extension "${tool.extension}" offers it to the model alone`);
    return refuse(`the tool is deferred and not active yet; a tool_result's activate_tools makes it active`);
  }
  const chain = [...request.parentChain, request.name];
  if (request.parentChain.includes(request.name)) {
    return refuse(`a call chain may not name a tool twice (${chain.join(" → ")})`);
  }
  if (chain.length > MAX_CHAIN) {
    return refuse(`a call chain holds at most ${MAX_CHAIN} calls, counting the first (${chain.join(" → ")})`);
  }
  const ran = await deps.run(
    { id: `${extension}/${request.id}`, name: request.name, args: request.args },
    { origin: { extension, chain }, signal: request.signal },
  );
  return ran.result;
}

function callableName(name: string, deps: CallToolDeps): boolean {
  const def = deps.extensionTool(name);
  return !def || deps.callable(def);
}
