// The services the host gives extensions beyond the seed protocol, wired between the extensions
// and the agent: which tools the model is offered (deferred tools, activate_tools), whether an
// interactive tool may run, the tools an extension runs (call_tool), and the system prompt passes
// (before_agent_start).
// Rule: the manager owns the extensions and their names; this owns what the services keep about
// the conversation (what is activated, whether the prompt is prepared) and starts over with it
// when the conversation does: a clear, a session switch. A model switch and a reload only prepare
// the prompt again; tools that join (a reload, a late start, a registration) are activated where
// the transcript already calls them, as at the attach.
import type { Agent } from "../core/agent.ts";
import { AgentStartPasses } from "./agent-start.ts";
import { runCallTool } from "./call-tool.ts";
import { DeferredTools } from "./deferred-tools.ts";
import type { ExtToolDef, ToolPolicy } from "./ext-tool.ts";
import type { NoteLevel, ZotExtensionHost } from "./zot-host.ts";

export interface HostServicesDeps {
  /** the extensions in load order */
  hosts(): readonly ZotExtensionHost[];
  /** the registration of the extension tool that won this name */
  toolDef(name: string): ExtToolDef | undefined;
  /** whether a person can answer an interactive tool in this run (the TUI) */
  interactive(): boolean;
  /** the id every notification carries */
  sessionId(): string;
  note(extension: string, level: NoteLevel, message: string): void;
}

export class HostServices {
  private readonly deferred = new DeferredTools();
  private agent: Agent | undefined;
  private passes: AgentStartPasses | undefined;
  private off: (() => void)[] = [];
  /** what extension tools consult when the agent builds a request or runs one */
  readonly policy: ToolPolicy;

  constructor(private readonly deps: HostServicesDeps) {
    this.policy = {
      offered: (def) => this.deferred.offered(def),
      interactive: () => deps.interactive(),
    };
  }

  /** A new extension's activate_tools and call_tool go through here. */
  serve(host: ZotExtensionHost): void {
    host.onActivate((names) => {
      const unknown = this.deferred.activate(names, (name) => this.deps.toolDef(name));
      if (unknown.length > 0) host.log(`activate_tools: no tool named ${unknown.map((n) => JSON.stringify(n)).join(", ")}; ignored`);
    });
    host.onCallTool((request) =>
      runCallTool(host.name, request, {
        tools: () => this.agent?.tools,
        extensionTool: (name) => this.deps.toolDef(name),
        callable: (def) => this.deferred.callable(def),
        run: (call, options) => {
          if (!this.agent) throw new Error("no agent is running here to run tools");
          return this.agent.runToolCall(call, options);
        },
      }),
    );
  }

  /** The agent is attached: its prompt is prepared now, and again whenever it must be; a resumed transcript's deferred tools are active. */
  attach(agent: Agent): void {
    this.detach();
    this.agent = agent;
    const known = (name: string) => this.deps.toolDef(name);
    this.deferred.activateCalled(agent.messages, known);
    // The passes rewrite the run's own prompt, from what zot assembled; the sections others added
    // (SessionStart hooks') stay after it.
    const passes = new AgentStartPasses(agent.assembledPrompt, {
      targets: () => this.deps.hosts(),
      current: () => ({ provider: agent.model.provider, model: agent.model.id, cwd: agent.cwd, sessionId: this.deps.sessionId() }),
      apply: (prompt) => agent.setSystemPrompt(prompt),
      emit: (event) => event.type === "intercept" && agent.reportDecision(event),
      warn: (extension, message) => this.deps.note(extension, "warn", message),
    });
    this.passes = passes;
    this.off = [
      agent.onBeforePrompt((signal) => passes.ready(signal)),
      agent.onModelChange(() => passes.refresh()),
      agent.onClear(() => this.newConversation()),
      // zot assembled it anew (a reload's skills, at a new conversation or a compaction): rewritten again from it.
      agent.onReassembled((text) => passes.rebase(text)),
    ];
    // After what the attaching code sends next (session_start), so extensions know the session first.
    queueMicrotask(() => passes.prepare());
  }

  detach(): void {
    for (const off of this.off) off();
    this.off = [];
    this.passes?.stop();
    this.passes = undefined;
    this.agent = undefined;
  }

  /** Another conversation (a clear, a session switch): deferred tools are deferred again, the prompt prepared again. */
  newConversation(): void {
    if (this.agent) this.deferred.reset(this.agent.messages, (name) => this.deps.toolDef(name));
    this.passes?.refresh();
  }

  /** The extensions changed (a reload, one joining late that rewrites the prompt): the prompt is prepared again. */
  extensionsChanged(): void {
    this.passes?.refresh();
  }

  /**
   * Tools joined (a load, a late start, a registration at any time; the manager's rebuild): the
   * deferred ones the transcript calls are active, as at the attach, so the model is never asked
   * to continue a call to a tool it cannot see.
   */
  toolsJoined(): void {
    if (this.agent) this.deferred.activateCalled(this.agent.messages, (name) => this.deps.toolDef(name));
  }

  /** The deferred tools that are active now (zot ext doctor, tests). */
  activeDeferredTools(): string[] {
    return this.deferred.names();
  }
}
