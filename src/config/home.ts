// Where zot keeps its state ($ZOT_HOME) and the names of the files inside it.
// Rule: the location is computed from what is passed in (env, platform, home directory), never from
// globals read deep inside, so every caller and test can say exactly which home it means.
import os from "node:os";
import path from "node:path";
import { UsageError } from "./usage-error.ts";

/** A configuration file a user can fix: the message is a sentence naming the file and what to do. */
export class ConfigError extends UsageError {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * `$ZOT_HOME`; else macOS `~/Library/Application Support/zot`; Windows `%LOCALAPPDATA%\zot`;
 * else `$XDG_STATE_HOME/zot`; else `~/.local/state/zot`. Always absolute (a relative `ZOT_HOME` or
 * `HOME` is taken from `cwd`): extensions run in their own directories and are handed these paths.
 */
export function zotHome(
  env: Env = process.env,
  platform: string = process.platform,
  homedir: string = os.homedir(),
  cwd: string = process.cwd(),
): string {
  const where = platform === "win32" ? path.win32 : path.posix;
  const home = relativeZotHome(env, platform, homedir);
  return where.isAbsolute(home) ? home : where.resolve(cwd, home);
}

function relativeZotHome(env: Env, platform: string, homedir: string): string {
  const explicit = env.ZOT_HOME?.trim();
  if (explicit) return explicit;
  // Windows paths are joined with backslashes even when this runs elsewhere (tests), and the
  // other way round, so the answer depends only on the arguments.
  if (platform === "win32") {
    const local = env.LOCALAPPDATA?.trim();
    if (local) return path.win32.join(local, "zot");
    if (homedir) return path.win32.join(homedir, "AppData", "Local", "zot");
    return ".zot";
  }
  if (platform === "darwin" && homedir) return path.posix.join(homedir, "Library", "Application Support", "zot");
  const xdg = env.XDG_STATE_HOME?.trim();
  // The XDG spec says relative values are invalid and must be ignored.
  if (xdg && path.posix.isAbsolute(xdg)) return path.posix.join(xdg, "zot");
  if (homedir) return path.posix.join(homedir, ".local", "state", "zot");
  // No home directory at all (some containers): keep state beside the work rather than fail.
  return ".zot";
}

export interface ZotPaths {
  home: string;
  /** API keys, mode 0600 */
  authFile: string;
  /** the user's model overrides and additions */
  modelsFile: string;
  /** settings: last provider/model and the like */
  configFile: string;
  /** hooks in Claude Code's settings.json format, the user's own (src/settings-hooks) */
  settingsFile: string;
  /** replaces the built-in identity of the system prompt when non-empty */
  systemPromptFile: string;
  sessionsDir: string;
  extensionsDir: string;
  /** one directory per extension, for the state it keeps across runs and reinstalls */
  dataDir: string;
  skillsDir: string;
  logsDir: string;
  /** where /session export writes when no file is named (never the project the TUI runs in) */
  exportsDir: string;
}

export function zotPaths(home: string): ZotPaths {
  return {
    home,
    authFile: path.join(home, "auth.json"),
    modelsFile: path.join(home, "models.json"),
    configFile: path.join(home, "config.json"),
    settingsFile: path.join(home, "settings.json"),
    systemPromptFile: path.join(home, "SYSTEM.md"),
    sessionsDir: path.join(home, "sessions"),
    extensionsDir: path.join(home, "extensions"),
    dataDir: path.join(home, "data"),
    skillsDir: path.join(home, "skills"),
    logsDir: path.join(home, "logs"),
    exportsDir: path.join(home, "exports"),
  };
}

/** `<home>/data/<name>`: state an extension keeps across runs and reinstalls. */
export function extensionDataDir(home: string, name: string): string {
  return path.join(zotPaths(home).dataDir, name);
}

/** `<home>/logs/ext-<name>.log`, where an extension's stderr and zot's notes about it go. */
export function extensionLogFile(home: string, name: string): string {
  return path.join(zotPaths(home).logsDir, `ext-${name}.log`);
}
