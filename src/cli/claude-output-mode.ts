// `-p --output-format json|stream-json` (modes/claude-output.ts) given what the mode cannot reach
// itself: how Claude Code names this run's tool calls and tools (the settings hooks' mapping,
// settings-hooks/tool-mapping.ts) and the run's permission mode by Claude Code's name.
import type { Conversation, ConversationPrompt } from "../conversation/conversation.ts";
import type { ParsedFlags } from "./parse-flags.ts";

export async function claudeOutputMode(conversation: Conversation, format: "json" | "stream-json", flags: ParsedFlags["values"]) {
  const [{ runClaudeOutputMode }, { claudeToolNames, toClaudeCall }, { claudePermissionMode }] = await Promise.all([
    import("../modes/claude-output.ts"),
    import("../settings-hooks/tool-mapping.ts"),
    import("./permission-flags.ts"),
  ]);
  const builtin = (name: string) => conversation.toolExtension(name) === undefined;
  const options = {
    format,
    claudeCall: (name: string, args: Record<string, unknown>) => toClaudeCall(name, args, conversation.cwd, builtin(name)),
    toolNames: (name: string) => claudeToolNames(name, builtin(name)),
    // A settings file's defaultMode chose it where no flag did.
    permissionMode: conversation.permissionMode ?? claudePermissionMode(flags),
    partial: flags["include-partial-messages"] === true,
  };
  return (c: Conversation, input: ConversationPrompt, signal: AbortSignal) => runClaudeOutputMode(c, input, signal, options);
}
