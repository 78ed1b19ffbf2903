// What Claude Code's permission modes mean for a run, whoever names one: `--permission-mode` on the
// command line, or a settings file's `permissions.defaultMode`. Rule: one meaning per word;
// what differs between the two is only where the word came from (the rule's source, the notes).
// Text and plain objects only: it loads on every start (cli/permission-flags.ts).

/** An allow rule a mode brings, as written (permission-rules/rule.ts WrittenRule's shape). */
export interface ModeRule {
  verdict: "allow";
  text: string;
  source: string;
}

/** Claude Code's permission modes zot has. */
export const PERMISSION_MODES = ["default", "acceptEdits", "dontAsk", "bypassPermissions"] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export function isPermissionMode(word: string): word is PermissionMode {
  return (PERMISSION_MODES as readonly string[]).includes(word);
}

/**
 * A mode's meaning: whether calls are confirmed (asked in the TUI, refused where nobody can answer),
 * whether nobody is asked (dontAsk: what no rule allows is refused), and the allow rules it brings
 * (acceptEdits: changes to files in the working directory), written as from `source`.
 */
export function permissionModeMeaning(mode: PermissionMode, source: string): { confirming: boolean; askNobody: boolean; rules: ModeRule[] } {
  return {
    confirming: mode !== "bypassPermissions",
    askNobody: mode === "dontAsk",
    rules: mode === "acceptEdits" ? [{ verdict: "allow", text: "Edit(./**)", source }] : [],
  };
}
