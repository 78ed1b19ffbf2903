// The names zot's own participants of the interception chain go by in `intercept` events (and
// zot's own notes by "zot"). Rule: no extension or hook process may take one of them, so an
// event's participant always says truly who acted: a "confirm" deny is the person's no.
export const OWN_PARTICIPANTS = {
  confirm: "confirm",
  deferredTools: "deferred-tools",
  nestedMemory: "nested-memory",
  permissionRules: "permission-rules",
  settingsHooks: "settings-hooks",
  /** the author of zot's own notes and command results */
  zot: "zot",
} as const;

/** Whether an extension or hook name is one of zot's own (in any case). */
export function isOwnParticipantName(name: string): boolean {
  const lower = name.toLowerCase();
  return Object.values(OWN_PARTICIPANTS).some((own) => own === lower);
}
