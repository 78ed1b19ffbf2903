// What of the working directory (and of $ZOT_HOME) runs beside the agent: the extensions and hooks,
// and the MCP servers, started in parallel under the run's one workspace trust decision, and the
// Markdown commands. Rule: the decision is made (and the user asked) at most once, before anything
// of the folder starts; with --no-ext nothing of the folder would, so nothing is asked.
import { homedir } from "node:os";
import { folderAnswer } from "../config/trust-store.ts";
import { decideWorkspaceTrust, type WorkspaceTrust } from "../config/workspace-trust.ts";
import { BUILTIN_COMMANDS } from "../extensions/builtin-names.ts";
import { nothingToDiscover } from "../extensions/discover.ts";
import { hooksConfigPresent } from "../extensions/hooks-files.ts";
import type { ExtensionManager, LoadOptions, LoadReport } from "../extensions/manager.ts";
import type { BangRunner, ExpansionHook } from "../commands/command-source.ts";
import type { CommandSource } from "../protocol/slash-command.ts";
import type { Skill } from "../skills/discover.ts";
import type { SettingSourceName } from "../protocol/setting-sources.ts";
import type { McpLoaded } from "../mcp/load.ts";
import { PROJECT_MCP_FILE } from "../mcp/config-files.ts";
import { VERSION } from "../version.ts";
import type { RuntimeOptions } from "./runtime.ts";

/** The run's one workspace trust decision, made (and asked) at most once, by whichever loader needs it first. */
export interface TrustOnce {
  (): Promise<WorkspaceTrust>;
  /** the decision, once made */
  decided(): WorkspaceTrust | undefined;
  /**
   * Whether the folder is trusted now, for a start after the first (/reload-ext, /mcp reconnect, a
   * crashed server's restart): --trust holds for the run; otherwise the trust store says, so a
   * `zot untrust` meanwhile stops the folder's configuration from starting again, and a `zot trust`
   * lets it start.
   */
  now(): boolean;
}

export function trustOnce(options: RuntimeOptions, context: { cwd: string; home: string }): TrustOnce {
  let deciding: Promise<WorkspaceTrust> | undefined;
  let decided: WorkspaceTrust | undefined;
  const once = () => {
    // --strict-mcp-config, or --setting-sources without project: the folder's .mcp.json would not run even if it were trusted.
    const skip = options.mcp?.strict || (options.settingSources && !options.settingSources.includes("project")) ? [PROJECT_MCP_FILE] : [];
    // --setting-sources without project and local: the folder's .claude/settings*.json are not read.
    if (options.settingSources && !options.settingSources.some((source) => source === "project" || source === "local")) skip.push(".claude");
    deciding ??= decideWorkspaceTrust({ cwd: context.cwd, home: context.home, flag: options.trust, ask: options.askTrust, skip }).then((trust) => (decided = trust));
    return deciding;
  };
  const now = () => options.trust === true || folderAnswer(context.home, context.cwd)?.trusted === true;
  return Object.assign(once, { decided: () => decided, now });
}

/** Reads the MCP configuration and starts its servers (src/mcp/load.ts); loads no SDK when there are none. */
export async function loadMcp(
  options: RuntimeOptions,
  context: { cwd: string; home: string; env: Record<string, string | undefined>; disabledFor?: (trusted: boolean) => readonly string[] },
  trust: TrustOnce,
): Promise<McpLoaded> {
  const { loadMcpServers } = await import("../mcp/load.ts");
  return loadMcpServers({
    ...context,
    // --setting-sources without project: the folder's .mcp.json is one of its files, as in Claude Code.
    ...(options.settingSources && !options.settingSources.includes("project") ? { projectFile: false } : {}),
    trust,
    trustNow: trust.now,
    wait: options.extensionWait ?? "all",
    clientVersion: VERSION,
    log: options.log ?? (() => {}),
    flags: options.mcp,
  });
}

/** The extensions a run looked for: the manager of those it started, or none when there were none to start. */
export interface LoadedExtensions {
  /** undefined when nothing was there to start (the extension machinery is not even loaded) */
  manager?: ExtensionManager;
  warnings: string[];
  trust: WorkspaceTrust;
  /**
   * A manager not yet loaded, and its load, which looks again (with the same --ext, --no-ext and
   * trust) and starts what is there now: used when there was none to start (manager undefined).
   */
  later(): Promise<{ manager: ExtensionManager; load(): Promise<LoadReport> }>;
}

/**
 * Discovers and starts the extensions (`--ext` paths always; the search directories unless
 * `--no-ext`). When there is nothing to start (no `--ext`, no extension directory, no hooks.json),
 * no manager is made, which saves a start its loading and wiring (about 1 ms of a `-p` start, in
 * 200 interleaved runs); `later` makes one for the first /reload-ext.
 */
export async function loadExtensions(
  options: RuntimeOptions,
  context: { cwd: string; home: string; env: Record<string, string | undefined>; provider: string; model: string },
  decideTrust: TrustOnce,
): Promise<LoadedExtensions | undefined> {
  const explicit = options.extensions?.explicit ?? [];
  const noDiscovery = options.extensions?.noDiscovery ?? false;
  if (explicit.length === 0 && noDiscovery) return undefined;
  // Decided before anything of the folder's starts; with --no-ext nothing of it would.
  const trust: WorkspaceTrust = noDiscovery ? { dir: context.cwd, trusted: false, how: "nothing_to_run", found: [] } : await decideTrust();
  const loadOptions: LoadOptions = {
    ...context,
    explicit,
    noDiscovery,
    projectTrusted: trust.trusted,
    // --no-ext: nothing of the folder starts at a reload either.
    trustNow: noDiscovery ? () => false : decideTrust.now,
    wait: options.extensionWait ?? "all",
    onWaiting: options.onExtensionsWaiting,
    // [issue 15] interactive extension tools need someone to answer them: the TUI (it confirms)
    interactive: options.confirmer !== undefined,
    zotVersion: VERSION,
    zotBinary: options.zotBinary ?? process.execPath,
  };
  const make = async () => new (await import("../extensions/manager.ts")).ExtensionManager();
  // A later start is a reload: the start's trust note does not cover it.
  const later = async () => {
    const manager = await make();
    // Trusted as the folder is now (`zot untrust` or `zot trust` meanwhile), as a reload is.
    return { manager, load: () => manager.load({ ...loadOptions, projectTrusted: loadOptions.trustNow?.() ?? loadOptions.projectTrusted, sayUntrusted: true }) };
  };
  if (nothingToDiscover(loadOptions) && !hooksConfigPresent(loadOptions)) return { warnings: [], trust, later };
  const manager = await make();
  const report = await manager.load({ ...loadOptions, explicitMustStart: true });
  return { manager, warnings: report.warnings, trust, later };
}

/**
 * The Markdown commands (.zot/commands, .claude/commands, $ZOT_HOME/commands, ~/.claude/commands)
 * as a command source (none when there are none); their `!` lines run only in a trusted folder
 * (`trust`: the run trusts it, or the folder is remembered as trusted). With warnings for the user.
 */
export async function markdownCommandSource(context: {
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  trust: boolean;
  /** runs a command's `!` line as the model's bash calls run */
  runBang: BangRunner;
  /** why a command's @file may not be attached (what the run's read tool may not read), or undefined */
  attachable?: (path: string) => Promise<string | undefined>;
  /** the run's skills: those the user may start (not `user-invocable: false`) are slash commands where no command has the name */
  skills: readonly Skill[];
  /** --setting-sources: whether Claude Code's command folders are read; undefined = all */
  claudeSources?: readonly SettingSourceName[];
  /** the settings files' UserPromptExpansion hooks */
  expanding?: ExpansionHook;
  /** `${CLAUDE_SESSION_ID}` in a command or a skill: the session's id, as settings hooks are told it */
  sessionId?: () => string;
  /** whether the folder is trusted now: a folder's command's `!` lines and allowed-tools stop once it no longer is */
  trustNow?: () => boolean;
}): Promise<{ source?: CommandSource; warnings: string[] }> {
  const { cwd, home, env } = context;
  const [{ loadMarkdownCommands }, { MarkdownCommandSource }, { skillCommands }, { folderAnswer }, { realOrSame }, { isWithin }, { userInvocable }] = await Promise.all([
    import("../commands/markdown-commands.ts"),
    import("../commands/command-source.ts"),
    import("../commands/skill-commands.ts"),
    import("../config/trust-store.ts"),
    import("../config/quiet-fs.ts"),
    import("../tools/sandbox.ts"),
    import("../skills/discover.ts"),
  ]);
  const projectTrusted = context.trust || folderAnswer(home, cwd)?.trusted === true;
  // Until the folder is trusted, a command file or folder that is a link out of it is not read.
  const folder = realOrSame(cwd);
  const withheld = projectTrusted
    ? undefined
    : (path: string) => {
        const real = realOrSame(path);
        return isWithin(folder, real) ? undefined : `${path} is a link to ${real}, outside this folder, so it is not read until the folder is trusted (zot trust, or --trust for one run)`;
      };
  const found = loadMarkdownCommands({
    cwd,
    home,
    userHome: env.HOME || homedir(),
    projectTrusted,
    ...(withheld ? { withheld } : {}),
    ...(context.claudeSources ? { claudeSources: context.claudeSources } : {}),
    ...(env.CODEX_HOME ? { codexHome: env.CODEX_HOME } : {}),
    ...(env.PI_CODING_AGENT_DIR ? { piAgentDir: env.PI_CODING_AGENT_DIR } : {}),
  });
  // zot's built-in commands win everywhere (the TUI, -p, rpc's prompt and run_command alike), as
  // Claude Code's do: a command file of that name answers only to its folder's name, or is left out
  // with a warning; a skill of that name stays the model's. While the folder is not trusted, the
  // user's own skills (and zot's, an extension's) come before its commands too, as the user's own
  // commands do (markdown-commands.ts): a cloned repository's review.md must not take /review from
  // the user's review skill.
  const warnings = [...found.warnings];
  const notTheFolders = new Map(context.skills.filter((skill) => skill.source !== "project" && userInvocable(skill)).map((skill) => [skill.name.toLowerCase(), skill]));
  const markdown = found.commands.flatMap((command) => {
    const key = command.name.toLowerCase();
    const mine = !projectTrusted && command.scope === "project" ? notTheFolders.get(key) : undefined;
    if (!BUILTIN_COMMANDS.has(key) && !mine) return [command];
    if (command.alias) return [{ ...command, name: command.alias, alias: undefined }];
    if (mine) warnings.push(`${command.file}: /${command.name} is not this folder's while the folder is not trusted: your own skill ${mine.path} has the name and comes first (zot trust, or --trust for one run)`);
    else warnings.push(`${command.file}: /${command.name} is a built-in command of zot, which comes first; rename the file to use it`);
    return [];
  });
  const takenBy = new Map(markdown.flatMap((command) => [command.name, ...(command.alias ? [command.alias] : [])].map((name) => [name.toLowerCase(), command] as const)));
  const taken = new Set([...BUILTIN_COMMANDS, ...takenBy.keys()]);
  const commands = [...markdown, ...skillCommands(context.skills, taken)];
  // A skill whose /name a command has is said: typed, the name runs the command.
  for (const skill of context.skills) {
    const key = skill.name.toLowerCase();
    if (!taken.has(key) || (userInvocable(skill) === false && skill.modelInvocable !== false)) continue;
    const by = BUILTIN_COMMANDS.has(key) ? "a built-in command of zot" : `the command ${takenBy.get(key)?.file}`;
    warnings.push(
      skill.modelInvocable === false
        ? `${skill.path}: the skill ${skill.name} is only for the user to start (disable-model-invocation: true), but /${skill.name} is ${by}, which comes first; /skill:${skill.name} starts the skill`
        : `${skill.path}: /${skill.name} is ${by}, which comes first; /skill:${skill.name} starts the skill (the model may still load it)`,
    );
  }
  const options = {
    cwd,
    projectTrusted,
    ...(context.trustNow ? { trustNow: context.trustNow } : {}),
    runBang: context.runBang,
    ...(context.attachable ? { attachable: context.attachable } : {}),
    ...(context.expanding ? { expanding: context.expanding } : {}),
    ...(context.sessionId ? { sessionId: context.sessionId } : {}),
  };
  const source = commands.length > 0 ? new MarkdownCommandSource(commands, options) : undefined;
  return { ...(source ? { source } : {}), warnings };
}
