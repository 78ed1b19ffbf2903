// Workspace trust: whether a folder's executable configuration may run in this run, and what that
// configuration is. A cloned repository's `.zot/extensions` and `.zot/hooks.json` are programs its
// author chose; they run only in a folder the user trusted (remembered in $ZOT_HOME/trust.json,
// trust-store.ts), or for one run with --trust.
// Rule: one decision per run (decideWorkspaceTrust), made before anything of the folder's starts,
// which every loader of project configuration reads (extensions, hooks, MCP servers and Claude Code
// settings hooks; a new kind: add it to PROJECT_EXECUTABLE_CONFIG, mark it loaded, and gate its
// loader on WorkspaceTrust.trusted). The same list says what the jailed tools may not
// write, so a kind added here is protected from the day it is added. Global configuration
// ($ZOT_HOME, ~/.claude) is the user's own and `--ext` the user's explicit choice: neither needs trust.
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ProtectedPath } from "../protocol/tool.ts";
import { gitRepositoryPaths } from "./git-repository-paths.ts";
import { zotPaths } from "./home.ts";
import { folderKey, readTrustStoreOnce, rememberFolder, trustStoreFile } from "./trust-store.ts";
import { readdirSafe, realOrSame, statSafe } from "./quiet-fs.ts";
import { shellQuote } from "../protocol/shell-quote.ts";
import { ownEntry } from "../protocol/own-key.ts";

/** One kind of executable configuration a folder can hold. */
export interface ProjectConfigKind {
  /** relative to the folder */
  path: string;
  /** set when `path` is a directory of which only the entries with a matching name count */
  names?: RegExp;
  /** how the user knows it: ".claude/settings*.json" */
  label: string;
  what: string;
  /** zot loads it today (so it takes part in the trust question); the rest are protected only */
  loaded: boolean;
  /**
   * for a kind with `names`: the files zot reads (each found on its own, when `counts` says it
   * holds something that would run); without it, the directory's subdirectories are the items
   */
  files?: { names: readonly string[]; counts: (file: string) => boolean };
}

export const PROJECT_EXECUTABLE_CONFIG: readonly ProjectConfigKind[] = [
  { path: ".zot/extensions", label: ".zot/extensions", what: "extensions", loaded: true },
  { path: ".zot/hooks.json", label: ".zot/hooks.json", what: "hooks", loaded: true },
  { path: ".mcp.json", label: ".mcp.json", what: "MCP servers", loaded: true },
  {
    path: ".claude",
    names: /^settings.*\.json$/,
    label: ".claude/settings*.json",
    what: "Claude Code hooks, env and apiKeyHelper",
    loaded: true,
    files: { names: ["settings.json", "settings.local.json"], counts: holdsHooksOrEnv },
  },
  {
    path: ".codex",
    names: /^(hooks\.json|config\.toml)$/,
    label: ".codex/hooks.json, .codex/config.toml",
    what: "Codex hooks or MCP servers",
    loaded: true,
    files: { names: ["hooks.json", "config.toml"], counts: holdsCodexConfig },
  },
  // Protected only (they ask no trust question of their own): a command's `!` lines run, and its
  // allowed-tools allow, in the next run; a skill's do the same when typed as /name.
  { path: ".claude/commands", label: ".claude/commands", what: "Markdown commands", loaded: false },
  { path: ".zot/commands", label: ".zot/commands", what: "Markdown commands", loaded: false },
  { path: ".claude/skills", label: ".claude/skills", what: "skills", loaded: false },
  { path: ".zot/skills", label: ".zot/skills", what: "skills", loaded: false },
  { path: ".agents/skills", label: ".agents/skills", what: "skills", loaded: false },
  { path: ".codex/skills", label: ".codex/skills", what: "skills", loaded: false },
  { path: ".pi/skills", label: ".pi/skills", what: "skills", loaded: false },
  { path: ".pi/prompts", label: ".pi/prompts", what: "Markdown commands", loaded: false },
];

/** The user's own commands and skills outside $ZOT_HOME (read without trust): relative to the home folder. */
const USER_COMMANDS_AND_SKILLS = [
  { path: ".claude/commands", what: "your Claude Code commands (~/.claude/commands)" },
  { path: ".claude/skills", what: "your Claude Code skills (~/.claude/skills)" },
  { path: ".agents/skills", what: "your skills (~/.agents/skills)" },
];

/** Executable configuration a folder holds that zot would run. */
export interface FoundConfig {
  /** its kind's path in PROJECT_EXECUTABLE_CONFIG (".mcp.json") */
  kind: string;
  label: string;
  what: string;
  path: string;
  /** the extensions' directory names */
  items?: string[];
}

export type TrustAnswer = "trust" | "distrust" | "not_now";
export interface TrustQuestion {
  dir: string;
  found: FoundConfig[];
}
/** Asks the user whether to trust a folder (the TUI's dialog). */
export type TrustAsker = (question: TrustQuestion) => Promise<TrustAnswer>;

export interface WorkspaceTrust {
  /** the folder's real path */
  dir: string;
  trusted: boolean;
  how: "flag" | "remembered" | "answered" | "not_asked" | "nothing_to_run" | "store_unreadable";
  found: FoundConfig[];
  /** for the user, when configuration did not run (or an answer could not be remembered) */
  note?: string;
}

/** The executable configuration zot would run from `cwd` (its extensions and hooks.json). */
export function findProjectConfig(cwd: string, home: string): FoundConfig[] {
  const dir = folderKey(cwd);
  const global = zotPaths(path.resolve(cwd, home));
  // $ZOT_HOME inside the folder (`ZOT_HOME=.zot`): those are the user's own, global, files.
  // ~/.claude as the folder's .claude (zot started in the home directory): the user's own settings.
  const globals = [global.extensionsDir, path.join(global.home, "hooks.json"), path.join(os.homedir(), ".claude"), path.join(os.homedir(), ".codex")];
  const isGlobal = (file: string) => globals.some((g) => realOrSame(g) === realOrSame(file));
  const found: FoundConfig[] = [];
  for (const kind of PROJECT_EXECUTABLE_CONFIG) {
    if (!kind.loaded) continue;
    const file = path.join(dir, kind.path);
    const info = statSafe(file);
    if (!info || isGlobal(file)) continue;
    if (kind.files) {
      // A file where the folder should be (.claude as a file) holds none of these files.
      if (!info.isDirectory()) continue;
      for (const name of kind.files.names) {
        const each = path.join(file, name);
        if (statSafe(each)?.isFile() && kind.files.counts(each)) {
          found.push({ kind: kind.path, label: `${kind.path}/${name}`, what: kind.what, path: each });
        }
      }
    } else if (info.isDirectory()) {
      const items = readdirSafe(file).filter((name) => !name.startsWith(".") && statSafe(path.join(file, name))?.isDirectory());
      if (items.length > 0) found.push({ kind: kind.path, label: kind.label, what: kind.what, path: file, items });
    } else {
      found.push({ kind: kind.path, label: kind.label, what: kind.what, path: file });
    }
  }
  return found;
}

/** ".zot/extensions (guard, weather) and .zot/hooks.json" */
export function describeFound(found: readonly FoundConfig[]): string {
  const parts = found.map((item) => (item.items ? `${item.label} (${item.items.join(", ")})` : item.label));
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

export interface TrustOptions {
  cwd: string;
  home: string;
  /** --trust: trusted for this run, nothing remembered */
  flag?: boolean;
  /** the TUI's question; without one (-p, --json, rpc, the SDK) an undecided folder is not trusted */
  ask?: TrustAsker;
  /**
   * kinds of configuration (their paths: ".mcp.json") this run would not start, trusted or not:
   * alone they are no reason to ask, and the notes leave them out; a question asked for the rest
   * still shows them, since the answer is remembered for the whole folder
   */
  skip?: readonly string[];
}

/**
 * Whether the folder's configuration runs in this run: --trust, else the remembered answer, else
 * the user's answer when there is someone to ask and something to run (remembered unless "not
 * now"), else no. A folder with nothing to run is never asked about.
 */
export async function decideWorkspaceTrust(options: TrustOptions): Promise<WorkspaceTrust> {
  const dir = folderKey(options.cwd);
  const found = findProjectConfig(dir, options.home);
  if (options.flag) return { dir, trusted: true, how: "flag", found };
  // What this run would start; the question (remembered for the folder) shows all that was found.
  const runs = found.filter((item) => !options.skip?.includes(item.kind));
  const what = describeFound(runs);
  const trustCommand = `zot trust ${shellQuote(dir)}`;
  const store = readTrustStoreOnce(options.home);
  if (store.problem) {
    return { dir, trusted: false, how: "store_unreadable", found, ...(runs.length > 0 && { note: `${store.problem}, so this folder's ${what} did not run (--trust runs them for one run)` }) };
  }
  const answer = ownEntry(store.folders, dir);
  if (answer) {
    const note = !answer.trusted && runs.length > 0 ? `this folder (${dir}) is not trusted (you said no on ${answer.decided.slice(0, 10)}), so its ${what} did not run; ${trustCommand} trusts it` : undefined;
    return { dir, trusted: answer.trusted, how: "remembered", found, ...(note && { note }) };
  }
  if (runs.length === 0) return { dir, trusted: false, how: "nothing_to_run", found };
  if (!options.ask) {
    return {
      dir,
      trusted: false,
      how: "not_asked",
      found,
      note: `this folder (${dir}) is not trusted, so its ${what} did not run; to run them, trust it: ${trustCommand} (remembered), or pass --trust for this run`,
    };
  }
  const reply = await options.ask({ dir, found });
  if (reply === "not_now") {
    return { dir, trusted: false, how: "answered", found, note: `this folder's ${what} did not run (not trusted this time); ${trustCommand} trusts it` };
  }
  const trusted = reply === "trust";
  try {
    rememberFolder(options.home, dir, trusted);
  } catch (error) {
    const note = `your answer could not be remembered: ${(error as Error).message}`;
    return { dir, trusted, how: "answered", found, note };
  }
  return { dir, trusted, how: "answered", found, ...(!trusted && { note: `this folder's ${what} did not run; ${trustCommand} trusts it` }) };
}

/**
 * What the built-in tools must not write in a run in `cwd`: the trust store always (a tool that
 * wrote it would grant trust); and while jailed, every kind of executable configuration of the
 * folder, zot's own home (global configuration runs without trust) and the user's Claude Code
 * settings, since a jailed model writing those would run its code outside the jail next time.
 */
export function protectedPaths(options: { cwd: string; home: string; userHome?: string }): ProtectedPath[] {
  const dir = folderKey(options.cwd);
  const home = path.resolve(options.cwd, options.home);
  const paths: ProtectedPath[] = [{ path: trustStoreFile(home), what: "the workspace trust store", whileJailed: false }];
  for (const kind of PROJECT_EXECUTABLE_CONFIG) {
    paths.push({ path: path.join(dir, kind.path), ...(kind.names && { names: kind.names }), what: `this folder's ${kind.what} (${kind.label})`, whileJailed: true });
  }
  // The folder's git repository: what git runs for the user's next `git status` or commit outside
  // zot (core.fsmonitor, aliases, hooks), wherever git would read it from (git-repository-paths.ts).
  paths.push(...gitRepositoryPaths(dir));
  paths.push({ path: home, what: "zot's own configuration ($ZOT_HOME)", whileJailed: true, zotHome: true });
  const claude = PROJECT_EXECUTABLE_CONFIG.find((kind) => kind.path === ".claude");
  const userHome = options.userHome ?? os.homedir();
  if (claude && userHome) paths.push({ path: path.join(userHome, ".claude"), names: claude.names, what: "your Claude Code settings (~/.claude/settings*.json)", whileJailed: true });
  if (userHome) for (const entry of USER_COMMANDS_AND_SKILLS) paths.push({ path: path.join(userHome, entry.path), what: entry.what, whileJailed: true });
  // Codex's and pi's own folders: their hooks and MCP servers run at the next start, their prompts' and skills' ! lines when typed.
  const codexHome = process.env.CODEX_HOME?.trim() || (userHome ? path.join(userHome, ".codex") : undefined);
  if (codexHome) {
    paths.push({ path: codexHome, names: /^(hooks\.json|config\.toml)$/, what: "your Codex hooks and MCP servers (~/.codex/hooks.json, config.toml)", whileJailed: true });
    paths.push({ path: path.join(codexHome, "prompts"), what: "your Codex prompts (~/.codex/prompts)", whileJailed: true });
    paths.push({ path: path.join(codexHome, "skills"), what: "your Codex skills (~/.codex/skills)", whileJailed: true });
  }
  const piDir = process.env.PI_CODING_AGENT_DIR?.trim() || (userHome ? path.join(userHome, ".pi", "agent") : undefined);
  if (piDir) {
    paths.push({ path: path.join(piDir, "prompts"), what: "your pi prompt templates (~/.pi/agent/prompts)", whileJailed: true });
    paths.push({ path: path.join(piDir, "skills"), what: "your pi skills (~/.pi/agent/skills)", whileJailed: true });
  }
  // Its mcpServers (user and local scope) are started without trust (src/mcp/config-files.ts).
  if (userHome) paths.push({ path: path.join(userHome, ".claude.json"), what: "your Claude Code configuration (~/.claude.json), whose MCP servers zot starts", whileJailed: true });
  // Your own git configuration, whose commands git runs everywhere: out of the jail's reach, unless
  // it is a link into the folder (a dotfiles repository), where the file it leads to is protected.
  if (userHome) {
    const xdg = process.env.XDG_CONFIG_HOME || path.join(userHome, ".config");
    for (const file of [path.join(userHome, ".gitconfig"), path.join(xdg, "git", "config")]) {
      paths.push({ path: file, what: `your git configuration (${file.replace(userHome, "~")}), whose commands git runs`, whileJailed: true });
    }
  }
  return paths;
}

export { shellQuote };

/**
 * Whether a Claude Code settings file has hooks to run, an `env` (which every command and the
 * model's key would get: a proxy's URL, say) or an apiKeyHelper to run: a non-empty `hooks` or `env` object, a command. A file that
 * cannot be read or parsed runs nothing (its loader says what is wrong with it).
 */
/** A Codex file that would run something: hooks.json with hooks, config.toml with MCP servers or hooks. */
function holdsCodexConfig(file: string): boolean {
  try {
    const text = readFileSync(file, "utf8");
    if (file.endsWith(".toml")) {
      const parsed = Bun.TOML.parse(text.replace(/^\uFEFF/, "")) as Record<string, unknown>;
      const filled = (value: unknown) => typeof value === "object" && value !== null && Object.keys(value).length > 0;
      return filled(parsed.mcp_servers) || filled(parsed.hooks);
    }
    return holdsHooksOrEnv(file);
  } catch {
    // A file that does not parse runs nothing; it is named where zot reads it.
    return false;
  }
}

function holdsHooksOrEnv(file: string): boolean {
  try {
    const settings = JSON.parse(readFileSync(file, "utf8")) as { hooks?: unknown; env?: unknown; apiKeyHelper?: unknown } | null;
    const filled = (value: unknown) => typeof value === "object" && value !== null && Object.keys(value).length > 0;
    return filled(settings?.hooks) || filled(settings?.env) || (typeof settings?.apiKeyHelper === "string" && settings.apiKeyHelper.trim() !== "");
  } catch {
    return false;
  }
}
