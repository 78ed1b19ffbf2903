// Keys of a settings file's permissions that zot does not read: a misspelt `deny` (`Deny`, `denny`)
// or `permissions` (`permisions`) would turn rules off without a word. Rule: every unknown key
// under `permissions` is named; one that may hold deny or ask rules stands for rules that cannot be
// read, and those fail closed (every call asked). A key that cannot hold rules (a true/false, a
// number) or whose name reads as allow never does: a correct Claude Code file must not stop zot.
import { editDistance } from "../protocol/edit-distance.ts";
import { isJsonObject } from "../protocol/json-object.ts";

/** Claude Code's rule lists under `permissions`. */
const RULE_KEYS = ["allow", "ask", "deny"];
/** Claude Code's other keys under `permissions` (settings zot leaves to it, or reads elsewhere). */
const OTHER_KEYS = [
  "additionalDirectories",
  "defaultMode",
  "disableBypassPermissionsMode",
  "disableAutoMode",
  "blockReadsOutsideWorkingDirectories",
  "blockWritesOutsideWorkingDirectories",
  "denyInsteadOfPrompting",
];
const PERMISSION_KEYS = [...RULE_KEYS, ...OTHER_KEYS];

/** The tools a rule names in Claude Code's files (`Bash(npm test)`, `Read`, `mcp__server__tool`). */
const RULE_TEXT = /^(?:Bash|Read|Write|Edit|MultiEdit|Glob|Grep|LS|WebFetch|WebSearch|NotebookEdit|NotebookRead|Task|TodoWrite|Skill|mcp__[\w-]+)(?:\(.*\))?$/s;

export interface MisspeltKey {
  /** where it is, as the file spells it: `permissions.Deny`, `permisions` */
  at: string;
  /** the key it most likely meant, if any */
  meant?: string;
  /** it may hold deny or ask rules that do not hold as written */
  holdsBack: boolean;
}

/** The word among `known` that `key` is a slip of (case, or a few edits, more for a longer word), if any. */
function slipOf(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const edits = (word: string) => (word.length > 10 ? 3 : word.length > 4 ? 2 : 1);
  return known.find((word) => word.toLowerCase() === lower) ?? known.find((word) => editDistance(lower, word.toLowerCase()) <= edits(word));
}

/** A name that says its rules let calls through (`allowlist`, `allowedTools`), with no negation before it (`neverAllow`). */
function readsAsAllow(key: string, meant: string | undefined): boolean {
  return meant === "allow" || /^(?:allow|permit)/i.test(key);
}

/** A name that says its rules hold calls back (`denied`, `disallowedTools`, `blocklist`, `neverAllow`). */
function readsAsDeny(key: string, meant: string | undefined): boolean {
  return meant === "deny" || meant === "ask" || /deny|denied|disallow|block|forbid|prohibit|never|^not|^dont|^no[A-Z_-]|^ask/i.test(key);
}

/** Whether a value has what a rule is made of: a rule's text (`Bash(rm *)`), or the word deny or ask, as a value or a key (bounded). */
function holdsRuleText(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return RULE_TEXT.test(value.trim()) || /^(?:deny|ask)$/i.test(value.trim());
  if (depth > 4) return false;
  if (Array.isArray(value)) return value.slice(0, 200).some((item) => holdsRuleText(item, depth + 1));
  if (!isJsonObject(value)) return false;
  return Object.entries(value)
    .slice(0, 200)
    .some(([key, inner]) => holdsRuleText(key, depth + 1) || /^(?:deny|ask)$/i.test(key) || holdsRuleText(inner, depth + 1));
}

/** Whether an unknown key's value may be deny or ask rules zot would not read. */
function mayHoldBack(key: string, value: unknown): boolean {
  // true, false, a number or null holds no rule: a setting of Claude Code's zot does not know.
  if (value === null || (typeof value !== "string" && typeof value !== "object")) return false;
  const meant = slipOf(key, PERMISSION_KEYS);
  if (readsAsAllow(key, meant) && !readsAsDeny(key, meant)) return false;
  if (meant !== undefined && OTHER_KEYS.includes(meant) && !holdsRuleText(value)) return false;
  return readsAsDeny(key, meant) || Array.isArray(value) || holdsRuleText(value);
}

/** The keys of `file` (a settings file's JSON) that zot's permission rules do not read, with what each likely meant. */
export function misspeltPermissionKeys(file: Record<string, unknown>): MisspeltKey[] {
  const found: MisspeltKey[] = [];
  const section = file.permissions;
  if (isJsonObject(section)) {
    for (const key of Object.keys(section)) {
      if (PERMISSION_KEYS.includes(key)) continue;
      const meant = slipOf(key, PERMISSION_KEYS);
      found.push({ at: `permissions.${key}`, ...(meant ? { meant } : {}), holdsBack: mayHoldBack(key, section[key]) });
    }
  }
  for (const key of Object.keys(file)) {
    if (key === "permissions" || slipOf(key, ["permissions"]) === undefined) continue;
    const misspelt = file[key];
    // Its own rule lists (any spelling), or anything in it that may be rules, would not hold.
    const holdsBack = isJsonObject(misspelt) && Object.entries(misspelt).some(([inner, value]) => mayHoldBack(inner, value));
    found.push({ at: key, meant: "permissions", holdsBack });
  }
  return found;
}
