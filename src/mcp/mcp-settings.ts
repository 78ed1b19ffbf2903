// The environment variables that tune MCP, under the names Claude Code reads, so a setup carries
// over: MCP_TIMEOUT (a server's start, ms), MCP_TOOL_TIMEOUT (one call, ms), MAX_MCP_OUTPUT_TOKENS
// (one result) and ENABLE_TOOL_SEARCH (when tools are deferred behind tool_search).
// Rule: a value that cannot be read is named in a warning and the default is used; it never stops zot.
import { DEFAULT_MAX_OUTPUT_TOKENS } from "./result-mapping.ts";

/** Claude Code's start timeout. */
export const DEFAULT_START_MS = 30_000;
/** One call without a word of progress: long enough for real work (a build, a search), bounded so a hung server frees the turn. */
export const DEFAULT_TOOL_MS = 10 * 60_000;
/** Claude Code's default: defer once the tools' definitions would take this share of the context window. */
export const DEFAULT_TOOL_SEARCH_PERCENT = 10;

export type ToolSearchSetting = { mode: "always" } | { mode: "never" } | { mode: "auto"; percent: number };

export interface McpSettings {
  startMs: number;
  toolMs: number;
  maxOutputTokens: number;
  toolSearch: ToolSearchSetting;
  /** sentences naming a variable whose value was not understood */
  warnings: string[];
}

export function readMcpSettings(env: Record<string, string | undefined>): McpSettings {
  const warnings: string[] = [];
  const positive = (name: string, fallback: number): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (Number.isFinite(value) && value > 0) return Math.min(value, 2 ** 31 - 1);
    warnings.push(`${name}=${raw} is not a positive number; using ${fallback}`);
    return fallback;
  };
  return {
    startMs: positive("MCP_TIMEOUT", DEFAULT_START_MS),
    toolMs: positive("MCP_TOOL_TIMEOUT", DEFAULT_TOOL_MS),
    maxOutputTokens: positive("MAX_MCP_OUTPUT_TOKENS", DEFAULT_MAX_OUTPUT_TOKENS),
    toolSearch: toolSearchSetting(env.ENABLE_TOOL_SEARCH, warnings),
    warnings,
  };
}

/** `true` always, `false` never, `auto` (the default) at 10 % of the context window, `auto:N` at N %. */
function toolSearchSetting(raw: string | undefined, warnings: string[]): ToolSearchSetting {
  const value = raw?.trim().toLowerCase();
  if (!value || value === "auto") return { mode: "auto", percent: DEFAULT_TOOL_SEARCH_PERCENT };
  if (["true", "1", "yes", "on"].includes(value)) return { mode: "always" };
  if (["false", "0", "no", "off"].includes(value)) return { mode: "never" };
  const auto = /^auto:(\d+(?:\.\d+)?)$/.exec(value);
  if (auto && Number(auto[1]) >= 0 && Number(auto[1]) <= 100) return { mode: "auto", percent: Number(auto[1]) };
  warnings.push(`ENABLE_TOOL_SEARCH=${raw} is not one of true, false, auto, auto:N (N a percentage); using auto`);
  return { mode: "auto", percent: DEFAULT_TOOL_SEARCH_PERCENT };
}

/**
 * Whether tools whose definitions (as sent: name, description, parameters) take `definitionChars`
 * characters are deferred with a context window of `contextTokens`. About four characters a token.
 */
export function shouldDefer(setting: ToolSearchSetting, definitionChars: number, contextTokens: number): boolean {
  if (setting.mode !== "auto") return setting.mode === "always";
  if (contextTokens <= 0) return false;
  return definitionChars / 4 > (contextTokens * setting.percent) / 100;
}
