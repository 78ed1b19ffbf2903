// The lifecycle of every extension a run of zot loads, and the registries they feed: commands,
// tools, interception participants, event fan-out and notifications.
// Rule: deterministic and isolated. Precedence decides every name conflict (built-ins first, then
// discovery order), every conflict is logged, and one extension failing (at load, mid-call, at
// exit) never stops zot or another extension.
import { basename } from "node:path";
import { extensionLogFile } from "../config/home.ts";
import { folderKey } from "../config/trust-store.ts";
import { describeFound, findProjectConfig } from "../config/workspace-trust.ts";
import { shellQuote } from "../protocol/shell-quote.ts";
import type { Agent } from "../core/agent.ts";
import type { ConfirmGate } from "../core/confirm-gate.ts";
import type { Participant } from "../core/intercept.ts";
import type { AgentEvent } from "../protocol/events.ts";
import type { EventFrame } from "../protocol/ext-frames.ts";
import type { Tool } from "../protocol/tool.ts";
import { ExtensionEvents } from "./ext-events.ts";
import { PanelBoard } from "./panels.ts";
import { type DiscoveredExtension, discoverExtensions, type ExtensionSource } from "./discover.ts";
import { extensionParticipant } from "./ext-intercept.ts";
import type { HookHost } from "./hook-host.ts";
import type { HookSet } from "./hook-set.ts";
import type { Manifest } from "./manifest.ts";
import type { HookSource, HookSpec } from "./hook-spec.ts";
import { hooksConfigPresent } from "./hooks-files.ts";
import { type ExtToolDef, extensionTool } from "./ext-tool.ts";
import { HostServices } from "./host-services.ts";
import { extensionSkills } from "./ext-skills.ts";
import type { Skill } from "../skills/discover.ts";
import type { CommandResult, CommandSource } from "../protocol/slash-command.ts";
import { appendLog } from "./child-log.ts";
import type { HostDiagnostic, HostState, HostTimeouts, NoteLevel, ZotExtensionHost } from "./zot-host.ts";

import { BUILTIN_COMMANDS, BUILTIN_TOOL_NAMES } from "./builtin-names.ts";
import { readRegularFile } from "../config/regular-file.ts";
import { UsageError } from "../config/usage-error.ts";
import { isOwnParticipantName } from "../protocol/own-participants.ts";

export { BUILTIN_COMMANDS, BUILTIN_TOOL_NAMES };

export interface LoadOptions {
  cwd: string;
  home: string;
  /** `--ext` paths, remembered for reload */
  explicit: string[];
  /** `--no-ext`: only the explicit paths */
  noDiscovery: boolean;
  /**
   * Workspace trust, decided before the load (config/workspace-trust.ts): false starts none of the
   * project's extensions and hooks; `--ext` ones and global ones start either way
   */
  projectTrusted: boolean;
  /** whether the folder is trusted now, asked at each reload (a `zot untrust` meanwhile holds; project-config.ts TrustOnce.now); absent: the start's answer */
  trustNow?: () => boolean;
  provider: string;
  model: string;
  zotVersion: string;
  zotBinary: string;
  env?: Record<string, string | undefined>;
  timeouts?: Partial<HostTimeouts>;
  /**
   * How long load waits for extensions still starting: "all" (-p, --json: until each is up or
   * past its hello deadline), or at most this many ms (the TUI, rpc), after which the late ones
   * join when they are up, with a note. Default "all".
   */
  wait?: "all" | number;
  /** "all" only: called once, after waitingNoticeMs, with the extensions still starting */
  onWaiting?: (names: string[]) => void;
  /** default 2000 */
  waitingNoticeMs?: number;
  /** a person can answer interactive tools (the TUI); without one they are refused (-p, --json, rpc) */
  interactive?: boolean;
  /**
   * warn of an untrusted folder's extensions, which do not start (a reload: at the start, the
   * runtime's trust note says it)
   */
  sayUntrusted?: boolean;
  /**
   * At the start: an `--ext` extension that cannot start (its manifest broken, its exec not
   * there) is the run's usage error, as an `--ext` path that is not there is; the user named it
   * for this run, and a run without it (a guard, a /command) is not what they asked for. A reload
   * warns instead: the session is there to keep.
   */
  explicitMustStart?: boolean;
}

export interface LoadReport {
  /** extensions started (whether or not they came up) */
  started: number;
  /** extensions running after registration */
  ready: number;
  /** sentences for the user: broken manifests, failed starts, shadowed names */
  warnings: string[];
}

export interface ReloadReport extends LoadReport {
  stopped: number;
}

export interface Note {
  extension: string;
  level: NoteLevel;
  message: string;
}

/** Where an extension's `submit` and `submit_slash` go: the TUI's input, as if typed. */
export interface InputSink {
  submit(text: string, extension: string): void;
  submitSlash(text: string, extension: string): void;
}

/** Where notifications go (stderr in -p, an event in --json, the notes area in the TUI). */
export interface NoteSink {
  notify(note: Note): void;
  /** the extension retracted its notes (clear_notes) */
  clearNotes?(extension: string): void;
}

export interface ExtensionInfo {
  name: string;
  source: ExtensionSource | HookSource;
  /** "jsonrpc" for a process hook (docs/hooks.md) */
  protocol: "zot" | "jsonrpc";
  dir: string;
  state: HostState;
  error?: string;
  pid?: number;
  commands: string[];
  tools: string[];
  /** the protocol mistakes it made in this run (zot ext doctor) */
  diagnostics?: HostDiagnostic[];
  /** its tools as registered: how each is offered, and whether it won its name (zot ext doctor) */
  toolInfo?: { name: string; exposure: string; interactive: boolean; shadowed: boolean }[];
  /** what it intercepts */
  intercepts?: string[];
  /** what its hello frame said */
  hello?: { version?: string; capabilities: string[] };
}

/** How many of one extension's protocol mistakes are kept for zot ext doctor. */
const MAX_DIAGNOSTICS = 100;

/** Notes that arrive before anyone listens are kept, up to this many (the oldest go first). */
const MAX_PENDING_NOTES = 200;

/** An extension in this state has not said hello and registered yet, nor given up. */
function isStarting(state: HostState): boolean {
  return state === "new" || state === "starting" || state === "registering";
}

interface Loaded {
  host: ZotExtensionHost;
  source: ExtensionSource;
}

export class ExtensionManager implements CommandSource {
  private loaded: Loaded[] = [];
  /** the JSON-RPC process hooks (extension.json with "protocol": "jsonrpc", and hooks.json) */
  private hooks: HookSet | undefined;
  private options: LoadOptions | undefined;
  /** keyed by the lower-cased name */
  private commandIndex = new Map<string, { name: string; host: ZotExtensionHost; description: string }>();
  private toolList: Tool[] = [];
  /** the registration behind each extension tool the agent has (after name conflicts) */
  private toolDefs = new Map<string, { def: ExtToolDef; host: ZotExtensionHost }>();
  /** deferred tools, interactive tools, call_tool and before_agent_start (host-services.ts) */
  private readonly services = new HostServices({
    hosts: () => this.loaded.map(({ host }) => host),
    toolDef: (name) => this.toolDefs.get(name)?.def,
    interactive: () => this.options?.interactive === true,
    sessionId: () => this.events.sessionId,
    note: (extension, level, message) => this.note({ extension, level, message }),
  });
  private readonly diagnosticsOf = new Map<string, HostDiagnostic[]>();
  /** the skills the loaded extensions ship (manifest `skills`) */
  private shippedSkills: Skill[] = [];
  private rebuildQueued = false;
  private agent: Agent | undefined;
  private offEvents: (() => void) | undefined;
  private participants: Participant[] = [];
  private sink: NoteSink | undefined;
  private pendingNotes: Note[] = [];
  /** shadowing and skipped tools already reported, so a rebuild or a second registration does not repeat it */
  private reported = new Set<string>();
  /** collected while loading, for the load report; later conflicts go to the extension's log only */
  private warnings: string[] | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** the extensions loaded were told session_start (switchSession tells them of a switch only then) */
  private announced = false;
  /** stop() was called: the run is ending */
  private stopped = false;
  /** the panel on show, between the extensions and the mode that shows it */
  readonly panels = new PanelBoard();
  private input: InputSink | undefined;
  private readonly events = new ExtensionEvents((frame) => this.broadcast(frame), process.cwd(), `run-${crypto.randomUUID()}`);
  private gate: ConfirmGate | undefined;
  private offGate: (() => void) | undefined;
  private offSteps: (() => void) | undefined;
  /** bumped by every load: a late start of an earlier generation is not announced */
  private generation = 0;
  /** settles once every extension the last load went on without has joined or given up */
  private lateStarts: Promise<void> = Promise.resolve();
  /** other owners of slash commands (MCP servers' prompts), asked after the extensions */

  /** Discovers and starts every extension in parallel; resolves when all are up or given up on. */
  load(options: LoadOptions): Promise<LoadReport> {
    return this.serial(() => this.loadNow(options));
  }

  private async loadNow(options: LoadOptions): Promise<LoadReport> {
    if (this.stopped) throw new Error("zot is ending: its extensions were stopped and do not start again");
    this.options = options;
    this.announced = false;
    this.events.cwd = options.cwd;
    const generation = ++this.generation;
    const warnings: string[] = [];
    this.warnings = warnings;
    const hosts: Loaded[] = [];
    const hookSpecs: HookSpec[] = [];
    const withSkills: { manifest: Manifest; dir: string }[] = [];
    for (const entry of await discoverExtensions(options)) {
      // At the start, the runtime's one note says what of an untrusted folder did not run and how to trust it.
      if (entry.untrusted) continue;
      const manifest = entry.manifest;
      if (options.explicitMustStart && entry.source === "flag") await refuseUnstartable(entry, options);
      if (!manifest) {
        const error = entry.error ?? `${entry.manifestFile}: cannot be loaded`;
        // A broken manifest of an approval hook or a guard refuses the calls it would judge, never lets them run unjudged.
        const approver = await brokenApprover(entry.manifestFile, entry.dir, entry.source, error, options.cwd);
        warnings.push(approver ? `${error}; as it names ${approver.names}, tool calls are refused until it is fixed` : error);
        if (approver) hookSpecs.push(approver.spec);
        continue;
      }
      if (entry.shadowedBy) {
        appendLog(
          extensionLogFile(options.home, manifest.name),
          `${entry.dir} is not started: ${entry.shadowedBy} has the same name "${manifest.name}" and comes first`,
        );
        continue;
      }
      // A disabled extension stays off unless named with --ext for this run.
      if (!manifest.enabled && entry.source !== "flag") continue;
      if (manifest.skills?.length) withSkills.push({ manifest, dir: entry.dir });
      // A bundle of skills or a theme: nothing to start.
      if (manifest.exec === undefined) continue;
      // The protocols' code (their frames' schemas, the SDK runtime TypeScript extensions import)
      // loads when something speaks them: a run with none saves ~2 ms and ~6 MB (scripts/bench floor).
      const { prepareLaunch } = await import("./ext-launch.ts");
      if (manifest.protocol === "jsonrpc") {
        const { manifestHookSpec } = await import("./hook-spec.ts");
        const launch = prepareLaunch({ ...options, manifest, dir: entry.dir, env: options.env ?? process.env });
        const where = { source: entry.source, file: entry.manifestFile, dir: entry.dir };
        const spec = manifestHookSpec(manifest, where, launch);
        if (manifest.fail_closed) {
          warnings.push(
            `${entry.manifestFile}: "fail_closed" is for zot-protocol guards and means nothing to a hook; a hook that must refuse what it cannot judge answers approve_tool, which refuses when the hook fails (docs/hooks.md)`,
          );
        }
        if ("error" in spec) warnings.push(spec.error);
        else hookSpecs.push(spec);
        continue;
      }
      const { ZotExtensionHost } = await import("./zot-host.ts");
      const host = new ZotExtensionHost({
        manifest,
        dir: entry.dir,
        home: options.home,
        cwd: options.cwd,
        provider: options.provider,
        model: options.model,
        zotVersion: options.zotVersion,
        zotBinary: options.zotBinary,
        env: options.env,
        timeouts: options.timeouts,
        onDiagnostic: (diagnostic) => this.diagnose(manifest.name, diagnostic),
      });
      host.onNotify((level, message) => this.note({ extension: host.name, level, message }));
      host.onClearNotes(() => this.clearNotes(host.name));
      host.onChange(() => this.rebuildSoon());
      host.onPanel((op) => this.panels.apply(host, op));
      host.onSubmit((kind, text) => this.submit(host, kind, text));
      this.services.serve(host);
      hosts.push({ host, source: entry.source });
    }
    if (options.sayUntrusted && !options.projectTrusted && !options.noDiscovery) warnings.push(...untrustedNote(options));
    this.loaded = hosts;
    const shipped = extensionSkills(withSkills);
    this.shippedSkills = shipped.skills;
    warnings.push(...shipped.warnings);
    const hooks = await this.hookSet(options, hookSpecs, warnings);
    this.hooks = hooks;
    // In the chain before they start (a /reload-ext mid-turn): a guard still starting makes a
    // tool call wait for it, and a hook too (hook-intercept.ts); the rest join as they subscribe.
    if (this.agent) this.addParticipants(this.agent);
    const starting = hosts.map(({ host }) => host.start());
    const hooksStarting = hooks?.start() ?? [];
    const late = await this.waitForStarts(options, hosts, [...starting, ...hooksStarting]);
    for (const { host } of hosts) if (!late.has(host) && host.state === "failed" && host.error) warnings.push(host.error);
    // A hook still starting is in the chain already: its calls wait for it (hook-intercept.ts).
    const lateHooks = hooks?.hosts.filter((host) => host.starting) ?? [];
    if (hooks) warnings.push(...hooks.failures(hooks.hosts.filter((host) => !lateHooks.includes(host))));
    this.rebuild();
    if (this.agent) this.addParticipants(this.agent);
    const joins = [...late].map((host) => host.start().then(() => this.joined(host, generation)));
    // Settled whatever each join did: a waiter (a command typed meanwhile) goes on either way.
    this.lateStarts = Promise.allSettled(joins).then(() => {});
    for (const host of lateHooks) void host.started().then(() => this.hookJoined(host, generation));
    const report = {
      started: hosts.length + (this.hooks?.hosts.length ?? 0),
      ready: hosts.filter(({ host }) => host.live).length + (this.hooks?.hosts.filter((host) => host.live).length ?? 0),
      warnings,
    };
    this.warnings = undefined;
    return report;
  }

  /**
   * Waits as options.wait says; returns the hosts still starting when it stopped waiting. With
   * "all", says once (onWaiting) which extensions it is still waiting for after a moment.
   */
  private async waitForStarts(options: LoadOptions, hosts: Loaded[], starting: Promise<void>[]): Promise<Set<ZotExtensionHost>> {
    const all = Promise.all(starting);
    const pending = () => new Set(hosts.filter(({ host }) => isStarting(host.state)).map(({ host }) => host));
    const wait = options.wait ?? "all";
    if (wait === "all") {
      const notice = setTimeout(() => {
        const names = [...pending()].map((host) => host.name);
        if (names.length > 0) options.onWaiting?.(names);
      }, options.waitingNoticeMs ?? 2000);
      await all;
      clearTimeout(notice);
      return new Set();
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([all, new Promise<void>((resolve) => (timer = setTimeout(resolve, wait)))]);
    clearTimeout(timer);
    return pending();
  }

  /** An extension that was still starting when the run began is up (or gave up): it joins, with a note. */
  private joined(host: ZotExtensionHost, generation: number): void {
    if (generation !== this.generation) return;
    if (!host.live) {
      // One zot stopped before it was up (zot is exiting, a reload) is no news.
      if (!host.stoppedByZot) this.note({ extension: host.name, level: "warn", message: host.error ?? "did not start" });
      return;
    }
    this.rebuild();
    if (this.agent) this.addParticipants(this.agent);
    const what = [...host.commands().map((c) => `/${c.name}`), ...host.tools().map((t) => t.name)];
    this.note({ extension: host.name, level: "info", message: `started late and joined${what.length > 0 ? `: ${what.join(", ")}` : ""}` });
    host.sendEvent(this.events.frame("session_start"));
    if (host.wantsAgentStart()) this.services.extensionsChanged();
  }

  /**
   * A hook that was still starting when the run began is up, or failed: a failed one leaves the
   * chain as load leaves it out (an approver stays, denying), with a note either way.
   */
  private hookJoined(host: HookHost, generation: number): void {
    if (generation !== this.generation) return;
    if (!host.live) {
      if (host.state === "failed") this.note({ extension: host.name, level: "warn", message: host.error ?? "did not start" });
      if (this.agent) this.addParticipants(this.agent);
      return;
    }
    this.note({ extension: host.name, level: "info", message: "started late and joined" });
  }

  /** The extensions still starting, which the run went on without (the TUI, rpc); each joins when up. */
  starting(): string[] {
    return this.loaded.filter(({ host }) => isStarting(host.state)).map(({ host }) => host.name);
  }

  /**
   * Resolves once no extension the last load went on without is still starting: each joined (its
   * commands and tools registered) or gave up.
   */
  lateStartsSettled(): Promise<void> {
    return this.lateStarts;
  }

  /** The skills the loaded extensions ship, named `<extension>:<skill>` (read at each load and reload; the run's skills follow a reload: runtime/run-skills.ts). */
  skills(): Skill[] {
    return [...this.shippedSkills];
  }

  /** Tools of every running extension, after name conflicts are settled. */
  tools(): Tool[] {
    return [...this.toolList];
  }

  commands(): { name: string; description: string; extension: string }[] {
    return [...this.commandIndex.values()].map(({ name, host, description }) => ({ name, description, extension: host.name }));
  }

  /** Whether an extension provides /name; command names are case-insensitive. */
  hasCommand(name: string): boolean {
    return this.commandIndex.has(name.toLowerCase());
  }

  async runCommand(name: string, args: string, signal: AbortSignal): Promise<CommandResult> {
    const owner = this.commandIndex.get(name.toLowerCase());
    if (!owner) return { command: name, extension: "", action: "error", text: `no extension provides /${name}` };
    return owner.host.invoke(name, args, signal);
  }

  list(): ExtensionInfo[] {
    const hooks = (this.hooks?.hosts ?? []).map((host) => ({
      name: host.name,
      source: host.spec.source,
      protocol: "jsonrpc" as const,
      dir: host.spec.dir,
      state: host.state,
      ...(host.error ? { error: host.error } : {}),
      ...(host.pid !== undefined && host.live ? { pid: host.pid } : {}),
      commands: [],
      tools: [],
    }));
    const extensions = this.loaded.map(({ host, source }) => ({
      name: host.name,
      source,
      protocol: "zot" as const,
      dir: host.dir,
      state: host.state,
      ...(host.error ? { error: host.error } : {}),
      ...(host.pid !== undefined && host.live ? { pid: host.pid } : {}),
      commands: host.commands().map((c) => c.name),
      tools: host.tools().map((t) => t.name),
      diagnostics: [...(this.diagnosticsOf.get(host.name) ?? [])],
      toolInfo: host.tools().map((t) => ({
        name: t.name,
        exposure: t.exposure,
        interactive: t.interactive,
        shadowed: this.toolDefs.get(t.name)?.host !== host,
      })),
      intercepts: host.intercepts(),
      ...(host.hello ? { hello: { ...(host.hello.version !== undefined ? { version: host.hello.version } : {}), capabilities: host.hello.capabilities } } : {}),
    }));
    return [...extensions, ...hooks];
  }

  /** Wires the extensions into an agent: its tools, its interception chain and its events. */
  attach(agent: Agent, gate?: ConfirmGate): void {
    if (this.agent === agent) return;
    this.detach();
    this.agent = agent;
    this.gate = gate;
    // Neither protocol has a notification for an answer's deltas (hook-events and ext-events make
    // nothing of them), so they are not even offered: a long answer is tens of thousands of them.
    this.offEvents = agent.onEvent((event) => this.fanOut(event), { deltas: false });
    this.offSteps = agent.onToolStep((step) => this.events.fromToolStep(step, gate ? (id) => gate.approvalSource(id) : undefined));
    this.offGate = gate?.onAsk((request) => this.events.confirmationRequested(request));
    this.addParticipants(agent);
    this.swapTools(agent, [], this.toolList);
    this.services.attach(agent);
  }

  /** The deferred tools that are active now (zot ext doctor, tests). */
  activeDeferredTools(): string[] {
    return this.services.activeDeferredTools();
  }

  private diagnose(extension: string, diagnostic: HostDiagnostic): void {
    const list = this.diagnosticsOf.get(extension) ?? [];
    if (list.length < MAX_DIAGNOSTICS) list.push(diagnostic);
    this.diagnosticsOf.set(extension, list);
    // A tool the model will never be offered is said where the user looks, not only in the log; once a load, however often it is registered.
    if (diagnostic.kind !== "tool_schema" && diagnostic.kind !== "tool_exposure") return;
    const key = `skipped\0${extension}\0${diagnostic.message}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.note({ extension, level: "warn", message: diagnostic.message });
  }

  /** Routes extensions' `submit` and `submit_slash` (the TUI); without a sink they are logged and ignored. */
  onInput(sink: InputSink): void {
    this.input = sink;
  }

  private submit(host: ZotExtensionHost, kind: "submit" | "submit_slash", raw: string): void {
    const text = raw.trim();
    if (!this.input) return host.log(`${kind} ignored: only the interactive TUI takes input from extensions`);
    if (text === "") return host.log(`${kind} ignored: the text is empty`);
    if (kind === "submit") return this.input.submit(text, host.name);
    if (!text.startsWith("/")) return host.log(`submit_slash refused (not a slash command): ${JSON.stringify(text)}`);
    this.input.submitSlash(text, host.name);
  }

  /** The conversation's id that every notification carries (the recorded session's). */
  setSessionId(id: string | undefined): void {
    if (id) this.events.sessionId = id;
  }

  /**
   * Another conversation takes over (a resume, a fork switched to): session_end, then session_start
   * with the new id. While extensions load (not yet told session_start), only the id changes: the
   * session_start they get once loaded carries it.
   */
  switchSession(id: string | undefined): void {
    if (this.announced) this.events.emit("session_end", { reason: "session_switch" });
    this.events.sessionId = id ?? `run-${crypto.randomUUID()}`;
    if (this.announced) this.events.emit("session_start");
    this.services.newConversation();
  }

  /** Routes notifications; those that came before (during loading) are delivered first. */
  onNotify(sink: NoteSink): void {
    this.sink = sink;
    const pending = this.pendingNotes;
    this.pendingNotes = [];
    for (const note of pending) sink.notify(note);
  }

  /** The `session_start` event, once the extensions are up and before the first prompt. */
  emitSessionStart(): void {
    this.announced = true;
    this.events.emit("session_start");
  }

  /**
   * Extensions loaded into the attached agent (a reload, or a run's first ones started by
   * /reload-ext) are loaded: `session_start` to them, then the system prompt prepared again with them.
   */
  announceLoaded(): void {
    this.emitSessionStart();
    this.services.extensionsChanged();
  }

  /**
   * Stops everything, reads the manifests again (with the same --ext and --no-ext), starts it all
   * and swaps the attached agent's extension tools and participants in place. The new processes
   * get session_start.
   */
  reload(): Promise<ReloadReport> {
    return this.serial(async () => {
      const options = this.options;
      if (!options) throw new Error("extensions were never loaded, so there is nothing to reload");
      const old = this.loaded;
      // The old generation's late starts end as they are stopped: none of them is announced as joined or failed.
      this.generation++;
      const stopped = old.filter(({ host }) => host.live).length + (this.hooks?.hosts.filter((host) => host.live).length ?? 0);
      await Promise.all([...old.map(({ host }) => host.stop()), this.hooks?.stop()]);
      // The old participants stay in the chain until the new ones take their place (loadNow): a
      // stopped guard refuses tool calls meanwhile, where no guard at all would let them through.
      this.loaded = [];
      this.hooks = undefined;
      this.reported.clear();
      this.rebuild();
      const projectTrusted = options.trustNow ? options.trustNow() : options.projectTrusted;
      const report = await this.loadNow({ ...options, projectTrusted, sayUntrusted: true, explicitMustStart: false });
      this.announceLoaded();
      return { ...report, stopped };
    });
  }

  /** shutdown to every extension at once; each gets the grace, then SIGTERM, then SIGKILL. */
  stop(): Promise<void> {
    // A load or reload asked for from now on is refused: nothing would stop what it started.
    this.stopped = true;
    return this.serial(async () => {
      // Queued before shutdown on each extension's ordered pipe, so it arrives first.
      if (this.loaded.some(({ host }) => host.live)) this.events.emit("session_end", { reason: "shutdown" });
      await Promise.all([...this.loaded.map(({ host }) => host.stop()), this.hooks?.stop()]);
      this.detach();
    });
  }

  private detach(): void {
    const agent = this.agent;
    if (!agent) return;
    this.offEvents?.();
    this.offEvents = undefined;
    this.offSteps?.();
    this.offSteps = undefined;
    this.offGate?.();
    this.offGate = undefined;
    this.gate = undefined;
    this.services.detach();
    this.removeParticipants();
    this.swapTools(agent, this.toolList, []);
    this.agent = undefined;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => {});
    return run;
  }

  private addParticipants(agent: Agent): void {
    this.removeParticipants();
    for (const { host } of this.loaded) {
      // A guard that failed to start still refuses tool calls (its fail_closed).
      if (host.state === "failed" && !host.failClosed) continue;
      const participant = extensionParticipant(host);
      agent.chain.add(participant);
      this.participants.push(participant);
    }
    for (const participant of this.hooks?.participants() ?? []) {
      agent.chain.add(participant);
      this.participants.push(participant);
    }
  }

  /**
   * The hooks of extension.json files and of hooks.json (unless --no-ext); none when there are none.
   * A name is one extension's or hook's: a hooks.json entry whose name is taken is not started (logged).
   */
  private async hookSet(options: LoadOptions, fromManifests: HookSpec[], warnings: string[]): Promise<HookSet | undefined> {
    const specs = [...fromManifests];
    if (!options.noDiscovery && hooksConfigPresent(options)) {
      const { loadHooksConfig } = await import("./hooks-config.ts");
      const config = loadHooksConfig({ cwd: options.cwd, home: options.home, env: options.env ?? process.env, projectTrusted: options.projectTrusted });
      warnings.push(...config.warnings);
      const taken = new Set([...this.loaded.map(({ host }) => host.name), ...specs.map((spec) => spec.name)]);
      for (const spec of config.specs) {
        if (!taken.has(spec.name)) specs.push(spec);
        else appendLog(extensionLogFile(options.home, spec.name), `${spec.file}: hook "${spec.name}" is not started: an extension of that name comes first`);
      }
    }
    if (specs.length === 0) return undefined;
    const { HookSet } = await import("./hook-set.ts");
    return new HookSet(specs, {
      home: options.home,
      cwd: options.cwd,
      builtinTools: BUILTIN_TOOL_NAMES,
      showUser: (hook, text) => this.note({ extension: hook, level: "info", message: text }),
    });
  }

  private removeParticipants(): void {
    const mine = new Set(this.participants);
    this.agent?.chain.removeWhere((p) => mine.has(p));
    this.participants = [];
  }

  /**
   * A registration or an exit changed the names: rebuilt once the frames at hand are read, so an
   * extension that registers 500 tools in a burst costs one rebuild, not 500.
   */
  private rebuildSoon(): void {
    if (this.rebuildQueued) return;
    this.rebuildQueued = true;
    queueMicrotask(() => {
      this.rebuildQueued = false;
      this.rebuild();
    });
  }

  /**
   * Settles names again: built-ins first, then extensions in precedence order, first come wins.
   * Tools that joined (a load, a late start, a registration at any time) and that the transcript
   * already calls while deferred are active from here on.
   */
  private rebuild(): void {
    const commands = new Map<string, { name: string; host: ZotExtensionHost; description: string }>();
    const tools: Tool[] = [];
    const toolOwners = new Map<string, string>();
    const defs = new Map<string, { def: ExtToolDef; host: ZotExtensionHost }>();
    for (const { host } of this.loaded) {
      if (!host.live) continue;
      for (const command of host.commands()) {
        const key = command.name.toLowerCase();
        const owner = commands.get(key)?.host.name;
        if (BUILTIN_COMMANDS.has(key)) this.shadowed(host, `command /${command.name}`, "zot's built-in command");
        else if (owner) this.shadowed(host, `command /${command.name}`, `extension "${owner}", which comes first`);
        else commands.set(key, { name: command.name, host, description: command.description });
      }
      for (const def of host.tools()) {
        const owner = toolOwners.get(def.name);
        if (BUILTIN_TOOL_NAMES.has(def.name)) this.shadowed(host, `tool "${def.name}"`, "zot's built-in tool");
        else if (owner) this.shadowed(host, `tool "${def.name}"`, `extension "${owner}", which comes first`);
        else {
          toolOwners.set(def.name, host.name);
          defs.set(def.name, { def, host });
          tools.push(extensionTool(host, def, this.services.policy));
        }
      }
    }
    const previous = this.toolList;
    this.commandIndex = commands;
    this.toolList = tools;
    this.toolDefs = defs;
    if (this.agent) this.swapTools(this.agent, previous, tools);
    this.services.toolsJoined();
  }

  private shadowed(host: ZotExtensionHost, what: string, winner: string): void {
    const key = `${host.name}\u0000${what}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    host.log(`${what} is shadowed by ${winner}; it is not used`);
    this.warnings?.push(`extension "${host.name}": its ${what} is shadowed by ${winner}; it is not used`);
  }

  /** Replaces the agent's extension tools in place, keeping every other tool where it was. */
  private swapTools(agent: Agent, previous: readonly Tool[], next: readonly Tool[]): void {
    agent.swapTools(previous, next);
  }

  private fanOut(event: AgentEvent): void {
    this.hooks?.observe(event);
    this.events.fromAgent(event, () => this.transcriptSize());
  }

  private transcriptSize(): { messages: number; bytes: number } {
    const messages = this.agent?.messages ?? [];
    let bytes = 0;
    for (const message of messages) bytes += JSON.stringify(message).length;
    return { messages: messages.length, bytes };
  }

  private broadcast(frame: EventFrame): void {
    for (const { host } of this.loaded) host.sendEvent(frame);
  }

  private note(note: Note): void {
    if (this.sink) return this.sink.notify(note);
    this.pendingNotes.push(note);
    if (this.pendingNotes.length > MAX_PENDING_NOTES) this.pendingNotes.shift();
  }

  private clearNotes(extension: string): void {
    this.pendingNotes = this.pendingNotes.filter((note) => note.extension !== extension);
    this.sink?.clearNotes?.(extension);
  }
}

/**
 * At the start, an `--ext` extension that cannot start is the run's usage error: its manifest
 * cannot be loaded, or its exec is not there to run. One that starts and then fails is the
 * extension's own failure, said as a warning like any other's.
 */
async function refuseUnstartable(entry: DiscoveredExtension, options: LoadOptions): Promise<void> {
  const manifest = entry.manifest;
  let problem: string | undefined;
  if (!manifest) problem = entry.error ?? `${entry.manifestFile} cannot be loaded`;
  else if (manifest.exec !== undefined) {
    const { resolveExec } = await import("./manifest.ts");
    const resolved = resolveExec(manifest, entry.dir, { zotBinary: options.zotBinary, env: options.env ?? process.env });
    if ("error" in resolved) problem = `extension "${manifest.name}" (${entry.manifestFile}) cannot start: ${resolved.error}`;
  }
  if (problem !== undefined) throw new UsageError(`--ext ${entry.dir}: ${problem}; fix it, or run without this --ext`);
}

/**
 * The refusing approver standing for a manifest that cannot be loaded but names approve_tool, or
 * fail_closed set to anything but false (a guard that cannot start must not let calls through).
 */
async function brokenApprover(
  file: string,
  dir: string,
  source: HookSpec["source"],
  error: string,
  cwd: string,
): Promise<{ spec: HookSpec; names: "approve_tool" | "fail_closed" } | undefined> {
  let text: string;
  try {
    // Only a regular file: a named pipe would wait for a writer forever, a device never end.
    text = readRegularFile(file, "utf8");
  } catch {
    return undefined;
  }
  const names = /approve_tool/i.test(text) ? "approve_tool" : /"fail_closed"\s*:(?!\s*false\b)/i.test(text) ? "fail_closed" : undefined;
  if (!names) return undefined;
  const { refusingApproverSpec } = await import("./hook-spec.ts");
  // Named as the extension's folder, unless that is a name of zot's own participants.
  const name = isOwnParticipantName(basename(dir)) ? `${basename(dir)} (${file})` : basename(dir);
  return { spec: refusingApproverSpec({ name, source, file }, error, cwd), names };
}

/**
 * What of an untrusted folder a reload did not start (its .zot/extensions and .zot/hooks.json), as
 * the start's trust note says it; none when it holds neither.
 */
function untrustedNote(options: { cwd: string; home: string }): string[] {
  const kept = findProjectConfig(options.cwd, options.home).filter((found) => found.kind === ".zot/extensions" || found.kind === ".zot/hooks.json");
  if (kept.length === 0) return [];
  const dir = folderKey(options.cwd);
  return [
    `this folder (${dir}) is not trusted, so its ${describeFound(kept)} did not start; to start them, trust it (zot trust ${shellQuote(dir)}) and start zot again, or start zot again with --trust for one run`,
  ];
}
