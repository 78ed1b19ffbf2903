// One process hook as zot runs it, whichever file configured it (an extension.json with
// `"protocol": "jsonrpc"`, or a `hooks.processes.<name>` entry of hooks.json): its command, modes,
// order, deadlines, the respond switch and which generation of observer events it speaks.
// Rule: the modes are derived here, once, the way PicoClaw derives them (llm covers before_llm and
// after_llm, tool covers before_tool and after_tool), and a hook with no mode at all is a
// configuration error, never a process started for nothing.
import * as v from "valibot";
import {
  HOOK_EVENT_KINDS,
  HOOK_EVENT_METHODS,
  HOOK_INTERCEPTS,
  type HookEventKind,
  type HookEventMethod,
  type HookIntercept,
  type HookMode,
  OBSERVE_ALL,
  RUNTIME_EVENT_KINDS,
  RUNTIME_ONLY_AGENT_KINDS,
} from "../protocol/hook-rpc.ts";

/** Per-call deadlines of one hook, in ms. */
export interface HookTimeouts {
  hello: number;
  before_llm: number;
  after_llm: number;
  before_tool: number;
  after_tool: number;
  approve_tool: number;
  /** shutdown: stdin closed, then this long before SIGTERM (PicoClaw: 2 s, then SIGKILL) */
  grace: number;
}

/** PicoClaw's defaults: interceptors 5 s, approvers 60 s; zot adds a 5 s hello deadline. */
export const DEFAULT_HOOK_TIMEOUTS: HookTimeouts = {
  hello: 5000,
  before_llm: 5000,
  after_llm: 5000,
  before_tool: 5000,
  after_tool: 5000,
  approve_tool: 60_000,
  grace: 2000,
};

/** The families of PicoClaw HEAD's dotted event names (`agent.tool.exec_start`, `gateway.ready`). */
const RUNTIME_FAMILIES = new Set(["agent", "channel", "bus", "gateway", "mcp"]);
/** `agent.tool.exec_start` → `tool_exec_start` */
const KIND_OF_RUNTIME = new Map<string, HookEventKind>(HOOK_EVENT_KINDS.map((kind) => [RUNTIME_EVENT_KINDS[kind], kind]));

/**
 * What an `observe` entry asks for: a kind, every kind, or a kind of PicoClaw HEAD that zot never
 * sends (`gateway.ready`, `agent.message.sent`); undefined when it is no kind at all.
 * `agent.tool.exec_start` is HEAD's name of `tool_exec_start`.
 */
export function observedKind(entry: string): HookEventKind | "all" | "never sent" | undefined {
  if (OBSERVE_ALL.includes(entry)) return "all";
  if ((HOOK_EVENT_KINDS as readonly string[]).includes(entry)) return entry as HookEventKind;
  const kind = KIND_OF_RUNTIME.get(entry);
  if (kind) return kind;
  if (RUNTIME_ONLY_AGENT_KINDS.includes(entry)) return "never sent";
  const [family, ...rest] = entry.split(".");
  return rest.length > 0 && family !== "agent" && RUNTIME_FAMILIES.has(family) ? "never sent" : undefined;
}

/** PicoClaw HEAD's dotted names (`agent.turn.end`): only a hook written for HEAD configures them. */
function isRuntimeName(entry: string): boolean {
  return entry.includes(".") && observedKind(entry) !== undefined;
}

/**
 * `event_method`: which notification an observer gets. zot's addition, so a PicoClaw config that
 * lacks it still works (HEAD's own loader rejects unknown keys).
 */
export const EventMethodField = v.picklist(
  HOOK_EVENT_METHODS,
  (issue) => `must be "hook.event" (the protocol document's form) or "hook.runtime_event" (PicoClaw's current form), not ${issue.received}`,
);

/**
 * The generation of observer events a hook speaks, and why: `event_method` when it is set;
 * otherwise hook.runtime_event when `observe` names a kind in PicoClaw HEAD's dotted form (only
 * HEAD accepts those, so only a hook written for HEAD lists them); otherwise the document's hook.event.
 */
export function hookEventMethod(fields: HookFields): { method: HookEventMethod; why: string } {
  if (fields.event_method) return { method: fields.event_method, why: '"event_method" says so' };
  const dotted = (fields.observe ?? []).find(isRuntimeName);
  if (dotted) return { method: "hook.runtime_event", why: `"observe" names ${dotted}, the form of the kind only PicoClaw's current release accepts` };
  return { method: "hook.event", why: 'the default; set "event_method": "hook.runtime_event" for a hook written for PicoClaw\'s current release' };
}

/** `observe` entries: the kind names (PicoClaw's short ones or HEAD's dotted ones), or "", "*", "all" for every kind. */
export const ObserveList = v.array(
  v.pipe(
    v.string(),
    v.check((entry) => observedKind(entry) !== undefined, 'not an event kind (like "tool_exec_start", "agent.tool.exec_start", or "*")'),
  ),
);
/** `intercept` entries; "" is accepted and ignored, as PicoClaw does. */
export const InterceptList = v.array(v.picklist([...HOOK_INTERCEPTS, ""]));
const Millis = v.pipe(v.number(), v.finite(), v.minValue(1));
/** Per-stage overrides (ms): zot's addition; PicoClaw has only global defaults. */
export const TimeoutOverrides = v.strictObject({
  hello: v.optional(Millis),
  before_llm: v.optional(Millis),
  after_llm: v.optional(Millis),
  before_tool: v.optional(Millis),
  after_tool: v.optional(Millis),
  approve_tool: v.optional(Millis),
  grace: v.optional(Millis),
});
export type TimeoutOverrides = v.InferOutput<typeof TimeoutOverrides>;

export type HookSource = "flag" | "project" | "global" | "project hooks.json" | "global hooks.json";

export type HookLaunch = { command: string[]; env: Record<string, string | undefined> } | { error: string };

export interface HookSpec {
  name: string;
  source: HookSource;
  /** the file that configured it (extension.json or hooks.json) */
  file: string;
  /** the process's working directory */
  dir: string;
  launch: HookLaunch;
  modes: HookMode[];
  /** the kinds its observer notifications carry; "all" for every kind; empty when observe is off */
  observe: readonly HookEventKind[] | "all";
  /** the notification its observer events come as, and why (for its log) */
  events: { method: HookEventMethod; why: string };
  priority: number;
  timeouts: HookTimeouts;
  /** respond may answer for zot's built-in tools (read, write, edit, bash, skill); default false */
  allowBuiltinRespond: boolean;
}

export interface HookFields {
  observe?: readonly string[];
  intercept?: readonly string[];
  timeouts?: TimeoutOverrides;
  event_method?: HookEventMethod;
}

/** The modes and observe filter of a hook's fields, or the sentence that says why it cannot run. */
export function hookModes(fields: HookFields): { modes: HookMode[]; observe: HookSpec["observe"] } | { error: string } {
  const kinds = (fields.observe ?? []).map(observedKind);
  const observe: HookSpec["observe"] = kinds.includes("all")
    ? "all"
    : kinds.filter((k): k is HookEventKind => k !== undefined && k !== "all" && k !== "never sent");
  const intercept = new Set((fields.intercept ?? []).filter((x): x is HookIntercept => x !== ""));
  const modes: HookMode[] = [];
  // A hook observing only kinds zot never sends is still an observer, as it would be in PicoClaw.
  if (kinds.length > 0) modes.push("observe");
  if (intercept.has("before_llm") || intercept.has("after_llm")) modes.push("llm");
  if (intercept.has("before_tool") || intercept.has("after_tool")) modes.push("tool");
  if (intercept.has("approve_tool")) modes.push("approve");
  if (modes.length === 0) {
    return { error: `no hook modes enabled: set "observe" (event kinds) or "intercept" (${HOOK_INTERCEPTS.join(", ")})` };
  }
  return { modes, observe };
}

/**
 * Whether a hook's configuration asks for approve_tool in any spelling (in a list or alone, any
 * case): an approval hook that cannot be loaded must refuse, never vanish.
 */
export function mentionsApproveTool(intercept: unknown): boolean {
  const items = Array.isArray(intercept) ? intercept : [intercept];
  return items.some((item) => typeof item === "string" && /approve_tool/i.test(item));
}

/**
 * An approval hook that cannot be loaded (`what` says why): an approver that never starts, so it
 * refuses every call it would approve, as one that cannot start does.
 */
export function refusingApproverSpec(
  where: { name: string; source: HookSource; file: string },
  what: string,
  cwd: string,
  defaults: Partial<HookTimeouts> = {},
): HookSpec {
  return {
    ...where,
    dir: cwd,
    launch: { error: `${what}, so the tool calls it approves are refused until ${where.file} is fixed (or the entry disabled)` },
    modes: ["approve"],
    observe: [],
    events: hookEventMethod({}),
    priority: 0,
    timeouts: hookTimeouts(defaults),
    allowBuiltinRespond: false,
  };
}

/** The defaults, then the file's defaults, then the hook's own overrides. */
export function hookTimeouts(...layers: (Partial<HookTimeouts> | undefined)[]): HookTimeouts {
  const out = { ...DEFAULT_HOOK_TIMEOUTS };
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) {
      if (typeof value === "number") out[key as keyof HookTimeouts] = value;
    }
  }
  return out;
}

/** The fields of an extension.json a hook reads (`"protocol": "jsonrpc"`). */
export interface HookManifest extends HookFields {
  name: string;
  priority: number;
  allow_builtin_respond?: boolean;
}

/** A hook configured by its extension.json; launch comes from the extension launcher (exec, args, env). */
export function manifestHookSpec(
  manifest: HookManifest,
  where: { source: HookSource; file: string; dir: string },
  launch: HookLaunch,
): HookSpec | { error: string } {
  const modes = hookModes(manifest);
  if ("error" in modes) return { error: `hook "${manifest.name}" (${where.file}): ${modes.error}; not started` };
  return {
    name: manifest.name,
    ...where,
    launch,
    ...modes,
    events: hookEventMethod(manifest),
    priority: manifest.priority,
    timeouts: hookTimeouts(manifest.timeouts),
    allowBuiltinRespond: manifest.allow_builtin_respond ?? false,
  };
}
