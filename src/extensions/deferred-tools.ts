// Which extension tools the model is offered: a direct (or model-only) tool always, a deferred one
// once a tool result named it in activate_tools, a codemode one never (call_tool runs it). This is
// how an extension with hundreds of tools (an MCP bridge) costs the model nothing until it needs
// them.
// Rule: activation belongs to the conversation: it lasts through a reload of the extensions and is
// forgotten when another conversation starts (clear, a session switch); a conversation whose
// transcript already calls a deferred tool (a resumed session) has that tool active, so the model
// is never asked to continue a call to a tool it cannot see.
import type { Message } from "../protocol/messages.ts";
import type { ExtToolDef } from "./ext-tool.ts";

export class DeferredTools {
  private readonly active = new Set<string>();

  /** Whether the model is offered this tool in its next request. */
  offered(def: ExtToolDef): boolean {
    switch (def.exposure) {
      case "direct":
      case "model-only":
        return true;
      case "deferred":
        return this.active.has(def.name);
      case "codemode":
        return false;
    }
  }

  /** Whether a tool is active for call_tool: offered, or reachable only programmatically (codemode). */
  callable(def: ExtToolDef): boolean {
    return def.exposure === "codemode" || (def.exposure !== "model-only" && this.offered(def));
  }

  /**
   * Activates the deferred tools named; returns the names that are no deferred tool of `known`
   * (ignored, for the caller to log). Naming an active or a direct tool is harmless.
   */
  activate(names: readonly string[], known: (name: string) => ExtToolDef | undefined): string[] {
    const unknown: string[] = [];
    for (const name of names) {
      const def = known(name);
      if (!def) unknown.push(name);
      else if (def.exposure === "deferred") this.active.add(name);
    }
    return unknown;
  }

  /** Another conversation starts: every deferred tool is deferred again, except those its transcript calls. */
  reset(messages: readonly Message[], known: (name: string) => ExtToolDef | undefined): void {
    this.active.clear();
    this.activateCalled(messages, known);
  }

  /** The deferred tools a transcript already calls become active. */
  activateCalled(messages: readonly Message[], known: (name: string) => ExtToolDef | undefined): void {
    for (const message of messages) {
      for (const block of message.content) {
        if (block.type === "tool_call" && known(block.name)?.exposure === "deferred") this.active.add(block.name);
      }
    }
  }

  /** The names active now (zot ext doctor, tests). */
  names(): string[] {
    return [...this.active].sort();
  }
}
