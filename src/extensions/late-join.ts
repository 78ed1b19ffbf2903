// How long the front ends that start at once (the TUI, rpc) wait for extensions before going on
// without the slow ones, which join when they are up. Rule: a constant of its own, so loading it
// costs nothing on the paths that never start an extension.
/** Long enough for an ordinary extension to say hello and register; short enough to feel immediate. */
export const LATE_JOIN_AFTER_MS = 1000;
