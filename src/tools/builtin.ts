// The built-in tool set and the one way to choose from it (`--tools read,bash`, settings, SDK).
// Rule: a tool name nobody knows is reported back to the caller, never silently dropped.
import type { Tool } from "../protocol/tool.ts";
import { bashTool } from "./bash.ts";
import { editTool } from "./edit.ts";
import { readTool } from "./read.ts";
import { writeTool } from "./write.ts";

export const BUILTIN_TOOLS: readonly Tool[] = [readTool, writeTool, editTool, bashTool];

/** Picks built-in tools by name, in the order given; duplicates collapse, unknown names are returned. */
export function selectBuiltinTools(names: string[] | "all" | "none"): { tools: Tool[]; unknown: string[] } {
  if (names === "all") return { tools: [...BUILTIN_TOOLS], unknown: [] };
  if (names === "none") return { tools: [], unknown: [] };
  const tools: Tool[] = [];
  const unknown: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (!name) continue;
    const tool = BUILTIN_TOOLS.find((t) => t.name === name.toLowerCase());
    if (!tool) {
      if (!unknown.includes(name)) unknown.push(name);
    } else if (!tools.includes(tool)) {
      tools.push(tool);
    }
  }
  return { tools, unknown };
}
