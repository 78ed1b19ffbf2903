// Claude Code's permission flags, as `claude -p` scripts pass them: `--allowedTools`,
// `--disallowedTools` (both also spelled with dashes), `--permission-mode` and
// `--dangerously-skip-permissions`, read into what the runtime does with them: permission rules of
// the run (src/permission-rules, beside the settings files'), and whether calls are confirmed.
// Rule: what Claude Code would let through unasked, zot does; what Claude Code would ask about is
// asked (the TUI) or refused (no terminal). So `--allowedTools` turns confirmations on (zot asks
// nothing by default, and the flag means "these run without a question": the rest are asked), and
// a mode zot has no counterpart of is a usage error that says what to use instead.
// This file loads on every start: it holds text and regular expressions only.
import { UsageError } from "../config/usage-error.ts";
import { CLAUDE_TOOLS_ZOT_HAS, CLAUDE_TOOLS_ZOT_LACKS } from "../protocol/claude-tool-names.ts";
import { splitRuleList } from "../protocol/rule-list.ts";
import type { RuntimeOptions } from "../runtime/runtime.ts";
import { isPermissionMode, PERMISSION_MODES, permissionModeMeaning } from "../protocol/permission-mode.ts";

type WrittenRule = NonNullable<RuntimeOptions["permissionRules"]>[number];

/** What the permission flags ask of the run. */
export interface PermissionFlags {
  /** the rules of the run */
  rules: WrittenRule[];
  /** whether tool calls are confirmed (the same as --no-yolo); undefined: the flags say nothing */
  confirming?: boolean;
  /** the flag that turned confirmations on, when --no-yolo did not */
  confirmingFlag?: string;
  /** `--permission-mode dontAsk`: nobody is asked; what no rule allows is refused, in the TUI too */
  askNobody: boolean;
  /** `--permission-mode` as given (Claude Code's name, which its hooks read as permission_mode) */
  mode?: string;
  /** the flag that asked for calls to run unasked, as written */
  bypassFlag?: string;
}

/** Claude Code's tools and zot's, as a rule starts: what may follow a list flag as more of its rules. */
const RULE_START = new RegExp(`^(?:${[...CLAUDE_TOOLS_ZOT_HAS, ...CLAUDE_TOOLS_ZOT_LACKS, "bash", "read", "edit", "write", "skill"].join("|")}|mcp__[\\w.-]+)(?:\\(.*\\))?$`, "s");

/**
 * Whether an argument after `--allowedTools X` is more of the list, as Claude Code reads
 * `--allowedTools "Bash(git diff *)" "Bash(git log *)" Read`: every rule in it starts with a tool's
 * name. A prompt ("fix the tests") is not, and ends the list.
 */
export function continuesRuleList(arg: string): boolean {
  const rules = splitRuleList(arg);
  return rules.length > 0 && rules.every((rule) => RULE_START.test(rule));
}

type Flags = Record<string, string | boolean | string[] | undefined>;

/** The permission flags read and checked against each other and --no-yolo; a conflict is a UsageError. */
export function permissionFlags(flags: Flags): PermissionFlags {
  const list = (...names: string[]) => names.flatMap((name) => (flags[name] as string[] | undefined) ?? []).flatMap(splitRuleList);
  const allowed = list("allowedTools", "allowed-tools");
  // Given at all (an empty "$LIST" too), --allowedTools means: what it does not name is asked about.
  const allowing = flags.allowedTools !== undefined || flags["allowed-tools"] !== undefined;
  const disallowed = list("disallowedTools", "disallowed-tools");
  const mode = typeof flags["permission-mode"] === "string" ? flags["permission-mode"] : undefined;
  const skip = flags["dangerously-skip-permissions"] === true;
  const noYolo = flags["no-yolo"] === true;

  if (mode === "plan") {
    throw new UsageError("--permission-mode plan: zot has no plan mode; --tools read gives the model only the read tool, and --no-yolo asks before every other call");
  }
  if (mode === "auto") {
    throw new UsageError("--permission-mode auto: zot has no classifier to decide calls; use default (ask before each call), acceptEdits, dontAsk or bypassPermissions");
  }
  if (mode !== undefined && !isPermissionMode(mode)) {
    throw new UsageError(`--permission-mode must be one of ${PERMISSION_MODES.join(", ")} (got "${mode}")`);
  }
  if (skip && mode !== undefined && mode !== "bypassPermissions") {
    throw new UsageError(`--dangerously-skip-permissions and --permission-mode ${mode} cannot be used together; pick one`);
  }
  const bypass = skip || mode === "bypassPermissions";
  if (bypass && noYolo) {
    const flag = skip ? "--dangerously-skip-permissions" : "--permission-mode bypassPermissions";
    throw new UsageError(`--no-yolo and ${flag} cannot be used together: one asks before tool calls, the other never does`);
  }

  const meaning = mode !== undefined && isPermissionMode(mode) ? permissionModeMeaning(mode, `--permission-mode ${mode}`) : undefined;
  const rules: WrittenRule[] = [
    ...disallowed.map((text) => ({ verdict: "deny" as const, text, source: "--disallowedTools" })),
    ...allowed.map((text) => ({ verdict: "allow" as const, text, source: "--allowedTools" })),
    // Claude Code's acceptEdits: changes to files in the working directory go through unasked.
    ...(meaning?.rules ?? []),
  ];
  const confirming = bypass ? false : meaning?.confirming || allowing || noYolo ? true : undefined;
  const confirmingFlag = confirming && !noYolo ? (mode !== undefined ? `--permission-mode ${mode}` : "--allowedTools") : undefined;
  return {
    rules,
    ...(confirming === undefined ? {} : { confirming }),
    ...(confirmingFlag ? { confirmingFlag } : {}),
    askNobody: meaning?.askNobody ?? false,
    ...(mode !== undefined ? { mode } : {}),
    ...(bypass ? { bypassFlag: skip ? "--dangerously-skip-permissions" : "--permission-mode bypassPermissions" } : {}),
  };
}

/** How Claude Code would name the run's permission mode (stream-json's init line): zot asks nothing unless told to. */
export function claudePermissionMode(flags: Flags): string {
  const mode = flags["permission-mode"];
  if (typeof mode === "string") return mode;
  if (flags["dangerously-skip-permissions"] === true) return "bypassPermissions";
  const asked = flags["no-yolo"] === true || permissionFlags(flags).confirming === true;
  return asked ? "default" : "bypassPermissions";
}
