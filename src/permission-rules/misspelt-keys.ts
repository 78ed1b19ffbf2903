// Keys of a settings file's permissions that zot does not read: a misspelt `deny` (`Deny`, `denny`)
// or `permissions` (`permisions`) would turn rules off without a word. Rule: every unknown key
// under `permissions` is named; one that reads as `deny` or `ask`, one holding a list that does not
// read as `allow` (`denied`, `disallow`), or a misspelt `permissions` holding either, stands for
// rules that cannot be read, and those fail closed (every call asked).
import { editDistance } from "../protocol/edit-distance.ts";
import { isJsonObject } from "../protocol/json-object.ts";

/** Claude Code's keys under `permissions`. */
const PERMISSION_KEYS = ["allow", "ask", "deny", "additionalDirectories", "defaultMode", "disableBypassPermissionsMode"];

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

/** A key that names rules that hold calls back (`denied`, `disallowedTools`, `blocklist`, `asks`). */
function holdsCallsBack(key: string, meant: string | undefined): boolean {
  if (meant === "deny" || meant === "ask") return true;
  return /deny|denied|disallow|block|forbid|prohibit|ask/i.test(key);
}

/** A key that names rules that let calls through (`allowlist`, `allowedTools`), never read as holding back. */
function letsCallsThrough(key: string, meant: string | undefined): boolean {
  return meant === "allow" || (/allow|permit/i.test(key) && !/disallow/i.test(key));
}

/** The keys of `file` (a settings file's JSON) that zot's permission rules do not read, with what each likely meant. */
export function misspeltPermissionKeys(file: Record<string, unknown>): MisspeltKey[] {
  const found: MisspeltKey[] = [];
  const inside = (section: unknown, at: string) => {
    if (!isJsonObject(section)) return;
    for (const key of Object.keys(section)) {
      if (PERMISSION_KEYS.includes(key)) continue;
      const meant = slipOf(key, PERMISSION_KEYS);
      // A name that says it holds calls back (any value), or a list of rules under a name that reads
      // as nothing zot knows, may be deny rules: held back, unless the name reads as allow.
      const holdsBack = holdsCallsBack(key, meant) || (Array.isArray(section[key]) && meant === undefined);
      found.push({ at: `${at}.${key}`, ...(meant ? { meant } : {}), holdsBack: holdsBack && !letsCallsThrough(key, meant) });
    }
  };
  inside(file.permissions, "permissions");
  for (const key of Object.keys(file)) {
    if (key === "permissions" || slipOf(key, ["permissions"]) === undefined) continue;
    const section = file[key];
    // Its own deny or ask (any spelling) would not hold.
    const holdsBack = isJsonObject(section) && Object.keys(section).some((inner) => {
      const meant = PERMISSION_KEYS.includes(inner) ? inner : slipOf(inner, PERMISSION_KEYS);
      return holdsCallsBack(inner, meant) && !letsCallsThrough(inner, meant);
    });
    found.push({ at: key, meant: "permissions", holdsBack });
  }
  return found;
}
