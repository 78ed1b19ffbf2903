// The confirmation gate (`--no-yolo`, the TUI's /yolo): an approve_tool participant of the chain
// that asks a person before each tool call. Rule: it runs last of the approvers (priority
// +Infinity), so the person sees the arguments every tool_call rewrite has already made and is
// never asked about a call an extension or hook denies anyway; what they allow "for this session"
// lives in this object and nowhere else. Calls the runtime marks as needing no question (reads
// inside the working directory) pass unasked, and a question about a call that changes a file
// carries the change as a diff, so a person never allows an edit by its path alone. A settings
// hook's or a permission rule's word on one call (hookVerdict: "ask" or "allow"; an ask beats an allow)
// comes before all of that.
import type { Decision, FailureRule, Participant, StagePayloads, ToolArgs } from "./intercept.ts";
import { OWN_PARTICIPANTS } from "../protocol/own-participants.ts";

/** What the person answered. */
export type ConfirmAnswer =
  /** run this call */
  | { answer: "yes" }
  /** run this call and every later call of this tool, this session */
  | { answer: "yes_tool" }
  /** run this call and every later one, this session (the same as /yolo) */
  | { answer: "yes_all" }
  /** do not run it; the model gets "the user declined" and the reason */
  | { answer: "no"; reason?: string };

/** What the person is asked about. */
export interface ConfirmRequest {
  /** the tool call's id */
  id: string;
  tool: string;
  /** one line of at most PREVIEW_MAX characters: what the call is about (previewArgs) */
  preview: string;
  args: ToolArgs;
  /** what the call would change (an edit's or a write's unified diff), when the tool can say */
  diff?: string;
  /** why this call is asked about although it would not be otherwise (a settings hook's or a permission rule's `ask`), as the person reads it */
  why?: string;
}

/** A tool call as the gate sees it. */
export interface GatedCall {
  name: string;
  args: ToolArgs;
}

/**
 * Asks the person (the TUI's dialog; tests pass a function). The signal aborts when the turn is
 * cancelled, or when /yolo approves the pending call: the dialog should close then.
 */
export type Confirmer = (request: ConfirmRequest, signal: AbortSignal) => Promise<ConfirmAnswer>;

export interface ConfirmGateOptions {
  /** who answers; without one every call is refused with `unattended` (a run with no terminal) */
  confirmer?: Confirmer;
  /** whether calls are confirmed from the start (`--no-yolo`); default true */
  confirming?: boolean;
  /** the refusal when there is no confirmer */
  unattended?: string;
  /** nobody is ever asked (`--permission-mode dontAsk`): setConfirmer changes nothing */
  asksNobody?: boolean;
  /** calls that need no question (reads inside the working directory); they pass as "policy" */
  unasked?: (call: GatedCall) => boolean;
  /** what a call would change, shown with its question; a preview that fails shows nothing */
  preview?: (call: GatedCall) => Promise<string | undefined>;
  /**
   * why confirmations may not be turned off (a settings file's disableBypassPermissionsMode): /yolo
   * and a yes to everything leave them on
   */
  lockedOn?: string;
}

export const CONFIRM_GATE_NAME = OWN_PARTICIPANTS.confirm;
/** The longest preview, in characters. */
export const PREVIEW_MAX = 120;
/** The argument that says best what a call does, by the names tools use for it. */
const PREVIEW_KEYS = ["command", "path", "file_path", "url", "query", "name"];
/** A person answers when they answer: the longest timer there is (about 24.8 days). */
const NO_TIMEOUT_MS = 2 ** 31 - 1;

export const DECLINED = "the user declined";
/** Why a question's dialog closed without an answer (its signal's reason): its turn ended. */
export const TURN_ENDED = "its turn ended";
/** ...or confirmations were turned off meanwhile (/yolo, a yes to everything): the call runs. */
export const APPROVED_BY_YOLO = "confirmations were turned off meanwhile (/yolo, or a yes to everything), so the call runs";

/**
 * How an approved call got through: asked and said yes, a remembered "yes for this tool", a call
 * that needs no question (a read inside the working directory), or no confirming.
 */
export type ApprovalSource = "user" | "remembered" | "policy" | "yolo";

export class ConfirmGate implements Participant {
  readonly name = CONFIRM_GATE_NAME;
  readonly builtin = true;
  readonly priority = Number.POSITIVE_INFINITY;
  readonly stages = ["approve_tool"] as const;
  readonly timeoutMs = NO_TIMEOUT_MS;
  /** a confirmer that throws denies */
  readonly onFailure: FailureRule = "deny";
  #confirming: boolean;
  readonly #tools = new Set<string>();
  /** approve the calls waiting for an answer (when /yolo turns confirmations off) */
  readonly #waiting = new Set<() => void>();
  #confirmer?: Confirmer;
  readonly #unattended: string;
  readonly #asksNobody: boolean;
  readonly #unasked?: (call: GatedCall) => boolean;
  readonly #preview?: (call: GatedCall) => Promise<string | undefined>;
  readonly #askListeners = new Set<(request: ConfirmRequest) => void>();
  /** how recent calls got through, by call id, until approvalSource reads it */
  readonly #sources = new Map<string, ApprovalSource>();
  /** what a settings hook said about a call (src/settings-hooks), by call id, until the call gets here */
  readonly #hookVerdicts = new Map<string, { verdict: "ask" | "allow"; reason?: string; args?: string }>();

  constructor(options: ConfirmGateOptions = {}) {
    this.#asksNobody = options.asksNobody ?? false;
    this.#confirmer = this.#asksNobody ? undefined : options.confirmer;
    this.#confirming = options.confirming ?? true;
    this.#unasked = options.unasked;
    this.#preview = options.preview;
    this.lockedOn = options.lockedOn;
    this.#unattended =
      options.unattended ??
      "tool call refused: confirmations are on (--no-yolo) and there is no one to confirm it; ask the user what to do instead";
  }

  /** Whether tool calls are confirmed (the status bar's tag). Tools remembered with yes_tool still run unasked. */
  get confirming(): boolean {
    return this.#confirming;
  }

  /** why confirmations stay on whatever /yolo says (undefined: they may be turned off) */
  readonly lockedOn: string | undefined;

  /** Turns confirmations on or off; off also approves the calls waiting for an answer. Off does nothing while they are locked on. */
  setConfirming(on: boolean): void {
    if (!on && this.lockedOn !== undefined) return;
    this.#confirming = on;
    if (!on) for (const approve of [...this.#waiting]) approve();
  }

  /** /yolo: flips confirmations; returns whether they are on now. */
  toggle(): boolean {
    this.setConfirming(!this.#confirming);
    return this.#confirming;
  }

  /** Whether there is someone to ask (a confirmer); without one, calls asked about are refused. */
  get canAsk(): boolean {
    return this.#confirmer !== undefined;
  }

  /**
   * Who answers from now on (an rpc client that said it does); the calls asked about before were
   * refused. False, and nothing changes, for a gate that asks nobody (`--permission-mode dontAsk`).
   */
  setConfirmer(confirmer: Confirmer): boolean {
    if (this.#asksNobody) return false;
    this.#confirmer = confirmer;
    return true;
  }

  /**
   * A settings hook's word on the call with this id (its PreToolUse `permissionDecision`), or a
   * permission rule's: "ask" asks the person even while confirmations are off or the tool is
   * remembered, showing `reason`; "allow" lets it pass unasked unless something asked. Read once,
   * when the call reaches the gate. `args`: the arguments an allow judged; arguments rewritten after
   * it (a later participant's) are not what was allowed, and the call is confirmed as any other.
   */
  hookVerdict(id: string, verdict: "ask" | "allow", reason?: string, args?: ToolArgs): void {
    // An ask holds against every allow (a PreToolUse hook's and a permission rule's, in either order).
    const before = this.#hookVerdicts.get(id);
    if (before?.verdict === "ask" && verdict === "allow") return;
    const why = before?.verdict === "ask" ? [before.reason, reason].filter(Boolean).join("; ") : reason;
    this.#hookVerdicts.set(id, { verdict, ...(why ? { reason: why } : {}), ...(verdict === "allow" && args ? { args: JSON.stringify(args) } : {}) });
    // Bounded: a call denied before it reaches the gate never reads its verdict.
    if (this.#hookVerdicts.size > 256) this.#hookVerdicts.delete(this.#hookVerdicts.keys().next().value as string);
  }

  /**
   * Drops the verdict held for this id: a call an approver denied before it reached the gate left
   * its verdict unread, and a model may give a later call the same id.
   */
  forget(id: string): void {
    this.#hookVerdicts.delete(id);
  }

  /** Called just before a person is asked about a call (extensions' tool_confirmation_requested). */
  onAsk(listener: (request: ConfirmRequest) => void): () => void {
    this.#askListeners.add(listener);
    return () => this.#askListeners.delete(listener);
  }

  /** How the call with this id got through the gate: a person said yes, a remembered yes, or no confirming. Read once. */
  approvalSource(id: string): ApprovalSource | undefined {
    const source = this.#sources.get(id);
    this.#sources.delete(id);
    return source;
  }

  #passed(id: string, source: ApprovalSource): { action: "continue" } {
    this.#sources.set(id, source);
    // Bounded: a reader that never comes must not grow this.
    if (this.#sources.size > 256) this.#sources.delete(this.#sources.keys().next().value as string);
    return { action: "continue" };
  }

  /** The tools answered "yes for this tool this session", in the order they were. */
  rememberedTools(): string[] {
    return [...this.#tools];
  }

  async decide<S extends keyof StagePayloads>(stage: S, payload: StagePayloads[S], signal: AbortSignal): Promise<Decision<S>> {
    if (stage !== "approve_tool") return { action: "continue" };
    const call = payload as StagePayloads["approve_tool"];
    const hook = this.#hookVerdicts.get(call.id);
    this.#hookVerdicts.delete(call.id);
    if (hook?.verdict === "allow" && (hook.args === undefined || hook.args === JSON.stringify(call.args))) return this.#passed(call.id, "policy");
    if (hook?.verdict !== "ask") {
      if (!this.#confirming) return this.#passed(call.id, "yolo");
      if (this.#tools.has(call.name)) return this.#passed(call.id, "remembered");
      if (this.#isUnasked(call)) return this.#passed(call.id, "policy");
    }
    if (!this.#confirmer) return { action: "deny", reason: this.#unattended };

    // A rule's or hook's ask holds whatever /yolo (or a yes to everything) says meanwhile.
    const answer = await this.#ask(this.#confirmer, call, signal, hook?.reason, hook?.verdict !== "ask");
    switch (answer.answer) {
      case "yes":
        return this.#passed(call.id, "user");
      case "yes_tool":
        this.#tools.add(call.name);
        return this.#passed(call.id, "user");
      case "yes_all":
        this.setConfirming(false);
        return this.#passed(call.id, "user");
      case "no": {
        const reason = answer.reason?.trim();
        return { action: "deny", reason: reason ? `${DECLINED}: ${reason}` : DECLINED };
      }
    }
  }

  #isUnasked(call: GatedCall): boolean {
    try {
      return this.#unasked?.(call) ?? false;
    } catch {
      return false;
    }
  }

  async #diff(call: GatedCall): Promise<string | undefined> {
    try {
      return await this.#preview?.(call);
    } catch {
      return undefined;
    }
  }

  /**
   * The person's answer, or yes when /yolo turns confirmations off meanwhile (only for a call
   * asked because they were on: `releasable`). The dialog's signal aborts with why it closed.
   */
  async #ask(confirmer: Confirmer, call: StagePayloads["approve_tool"], signal: AbortSignal, why: string | undefined, releasable: boolean): Promise<ConfirmAnswer> {
    const dialog = new AbortController();
    const onAbort = () => dialog.abort(new Error(TURN_ENDED));
    signal.addEventListener("abort", onAbort, { once: true });
    let approve = () => {};
    const approved = new Promise<ConfirmAnswer>((resolve) => {
      approve = () => {
        // The yes first: a dialog that answers "no" when closed must not win the race.
        resolve({ answer: "yes" });
        dialog.abort(new Error(APPROVED_BY_YOLO));
      };
    });
    if (releasable) this.#waiting.add(approve);
    try {
      const diff = await this.#diff(call);
      const request: ConfirmRequest = { id: call.id, tool: call.name, preview: previewArgs(call.args), args: call.args, ...(diff ? { diff } : {}), ...(why ? { why } : {}) };
      for (const listener of this.#askListeners) listener(request);
      return await Promise.race([confirmer(request, dialog.signal), approved]);
    } finally {
      this.#waiting.delete(approve);
      signal.removeEventListener("abort", onAbort);
      // The question is settled: a dialog still open (approved by /yolo) closes.
      dialog.abort();
    }
  }
}

/**
 * What a call is about, whole, as it would run: the first non-empty of command, path, file_path,
 * url, query or name, else the arguments as compact JSON (nothing for none). The question shows it
 * all, so no part of a command runs unseen.
 */
export function argsText(args: ToolArgs): string {
  const key = PREVIEW_KEYS.find((k) => typeof args[k] === "string" && (args[k] as string).trim() !== "");
  return key ? (args[key] as string) : Object.keys(args).length > 0 ? JSON.stringify(args) : "";
}

/**
 * Every argument of a call, as it would be used: what it is about first (argsText), then each
 * other argument as `name: value` (a text as it is, lines and all; anything else as JSON). What a
 * question shows when no diff says the rest (an MCP server's write_file: its path, then its content).
 */
export function allArgsText(args: ToolArgs): string {
  const key = PREVIEW_KEYS.find((k) => typeof args[k] === "string" && (args[k] as string).trim() !== "");
  if (key === undefined) return argsText(args);
  const rest = Object.entries(args)
    .filter(([name]) => name !== key)
    .map(([name, value]) => `${name}: ${typeof value === "string" ? value : JSON.stringify(value)}`);
  return [args[key] as string, ...rest].join("\n");
}

/**
 * One line saying what a call is about: the first non-empty of command, path, file_path, url,
 * query or name, else the arguments as compact JSON (nothing for none); whitespace collapsed, at
 * most `max` characters with "…" at the end when cut.
 */
export function previewArgs(args: ToolArgs, max = PREVIEW_MAX): string {
  const line = argsText(args).replace(/\s+/g, " ").trim();
  const chars = Array.from(line);
  return chars.length <= max ? line : `${chars.slice(0, max - 1).join("")}…`;
}
