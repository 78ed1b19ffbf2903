// PicoClaw's hook configuration, read unchanged from `./.zot/hooks.json` and `$ZOT_HOME/hooks.json`:
// `{"hooks": {"enabled", "defaults", "processes": {"<name>": {enabled, priority, transport,
// command, dir, env, observe, intercept}}}}` (a file holding only the inner `hooks` object works too).
// Rule: PicoClaw's semantics (an entry runs only with `"enabled": true`; `command` is argv, no
// shell; `env` is added to zot's environment, which holds none of zot's credentials (config/child-env.ts); a relative `dir` is relative to where zot runs), the
// project's entry wins a name, and every problem is a sentence naming the file and the field; one
// bad entry never stops the others.
import { statSafe } from "../config/quiet-fs.ts";
import path from "node:path";
import * as v from "valibot";
import { childEnv } from "../config/child-env.ts";
import { errorText } from "../protocol/error-text.ts";
import { asGoReads } from "../protocol/go-json.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import { firstIssue } from "../protocol/schema-issue.ts";
import {
  EventMethodField,
  type HookLaunch,
  hookEventMethod,
  hookModes,
  type HookSource,
  type HookSpec,
  type HookTimeouts,
  hookTimeouts,
  InterceptList,
  mentionsApproveTool,
  ObserveList,
  refusingApproverSpec,
  TimeoutOverrides,
} from "./hook-spec.ts";
import { hooksConfigFiles } from "./hooks-files.ts";
import { readRegularFile } from "../config/regular-file.ts";
import { findProgram } from "../process/find-program.ts";
import { errnoWords } from "../protocol/errno-words.ts";
import { isOwnParticipantName } from "../protocol/own-participants.ts";


const Millis = v.optional(v.number());
const HooksSection = v.looseObject({
  enabled: v.optional(v.boolean(), true),
  defaults: v.optional(
    v.looseObject({
      observer_timeout_ms: Millis,
      interceptor_timeout_ms: Millis,
      approval_timeout_ms: Millis,
    }),
  ),
  builtins: v.optional(v.record(v.string(), v.unknown())),
  processes: v.optional(v.record(v.string(), v.unknown())),
});

/** PicoClaw's config.json: `hooks` at the top (a file of its own may hold just that object). */
const PicoClawConfig = v.looseObject({ hooks: v.optional(v.unknown()) });

const ProcessEntry = v.looseObject({
  /** PicoClaw's zero value: an entry must say `"enabled": true` */
  enabled: v.optional(v.boolean(), false),
  priority: v.optional(v.pipe(v.number(), v.finite()), 0),
  transport: v.optional(v.picklist(["stdio", ""])),
  command: v.pipe(v.array(v.string()), v.minLength(1, "command is required (an array: the program, then its arguments)")),
  dir: v.optional(v.string()),
  env: v.optional(v.record(v.string(), v.string())),
  observe: v.optional(ObserveList),
  intercept: v.optional(InterceptList),
  // zot's additions (PicoClaw ignores unknown keys, so these stay portable to its v-seed loader)
  timeouts: v.optional(TimeoutOverrides),
  allow_builtin_respond: v.optional(v.boolean()),
  event_method: v.optional(EventMethodField),
});
type ProcessEntry = v.InferOutput<typeof ProcessEntry>;

const NAME = /^[A-Za-z0-9._-]+$/;

export interface HooksConfigOptions {
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  /**
   * Workspace trust (config/workspace-trust.ts): false lists the project file's entries marked
   * `untrusted`, runs none of them, and lets them take no name from the global file's
   */
  projectTrusted: boolean;
}

export interface HooksConfig {
  /** enabled entries, project first; a name the project has is not taken from the global file */
  specs: HookSpec[];
  /** sentences naming the file and the field */
  warnings: string[];
}

/** One `hooks.processes` entry as `zot ext list` shows it. */
export interface HookEntry {
  name: string;
  source: HookSource;
  file: string;
  enabled: boolean;
  /** ready to start (enabled or not) */
  spec?: HookSpec;
  /** why it cannot run: a sentence naming the file and the field */
  error?: string;
  /** the file whose entry of the same name wins */
  shadowedBy?: string;
  /** the project's file, in a folder the user has not trusted: listed, never run */
  untrusted?: true;
}


/** What zot runs: the enabled, valid entries (the project's first), and a warning for every problem. */
export function loadHooksConfig(options: HooksConfigOptions): HooksConfig {
  const { entries, warnings } = listHooksConfig(options);
  const specs: HookSpec[] = [];
  for (const entry of entries) {
    if (!entry.enabled || entry.shadowedBy || entry.untrusted) continue;
    if (entry.spec) specs.push(entry.spec);
    if (entry.error) warnings.push(entry.error);
  }
  return { specs, warnings };
}

/** Every entry of both files, disabled, broken and shadowed ones included; file-level problems as warnings. */
export function listHooksConfig(options: HooksConfigOptions): { entries: HookEntry[]; warnings: string[] } {
  const entries: HookEntry[] = [];
  const warnings: string[] = [];
  const winners = new Map<string, string>();
  const seenFiles = new Set<string>();
  for (const { source, file } of hooksConfigFiles(options)) {
    if (seenFiles.has(file)) continue;
    // An untrusted project's file that is the global one (ZOT_HOME inside the project) is read as the global one.
    if (!(source === "project hooks.json" && !options.projectTrusted)) seenFiles.add(file);
    const untrusted = source === "project hooks.json" && !options.projectTrusted;
    // An untrusted file's problems are not the user's to fix before they trust it.
    for (const entry of readHooksFile(file, source, options, untrusted ? [] : warnings)) {
      if (untrusted) {
        entries.push({ ...entry, untrusted: true });
        continue;
      }
      const winner = winners.get(entry.name);
      if (winner === undefined) winners.set(entry.name, file);
      entries.push(winner === undefined ? entry : { ...entry, shadowedBy: winner });
    }
  }
  return { entries, warnings };
}

/** Every process entry of one file; a missing file has none. */
function readHooksFile(file: string, source: HookSource, options: HooksConfigOptions, warnings: string[]): HookEntry[] {
  let text: string;
  try {
    text = readRegularFile(file, "utf8");
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code !== "ENOENT") warnings.push(`${file}: cannot be read (${errnoWords(err)}); its hooks are not loaded`);
    return [];
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (err) {
    const why = `not valid JSON (${errorText(err).replace(/^JSON Parse error: /, "")})`;
    // A file that cannot be read may hold an approval hook: it refuses, never lets calls run unapproved.
    if (text.includes('"approve_tool"')) {
      warnings.push(`${file}: ${why}; its hooks are not loaded, and as it names approve_tool, tool calls are refused until it is fixed`);
      return [refusingApprover({ name: path.basename(file), source, file }, why, options.cwd, {})];
    }
    warnings.push(`${file}: ${why}; its hooks are not loaded`);
    return [];
  }
  // PicoClaw's whole config.json has `hooks` at the top; a file of its own may hold just that object.
  // Read as PicoClaw (Go) reads it: a field's name has no case ("Processes", "Enabled"), null is absent.
  // Neither an object nor a `hooks` that is one: nothing here is hooks, and that is said, not passed over.
  if (!isJsonObject(raw)) {
    warnings.push(`${file}: must be a JSON object, {"hooks": {"processes": {…}}}; its hooks are not loaded`);
    return [];
  }
  const top = asGoReads(PicoClawConfig, raw);
  if (isJsonObject(top) && top.hooks !== undefined && !isJsonObject(top.hooks)) {
    warnings.push(`${file}: "hooks" must be an object, {"processes": {…}}; its hooks are not loaded`);
    return [];
  }
  const nested = isJsonObject(top) && isJsonObject(top.hooks);
  const section = asGoReads(HooksSection, nested ? top.hooks : raw);
  const prefix = nested ? "hooks." : "";
  // The whole section turned off, however spelled: nothing in it runs, nothing refuses.
  if (isJsonObject(section) && section.enabled !== undefined && spelledOff(section.enabled)) return [];
  const parsed = v.safeParse(HooksSection, section);
  if (!parsed.success) {
    const why = fieldProblem(parsed.issues, prefix);
    // Its enabled approval hooks, as far as they can be read, refuse instead of vanishing.
    const processes = isJsonObject(section) && isJsonObject(section.processes) ? section.processes : {};
    const approvers = Object.keys(processes)
      .sort()
      .filter((name) => {
        const entry = asGoReads(ProcessEntry, processes[name]);
        return meantToRun(entry) && approves(entry);
      })
      .map((name) => refusingApprover({ name, source, file }, why, options.cwd, {}));
    warnings.push(`${file}: ${why}; its hooks are not loaded${approvers.length > 0 ? `, and the tool calls its approval hooks (${approvers.map((a) => a.name).join(", ")}) would approve are refused until it is fixed` : ""}`);
    return approvers;
  }
  const hooks = parsed.output;
  if (!hooks.enabled) return [];
  for (const name of Object.keys(hooks.builtins ?? {})) {
    warnings.push(`${file}: ${prefix}builtins.${name} is a Go hook compiled into PicoClaw; zot cannot run it (ignored)`);
  }
  const defaults = fileDefaults(hooks.defaults);
  // Sorted by name, as PicoClaw mounts them.
  return Object.keys(hooks.processes ?? {})
    .sort()
    .map((name) => {
      // A name of zot's own participants is not taken, even by the approver that stands in for the entry.
      const own = isOwnParticipantName(name);
      const where = { name: own ? `${name} (${file})` : name, source, file };
      const raw = asGoReads(ProcessEntry, hooks.processes?.[name]);
      const enabled = isJsonObject(raw) && raw.enabled === true;
      const problem = (what: string): HookEntry => {
        const error = `${file}: ${prefix}processes.${name}: ${what}; not loaded`;
        // An approval hook that cannot be loaded refuses every tool call (as one that cannot start
        // does), never lets them run unapproved; PicoClaw does not start at all with such a file.
        // `"enabled": "true"` is meant to run: listed as enabled, so its error is a warning.
        if (!meantToRun(raw) || !approves(raw)) return { ...where, enabled: meantToRun(raw), error };
        return { ...refusingApprover(where, what, options.cwd, defaults), error: `${error}: the tool calls it approves are refused until it is fixed` };
      };
      if (!NAME.test(name) || /^\.+$/.test(name)) return problem('the name must be letters, digits, ".", "-" and "_"');
      if (own) return problem(`the name "${name}" is zot's own in the interception chain (what the hook did would be reported as zot's); choose another`);
      const entry = v.safeParse(ProcessEntry, raw);
      if (!entry.success) return problem(fieldProblem(entry.issues, ""));
      const modes = hookModes(entry.output);
      if ("error" in modes) return problem(modes.error);
      const dir = path.resolve(options.cwd, entry.output.dir ?? "");
      const spec: HookSpec = {
        ...where,
        dir,
        launch: processLaunch(name, entry.output, dir, options.env),
        ...modes,
        events: hookEventMethod(entry.output),
        priority: entry.output.priority,
        timeouts: hookTimeouts(defaults, entry.output.timeouts),
        allowBuiltinRespond: entry.output.allow_builtin_respond ?? false,
      };
      return { ...where, enabled, spec };
    });
}

/** An approval hook that cannot be loaded, as an entry: enabled, refusing every call it would approve. */
function refusingApprover(where: { name: string; source: HookSource; file: string }, what: string, cwd: string, defaults: Partial<HookTimeouts>): HookEntry {
  return { ...where, enabled: true, spec: refusingApproverSpec(where, what, cwd, defaults) };
}

/** An entry meant to approve: it names approve_tool in any shape (read as Go reads it). */
function approves(raw: unknown): boolean {
  return isJsonObject(raw) && mentionsApproveTool(raw.intercept);
}

/**
 * An entry meant to run: `enabled` is anything but false or absent (or false spelled as `"false"`,
 * `0`, `"off"`). `"true"`, `1` or `"yes"` are mistakes to report, and an approval hook with such a
 * mistake refuses rather than vanishes.
 */
function meantToRun(raw: unknown): boolean {
  if (!isJsonObject(raw) || raw.enabled === undefined || raw.enabled === null) return false;
  return !spelledOff(raw.enabled);
}

/** `false`, and false however spelled: `"false"`, `0`, `"off"`, `"no"`. */
function spelledOff(value: unknown): boolean {
  return value === false || value === 0 || (typeof value === "string" && /^\s*(false|0|no|off)\s*$/i.test(value));
}

/** `hooks.defaults`: the interceptor and approval deadlines of every process in the file. */
function fileDefaults(defaults: v.InferOutput<typeof HooksSection>["defaults"]): Partial<HookTimeouts> {
  const interceptor = positive(defaults?.interceptor_timeout_ms);
  const approval = positive(defaults?.approval_timeout_ms);
  return {
    ...(interceptor && { before_llm: interceptor, after_llm: interceptor, before_tool: interceptor, after_tool: interceptor }),
    ...(approval && { approve_tool: approval }),
  };
}

/**
 * PicoClaw's exec.Command rules: command[0] through PATH when it is a bare name, against `dir`
 * when it is a relative path; the arguments as given; `env` over zot's environment.
 */
function processLaunch(name: string, entry: ProcessEntry, dir: string, env: Record<string, string | undefined>): HookLaunch {
  const [program, ...args] = entry.command;
  const merged: Record<string, string | undefined> = { ...childEnv(env), BUN_BE_BUN: undefined, ZOT_EXTENSION_NAME: name, ...entry.env };
  if (!program.includes("/") && !program.includes("\\")) {
    const found = findProgram(program, merged.PATH);
    if (!found) return { error: `"command" starts with "${program}", which is not on PATH; install it, or give its path` };
    return { command: [found, ...args], env: merged };
  }
  const file = path.resolve(dir, program);
  if (!statSafe(file)?.isFile()) return { error: `"command" starts with "${program}", but ${file} does not exist` };
  return { command: [file, ...args], env: merged };
}

/** PicoClaw: a value ≤ 0 keeps the default. */
function positive(value: number | undefined): number | undefined {
  return value !== undefined && value > 0 ? value : undefined;
}

function fieldProblem(issues: v.BaseIssue<unknown>[], prefix: string): string {
  const { path, message } = firstIssue(issues, "", { secrets: "likely" });
  return path ? `"${prefix}${path}": ${message}` : message;
}
