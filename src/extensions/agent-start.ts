// before_agent_start: extensions rewrite the system prompt once zot has assembled it (context
// files, skills, tools) and before the model first sees it, and again whenever it is prepared anew:
// a model switch, clear, a session switch, a reload of the extensions, an extension joining late,
// zot assembling it anew (a reload's list of skills, at a new conversation or a compaction).
// Rule: a pass starts from the prompt zot assembled, never from an earlier pass's result; the
// extensions are asked one at a time in load order (--ext first, then the project's, then the
// global ones), each seeing the previous one's result, each within its 5 s intercept deadline (a
// silent, dead or confused one keeps the prompt as it was); a pass overtaken by a newer one is
// thrown away; every rewrite that is kept is in the audit trail (an intercept event). The first pass
// starts at once; a later reason for one (however many come together: a session switch is a clear
// and a model switch too) only marks the prompt stale, and the next prompt runs one pass first.
import { untilAborted } from "../protocol/until-aborted.ts";
import { describeTextChange } from "../core/intercept-change.ts";
import type { AgentEvent } from "../protocol/events.ts";
import type { InterceptFields, InterceptReply } from "./ext-intercept.ts";

/** The longest system prompt an extension may set, as encoded JSON. */
export const SYSTEM_PROMPT_MAX_BYTES = 1024 * 1024;

/** One extension as a pass asks it. */
export interface AgentStartTarget {
  readonly name: string;
  /** whether it subscribed to before_agent_start (and is running) */
  wantsAgentStart(): boolean;
  /** sends event_intercept and waits for the answer (the host's 5 s deadline); rejects when it cannot answer */
  intercept(fields: InterceptFields, signal: AbortSignal): Promise<InterceptReply>;
  /** a protocol mistake: its log, and its diagnostics */
  diagnose(kind: string, message: string): void;
}

export interface AgentStartDeps {
  /** the extensions in load order */
  targets(): readonly AgentStartTarget[];
  /** what the agent uses now, and what it is told to use */
  current(): { provider: string; model: string; cwd: string; sessionId: string };
  apply(systemPrompt: string): void;
  /** the audit trail */
  emit(event: AgentEvent): void;
  /** a warning for the user (a note) */
  warn(extension: string, message: string): void;
}

export class AgentStartPasses {
  /** the system prompt zot assembled: every pass starts here */
  private base: string;
  private generation = 0;
  private running: Promise<void> = Promise.resolve();
  private readonly controllers = new Set<AbortController>();
  /** a pass has set the agent's prompt: a later pass with nobody to ask puts the base back */
  private applied = false;
  /** the prompt must be prepared (again) before the next model call; nothing is prepared yet */
  private stale = true;

  constructor(
    base: string,
    private readonly deps: AgentStartDeps,
  ) {
    this.base = base;
  }

  /** Starts a pass now if the prompt is not prepared (the first, soon after the extensions are attached). */
  prepare(): void {
    if (this.stale) this.start();
  }

  /** Starts a pass now; one still running is abandoned. */
  private start(): void {
    this.stale = false;
    const generation = ++this.generation;
    for (const controller of this.controllers) controller.abort();
    this.running = this.pass(generation);
  }

  /** The prompt must be prepared again: a pass running now is abandoned, and the next prompt runs a new one. */
  refresh(): void {
    this.generation++;
    for (const controller of this.controllers) controller.abort();
    this.stale = true;
  }

  /** zot assembled the prompt anew: passes start from `base` from now on, and it must be prepared again. */
  rebase(base: string): void {
    this.base = base;
    this.refresh();
  }

  /** Resolves when the prompt is prepared (or `signal` aborts): what a prompt awaits before its first model call. */
  async ready(signal: AbortSignal): Promise<void> {
    for (;;) {
      if (this.stale) this.start();
      const running = this.running;
      await untilAborted(running, signal);
      // Made stale again while it ran (a model switch, say): prepared once more.
      if (signal.aborted || (running === this.running && !this.stale)) return;
    }
  }

  /** Cancels a pass in progress (the agent is detached); the prompt stays as it is. */
  stop(): void {
    this.generation++;
    for (const controller of this.controllers) controller.abort();
  }

  private async pass(generation: number): Promise<void> {
    const targets = this.deps.targets().filter((target) => target.wantsAgentStart());
    const controller = new AbortController();
    this.controllers.add(controller);
    const runId = `run-${crypto.randomUUID()}`;
    let prompt = this.base;
    const audit: AgentEvent[] = [];
    try {
      for (const target of targets) {
        if (generation !== this.generation) return;
        const now = this.deps.current();
        const fields: InterceptFields = {
          event: "before_agent_start",
          system_prompt: prompt,
          session_id: now.sessionId,
          agent_run_id: runId,
          cwd: now.cwd,
          provider: now.provider,
          model: now.model,
        };
        let reply: InterceptReply;
        try {
          reply = await target.intercept(fields, controller.signal);
        } catch {
          // The host has logged why (timed out, exited); the prompt stays as it was.
          if (controller.signal.aborted) return;
          continue;
        }
        const next = this.answer(target, reply.system_prompt);
        if (next === undefined || next === prompt) continue;
        audit.push({
          type: "intercept",
          participant: target.name,
          stage: "before_agent_start",
          action: "modify",
          ...(next === "" ? { reason: "removed the system prompt" } : {}),
          ...describeTextChange(prompt, next),
        });
        prompt = next;
      }
      if (generation !== this.generation) return;
      if (targets.length === 0 && !this.applied) return;
      this.applied = targets.length > 0;
      this.deps.apply(prompt);
      for (const event of audit) this.deps.emit(event);
    } finally {
      this.controllers.delete(controller);
    }
  }

  /** The prompt an answer sets: a string; undefined (keep) for none, and for anything else (with a diagnostic and a warning). */
  private answer(target: AgentStartTarget, value: unknown): string | undefined {
    if (value === undefined) return undefined;
    if (typeof value !== "string") {
      const what = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
      const message = `before_agent_start: system_prompt must be a string ("" removes the prompt; leave it out to keep it), not ${what}; the prompt is kept as it was`;
      target.diagnose("invalid_system_prompt", message);
      this.deps.warn(target.name, message);
      return undefined;
    }
    const bytes = Buffer.byteLength(JSON.stringify(value));
    if (bytes > SYSTEM_PROMPT_MAX_BYTES) {
      const message = `before_agent_start: system_prompt is ${bytes.toLocaleString("en-US")} bytes, over the limit of 1 MiB; the prompt is kept as it was`;
      target.diagnose("invalid_system_prompt", message);
      this.deps.warn(target.name, message);
      return undefined;
    }
    return value;
  }
}
