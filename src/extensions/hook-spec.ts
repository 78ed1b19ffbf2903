// One process hook as zot runs it, whichever file configured it (an extension.json with
// `"protocol": "jsonrpc"`, or a `hooks.processes.<name>` entry of hooks.json): its command, modes,
// order, deadlines and the respond switch. Rule: the modes are derived here, once, the way PicoClaw
// derives them (llm covers before_llm and after_llm, tool covers before_tool and after_tool), and a
// hook with no mode at all is a configuration error, never a process started for nothing.
import * as v from "valibot";
import {
  HOOK_EVENT_KINDS,
  HOOK_INTERCEPTS,
  type HookEventKind,
  type HookIntercept,
  type HookMode,
  OBSERVE_ALL,
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

/** `observe` entries: the kind names, or "", "*", "all" for every kind. */
export const ObserveList = v.array(v.picklist([...HOOK_EVENT_KINDS, ...OBSERVE_ALL]));
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
  /** the kinds hook.event carries to it; "all" for every kind; empty when observe is off */
  observe: readonly HookEventKind[] | "all";
  priority: number;
  timeouts: HookTimeouts;
  /** respond may answer for zot's built-in tools (read, write, edit, bash, skill); default false */
  allowBuiltinRespond: boolean;
}

export interface HookFields {
  observe?: readonly string[];
  intercept?: readonly string[];
  timeouts?: TimeoutOverrides;
}

/** The modes and observe filter of a hook's fields, or the sentence that says why it cannot run. */
export function hookModes(fields: HookFields): { modes: HookMode[]; observe: HookSpec["observe"] } | { error: string } {
  const observeList = fields.observe ?? [];
  const observe: HookSpec["observe"] = observeList.some((k) => OBSERVE_ALL.includes(k))
    ? "all"
    : (observeList as HookEventKind[]);
  const intercept = new Set((fields.intercept ?? []).filter((x): x is HookIntercept => x !== ""));
  const modes: HookMode[] = [];
  if (observe === "all" || observe.length > 0) modes.push("observe");
  if (intercept.has("before_llm") || intercept.has("after_llm")) modes.push("llm");
  if (intercept.has("before_tool") || intercept.has("after_tool")) modes.push("tool");
  if (intercept.has("approve_tool")) modes.push("approve");
  if (modes.length === 0) {
    return { error: `no hook modes enabled: set "observe" (event kinds) or "intercept" (${HOOK_INTERCEPTS.join(", ")})` };
  }
  return { modes, observe };
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
    priority: manifest.priority,
    timeouts: hookTimeouts(manifest.timeouts),
    allowBuiltinRespond: manifest.allow_builtin_respond ?? false,
  };
}
