// `zot mcp add` and `zot mcp remove`: where each scope writes. project → the folder's `.mcp.json`
// (shared with Claude Code and the team, as Claude Code writes it); user → `$ZOT_HOME/mcp.json`'s
// top-level `mcpServers`; local → `$ZOT_HOME/mcp.json`'s `projects["<real path>"].mcpServers`, the
// same shape Claude Code keeps in `~/.claude.json`.
// Rule: zot writes only its own file and `.mcp.json`, never Claude Code's `~/.claude.json` (it is
// read, and a server defined there is named with the command that removes it); a file is written
// whole and atomically with its other keys kept; a file that cannot be read as JSON is never
// overwritten; `$ZOT_HOME/mcp.json` is private (0600), since headers and env may hold tokens.
import { lstatSafe, realOrSame, statSafe } from "../config/quiet-fs.ts";
import { underUpdateLock } from "../config/file-update-lock.ts";
import { writeFileAtomic } from "../config/write-file-atomic.ts";
import fs from "node:fs";
import path from "node:path";
import { ConfigError } from "../config/home.ts";
import { folderKey } from "../config/trust-store.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import { type McpConfigSource, type McpScope, mcpSources, PROJECT_MCP_FILE, projectEntry, projectKeys, zotMcpFile } from "./config-files.ts";
import { readCodexConfig } from "./codex-config-view.ts";
import { readJsonFile } from "./json-file.ts";

export interface EditContext {
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  userHome?: string;
}

/** The file a scope writes, and how messages name it. */
export function scopeTarget(scope: McpScope, context: EditContext): { file: string; label: string } {
  if (scope === "project") return { file: path.join(context.cwd, PROJECT_MCP_FILE), label: path.join(context.cwd, PROJECT_MCP_FILE) };
  const file = zotMcpFile(path.resolve(context.cwd, context.home));
  return { file, label: scope === "local" ? `${file} (local to ${folderKey(context.cwd)})` : `${file} (user)` };
}

/** Adds `name` to the scope's file; throws ConfigError when it is there already or the file is broken. */
export function addServer(scope: McpScope, name: string, entry: Record<string, unknown>, context: EditContext): { file: string; label: string } {
  const target = scopeTarget(scope, context);
  updateFile(target.file, scope === "project" ? 0o644 : 0o600, scope === "project" ? context.cwd : undefined, (data) => {
    const section = sectionOf(data, scope, context.cwd, target.file) as Record<string, unknown>;
    if (Object.hasOwn(section, name)) {
      throw new ConfigError(`MCP server "${name}" already exists in ${target.label}; remove it first (zot mcp remove ${name} -s ${scope}) or pick another name`);
    }
    section[name] = entry;
  });
  return target;
}

/**
 * Removes `name`: from the given scope, or from the one zot-written scope that has it. Throws
 * ConfigError when it is in none, in several (name one with -s), or only in Claude Code's file.
 */
export function removeServer(name: string, scope: McpScope | undefined, context: EditContext): { scope: McpScope; label: string } {
  const holders = mcpSources(context).filter((source) => (scope === undefined || source.scope === scope) && holds(source, name, context));
  const ours = holders.filter((source) => source.owner !== "claude" && source.owner !== "codex");
  if (ours.length === 0) {
    const claude = holders.find((source) => source.owner === "claude");
    if (claude) {
      throw new ConfigError(
        `MCP server "${name}" is defined in ${claude.label}, Claude Code's own file, which zot does not change; remove it there (claude mcp remove ${name} -s ${claude.scope}) or edit the file`,
      );
    }
    const codex = holders.find((source) => source.owner === "codex");
    if (codex) {
      throw new ConfigError(`MCP server "${name}" is defined in ${codex.label}, Codex's own file, which zot does not change; remove it there (codex mcp remove ${name}) or edit the file`);
    }
    throw new ConfigError(`no MCP server named "${name}"${scope ? ` in the ${scope} scope` : ""}; zot mcp list shows the configured ones`);
  }
  // With no scope named, a name Claude Code's file holds too is as ambiguous as one in two of zot's
  // scopes: the entry that runs may be Claude Code's, and the one removed the team's .mcp.json.
  const scopes = [...new Set(ours.map((source) => source.scope))];
  if (ours.length > 1 && holders.length === ours.length) {
    throw new ConfigError(`MCP server "${name}" is in more than one scope (${scopes.join(", ")}); say which with -s ${scopes.join("|")}`);
  }
  if (scope === undefined && holders.length > 1) {
    const where = holders.map((source) =>
      source.owner === "claude" || source.owner === "codex"
        ? `${source.label}, ${source.owner === "claude" ? "Claude Code's" : "Codex's"}, which zot does not change`
        : `${source.label}, the ${source.scope} scope`,
    );
    throw new ConfigError(`MCP server "${name}" is in more than one place (${where.join("; ")}); say which with -s ${scopes.join("|")}`);
  }
  const source = ours[0]!;
  updateFile(source.file, source.scope === "project" ? 0o644 : 0o600, source.scope === "project" ? context.cwd : undefined, (data) => {
    const section = sectionOf(data, source.scope, context.cwd);
    if (section) delete section[name];
  });
  return { scope: source.scope, label: source.label };
}

function holds(source: McpConfigSource, name: string, context: EditContext): boolean {
  const { data } = source.owner === "codex" ? readCodexConfig(source.file) : readJsonFile(source.file);
  const section = source.scope === "local" ? projectEntry(data, context.cwd)?.mcpServers : data?.mcpServers;
  return isJsonObject(section) && Object.hasOwn(section, name);
}

/** The scope's `mcpServers` object inside a file's data, made when `create` says so. */
function sectionOf(data: Record<string, unknown>, scope: McpScope, cwd: string, createIn?: string): Record<string, unknown> | undefined {
  // Made where it is absent (or null); something else there is the user's, never replaced by {}.
  const objectAt = (holder: Record<string, unknown>, key: string, what: string, shape: string): Record<string, unknown> | undefined => {
    const value = holder[key];
    if (isJsonObject(value)) return value;
    if (createIn === undefined) return undefined;
    if (value !== undefined && value !== null) {
      throw new ConfigError(`${what} in ${createIn} is ${Array.isArray(value) ? "a list" : `a ${typeof value}`}, not an object; zot will not replace it: fix it by hand (${shape}), nothing was changed`);
    }
    const made: Record<string, unknown> = {};
    holder[key] = made;
    return made;
  };
  let holder: Record<string, unknown> | undefined = data;
  if (scope === "local") {
    const projects = objectAt(data, "projects", '"projects"', 'an object of folders, {"/path/to/folder": {"mcpServers": {…}}}');
    if (!projects) return undefined;
    // An entry filed under another spelling of this folder is the one to change.
    const key = projectKeys(cwd).find((candidate) => isJsonObject(projects[candidate])) ?? folderKey(cwd);
    holder = objectAt(projects, key, `"projects"."${key}"`, '{"mcpServers": {…}}');
    if (!holder) return undefined;
  }
  return objectAt(holder, "mcpServers", scope === "local" ? `"mcpServers" of this folder` : '"mcpServers"', 'an object of servers by name, {"name": {"command": …}}');
}

/**
 * Reads, changes and writes back one file. `within`: a folder the file must really be in; a
 * project's .mcp.json that is a link out of the project (a cloned repository's, to
 * ~/.claude.json) must not choose which of the user's files zot writes.
 */
function updateFile(file: string, mode: number, within: string | undefined, change: (data: Record<string, unknown>) => void): void {
  if (within !== undefined && lstatSafe(file)?.isSymbolicLink()) {
    const real = realOrSame(file);
    const folder = realOrSame(within);
    if (real !== folder && !real.startsWith(`${folder}${path.sep}`)) {
      throw new ConfigError(`${file} is a link to ${real}, outside this folder; zot writes a project's .mcp.json only inside the project, nothing was changed (replace the link with a file to keep the project's servers there)`);
    }
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, ...(mode === 0o600 ? { mode: 0o700 } : {}) });
  // Another zot's `zot mcp add` at the same moment is read and kept, not overwritten.
  underUpdateLock(file, () => {
    const read = readJsonFile(file);
    if (read.problem) throw new ConfigError(`${read.problem.replace(/; its MCP servers.*$/, "")}; nothing was changed`);
    if (read.lossy) {
      // Read, its bytes that are no UTF-8 became U+FFFD: written back, the user's bytes would be gone.
      throw new ConfigError(`${file} is not valid UTF-8 (an editor saved it in another encoding?); rewriting it would replace those bytes; save it as UTF-8, nothing was changed`);
    }
    const data = read.data ?? {};
    change(data);
    // An existing .mcp.json keeps the permissions its owner gave it.
    const existing = statSafe(file);
    writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`, existing && mode !== 0o600 ? existing.mode & 0o777 : mode);
  });
}
