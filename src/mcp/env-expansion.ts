// `${VAR}` and `${VAR:-default}` in MCP server configuration, expanded as Claude Code expands them
// (in a stdio server's command, args and env values, in an HTTP server's url and header values).
// `${CLAUDE_PROJECT_DIR}` is the folder zot works in, as Claude Code sets it for its MCP servers and
// hooks, whether or not the user exported it.
// Rule: a variable that is not set and has no default is never replaced by nothing: it is named,
// so the server is reported instead of started with a broken argument or an empty API key.
import path from "node:path";
import { ownEntry } from "../protocol/own-key.ts";

/** Claude Code's name for the project folder: expanded in every scope's entries, and in a stdio server's environment. */
export const PROJECT_DIR_VARIABLE = "CLAUDE_PROJECT_DIR";

/**
 * The environment `${VAR}` expands against in a run in `cwd`: zot's own, with CLAUDE_PROJECT_DIR
 * the folder zot works in. The folder wins over an exported value (one left over from another
 * project, or from a hook's shell), as it does for the settings hooks: a `.mcp.json` that names it
 * means its own folder.
 */
export function expansionEnv(env: Record<string, string | undefined>, cwd: string): Record<string, string | undefined> {
  return { ...env, [PROJECT_DIR_VARIABLE]: path.resolve(cwd) };
}

const REFERENCE = /\$\{([^}:]+)(?::-([^}]*))?\}/g;

export interface Expanded {
  value: string;
  /** variables the text names that are unset and have no default */
  missing: string[];
}

/** Expands one string against `env`; `$VAR` without braces is left as written (Claude Code does too). */
export function expandVariables(text: string, env: Record<string, string | undefined>): Expanded {
  const missing: string[] = [];
  const value = text.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const set = ownEntry(env, name);
    if (set !== undefined) return set;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return whole;
  });
  return { value, missing };
}

/**
 * Expands every string of a value made of strings, arrays and objects (a server entry), and
 * collects the missing variables of all of them, each named once.
 */
export function expandDeep<T>(value: T, env: Record<string, string | undefined>): { value: T; missing: string[] } {
  const missing = new Set<string>();
  const walk = (item: unknown): unknown => {
    if (typeof item === "string") {
      const expanded = expandVariables(item, env);
      for (const name of expanded.missing) missing.add(name);
      return expanded.value;
    }
    if (Array.isArray(item)) return item.map(walk);
    if (item !== null && typeof item === "object") {
      return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, walk(inner)]));
    }
    return item;
  };
  return { value: walk(value) as T, missing: [...missing] };
}
