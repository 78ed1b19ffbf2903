// The names zot itself owns: slash commands and tools an extension cannot take (the manager
// shadows them, `zot ext new` refuses them, `zot ext check` reports them). Rule: one list, light
// enough for the command line to import without the extension machinery; commands compare
// case-insensitively (an extension's /Help is /help).
/** Slash commands zot itself owns; an extension cannot take these names. */
export const BUILTIN_COMMANDS: ReadonlySet<string> = new Set([
  "help", "model", "clear", "compact", "sessions", "session", "jump", "btw", "reload-ext",
  "skills", "mcp", "jail", "unjail", "yolo", "exit", "quit", "login", "logout",
]);
/** Tool names zot itself owns. */
export const BUILTIN_TOOL_NAMES: ReadonlySet<string> = new Set(["read", "write", "edit", "bash", "skill", "tool_search"]);

/** Whether an extension's command of this name would never run, a built-in command having it. */
export function isBuiltinCommand(name: string): boolean {
  return BUILTIN_COMMANDS.has(name.toLowerCase());
}
