// `zot --input-format stream-json --output-format stream-json` (what the Claude Agent SDK runs as
// `claude`): reads the program's `initialize` before the run starts, since it carries what the
// flags do not (a system prompt, hooks, the program's own MCP servers), opens the conversation
// with it, answers it, and serves the rest (modes/claude-stream.ts).
// Rule: a problem with the flags or the start is a usage error as for -p; the `initialize` that
// came is answered with it first, so the SDK's query() rejects with zot's sentence.
import type { Confirmer, Conversation, RuntimeOptions } from "../conversation/conversation.ts";
import type { ClaudeControlChannel } from "../modes/claude-control-channel.ts";
import type { ClaudeInputRead } from "../modes/claude-input.ts";
import type { ClaudeControlRequest } from "../protocol/claude-control.ts";
import type { SessionChoice } from "../session/open.ts";
import type { SettingsHook } from "../settings-hooks/settings-file.ts";
import { UsageError } from "../config/usage-error.ts";
import { HookCallbackResult, InitializeRequest, McpMessageResult } from "../protocol/claude-control.ts";
import { errorText } from "../protocol/error-text.ts";
import type { ParsedFlags } from "./parse-flags.ts";
import { EXIT } from "./router.ts";
import { runtimeOptionsFromFlags, sessionChoiceFromFlags, str } from "./runtime-flags.ts";
import { ownChildProcesses, signalsUntilServing } from "./signals.ts";
import { startupOver } from "./startup-over.ts";
import * as v from "valibot";
import { FLAGS_REMEDY } from "../providers/provider-choice.ts";
import { printable } from "../protocol/printable.ts";
import { fstatSafe } from "../config/quiet-fs.ts";

type Flags = ParsedFlags["values"];

/** The flag checks of the mode, before stdin is read. */
export function checkClaudeStreamFlags(flags: Flags, positionals: string[]): void {
  if (str(flags, "output-format") !== "stream-json") {
    throw new UsageError("--input-format stream-json needs --output-format stream-json, as in Claude Code: the answers are its messages, one per line");
  }
  if (flags.json) throw new UsageError("--input-format stream-json and --json cannot be used together; the output is --output-format stream-json");
  if (positionals.length > 0) {
    throw new UsageError(`--input-format stream-json takes its prompts on stdin as user messages, not "${positionals.join(" ")}" on the command line`);
  }
  const promptTool = str(flags, "permission-prompt-tool");
  if (promptTool !== undefined && promptTool !== "stdio") {
    throw new UsageError(`--permission-prompt-tool ${promptTool}: zot asks the program driving it (stdio, the Claude Agent SDK's canUseTool); an MCP tool cannot answer zot's confirmations`);
  }
  if (str(flags, "provider") === "scripted" && str(flags, "script") === undefined) {
    throw new UsageError("--provider scripted plays turns from --script <file>; without one it is the built-in demo, which a program driving zot (--input-format stream-json) does not get");
  }
  if (flags.resume === true) throw new UsageError("--input-format stream-json cannot ask which session to resume; pass --resume <id>, --continue or --session <id>");
  // `< folder`: a folder is no stream of messages; said now, not as the system's EISDIR later.
  if (fstatSafe(0)?.isDirectory()) throw new UsageError("--input-format stream-json reads its user messages from stdin, and stdin is a directory; pipe them in, or connect the program that sends them");
}

export async function runClaudeStreamCommand(flags: Flags): Promise<number> {
  const { ClaudeStream } = await import("../modes/claude-stream.ts");
  const { pumpClaudeInput, readClaudeInput } = await import("../modes/claude-input.ts");
  const { ClaudeControlChannel } = await import("../modes/claude-control-channel.ts");
  const { NdjsonWriter } = await import("../modes/ndjson-writer.ts");
  const { claudeToolNames, toClaudeCall } = await import("../settings-hooks/tool-mapping.ts");
  const { permissionFlags } = await import("./permission-flags.ts");

  // A note may carry names from a folder or an extension: written as plain text, never as escapes.
  const log = (message: string) => console.error(`zot: ${printable(message)}`);
  // Before the run serves (extensions still loading) a signal exits at once.
  const signals = signalsUntilServing(EXIT.interrupted);
  const writer = new NdjsonWriter(undefined, () => signals.stop());
  // Stops reading stdin when zot is done, whether or not the program closed it.
  const stopInput = new AbortController();
  const channel = new ClaudeControlChannel((line) => writer.write(line), log);
  try {
    for (const note of ownChildProcesses()) log(note);
    const lines = readClaudeInput(Bun.stdin.stream(), stopInput.signal);
    // The program's initialize comes before its first prompt (the SDK writes it first); what comes
    // before it (a keep_alive, a line zot cannot read) waits for the run, and a program that sends
    // a prompt or another request first gets the run the flags describe.
    const early: ClaudeInputRead[] = [];
    let initialize: ClaudeControlRequest | undefined;
    for (;;) {
      const next = await lines.next();
      if (next.done) break;
      const read = next.value;
      if (read.ok && read.line.type === "control_request" && read.line.request.subtype === "initialize") {
        initialize = read.line;
        break;
      }
      early.push(read);
      const settles = !read.ok ? !read.prompt : read.line.type === "keep_alive" || read.line.type === "control_cancel_request" || read.line.type === "control_response";
      if (!settles) break;
    }
    if (!initialize && early.length === 0) return EXIT.ok;
    const answerInitialize = (response: { subtype: "success"; response: Record<string, unknown> } | { subtype: "error"; error: string }) => {
      if (initialize) writer.write({ type: "control_response", response: { ...response, request_id: initialize.request_id } });
    };

    // From here on the program's answers to zot's requests are read as they come: a hosted MCP
    // server answers while the run starts.
    const input = pumpClaudeInput(lines, channel);
    // The initialize is answered once: with the run, or with why it could not start.
    let answered = false;
    let conversation: Conversation;
    try {
      const setup = await readInitialize(initialize?.request, channel);
      const runtimeOptions = runtimeOptionsFromFlags(flags);
      const promptTool = str(flags, "permission-prompt-tool") === "stdio";
      // undefined: the flags choose no permission mode
      const { confirming } = permissionFlags(flags);
      // The program is asked once the conversation (which names the calls) is open.
      let ask: Confirmer | undefined;
      let stream: InstanceType<typeof ClaudeStream> | undefined;
      const { openConversation } = await import("../conversation/conversation.ts");
      conversation = await openConversation(
        {
          ...runtimeOptions,
          // (never the picker: checkClaudeStreamFlags refused -r alone)
          session: sessionChoiceFromFlags(flags) as SessionChoice | undefined,
          log,
          // The SDK's model "default" is the run's own.
          ...(runtimeOptions.model === "default" ? { model: undefined } : {}),
          noDemo: { run: "a program driving zot (--input-format stream-json)", remedy: FLAGS_REMEDY },
          ...(setup.systemPrompt !== undefined ? { systemPrompt: setup.systemPrompt } : {}),
          appendSystemPrompt: [...(runtimeOptions.appendSystemPrompt ?? []), ...setup.appendSystemPrompt],
          mcp: setup.hostedServers(runtimeOptions.mcp ?? { configs: [], strict: false }),
          ...(setup.hooks.length > 0 ? { hostedHooks: setup.hooks } : {}),
          // Claude Code's default permission mode unless the flags choose another: a call no rule
          // allows (reads inside the working directory aside) is put to the program's canUseTool
          // (--permission-prompt-tool stdio), or refused when it gave none, as Claude Code does.
          noYolo: confirming ?? true,
          ...(confirming === undefined ? { confirmingFlag: PROGRAM_DEFAULT_MODE } : {}),
          ...(promptTool ? { confirmer: (request, signal) => (ask ? ask(request, signal) : Promise.resolve({ answer: "no" as const })) } : {}),
        },
        { busy: "queue", log, wording: { turn: "call interrupt() or wait for the prompt's result", operation: "ask again once that has answered" } },
      );
      const builtin = (name: string) => conversation.toolExtension(name) === undefined;
      const claudeCall = (name: string, args: Record<string, unknown>) => toClaudeCall(name, args, conversation.cwd, builtin(name));
      if (promptTool) {
        const { canUseToolConfirmer } = await import("../modes/claude-can-use-tool.ts");
        ask = canUseToolConfirmer(channel, claudeCall, {
          interruptAfter: (callId, reason) => stream?.interruptAfter(callId, reason),
          waiting: (asked) => stream?.asking(asked),
          log,
        });
      }
      for (const note of [...setup.notes, ...conversation.startupNotes]) log(note);
      startupOver();
      const initializeAnswer = () => ({
        commands: conversation.commands.list().map((command) => ({ name: command.name, description: command.description, argumentHint: "" })),
        agents: [],
        output_style: "default",
        available_output_styles: ["default"],
        models: conversation.models.own().map((model) => ({ value: model.id, displayName: model.id, description: `${model.provider}/${model.id}` })),
        account: {},
        ...(setup.hooks.length > 0 ? { hooks_applied: true } : {}),
        ...(setup.mcpServersApplied ? { mcp_servers_applied: true } : {}),
      });
      answerInitialize({ subtype: "success", response: initializeAnswer() });
      answered = true;
      signals.serving();
      try {
        stream = new ClaudeStream(conversation, {
          writer,
          channel,
          claudeCall,
          toolNames: (name) => claudeToolNames(name, builtin(name)),
          partial: flags["include-partial-messages"] === true,
          permissionMode: () => {
            const mode = str(flags, "permission-mode") ?? conversation.permissionMode;
            return conversation.guards.confirming ? (mode ?? "default") : "bypassPermissions";
          },
          initializeAnswer,
          startModel: conversation.model.id,
          interrupt: signals.signal,
          log,
        });
        const end = await stream.serve(input, early);
        return end === "closed" ? EXIT.ok : EXIT.interrupted;
      } finally {
        await conversation.dispose();
      }
    } catch (error) {
      if (!answered) answerInitialize({ subtype: "error", error: errorText(error) });
      throw error;
    }
  } finally {
    channel.close("zot is stopping");
    stopInput.abort();
    await writer.close();
    signals.release();
  }
}

/**
 * What an `initialize` carries for the run: the system prompt, the program's MCP servers (reached
 * with `mcp_message` requests) and its hooks (run with `hook_callback` requests).
 */
async function readInitialize(request: Record<string, unknown> | undefined, channel: ClaudeControlChannel): Promise<RunSetup> {
  const none: RunSetup = { appendSystemPrompt: [], notes: [], hooks: [], mcpServersApplied: false, hostedServers: (mcp: McpFlags) => mcp };
  if (!request) return none;
  const read = v.safeParse(InitializeRequest, request);
  if (!read.success) throw new UsageError(`the program's initialize request is not as Claude Code's protocol says: ${read.issues[0].message}`);
  const init = read.output;
  const parts = typeof init.systemPrompt === "string" ? [init.systemPrompt] : (init.systemPrompt ?? []);
  const systemPrompt = parts.join("\n\n");
  const [{ hostHooks }, { HostTransport }] = await Promise.all([import("../settings-hooks/host-hooks.ts"), import("../mcp/host-transport.ts")]);
  const { hooks, warnings } = hostHooks(
    init.hooks ?? {},
    (id, input, signal) =>
      channel.request({ subtype: "hook_callback", callback_id: id, input, ...(typeof input.tool_use_id === "string" ? { tool_use_id: input.tool_use_id } : {}) }, HookCallbackResult, signal),
    () => channel.gone,
  );
  if (init.agents && Object.keys(init.agents).length > 0) {
    warnings.push(`the program's subagents (${Object.keys(init.agents).join(", ")}) are not run: zot has no subagents`);
  }
  const hosted = init.sdkMcpServers ?? [];
  const listed = init.mcpServers && Object.keys(init.mcpServers).length > 0 ? init.mcpServers : undefined;
  const fromInitialize = listed ? [{ label: "the program's MCP servers (initialize)", file: undefined, servers: listed }] : [];
  return {
    // The SDK sends [""] when its systemPrompt option is not given: zot's own prompt stays.
    ...(systemPrompt.trim() !== "" ? { systemPrompt } : {}),
    appendSystemPrompt: init.appendSystemPrompt ? [init.appendSystemPrompt] : [],
    notes: warnings,
    hooks,
    mcpServersApplied: listed !== undefined,
    hostedServers: (mcp: McpFlags): McpFlags =>
      hosted.length === 0
        ? { ...mcp, configs: [...mcp.configs, ...fromInitialize] }
        : {
            ...mcp,
            configs: [
              ...mcp.configs,
              ...fromInitialize,
              { label: "the program's MCP servers", file: undefined, servers: Object.fromEntries(hosted.map((name) => [name, { type: "sdk", name }])) },
            ],
            host: (name) =>
              hosted.includes(name)
                ? new HostTransport(name, (message) =>
                    channel.request({ subtype: "mcp_message", server_name: name, message }, McpMessageResult).then((answer) => answer.mcp_response),
                  )
                : undefined,
          },
  };
}

type McpFlags = NonNullable<RuntimeOptions["mcp"]>;

/** How the model is told why a call was refused when the program chose no permission mode. */
const PROGRAM_DEFAULT_MODE = "Claude Code's default permission mode, which the program driving zot runs in; it gave no canUseTool to ask";

interface RunSetup {
  /** the program's system prompt, replacing zot's */
  systemPrompt?: string;
  appendSystemPrompt: string[];
  /** what zot cannot use of it, said at the start */
  notes: string[];
  hooks: SettingsHook[];
  /** the initialize named MCP servers (they join the flags') */
  mcpServersApplied: boolean;
  /** the flags' MCP servers with the program's own added */
  hostedServers(mcp: McpFlags): McpFlags;
}
