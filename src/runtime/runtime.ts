// Assembles a working agent from options: provider and model, credentials, tools, system prompt,
// skills, extensions, session. Rule: the one place the conversation (and so every front end) gets an
// agent from; nothing above wires these itself. Concrete providers load behind import() so a run
// pays only for the SDK it uses (providers/provider-choice.ts), and the extension machinery loads
// only when there is an extension or hook to start (project-config.ts).
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname } from "node:path";
import { resolve } from "node:path";
import { missingKeyMessage, type ResolvedKey, requiresApiKey, resolveApiKey } from "../config/credentials.ts";
import { PROVIDER_ENV, resolveBaseUrl } from "../config/provider-env.ts";
import type { SettingSourceName } from "../protocol/setting-sources.ts";
import { silenceLimitMs } from "../providers/silence-limit.ts";
import { isHttpUrl, notHttpUrlText } from "../protocol/http-url.ts";
import { maxRetriesSet } from "../providers/retry-limit.ts";
import { zotHome } from "../config/home.ts";
import { buildSystemPrompt } from "../config/system-prompt.ts";
import { protectedPaths, type TrustAsker, type WorkspaceTrust } from "../config/workspace-trust.ts";
import { UsageError } from "../config/usage-error.ts";
import { Agent } from "../core/agent.ts";
import { type Confirmer, ConfirmGate } from "../core/confirm-gate.ts";
import { errorText } from "../protocol/error-text.ts";
import type { ModelInfo, ReasoningLevel } from "../protocol/models.ts";
import type { OpenedAnswer, Provider } from "../protocol/provider.ts";
import { baseUrlProblem, headersFor, keyFor, loadCatalog, resolveModel } from "../providers/catalog.ts";
import { createProvider, pickProvider } from "../providers/provider-choice.ts";
import { customHeaders } from "../providers/custom-headers.ts";
import { notHad, readFlagRules, readPermissionRules } from "../permission-rules/attach.ts";
import type { WrittenRule } from "../permission-rules/rule.ts";
import { selectBuiltinTools } from "../tools/builtin.ts";
import { jailRoot, judgePath } from "../tools/sandbox.ts";
import type { ExtensionManager } from "../extensions/manager.ts";
import type { CommandSource } from "../protocol/slash-command.ts";
import type { FlagMcpConfig } from "../mcp/flag-configs.ts";
import type { HostServers } from "../mcp/host-transport.ts";
import type { SettingsHook } from "../settings-hooks/settings-file.ts";
import type { McpServerOff } from "../mcp/config-files.ts";
import type { McpManager } from "../mcp/manager.ts";
import type { OpenedSession, SessionChoice } from "../session/open.ts";
import type { CommandExpansion, SettingsHooks } from "../settings-hooks/attach.ts";
import type { ConditionReader } from "../settings-hooks/hook-condition.ts";
import { startSettingsHooks } from "../settings-hooks/start.ts";
import type { Skill } from "../skills/discover.ts";
import { type LateExtensions, lateExtensions } from "./late-extensions.ts";
import { loadExtensions, loadMcp, markdownCommandSource, trustOnce } from "./project-config.ts";
import { runEnv } from "./run-env.ts";
import { settingsPermissionMode, withoutBypass, startingModel } from "./claude-setup.ts";
import type { NoDemo } from "../providers/provider-choice.ts";
import { INSTEAD_OF_CLAUDE_TOOL } from "../protocol/claude-tool-names.ts";
import { article } from "../protocol/article.ts";
import { sameOrigin } from "../providers/warm-connection.ts";
import { ConnectionWarmer } from "./connection-warmer.ts";
import { type GivenMemory, NestedMemory } from "./nested-memory.ts";
import { realOrSame } from "../config/quiet-fs.ts";

export interface RuntimeOptions {
  provider?: string;
  model?: string;
  apiKey?: string;
  baseUrl?: string;
  systemPrompt?: string;
  appendSystemPrompt?: string[];
  reasoning?: ReasoningLevel;
  cwd?: string;
  tools?: string[] | "all" | "none";
  /** 0 = unlimited */
  maxSteps?: number;
  /** compact at this fraction of the context window; 0 = never; default 0.85 */
  autoCompact?: number;
  /** turns file for the scripted provider */
  script?: string;
  /** the environment zot runs in (default: process.env, which is never written to); Claude Code's settings `env` goes over a copy */
  env?: Readonly<Record<string, string | undefined>>;
  home?: string;
  /** `--setting-sources`: which of Claude Code's files are read (user, project, local: settings, CLAUDE.md, skills, commands); default all */
  settingSources?: SettingSourceName[];
  /** `--ext` paths (loaded even with noDiscovery) and `--no-ext`; default: discover, none explicit */
  extensions?: { explicit: string[]; noDiscovery: boolean };
  /** `--mcp-config` (read) and `--strict-mcp-config`: MCP servers for this run, ahead of the files' (or instead) */
  mcp?: { configs: FlagMcpConfig[]; strict: boolean; host?: HostServers };
  /** no built-in demo when no key is found: a UsageError instead, naming the run (a program driving zot) and what it does instead */
  noDemo?: NoDemo;
  /** the hooks the program running zot registered (the Claude Agent SDK's), beside the settings files' */
  hostedHooks?: SettingsHook[];
  /**
   * `--trust`: run the working directory's executable configuration (its .zot/extensions and
   * .zot/hooks.json) for this run, trusted or not; nothing is remembered
   */
  trust?: boolean;
  /**
   * asks whether to trust a folder that has such configuration and no remembered answer (the TUI's
   * dialog); without it the folder's configuration is skipped, with a note saying how to trust it
   */
  askTrust?: TrustAsker;
  /** the program that runs .ts/.js extensions (default: this process's executable, the zot binary) */
  zotBinary?: string;
  /** `--with-skills`: also load skills from the project's and the user's skill folders */
  withSkills?: boolean;
  /** `--no-skill`: no skills at all (no skill tool, nothing in the system prompt, no skill /names) */
  noSkill?: boolean;
  /**
   * no Markdown commands and no skill /names (the SDK's createZot without extensions: a program's
   * prompt is its own text; -p and --json whose one prompt names no /command); the command line has
   * no flag for it: --no-ext, --tools and --no-tools leave them, as they are neither extensions nor
   * the model's tools
   */
  noCommands?: boolean;
  /** told each time a model's answer opens, before its body is read (the one-prompt modes end their start there) */
  onAnswerOpen?: OpenedAnswer;
  /** where diagnostics of a running agent go (an interceptor's answer that was ignored, a timeout) */
  log?: (message: string) => void;
  /**
   * the session to record into (a new one, the newest, a named one); a resumed session gives the
   * agent its transcript, model and provider (unless --provider/--model say otherwise) and its
   * cumulative usage; undefined = no session
   */
  session?: SessionChoice;
  /** `--jail`: start with the built-in tools confined to the working directory (Agent.jailed) */
  jail?: boolean;
  /** `--no-yolo`: confirm every tool call with `confirmer` (reads inside cwd excepted); without one, they are refused */
  noYolo?: boolean;
  /** the flag that turned confirmations on, when it is not --no-yolo (`--allowedTools`), for what the model reads of a refusal */
  confirmingFlag?: string;
  /** why /yolo may not turn confirmations off (a settings file's disableBypassPermissionsMode) */
  confirmationsLockedOn?: string;
  /** `--permission-mode dontAsk`: confirmations on and nobody asked, the TUI's user neither: what no rule allows is refused */
  askNobody?: boolean;
  /** `--permission-mode` as given, which settings hooks read as permission_mode while calls are confirmed */
  permissionMode?: string;
  /**
   * Take how tool calls are permitted from the settings files' `permissions.defaultMode`: the
   * command line, when no flag of its says (--permission-mode, --dangerously-skip-permissions,
   * --no-yolo, --allowedTools); an embedding program sets its own options instead
   */
  readDefaultMode?: boolean;
  /** the flag that asked for tool calls to run unasked (--dangerously-skip-permissions, --permission-mode bypassPermissions), which a settings file's disableBypassPermissionsMode refuses */
  bypassFlag?: string;
  /** `--allowedTools`, `--disallowedTools`, `--permission-mode acceptEdits`: permission rules of this run, beside the settings files' */
  permissionRules?: WrittenRule[];
  /** who confirms tool calls (the TUI's dialog); given, the run gets a confirmGate that /yolo toggles */
  confirmer?: Confirmer;
  /** the front end may name who confirms after the start (rpc: a client that says in hello it answers): the run gets a confirmGate */
  confirmerLater?: boolean;
  /**
   * How long to wait for extensions still starting: "all" (-p, --json; the default), or at most
   * this many ms (the TUI, rpc start at once; late extensions join with a note).
   */
  extensionWait?: "all" | number;
  /** "all": told once, after 2 s, which extensions are still starting */
  onExtensionsWaiting?: (names: string[]) => void;
  /**
   * The run waits for someone to ask (the TUI, rpc): open the model's connection (and load its
   * provider's SDK: Provider.warm) once the run has waited a moment with no work, and again after a
   * switch to a model on another server (a models.json entry's baseUrl), so the first call finds
   * it open, and when a prompt is being written after the pool may have closed it (promptComing;
   * runtime/connection-warmer.ts).
   * "later": not at the start (the run was given its first prompt, which opens its own), the rest
   * as true.
   */
  warmConnection?: boolean | "later";
}

export interface Runtime {
  agent: Agent;
  home: string;
  /** the run's environment: zot's, with Claude Code's settings `env` over it (runtime/run-env.ts); what every process it starts gets (less zot's credentials) */
  env: Readonly<Record<string, string | undefined>>;
  /** one-line notes for the user (a fallback taken, a config file ignored, an extension that failed) */
  notes: string[];
  /**
   * the extensions this run loaded (already attached to the agent); undefined when none were looked
   * for (--no-ext), or none were there to start (startExtensions looks again)
   */
  readonly extensions?: ExtensionManager;
  /**
   * With extensions looked for and none there at the start: the first reload (`/reload-ext`, rpc's
   * reload_extensions), which makes the manager and starts what is there now (late-extensions.ts);
   * `extensions` is set once it is attached, and reloads go to it. Undefined when extensions are
   * off (--no-ext) or started with the run.
   */
  startExtensions?: LateExtensions["start"];
  /** the MCP servers this run started (their tools already given to the agent); undefined when none is configured */
  mcp?: McpManager;
  /** the MCP servers configured but not started (turned off in Claude Code, an untrusted folder's, broken), and why */
  mcpOff: McpServerOff[];
  /**
   * where slash commands come from, first first: the extensions, the MCP servers' prompts, the
   * Markdown commands (extensions started later by startExtensions join at the front)
   */
  commandSources: CommandSource[];
  /** the workspace trust decision for the working directory; undefined when nothing was looked for (--no-ext) */
  trust?: WorkspaceTrust;
  /** the session being recorded, when there is one */
  session?: { id: string; file: string; resumed: boolean };
  /**
   * the run's skills: the model's (named in the system prompt, served by the skill tool, when the
   * run has it: not with --tools without skill or --no-tools) and the user's (slash commands); a
   * skill's `modelInvocable` / `userInvocable` say which it is not
   */
  skills: readonly Skill[];
  /**
   * Reads the skills (the folders', the running extensions') and the Markdown commands again, for
   * their /names and the skill tool at once; the system prompt's list follows at the next new
   * conversation or compaction (run-skills.ts). Returns the warnings of the read.
   */
  rereadCommands(): Promise<string[]>;
  /** the confirmation gate on the agent's chain, when there is a confirmer or --no-yolo */
  confirmGate?: ConfirmGate;
  /** the permission mode by Claude Code's name, as a flag or a settings file's defaultMode chose it (undefined: neither) */
  permissionMode?: string;
  /** Claude Code's settings hooks on this agent (SessionStart/SessionEnd/Notification for front ends to call); none with --no-ext */
  settingsHooks?: SettingsHooks;
  /**
   * The catalog read again (models.json as it is now): the models a switch can go to. The keys
   * setModel and clientFor give models.json's models come from this same read from then on, so a
   * model added after the start gets its own key, never the provider's.
   */
  readModels(): ModelInfo[];
  /**
   * Switches the agent to another model of the same provider (the caller checks the catalog), with
   * a new provider client when the model speaks another wire API, lives at another base URL or
   * takes another key. Rejects, naming the variable, when models.json names a key that is not set.
   */
  setModel(model: ModelInfo): Promise<void>;
  /**
   * The provider client a model of this provider needs beside the agent's (it speaks another wire
   * API or lives at another base URL); undefined when the agent's serves it. For a prompt on
   * another model (core/outcomes.ts, OnePromptModel).
   */
  clientFor(model: ModelInfo): Promise<Provider | undefined>;
  /**
   * Makes another session this run's (rpc resume_session, a fork it switches to): opens and locks
   * it, closes the current one, and gives the agent its transcript, cumulative usage and model (when
   * this provider has it). The caller makes sure no turn runs. Resolves with notes for the user.
   * `forked`: the session is a fork just made (SessionStart hooks are told `fork`); `begun`: a new
   * session's file is made at once, not with its first record (a clear).
   */
  switchSession(choice: SessionChoice, forked?: boolean, begun?: boolean): Promise<string[]>;
  /**
   * Runs a command the user typed (the TUI's `!command`) as the bash tool runs one, in the working
   * directory: the output (head and tail when long) and its status line. It is the user's own
   * command: no interceptor sees it and the jail does not apply.
   */
  shell(command: string, signal: AbortSignal): Promise<{ text: string; aborted: boolean }>;
  /**
   * Allow rules (`Bash(git add:*)`, written as in the settings files) that hold until the returned
   * function is called: a Markdown command's `allowed-tools`, for its prompt. A rule zot cannot read
   * is told to `warn` and skipped; `source` names them where a call they allow is reported.
   */
  allowWhilePrompting(rules: readonly string[], source: string, warn: (message: string) => void, origin?: string): Promise<() => void>;
  /**
   * Why a prompt's @file may not be attached, or undefined when it may: held to what the read tool
   * may read in this run (the jail, the Read rules). `typed`: a person wrote the prompt (the TUI,
   * -p's argument), so what would be asked about is theirs to send; text a program sent (rpc)
   * attaches nothing that would be asked about.
   */
  attachable(path: string, typed: boolean): Promise<string | undefined>;
  /**
   * The memory files of the folders below the working directory that the model lacks for working on
   * `files` (absolute paths: a prompt's @files), as text blocks to send with the prompt (nested-memory.ts).
   */
  memoryFor(files: readonly string[]): GivenMemory;
  /**
   * Work came in (a prompt, a compaction, a side question): a warm-up not yet begun is dropped,
   * so a call made before the connection would be open opens its own and no other (connection-warmer.ts)
   */
  workArrived(): void;
  /**
   * Someone is writing a prompt: the model's connection is opened again while they write, if the
   * pool may have closed it (ConnectionWarmer.promptComing)
   */
  promptComing(): void;
  /** stops every extension; call it once the run is over */
  dispose(): Promise<void>;
}

export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  if (!options.session) return await assembleRuntime(options);
  // The session is opened (and locked) first: a resumed one decides the model.
  const { openSession } = await import("../session/open.ts");
  const home = options.home ?? zotHome(options.env ?? process.env);
  const session = await openSession(options.session, { home, cwd: resolveCwd(options.cwd) });
  try {
    return await assembleRuntime(options, session);
  } catch (error) {
    session.close();
    throw error;
  }
}

async function assembleRuntime(options: RuntimeOptions, session?: OpenedSession): Promise<Runtime> {
  const started = options.env ?? process.env;
  const home = options.home ?? zotHome(started);
  const notes: string[] = [];
  const cwd = resolveCwd(options.cwd);
  const userHome = started.HOME || homedir();
  // Claude Code's settings: the run's own environment (a copy: process.env is never written), and
  // the model a new conversation may start on. A folder's files count once it is trusted.
  const { folderAnswer, trustedAmong } = await import("../config/trust-store.ts");
  const projectTrusted = options.trust === true || folderAnswer(home, cwd)?.trusted === true;
  const envOptions = { cwd, home, started, settingSources: options.settingSources, baseUrlGiven: options.baseUrl !== undefined };
  const { env, settings, paired } = runEnv({ ...envOptions, projectTrusted });
  // The folder's settings as they read once it is trusted (in this start's question): read once, when asked.
  let trustedSettings: ReturnType<typeof runEnv> | undefined;
  const onceTrusted = () => (trustedSettings ??= runEnv({ ...envOptions, projectTrusted: true }));
  notes.push(...settings.warnings);
  // Claude Code's permissions.defaultMode, where no flag chose: how tool calls are permitted in this run.
  if (settings.defaultMode && options.readDefaultMode) options = { ...options, ...settingsPermissionMode(settings.defaultMode, options.permissionRules ?? [], notes) };
  // Claude Code's permissions.disableBypassPermissionsMode: tool calls may not run unasked in this run.
  if (settings.noBypass) options = { ...options, ...withoutBypass(settings.noBypass.from, options, notes) };

  // Replaced by each readModels(): the models a switch chooses from and their keys are one read's.
  let catalog = loadCatalog(home);
  notes.push(...catalog.warnings);

  notes.push(...(session?.notes ?? []));
  // A run that cannot have its model or provider stops before any note is shown; models.json's
  // problems may be why (a provider skipped, a model left out), so they go with the error.
  const withModelsFileProblems = (error: unknown): unknown =>
    error instanceof UsageError && catalog.warnings.length > 0 ? new UsageError(`${error.message}; models.json may be why: ${catalog.warnings.join(" ")}`) : error;
  const resumedModel = session?.resumed && sessionModel(options, session.resumed);
  let providerName: ReturnType<typeof pickProvider>;
  const helperSetting = settings.apiKeyHelper;
  try {
    const keyedModel = catalog.models.find((m) => {
      const key = m.source === "user" ? keyFor(catalog, m, env) : undefined;
      return key !== undefined && !("error" in key);
    })?.id;
    providerName = pickProvider({ ...options, ...resumedModel, paired, ...(keyedModel ? { keyedModel } : {}), apiKeyHelper: helperSetting !== undefined }, catalog.models, env, home, notes);
  } catch (error) {
    throw withModelsFileProblems(error);
  }
  // Named or resumed, the scripted provider with no script is the demo, which such a run never plays.
  if (providerName === "scripted" && options.script === undefined && options.noDemo) {
    throw new UsageError(`the scripted provider without a script is the built-in demo, which ${options.noDemo.run} does not get; ${options.noDemo.remedy}`);
  }
  if (options.script !== undefined && providerName !== "scripted") {
    throw new UsageError(`--script plays the scripted provider; it cannot be used with --provider ${providerName} (drop one of them)`);
  }
  const startModel = resumedModel ? undefined : startingModel(options, providerName, settings, started, env);
  if (startModel?.note) notes.push(startModel.note);
  const resolved = resolveModel(catalog.models, providerName, resumedModel?.model ?? (startModel ? startModel.model : options.model), {
    acceptUnknown: { modelsFile: catalog.file },
  });
  if ("error" in resolved) {
    if (resumedModel) {
      throw new UsageError(`session ${session?.id} ended on ${resumedModel.provider}/${resumedModel.model}, which this zot cannot use (${resolved.error}); pass --model to pick another`);
    }
    throw withModelsFileProblems(new UsageError(resolved.error));
  }
  const model = resolved.model;
  if (resolved.note) notes.push(resolved.note);
  // --reasoning on a model zot does not know to reason would be dropped without a word, and
  // OpenAI's models take xhigh and max as high (providers/openai-effort.ts).
  if (options.reasoning && !model.reasoning && providerName !== "scripted") {
    notes.push(
      `--reasoning ${options.reasoning} is not sent: ${model.id} is not one zot knows to reason; if it does, say so in models.json ("reasoning": true)`,
    );
  } else if ((options.reasoning === "xhigh" || options.reasoning === "max") && model.reasoning && model.api.startsWith("openai")) {
    notes.push(`--reasoning ${options.reasoning} is sent to ${model.id} as high, the highest effort every OpenAI reasoning model takes`);
  }

  const baseUrlOf = (m: ModelInfo) => {
    // A models.json entry skipped for its baseUrl would otherwise go to the provider's own server, with the key and the prompt.
    const skipped = options.baseUrl === undefined ? baseUrlProblem(catalog, m) : undefined;
    if (skipped) throw new UsageError(skipped);
    const resolved = resolveBaseUrl(providerName, { flag: options.baseUrl, model: m.base_url, env });
    // --base-url was checked where it is read, models.json's where it is used (above); the variable too, here.
    if (resolved && resolved.source === PROVIDER_ENV[providerName].baseUrl && !isHttpUrl(resolved.url)) {
      throw new UsageError(notHttpUrlText(resolved.source, env[resolved.source]?.trim() ?? resolved.url));
    }
    return resolved?.url;
  };
  // A base URL variable without its scheme (OPENAI_BASE_URL=localhost:1234/v1) is bad usage, said before anything else is asked of it.
  baseUrlOf(model);
  // A provider that needs a key has one (--api-key, its variables, auth.json); ollama takes one when given.
  // A models.json entry with its own apiKey gets that one instead (a server of its own, not the
  // provider's), and one whose named variable is unset gets none: an error, never the provider's.
  // Claude Code's apiKeyHelper gives anthropic's key where no flag or variable does (asked as paired,
  // the lookup stops before auth.json): run once now (a failure stops the start, in the command's
  // words), then again as its key ages or is refused.
  // Not for a model models.json gives a key of its own: it never sends the provider's.
  const ownKey = options.apiKey === undefined && keyFor(catalog, model, env) !== undefined;
  const helper = helperSetting && providerName === "anthropic" && !ownKey && !resolveApiKey(providerName, { flag: options.apiKey, env, home, paired: [providerName] })
    ? await helperKey(helperSetting, cwd, env, options.log)
    : undefined;
  const credentialOf = (m: ModelInfo): ResolvedKey | undefined => {
    const own = options.apiKey === undefined ? keyFor(catalog, m, env) : undefined;
    if (own && "error" in own) throw new UsageError(own.error);
    return own ? { key: own.key, kind: "api_key", source: "models.json", from: own.from } : resolveApiKey(providerName, { flag: options.apiKey, env, home, paired, ...(helper ? { helper } : {}) });
  };
  const credential = credentialOf(model);
  if (!credential && requiresApiKey(providerName)) {
    const url = PROVIDER_ENV[providerName].baseUrl;
    if (paired.includes(providerName) && url) {
      const names = [PROVIDER_ENV[providerName].key, PROVIDER_ENV[providerName].token].filter(Boolean).join(" or ");
      throw new UsageError(
        `${settings.env[url]?.from} sets ${url} and no key for it: set ${names} in its env too, or in your shell, or pass --api-key (zot does not send auth.json's key to a server a settings file names)`,
      );
    }
    throw withModelsFileProblems(new UsageError(missingKeyMessage(providerName, home)));
  }
  if (credential?.warning) notes.push(credential.warning);
  // ANTHROPIC_/OPENAI_CUSTOM_HEADERS go to the provider's own server (its base URL) and wherever the
  // provider's key goes, never to a models.json model's server and key of its own (Together's).
  // A models.json model's own headers go to its server, over them.
  const providerUrl = resolveBaseUrl(providerName, { flag: options.baseUrl, env })?.url;
  const headersOf = (m: ModelInfo, key: ResolvedKey | undefined) => {
    const own = headersFor(catalog, m, env);
    if (own && "error" in own) throw new UsageError(own.error);
    const custom = customHeaders(m.api, baseUrlOf(m) === providerUrl || key?.source !== "models.json", env);
    return own || custom ? { ...custom, ...own?.headers } : undefined;
  };
  const headers = headersOf(model, credential);
  if (providerName === "scripted" && options.baseUrl !== undefined) notes.push("--base-url is not used by the scripted provider (it never calls a network)");
  // API_TIMEOUT_MS, the settings' env's too (silence-limit.ts).
  // CLAUDE_CODE_MAX_RETRIES, the settings' env's too (retry-limit.ts).
  const maxRetries = maxRetriesSet(env);
  const endpoint = { providerName, script: options.script, silenceMs: silenceLimitMs(env), onOpen: options.onAnswerOpen, ...(maxRetries !== undefined ? { maxRetries } : {}) };

  // `skill` is a built-in tool too, but it exists only when there are skills to load.
  const wanted = options.tools ?? "all";
  const wantsSkill = wanted === "all" || (Array.isArray(wanted) && wanted.includes("skill"));
  const { tools, unknown } = selectBuiltinTools(Array.isArray(wanted) ? wanted.filter((t) => t !== "skill") : wanted);
  if (unknown.length > 0) {
    // A program written for Claude Code names its tools (`tools: ["Grep"]`): say so in those words too.
    const claudes = unknown.filter((t): t is keyof typeof INSTEAD_OF_CLAUDE_TOOL => Object.hasOwn(INSTEAD_OF_CLAUDE_TOOL, t));
    const instead = claudes.map((t) => (claudes.length === 1 ? INSTEAD_OF_CLAUDE_TOOL[t] : `${t}: ${INSTEAD_OF_CLAUDE_TOOL[t]}`)).join("; ");
    const lacking = claudes.length > 0 ? ` (${claudes.join(", ")} ${claudes.length === 1 ? "is a tool" : "are tools"} of Claude Code's that zot does not have: ${instead})` : "";
    throw new UsageError(
      `unknown tool ${unknown.map((t) => `"${t}"`).join(", ")}${lacking}; built-in tools are read, write, edit, bash, skill (by Claude Code's names: Read, Write, Edit or MultiEdit, Bash, Skill)`,
    );
  }
  // [permission rules] the run's own (--allowedTools, --disallowedTools): one zot cannot read stops the run before anything starts.
  const flagRules = await readFlagRules(options.permissionRules ?? [], { cwd, userHome });
  if ("error" in flagRules) throw new UsageError(flagRules.error);

  // Extensions start while the provider loads; both are needed before the first prompt.
  const trust = trustOnce(options, { cwd, home });
  const loadingExtensions = loadExtensions(options, { cwd, home, env, provider: providerName, model: model.id }, trust);
  // ── MCP servers (src/mcp): started beside the extensions, under the same trust decision ──
  // A folder trusted in this start's question: its settings' disabledMcpjsonServers count at once, for the servers they name.
  const disabledFor = (trustedNow: boolean) => (trustedNow && !projectTrusted ? onceTrusted().settings.disabledMcpServers : settings.disabledMcpServers);
  const loadingMcp = loadMcp(options, { cwd, home, env, disabledFor }, trust);
  let provider: Provider;
  try {
    provider = await createProvider(model, { ...endpoint, credential, baseUrl: baseUrlOf(model), headers });
  } catch (error) {
    await (await loadingExtensions.catch(() => undefined))?.manager?.stop();
    await (await loadingMcp.catch(() => undefined))?.manager?.stop();
    throw error;
  }
  // Opens the model's connection while the run waits for its first prompt; stopped by dispose.
  const warmer = options.warmConnection ? new ConnectionWarmer() : undefined;
  const loaded = await loadingExtensions;
  // With none there at the start, set by the first reload (late-extensions.ts).
  let extensions = loaded?.manager;
  const mcpLoaded = await loadingMcp;
  const mcp = mcpLoaded.manager;
  const decided = trust.decided();
  if (decided?.note) notes.push(decided.note);
  if (!projectTrusted && loaded?.trust.trusted === true) {
    // Trusted in this start's question: the model, the key and the processes were chosen before it.
    const now = onceTrusted();
    const changes =
      Object.keys(now.settings.env).some((name) => now.env[name] !== env[name]) ||
      now.settings.model?.value !== settings.model?.value ||
      now.settings.apiKeyHelper?.command !== settings.apiKeyHelper?.command;
    if (changes) notes.push("this folder's .claude/settings*.json env, model and apiKeyHelper take effect from the next start (this one chose its model, key and environment before you trusted the folder)");
  }
  notes.push(...(loaded?.warnings ?? []), ...mcpLoaded.warnings);
  // Trusted at the start, or in the question of this start (the TUI's).
  const trustedNow = projectTrusted || loaded?.trust.trusted === true;
  // Read once the trust question of this start is answered: a folder trusted in it has its skills
  // now, as its commands. --tools and --no-tools decide only whether the model gets the skill tool.
  const skills = options.noSkill
    ? undefined
    : new (await import("./run-skills.ts")).RunSkills(
        {
          cwd,
          home,
          withUserSkills: options.withSkills ?? false,
          // Skill folders load by default: the user's own always, the project's in a trusted folder.
          byDefault: { projectTrusted: trustedNow },
          userHome,
          ...(options.settingSources ? { claudeSources: options.settingSources } : {}),
          ...(env.CODEX_HOME ? { codexHome: env.CODEX_HOME } : {}),
          ...(env.PI_CODING_AGENT_DIR ? { piAgentDir: env.PI_CODING_AGENT_DIR } : {}),
        },
        () => extensions?.skills() ?? [],
        wantsSkill,
      );
  notes.push(...(skills?.warnings ?? []));
  if (skills?.tool) tools.push(skills.tool);
  // The session being recorded; switchSession replaces it.
  let current = session;
  // What stands for the session where none is recorded (--no-session): settings hooks' session_id and a command's ${CLAUDE_SESSION_ID}.
  const runId = `run-${crypto.randomUUID()}`;
  let settingsHooks: SettingsHooks | undefined;
  let late: LateExtensions | undefined;
  const dispose = async () => {
    warmer?.stop();
    // No extension starts from now on; those a reload is starting are stopped once they are the run's.
    const lateStarted = late?.close();
    await settingsHooks?.sessionEnd("other"); // [settings hooks] SessionEnd
    await lateStarted;
    await Promise.all([extensions?.stop(), mcp?.stop()]);
    current?.close();
  };
  try {
    // [permission rules] Claude Code's allow/ask/deny rules of the settings files and the flags, in every mode;
    // read before the system prompt, which does not name a tool they refuse whole.
    const permissionRules = await readPermissionRules({
      cwd,
      home,
      userHome,
      projectTrusted: trustedNow,
      settingSources: options.settingSources,
      flagRules,
      confirming: options.noYolo === true,
      guarded: protectedPaths({ cwd, home, userHome }),
      log: options.log ?? (() => {}),
    });
    notes.push(...permissionRules.notes);
    const extensionTools = extensions?.tools() ?? [];
    const withheld = permissionRules.withheld() ?? (() => false);
    let memoryAtStart: readonly string[] = [];
    const system = await buildSystemPrompt({
      cwd,
      home,
      systemPrompt: options.systemPrompt,
      // A skill tool a deny rule withholds takes its list with it.
      append: [...(options.appendSystemPrompt ?? []), skills?.tool && !withheld(skills.tool) ? skills.promptSection() : ""],
      now: new Date(),
      platform: process.platform,
      // [issue 15] a deferred tool is not named until it is offered
      toolNames: [...tools, ...extensionTools.filter((t) => t.offered?.() ?? true)].filter((t) => !withheld(t)).map((t) => t.name),
      userHome: env.HOME,
      codexHome: env.CODEX_HOME,
      piAgentDir: env.PI_CODING_AGENT_DIR,
      projectTrusted: trustedNow,
      ...(options.settingSources ? { claudeSources: options.settingSources } : {}),
      // Started in a package of a trusted repository: the repository's CLAUDE.md still reads its imports from inside it.
      ...(trustedNow ? {} : { trustedAbove: trustedAmong(home, foldersAbove(cwd)) }),
      onNote: (note) => notes.push(note),
      onMemoryFiles: (files) => (memoryAtStart = files),
    });

    const agent = new Agent({
      provider,
      model,
      tools,
      system,
      cwd,
      reasoning: options.reasoning,
      maxSteps: options.maxSteps ?? 0,
      autoCompact: options.autoCompact,
      log: options.log,
      messages: session?.resumed?.messages,
      cumulative: session?.resumed?.cumulative,
      jailed: options.jail ?? false,
      protectedPaths: protectedPaths({ cwd, home }),
      env,
    });
    // The jail is the working directory as the file system knows it (a link to / is /): at the top of the file system it holds nothing in.
    const root = jailRoot(cwd);
    if (options.jail && dirname(root) === root) notes.push(`--jail confines the tools to the working directory, and that is ${root}: nothing is kept out; start zot in the project's folder`);
    // The list in the prompt follows a reload's at the next new conversation or compaction.
    skills?.attach(agent);
    const confirmGate = addConfirmGate(agent, options, notes);
    // A subfolder's CLAUDE.md, read by the same rules as the start's, when the model first works there.
    const nestedMemory = new NestedMemory(agent, {
      userHome: env.HOME || userHome,
      projectTrusted: trustedNow,
      ...(options.settingSources ? { claudeSources: options.settingSources } : {}),
      atStart: memoryAtStart,
      log: options.log ?? (() => {}),
    });
    session?.record(agent, options.log ?? (() => {}));
    if (extensions) {
      extensions.setSessionId(session?.id);
      extensions.attach(agent, confirmGate);
      extensions.emitSessionStart();
    }
    // [settings hooks] Claude Code's hooks from the settings files (none with --no-ext) and the program's running zot; SessionStart.
    const files = loaded !== undefined && !options.extensions?.noDiscovery;
    if (files || (options.hostedHooks?.length ?? 0) > 0) {
      const log = options.log ?? (() => {});
      let conditions: Promise<ConditionReader> | undefined;
      settingsHooks = await startSettingsHooks({
        agent,
        cwd,
        home,
        userHome,
        env,
        projectTrusted: loaded?.trust.trusted ?? false,
        trustNow: trust.now,
        settingSources: options.settingSources,
        gate: confirmGate,
        ...(options.permissionMode ? { permissionMode: options.permissionMode } : {}),
        log,
        session: () => current,
        runId,
        files,
        hosted: options.hostedHooks,
        // Hooks' `if` rules are read as permission rules are, from the working directory.
        conditions: () => (conditions ??= import("../permission-rules/hook-condition.ts").then(({ hookConditionReader }) => hookConditionReader({ cwd: agent.cwd, userHome }, log, permissionRules.protects))),
      });
      await settingsHooks?.sessionStart(session?.resumed ? "resume" : "startup");
    }
    notes.push(...permissionRules.attach(agent, confirmGate)); // [permission rules]
    // MCP: the servers' tools join the agent's (directly or behind tool_search); their prompts are slash commands.
    mcp?.attach(agent);
    const commandSources: CommandSource[] = [...(extensions ? [extensions] : []), ...(mcp ? [mcp] : [])];
    // [custom commands] Markdown commands are slash commands after the extensions' and the MCP prompts.
    const allowWhilePrompting = async (rules: readonly string[], source: string, warn: (message: string) => void, origin?: string) => {
      const read = [];
      for (const text of rules) {
        const rule = await readFlagRules([{ verdict: "allow", text, source }], { cwd: agent.cwd, userHome });
        if ("error" in rule) warn(`${rule.error}; it is skipped`);
        else {
          for (const note of rule.flatMap(notHad)) warn(note);
          read.push(...rule);
        }
      }
      return permissionRules.holdWhile(read, origin);
    };
    // What a prompt's @file is held to: what the read tool may read in this run (Runtime.attachable).
    const attachable = async (path: string, typed: boolean): Promise<string | undefined> => {
      if (agent.jailed) {
        const verdict = judgePath(jailRoot(agent.cwd), path);
        if (!verdict.inside) return `it is outside the working directory${verdict.real !== path ? ` (it leads to ${verdict.real})` : ""}, and zot is jailed to it`;
      }
      const judged = await permissionRules.judgeRead(path, agent.cwd);
      if (judged?.verdict === "deny") return `reading it is denied by ${judged.because}`;
      if (typed || judged?.verdict === "allow") return undefined;
      if (judged?.verdict === "ask") return `${judged.because} asks before it is read, and a prompt sent by a program asks no one`;
      if (confirmGate?.confirming && !judgePath(jailRoot(agent.cwd), path).inside) {
        return "it is outside the working directory, which confirmations (--no-yolo) ask about, and a prompt sent by a program asks no one";
      }
      return undefined;
    };
    // Not extensions (--no-ext leaves them) and not the model's tools (--tools leaves them).
    // The Markdown commands and the skills' /names, read again at a reload (rereadCommands): the
    // source takes its place among the others.
    let markdownSource: CommandSource | undefined;
    // The folder's trust the commands are read with: the start's, then the trust store's at each reload.
    let commandsTrusted = trustedNow;
    const readCommands = async (): Promise<string[]> => {
      if (options.noCommands) return [];
      const { commandBangRunner } = await import("./command-bang.ts");
      // A rule of allowed-tools that cannot be read is said once, when the command's prompt starts (conversation.ts).
      const runBang = commandBangRunner(agent, allowWhilePrompting, () => {});
      // A command's @files (its template's and the words after it) are held as a program's prompt is:
      // the command does not know whether a person or a program typed it.
      const markdown = await markdownCommandSource({
        cwd,
        home,
        env,
        trust: commandsTrusted,
        trustNow: trust.now,
        runBang,
        skills: skills?.list ?? [],
        attachable: (path) => attachable(path, false),
        sessionId: () => current?.id ?? runId,
        ...(options.settingSources ? { claudeSources: options.settingSources } : {}),
        ...(settingsHooks ? { expanding: (command: CommandExpansion, signal: AbortSignal) => settingsHooks!.expanding(command, signal) } : {}),
      });
      const at = markdownSource ? commandSources.indexOf(markdownSource) : -1;
      if (at !== -1) commandSources.splice(at, 1, ...(markdown.source ? [markdown.source] : []));
      else if (markdown.source) commandSources.push(markdown.source);
      markdownSource = markdown.source;
      return markdown.warnings;
    };
    notes.push(...(await readCommands()));
    // The key the agent's own client was made with: a switch compares with it, not with what the
    // current model would get from a models.json read since.
    let agentKey = credential?.key;
    let agentHeaders = JSON.stringify(headers);
    const clientAndKey = async (next: ModelInfo) => {
      if (next.provider !== providerName) throw new Error(`model "${next.id}" is ${article(next.provider)} ${next.provider} model; this run speaks ${providerName}`);
      const key = credentialOf(next);
      const nextHeaders = headersOf(next, key);
      const client =
        next.api !== agent.model.api || baseUrlOf(next) !== baseUrlOf(agent.model) || key?.key !== agentKey || JSON.stringify(nextHeaders) !== agentHeaders
          ? await createProvider(next, { ...endpoint, credential: key, baseUrl: baseUrlOf(next), headers: nextHeaders })
          : undefined;
      return { client, key: key?.key, headers: JSON.stringify(nextHeaders) };
    };
    const clientFor = async (next: ModelInfo) => (await clientAndKey(next)).client;
    const setModel = async (next: ModelInfo) => {
      const server = baseUrlOf(agent.model);
      const workSeen = warmer?.workSeen;
      const { client, key, headers: nextHeaders } = await clientAndKey(next);
      // Another server (a models.json entry's baseUrl): the next prompt finds it open too, unless
      // a prompt arrived while the client was made (its call opens its own connection).
      if (client && !sameOrigin(baseUrlOf(next), server)) warmer?.soon(client, workSeen);
      agent.switchModel(next, client);
      agentKey = key;
      agentHeaders = nextHeaders;
    };
    const readModels = () => {
      catalog = loadCatalog(home);
      return catalog.models;
    };
    const switchSession = async (choice: SessionChoice, forked = false, begun = false): Promise<string[]> => {
      const { openSession } = await import("../session/open.ts");
      const next = await openSession(choice, { home, cwd });
      await settingsHooks?.sessionEnd(choice.kind === "new" ? "clear" : "resume"); // [settings hooks] SessionEnd
      current?.close();
      current = next;
      const notes = [...next.notes];
      agent.clear();
      if (next.resumed) {
        agent.replaceTranscript(next.resumed.messages, next.resumed.cumulative);
        // One provider per process: the session's model comes back when this provider has it.
        const ended = next.resumed;
        const found =
          ended.provider === providerName
            ? resolveModel(readModels(), providerName, ended.model, { acceptUnknown: { modelsFile: catalog.file } })
            : undefined;
        if (found && "model" in found) {
          await setModel(found.model).catch((error) => notes.push(`could not switch to ${ended.model}: ${errorText(error)}`));
        } else {
          notes.push(`session ${next.id} ended on ${ended.provider}/${ended.model}, which this process (${providerName}) cannot use; it goes on with ${agent.model.id}`);
        }
      }
      next.record(agent, options.log ?? (() => {}));
      if (begun) next.begin?.();
      extensions?.switchSession(next.id);
      await settingsHooks?.sessionStart(next.resumed ? (forked ? "fork" : "resume") : "clear"); // [settings hooks] SessionStart
      return notes;
    };
    const shell = async (command: string, signal: AbortSignal) => {
      const { bashTool } = await import("../tools/bash.ts");
      const result = await bashTool.execute({ command }, { cwd: agent.cwd, signal, onProgress: () => {}, env });
      return { text: result.content.map((block) => (block.type === "text" ? block.text : "")).join(""), aborted: signal.aborted };
    };
    const infoOf = (s: OpenedSession) => ({ id: s.id, file: s.file, resumed: s.resumed !== undefined });
    // None to start at the start: the first reload makes the manager (late-extensions.ts).
    late =
      loaded && !extensions
        ? lateExtensions(loaded.later, {
            agent,
            gate: confirmGate,
            sessionId: () => current?.id,
            publish: (manager) => {
              extensions = manager;
              commandSources.unshift(manager);
            },
          })
        : undefined;
    // The run is ready and waits for its first prompt: the model's connection opens meanwhile.
    if (options.warmConnection === true) warmer?.soon(provider);
    return {
      agent,
      home,
      env,
      notes,
      get extensions() {
        return extensions;
      },
      ...(late ? { startExtensions: late.start } : {}),
      mcp,
      mcpOff: mcpLoaded.off,
      commandSources,
      trust: decided,
      get skills() {
        return skills?.list ?? [];
      },
      // Read as the folder is trusted now: a `zot untrust` meanwhile leaves its commands and skills out.
      rereadCommands: async () => {
        commandsTrusted = trust.now();
        return [...(skills?.reread(commandsTrusted) ?? []), ...(await readCommands())];
      },
      confirmGate,
      ...(options.permissionMode ? { permissionMode: options.permissionMode } : {}),
      settingsHooks,
      get session() {
        return current && infoOf(current);
      },
      readModels,
      setModel,
      clientFor,
      switchSession,
      shell,
      allowWhilePrompting,
      attachable,
      memoryFor: (files) => nestedMemory.blocksFor(files),
      workArrived: () => warmer?.workArrived(),
      promptComing: () => warmer?.promptComing(agent.provider),
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/**
 * The confirmation gate: with a confirmer (the TUI) always, confirming from the start with
 * --no-yolo, so /yolo can turn confirmations on and off; without one (-p, --json, rpc) only for
 * --no-yolo, and then it refuses every call it would ask about: the flag promises that no tool runs
 * unconfirmed, and with no one to ask, keeping that promise means running none (a warning says so
 * up front). Reads inside the working directory are never asked about.
 */
function addConfirmGate(agent: Agent, options: RuntimeOptions, notes: string[]): ConfirmGate | undefined {
  if (!options.confirmer && !options.noYolo && !options.confirmerLater) return undefined;
  // --allowedTools and --permission-mode ask for exactly this; --no-yolo alone is worth the warning.
  if (!options.confirmer && options.confirmerLater && options.noYolo && options.confirmingFlag === undefined && !options.askNobody) {
    notes.push(
      '--no-yolo: tool calls are refused (reads inside the working directory and what a permission rule allows excepted) unless the client answers confirm_request events: send {"type":"hello","confirm":true} (docs/rpc.md)',
    );
  } else if (!options.confirmer && (!options.confirmerLater || options.askNobody) && options.noYolo && options.confirmingFlag === undefined) {
    notes.push(
      "--no-yolo: this run has no terminal to confirm tool calls in, so every tool call will be refused but a read inside the working directory and what a permission rule allows (docs/permissions.md); drop --no-yolo to let tools run, or choose them with --tools",
    );
  }
  const toolOf = (name: string) => agent.tools.find((tool) => tool.name === name);
  const flag = options.confirmingFlag ?? "--no-yolo";
  const gate = new ConfirmGate({
    // dontAsk: nobody answers, the TUI's user and an rpc client neither.
    confirmer: options.confirmer,
    asksNobody: options.askNobody ?? false,
    confirming: options.noYolo ?? false,
    // A read inside the working directory is not worth a question (as Claude Code and Codex);
    // an edit or a write is asked about with its diff.
    unasked: (call) => toolOf(call.name)?.readsOnlyInside?.(call.args, agent.cwd) ?? false,
    preview: async (call) => toolOf(call.name)?.preview?.(call.args, agent.cwd),
    ...(options.confirmationsLockedOn ? { lockedOn: options.confirmationsLockedOn } : {}),
    unattended: options.askNobody
      ? "tool call refused: this run (--permission-mode dontAsk) runs only what a permission rule allows; go on without it, or tell the user what you would run"
      : flag === "--no-yolo"
        ? `tool call refused: the user asked to confirm every tool call (--no-yolo) and ${options.confirmerLater ? "no one here answers confirmations (the rpc client did not say it does)" : "this run has no terminal to ask in"}; go on without tools, or tell the user what you would run`
        : `tool call refused: this run (${flag}) asks before a call no permission rule allows, and has no terminal to ask in; go on without it, or tell the user what you would run`,
  });
  agent.chain.add(gate);
  return gate;
}

/** The key a settings file's apiKeyHelper gives, as the credential that asks it again (runtime/api-key-helper.ts). */
async function helperKey(
  setting: { command: string; from: string },
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  log: ((message: string) => void) | undefined,
): Promise<ResolvedKey> {
  const { ApiKeyHelper, ApiKeyHelperError } = await import("./api-key-helper.ts");
  const helper = new ApiKeyHelper({ ...setting, cwd, env, ...(log ? { log } : {}) });
  try {
    await helper.start();
  } catch (error) {
    throw error instanceof ApiKeyHelperError ? new UsageError(`${error.message}; fix the command, or set ANTHROPIC_API_KEY or pass --api-key`) : error;
  }
  return { key: helper.key, kind: "api_key", source: "apiKeyHelper", from: helper.from, keySource: helper };
}

/**
 * The provider and model a resumed session ended on, unless the flags choose: --model always wins,
 * and --provider wins when it names another provider (whose default model then applies).
 */
function sessionModel(
  options: RuntimeOptions,
  resumed: { model: string; provider: string },
): { provider: string; model: string } | undefined {
  if (options.model !== undefined || options.script !== undefined) return undefined;
  if (options.provider !== undefined && options.provider !== resumed.provider) return undefined;
  return { provider: resumed.provider, model: resumed.model };
}

/** The folders above `dir`, nearest first, up to and without the root. */
function foldersAbove(dir: string): string[] {
  const above: string[] = [];
  for (let at = dirname(dir); dirname(at) !== at; at = dirname(at)) above.push(at);
  return above;
}

function resolveCwd(cwd: string | undefined): string {
  const dir = resolve(cwd ?? process.cwd());
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {}
  if (!isDir && cwd === undefined && dir.includes("\uFFFD")) {
    // The path came back with a byte that is not UTF-8 replaced: the folder cannot be named to the system again.
    throw new UsageError(`the working directory's name is not valid UTF-8 (${dir}), so zot cannot name it to the system; rename the folder, or start zot elsewhere with --cwd`);
  }
  if (!isDir) throw new UsageError(`${cwd === undefined ? "the working directory" : "--cwd"} ${dir} is not a directory`);
  // Where it leads, as the system's own working directory is (getcwd): `--cwd link` and `cd link` are one folder, one set of sessions.
  return cwd === undefined ? dir : realOrSame(dir);
}
