// Keys of a settings file's permissions that zot does not read: a misspelt `deny` (`Deny`, `denny`)
// or `permissions` (`permisions`), a rule list outside `permissions` (`{"deny": […]}` at the top),
// or deny rules under a key of another tool's making, would turn
// rules off without a word. Rule: every unknown key under `permissions` is named; one that may hold
// deny or ask rules stands for rules that cannot be read, and those fail closed (every call asked).
// What decides is what the key holds: rules written as rules (`Bash(rm *)`, `mcp__server`), or a
// slip of `deny` or `ask` itself. A name alone (`notes`, `blockEverything`) never does, and neither
// does a list of rules under a name that reads as allow: a correct Claude Code file must not stop zot.
import { CLAUDE_NAME_OF_BUILTIN, CLAUDE_TOOLS_ZOT_HAS, CLAUDE_TOOLS_ZOT_LACKS } from "../protocol/claude-tool-names.ts";
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

/** The tools a rule may name, Claude Code's and zot's own, in any case. */
const TOOL_NAMES = new Set([...CLAUDE_TOOLS_ZOT_HAS, ...CLAUDE_TOOLS_ZOT_LACKS, ...Object.keys(CLAUDE_NAME_OF_BUILTIN), "PowerShell"].map((name) => name.toLowerCase()));

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

/** A rule as Claude Code's files write one: a tool's name, with what it applies to in brackets (`Bash(rm *)`, `mcp__github`). */
function isRuleText(text: string): boolean {
  const rule = /^([A-Za-z][\w-]*)(?:\(.*\))?$/s.exec(text.trim());
  return rule !== null && (TOOL_NAMES.has(rule[1]!.toLowerCase()) || rule[1]!.toLowerCase().startsWith("mcp__"));
}

/** A key written as a rule: a tool with what it applies to (`Bash(rm *)`), or an MCP server's; a bare name (`task`, `read`) is too likely a word. */
function isRuleKey(key: string): boolean {
  return isRuleText(key) && (key.includes("(") || key.toLowerCase().startsWith("mcp__"));
}

/** Whether a value, or a key in it, is written as a rule (bounded: a file's shape, not its size). */
function holdsRuleText(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return isRuleText(value);
  if (depth > 4 || typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.slice(0, 200).some((item) => holdsRuleText(item, depth + 1));
  return Object.entries(value)
    .slice(0, 200)
    .some(([key, inner]) => isRuleKey(key) || holdsRuleText(inner, depth + 1));
}

/** Whether a value has a key that reads as deny or ask at any depth (`{"deny": […]}` under an allow-like name). */
function namesDenyOrAsk(value: unknown, depth = 0): boolean {
  if (depth > 4 || typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return Object.entries(value).some(([key, inner]) => {
    const meant = slipOf(key, RULE_KEYS);
    return meant === "deny" || meant === "ask" || namesDenyOrAsk(inner, depth + 1);
  });
}

/** Whether an unknown key (with its value) may be deny or ask rules zot would not read. */
function mayHoldBack(key: string, value: unknown): boolean {
  const meant = slipOf(key, PERMISSION_KEYS);
  // A slip of deny or ask holding a list (`Deny: […]`, `denny: […]`), or deny or ask itself in another case holding anything: its rules, whatever they say.
  if ((meant === "deny" || meant === "ask") && (Array.isArray(value) || (key.toLowerCase() === meant && typeof value === "object" && value !== null))) return true;
  // A rule written as the key (`"Bash(rm *)": false`).
  if (isRuleKey(key)) return true;
  if (!holdsRuleText(value)) return false;
  // Rules under a name that reads as allow (`allowlist`, `allowedTools`) let calls through: off, they hold nothing back, unless they say deny.
  const allowLike = meant === "allow" || /^(?:allow|permit)/i.test(key);
  return !allowLike || namesDenyOrAsk(value);
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
    // A rule list outside `permissions` altogether (`{"deny": ["Bash(rm *)"]}`): as if misspelt.
    const list = slipOf(key, RULE_KEYS);
    if (list !== undefined && holdsRuleText(file[key])) {
      found.push({ at: key, meant: `permissions.${list}`, holdsBack: list !== "allow" });
      continue;
    }
    if (key === "permissions" || slipOf(key, ["permissions"]) === undefined) continue;
    const misspelt = file[key];
    // Its own rule lists (any spelling), or anything in it written as rules, would not hold.
    const holdsBack = isJsonObject(misspelt) && Object.entries(misspelt).some(([inner, value]) => inner === "deny" || inner === "ask" || mayHoldBack(inner, value));
    found.push({ at: key, meant: "permissions", holdsBack });
  }
  return found;
}
