// Where MCP servers are configured, read unchanged from where users already keep them: zot's own
// `$ZOT_HOME/mcp.json`, the project's `.mcp.json`, Claude Code's `~/.claude.json` (its
// top-level `mcpServers`, user scope, and `projects["<dir>"].mcpServers`, local scope), and Codex's
// `config.toml` (`[mcp_servers.*]`: `~/.codex/config.toml`, user scope, and a folder's
// `.codex/config.toml`, project scope; codex-config-view.ts); and, for one run, the command line's
// `--mcp-config` (flag-configs.ts).
// Rule: one name, one server: the command line beats local beats project beats user (the files
// in Claude Code's order), zot's own file beats Claude Code's, and Claude Code's Codex's, within a scope, `--strict-mcp-config`
// leaves only the command line's, and every entry that loses is kept, marked, for `zot mcp
// list`. A broken file or entry is a sentence naming the file; it never stops the others. Nothing
// here writes (config-edit.ts does, and never to Claude Code's file).
import { realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isJsonObject } from "../protocol/json-object.ts";
import { readClaudeConfig } from "./claude-config-view.ts";
import { codexConfigFile, PROJECT_CODEX_FILE, readCodexConfig } from "./codex-config-view.ts";
import { expansionEnv } from "./env-expansion.ts";
import type { FlagMcpConfig } from "./flag-configs.ts";
import { readJsonFile } from "./json-file.ts";
import { parseServerEntry, type ServerTransport, type ToolFilter } from "./server-entry.ts";

export const MCP_FILE = "mcp.json";
export const PROJECT_MCP_FILE = ".mcp.json";

/** Claude Code's scopes: local = you, in this folder; project = everyone, in `.mcp.json`; user = you, everywhere. */
export type McpScope = "local" | "project" | "user";
export const MCP_SCOPES: readonly McpScope[] = ["local", "project", "user"];

export interface McpConfigSource {
  /** "flag": `--mcp-config`, this run only */
  scope: McpScope | "flag";
  /** zot writes its own file and `.mcp.json`; Claude Code's and Codex's files and the command line's are only read */
  owner: "zot" | "claude" | "codex" | "project" | "flag";
  /** the file ("" for JSON given on the command line) */
  file: string;
  /** how messages name it: `~/.claude.json (local)` */
  label: string;
}

/** A source that is a file zot finds on its own (all but the command line's). */
export type McpFileSource = McpConfigSource & { scope: McpScope; owner: "zot" | "claude" | "codex" | "project" };

/** One entry of one source, as read. */
export interface ConfiguredServer {
  name: string;
  source: McpConfigSource;
  /** the entry as written, before `${VAR}` expansion */
  raw: unknown;
  /** how to reach it; undefined when the entry is broken (then `error` says why) */
  transport?: ServerTransport;
  error?: string;
  warnings: string[];
  /** the source whose entry of the same name wins; this one is not started */
  shadowedBy?: McpConfigSource;
  /** `.mcp.json` of a folder the user has not trusted: listed, never started */
  untrusted?: true;
  /** turned off in Claude Code for this folder (`disabledMcpjsonServers`): listed, never started */
  disabled?: true;
}

export interface McpConfig {
  /** every entry of every source, in precedence order */
  servers: ConfiguredServer[];
  /** problems with whole files */
  warnings: string[];
}

export interface McpConfigOptions {
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  /** workspace trust of `cwd` (config/workspace-trust.ts); false marks `.mcp.json`'s servers untrusted */
  projectTrusted: boolean;
  /** the user's home directory, for `~/.claude.json` (default: $HOME) */
  userHome?: string;
  /** `--mcp-config`, read: ahead of every file */
  flagConfigs?: readonly FlagMcpConfig[];
  /** `--strict-mcp-config`: the command line's servers only; no file is read */
  strict?: boolean;
  /** the .mcp.json servers Claude Code's settings files turn off (their `disabledMcpjsonServers`) */
  disabled?: readonly string[];
  /** false: --setting-sources leaves out `project`, and the folder's .mcp.json is not read */
  projectFile?: boolean;
}

/** Claude Code's own file: `$CLAUDE_CONFIG_DIR/.claude.json` when that is set, else `~/.claude.json`. */
export function claudeConfigFile(env: Record<string, string | undefined>, userHome?: string): string {
  const dir = env.CLAUDE_CONFIG_DIR?.trim();
  if (dir) return path.join(dir, ".claude.json");
  return path.join(userHome ?? env.HOME ?? os.homedir(), ".claude.json");
}

export function zotMcpFile(home: string): string {
  return path.join(home, MCP_FILE);
}

/** The files, in precedence order. */
export function mcpSources(options: { cwd: string; home: string; env: Record<string, string | undefined>; userHome?: string }): McpFileSource[] {
  const zotFile = zotMcpFile(path.resolve(options.cwd, options.home));
  const claudeFile = claudeConfigFile(options.env, options.userHome);
  const codexFile = codexConfigFile(options.env, options.userHome);
  const projectCodexFile = path.join(options.cwd, PROJECT_CODEX_FILE);
  const sources: McpFileSource[] = [
    { scope: "local", owner: "zot", file: zotFile, label: `${zotFile} (local)` },
    { scope: "local", owner: "claude", file: claudeFile, label: `${claudeFile} (local)` },
    { scope: "project", owner: "project", file: path.join(options.cwd, PROJECT_MCP_FILE), label: PROJECT_MCP_FILE },
    { scope: "project", owner: "codex", file: projectCodexFile, label: PROJECT_CODEX_FILE },
    { scope: "user", owner: "zot", file: zotFile, label: `${zotFile} (user)` },
    { scope: "user", owner: "claude", file: claudeFile, label: `${claudeFile} (user)` },
    { scope: "user", owner: "codex", file: codexFile, label: `${codexFile} (user)` },
  ];
  // Run from the home folder, ~/.codex/config.toml is the user's file, read once as theirs.
  return path.resolve(projectCodexFile) === path.resolve(codexFile) ? sources.filter((source) => source.file !== projectCodexFile || source.scope === "user") : sources;
}

/** Every configured server, winners and losers, and the problems with the files. */
export function readMcpConfig(options: McpConfigOptions): McpConfig {
  const warnings: string[] = [];
  const files = new Map<string, Record<string, unknown> | undefined>();
  const claudeFile = claudeConfigFile(options.env, options.userHome);
  const fileOf = (file: string) => {
    if (!files.has(file)) {
      const read =
        file === claudeFile ? readClaudeConfig(file, path.resolve(options.cwd, options.home)) : file.endsWith(".toml") ? readCodexConfig(file, options.env) : readJsonFile(file);
      if (read.problem) warnings.push(read.problem);
      files.set(file, read.data);
    }
    return files.get(file);
  };
  const servers: ConfiguredServer[] = [];
  const variables = expansionEnv(options.env, options.cwd);
  const winners = new Map<string, McpConfigSource>();
  const sections: { source: McpConfigSource; section: unknown }[] = (options.flagConfigs ?? []).map((config) => ({
    source: { scope: "flag", owner: "flag", file: config.file ?? "", label: config.label },
    section: config.servers,
  }));
  // Claude Code keeps, per folder, the .mcp.json servers the user turned down.
  const refused = new Set<string>();
  if (!options.strict) {
    const claudeProject = projectEntry(fileOf(claudeFile), options.cwd);
    for (const name of [...stringList(claudeProject?.disabledMcpjsonServers), ...(options.disabled ?? [])]) refused.add(name);
    for (const source of mcpSources(options)) {
      if (source.scope === "project" && options.projectFile === false) continue;
      const data = fileOf(source.file);
      sections.push({ source, section: source.scope === "local" ? projectEntry(data, options.cwd)?.mcpServers : data?.mcpServers });
    }
  }
  for (const { source, section } of sections) {
    if (section === undefined) continue;
    if (!isJsonObject(section)) {
      warnings.push(`${source.label}: "mcpServers" must be an object of servers by name; it is ignored`);
      continue;
    }
    for (const [name, written] of Object.entries(section)) {
      const where = `MCP server "${name}" in ${source.label}`;
      // What a Codex entry has that zot cannot honour (codex-config-view.ts), said with the server's name.
      const { zotWarnings, zotToolFilter, ...codex } = source.owner === "codex" && isJsonObject(written) ? written : { zotWarnings: undefined, zotToolFilter: undefined };
      const raw = source.owner === "codex" && isJsonObject(written) ? codex : written;
      const notes = Array.isArray(zotWarnings) ? zotWarnings.map((note) => `${where}: ${note}`) : [];
      const parsed = parseServerEntry(raw, where, variables);
      const server: ConfiguredServer = {
        name,
        source,
        raw,
        warnings: "error" in parsed ? [] : [...notes, ...parsed.warnings],
        ...("error" in parsed
          ? { error: parsed.error }
          : { transport: isJsonObject(zotToolFilter) && parsed.transport.type !== "sdk" ? { ...parsed.transport, toolFilter: zotToolFilter as ToolFilter } : parsed.transport }),
      };
      if (source.scope === "project" && !options.projectTrusted) server.untrusted = true;
      if (source.scope === "project" && refused.has(name)) server.disabled = true;
      // An entry that will not start (an untrusted folder's, one turned off) takes no name from the
      // user's own: a cloned repository cannot switch off a server of the user's by naming its own so.
      const winner = winners.get(name);
      if (winner) server.shadowedBy = winner;
      else if (!server.untrusted && !server.disabled) winners.set(name, source);
      servers.push(server);
    }
  }
  return { servers, warnings };
}

/** A configured server this run does not start, and why, as /mcp lists it beside the servers it started. */
export interface McpServerOff {
  name: string;
  /** where it is configured (`.mcp.json`, `~/.claude.json (local)`) */
  source: string;
  /** `turned off for this folder in Claude Code (disabledMcpjsonServers)` */
  why: string;
}

/**
 * Why a configured server is off (not started, as `zot mcp list` says too); undefined when it is
 * started, or when it lost its name to another entry, which is the one to show.
 */
export function offReason(server: ConfiguredServer): string | undefined {
  if (server.shadowedBy) return undefined;
  if (server.untrusted) return "this folder is not trusted (zot trust)";
  if (server.disabled) return "turned off for this folder in Claude Code (disabledMcpjsonServers)";
  if (server.error) return `its entry cannot be used: ${server.error}`;
  return undefined;
}

/** The servers to start: neither shadowed, untrusted, disabled nor broken. */
export function runnableServers(config: McpConfig): (ConfiguredServer & { transport: ServerTransport })[] {
  return config.servers.filter(
    (server): server is ConfiguredServer & { transport: ServerTransport } =>
      server.transport !== undefined && !server.shadowedBy && !server.untrusted && !server.disabled,
  );
}

/** `projects["<dir>"]` of a file shaped like `~/.claude.json`, under the folder's path as given or its real path. */
export function projectEntry(data: Record<string, unknown> | undefined, cwd: string): Record<string, unknown> | undefined {
  const projects = data?.projects;
  if (!isJsonObject(projects)) return undefined;
  for (const key of projectKeys(cwd)) {
    const entry = projects[key];
    if (isJsonObject(entry)) return entry;
  }
  return undefined;
}

/** The keys a folder may be filed under: its absolute path and its real path. */
export function projectKeys(cwd: string): string[] {
  const abs = path.resolve(cwd);
  let real = abs;
  try {
    real = realpathSync(abs);
  } catch {}
  return real === abs ? [abs] : [real, abs];
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}
