// What zot reads of Codex's `config.toml` (`$CODEX_HOME/config.toml`, else `~/.codex/config.toml`,
// and a trusted folder's `.codex/config.toml`): its MCP servers, `[mcp_servers.<name>]`, as the
// `mcpServers` entries zot already reads from Claude Code's files. Rule: read only, never written;
// an entry is mapped where Codex's field has one meaning in Claude Code's shape (a stdio server's
// command, args and env; a remote server's url and headers, a bearer token's variable as an
// Authorization header; its enabled_tools and disabled_tools choose the tools offered), a field zot
// cannot honour is said in the entry's warnings, a server Codex has turned off (`enabled = false`) is
// not started, and a broken file is one sentence naming it.
import os from "node:os";
import path from "node:path";
import { readRegularFile } from "../config/regular-file.ts";
import { errnoWords } from "../protocol/errno-words.ts";
import { errorText } from "../protocol/error-text.ts";
import { isJsonObject } from "../protocol/json-object.ts";

/** Codex's own file: `$CODEX_HOME/config.toml` when that is set, else `~/.codex/config.toml`. */
export function codexConfigFile(env: Record<string, string | undefined>, userHome?: string): string {
  const dir = env.CODEX_HOME?.trim();
  if (dir) return path.join(dir, "config.toml");
  return path.join(userHome ?? env.HOME ?? os.homedir(), ".codex", "config.toml");
}

/** A folder's own Codex file (read only in a trusted folder, as Codex does). */
export const PROJECT_CODEX_FILE = path.join(".codex", "config.toml");

/** Codex's fields zot leaves alone without a word: timeouts (zot's MCP_TIMEOUT rules) and notes for Codex itself. */
const QUIET_FIELDS = new Set(["startup_timeout_sec", "startup_timeout_ms", "tool_timeout_sec", "env_vars", "enabled", "required"]);
/** The fields mapped below. */
const MAPPED_FIELDS = new Set(["command", "args", "env", "cwd", "url", "bearer_token_env_var", "http_headers", "env_http_headers", "type", "transport", "enabled_tools", "disabled_tools"]);

/**
 * The file as `{ mcpServers }` in Claude Code's shape: missing is nothing; unreadable or not TOML
 * is a problem named. Servers turned off in Codex are left out.
 */
export function readCodexConfig(file: string, env: Record<string, string | undefined> = {}): { data?: Record<string, unknown>; problem?: string } {
  let text: string;
  try {
    text = readRegularFile(file).toString("utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return {};
    return { problem: `cannot read ${file} (${errnoWords(error)}); its MCP servers are not started` };
  }
  let parsed: unknown;
  try {
    parsed = Bun.TOML.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    return { problem: `${file} is not valid TOML (${errorText(error)}); its MCP servers are not started until it is fixed` };
  }
  const servers = isJsonObject(parsed) ? parsed.mcp_servers : undefined;
  if (servers === undefined) return {};
  if (!isJsonObject(servers)) return { problem: `${file}: mcp_servers must be a table of servers ([mcp_servers.<name>]); they are not started` };
  const mcpServers: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(servers)) {
    if (isJsonObject(entry) && entry.enabled === false) continue;
    mcpServers[name] = isJsonObject(entry) ? claudeShape(entry, env) : entry;
  }
  return { data: { mcpServers } };
}

/**
 * One `[mcp_servers.<name>]` table as a Claude Code entry. What zot cannot honour goes into the
 * entry's `zotWarnings` (server-entry.ts says them with the server's name).
 */
function claudeShape(entry: Record<string, unknown>, env: Record<string, string | undefined>): Record<string, unknown> {
  const warnings: string[] = [];
  // The tools Codex offers of the server: config-files.ts gives them to the connection, which offers no other.
  const names = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : undefined);
  const enabled = names(entry.enabled_tools);
  const disabled = names(entry.disabled_tools);
  const filter = enabled || disabled ? { zotToolFilter: { ...(enabled ? { enabled } : {}), ...(disabled ? { disabled } : {}) } } : {};
  const unknown = Object.keys(entry).filter((key) => !MAPPED_FIELDS.has(key) && !QUIET_FIELDS.has(key));
  if (unknown.length > 0) warnings.push(`Codex's ${unknown.join(", ")} ${unknown.length === 1 ? "is" : "are"} not read by zot`);
  if (typeof entry.url === "string") {
    const headers: Record<string, unknown> = isJsonObject(entry.http_headers) ? { ...entry.http_headers } : {};
    // A header whose variable is not set is left out, as Codex leaves it out.
    if (isJsonObject(entry.env_http_headers)) {
      for (const [header, variable] of Object.entries(entry.env_http_headers)) if (typeof variable === "string" && env[variable]) headers[header] = `\${${variable}}`;
    }
    if (typeof entry.bearer_token_env_var === "string") headers.Authorization = `Bearer \${${entry.bearer_token_env_var}}`;
    return { type: "http", url: entry.url, headers, ...filter, ...(warnings.length > 0 ? { zotWarnings: warnings } : {}) };
  }
  const shaped: Record<string, unknown> = { command: entry.command, args: entry.args ?? [], env: entry.env ?? {}, ...filter };
  if (entry.cwd !== undefined) warnings.push("Codex's cwd is not read: the server starts in zot's working directory");
  return warnings.length > 0 ? { ...shaped, zotWarnings: warnings } : shaped;
}
