// The `zot rpc` wire protocol (NDJSON on the process's stdin/stdout): the commands a client
// sends, the responses zot answers with, and the data of each. Events are the agent event union
// (events.ts), sent without an id. Rule: this file is the contract; the server, the TypeScript
// client and `zot rpc --schema` all read these schemas, and nothing else defines a frame.
import * as v from "valibot";
import { REASONING_WORDS } from "./reasoning-words.ts";
import { CommandAction, FrameId } from "./ext-frames.ts";
import { ImageInput } from "./image-input.ts";
import { WireMessage } from "./messages.ts";
import { ProviderName, ReasoningLevel } from "./models.ts";
import { Usage } from "./usage.ts";

/** The major version of this protocol; the set of commands and events only grows within it. */
export const RPC_PROTOCOL_VERSION = 1;

/** A line longer than this is answered with an error and skipped, never buffered. */
export const RPC_MAX_LINE_BYTES = 16 * 1024 * 1024;

/** A client's correlation id, echoed back in the form it came (string or number). */
export const RpcId = FrameId;
export type RpcId = v.InferOutput<typeof RpcId>;

const id = v.optional(RpcId);

// Shared with the SDK's prompt({images}): one check for both ways in.
export { ImageInput } from "./image-input.ts";
export { PROMPT_IMAGE_TYPES } from "./image-signature.ts";

// ── commands (client → zot) ─────────────────────────────────────────────────────────────────

export const HelloCommand = v.object({
  id,
  type: v.literal("hello"),
  token: v.optional(v.string()),
  /** additive: the client answers confirm_request events with confirm (as the TUI's dialog would) */
  confirm: v.optional(v.boolean()),
});
export const PromptCommand = v.object({
  id,
  type: v.literal("prompt"),
  message: v.optional(v.string(), ""),
  images: v.optional(v.array(ImageInput)),
});
export const AbortCommand = v.object({ id, type: v.literal("abort") });
export const CompactCommand = v.object({
  id,
  type: v.literal("compact"),
  /** extra guidance for the summary ("keep the API design decisions") */
  instructions: v.optional(v.string()),
});
export const GetStateCommand = v.object({ id, type: v.literal("get_state") });
export const GetMessagesCommand = v.object({ id, type: v.literal("get_messages") });
export const ClearCommand = v.object({ id, type: v.literal("clear") });
export const SetModelCommand = v.object({ id, type: v.literal("set_model"), model: v.pipe(v.string(), v.minLength(1)) });
export const GetModelsCommand = v.object({ id, type: v.literal("get_models") });
export const PingCommand = v.object({ id, type: v.literal("ping") });
/**
 * The reasoning levels the original's clients send: `off` sends none, `minimum` (`minimal`) is low,
 * `maximum` is max, the others are zot's own levels (docs/rpc.md, set_reasoning; reasoning-words.ts).
 */
export const RpcReasoning = v.picklist(REASONING_WORDS);
export type RpcReasoning = v.InferOutput<typeof RpcReasoning>;
// Additive, as in the newer original: the reasoning effort of later prompts (needs an idle agent).
export const SetReasoningCommand = v.object({ id, type: v.literal("set_reasoning"), reasoning: RpcReasoning });
// Additive (not in the original protocol):
export const GetCommandsCommand = v.object({ id, type: v.literal("get_commands") });
export const RunCommandCommand = v.object({
  id,
  type: v.literal("run_command"),
  /** the command's name, with or without the slash */
  name: v.pipe(v.string(), v.minLength(1)),
  args: v.optional(v.string(), ""),
});
export const ReloadExtensionsCommand = v.object({ id, type: v.literal("reload_extensions") });
// Additive (not in the original protocol): the client's answer to a confirm_request.
export const ConfirmCommand = v.object({
  id,
  type: v.literal("confirm"),
  request_id: v.pipe(v.string(), v.minLength(1, "give the request_id of the confirm_request")),
  /** yes: this call; yes_tool: this call and every later call of its tool; yes_all: every call (confirmations off); no: not this call */
  answer: v.picklist(["yes", "yes_tool", "yes_all", "no"], "must be yes, yes_tool, yes_all or no"),
  /** with no: what the model is told instead ("the user declined: <reason>") */
  reason: v.optional(v.string()),
});
// Additive (not in the original protocol): the MCP servers, and starting them again.
export const GetMcpServersCommand = v.object({ id, type: v.literal("get_mcp_servers") });
export const McpReconnectCommand = v.object({
  id,
  type: v.literal("mcp_reconnect"),
  /** the server to start again (even while it is up); default: every one that is not up */
  server: v.optional(v.pipe(v.string(), v.minLength(1, "give a server's name (get_mcp_servers lists them), or leave server out"))),
});
// Additive (not in the original protocol): sessions. `id` is the frame's correlation id, so a
// session is named by `session`: an id (or any unique start of one) or a path to a session file.
const sessionRef = v.pipe(v.string(), v.minLength(1, "give a session id (list_sessions lists them) or a path"));
const filePath = v.pipe(v.string(), v.minLength(1, "give a file path"));
export const ListSessionsCommand = v.object({ id, type: v.literal("list_sessions") });
export const SessionTreeCommand = v.object({ id, type: v.literal("session_tree") });
export const ForkSessionCommand = v.object({
  id,
  type: v.literal("fork_session"),
  /** default: this process's session */
  session: v.optional(sessionRef),
  /** the user turn the fork ends after (1 = the first prompt and its answer); default: the last */
  at: v.optional(v.pipe(v.number(), v.integer("at must be a whole number"), v.minValue(1, "at must be a user turn, 1 or more"))),
});
export const ExportSessionCommand = v.object({
  id,
  type: v.literal("export_session"),
  /** default: this process's session */
  session: v.optional(sessionRef),
  /** a file (".zotsession" added when missing) or an existing directory; relative to the process's cwd */
  path: filePath,
  /** overwrite an existing file */
  force: v.optional(v.boolean()),
});
export const ImportSessionCommand = v.object({ id, type: v.literal("import_session"), path: filePath });
export const ResumeSessionCommand = v.object({ id, type: v.literal("resume_session"), session: sessionRef });

export const RpcCommand = v.variant("type", [
  HelloCommand,
  PromptCommand,
  AbortCommand,
  CompactCommand,
  GetStateCommand,
  GetMessagesCommand,
  ClearCommand,
  SetModelCommand,
  GetModelsCommand,
  PingCommand,
  SetReasoningCommand,
  GetCommandsCommand,
  RunCommandCommand,
  ReloadExtensionsCommand,
  ConfirmCommand,
  GetMcpServersCommand,
  McpReconnectCommand,
  ListSessionsCommand,
  SessionTreeCommand,
  ForkSessionCommand,
  ExportSessionCommand,
  ImportSessionCommand,
  ResumeSessionCommand,
]);
export type RpcCommand = v.InferOutput<typeof RpcCommand>;
export type RpcCommandType = RpcCommand["type"];
export type RpcCommandOf<T extends RpcCommandType> = Extract<RpcCommand, { type: T }>;
export const RPC_COMMAND_TYPES = RpcCommand.options.map((o) => o.entries.type.literal) as RpcCommandType[];

// ── response data, per command ──────────────────────────────────────────────────────────────

export const HelloData = v.object({
  protocol_version: v.number(),
  version: v.string(),
  provider: ProviderName,
  model: v.string(),
  /** additive: confirm_request events come to this client (it asked with "confirm": true) */
  confirm: v.optional(v.boolean()),
});
/** prompt, compact and a run_command that starts a turn: sent when the work starts (a queued one waits). */
export const StartedData = v.object({ started: v.literal(true) });
export const ContextUse = v.object({
  /** tokens in the context as of the last model call (input + cache read + cache write + output) */
  tokens: v.number(),
  window: v.number(),
  /** tokens / window, 0..1 (can exceed 1 before an overflow) */
  fraction: v.number(),
});
/** The session this process records into (`zot rpc --session …`, `--continue`, resume_session). */
export const CurrentSession = v.object({
  id: v.string(),
  /** the session file (created with its first record) */
  file: v.string(),
  /** it was opened from an existing file rather than started new */
  resumed: v.boolean(),
});
export const StateData = v.object({
  provider: ProviderName,
  model: v.string(),
  cwd: v.string(),
  message_count: v.number(),
  /** a prompt or compact is running */
  busy: v.boolean(),
  /** prompts and compacts waiting their turn */
  queued: v.number(),
  /** cumulative for this process */
  usage: Usage,
  context: ContextUse,
  /** additive: the session being recorded; null when none (the default for rpc) */
  session: v.nullable(CurrentSession),
});
export const MessagesData = v.object({ messages: v.array(WireMessage) });
export const SetModelData = v.object({
  model: v.string(),
  /** said when the id is in no catalog: it is sent as asked, with default limits (as --model says) */
  note: v.optional(v.string()),
});
export const ModelEntry = v.object({
  id: v.string(),
  provider: ProviderName,
  context_window: v.number(),
  max_output: v.number(),
  reasoning: v.boolean(),
});
export const ModelsData = v.object({ models: v.array(ModelEntry) });
export const PongData = v.object({ pong: v.literal(true) });
export const SetReasoningData = v.object({
  /** the level asked for */
  reasoning: RpcReasoning,
  /** what later prompts send to models that reason: nothing (off), or this effort */
  applied: v.picklist(["off", ...ReasoningLevel.options]),
});
export const CommandEntry = v.object({
  name: v.string(),
  description: v.string(),
  source: v.picklist(["builtin", "extension"]),
  /** the extension that provides it */
  extension: v.optional(v.string()),
});
export const CommandsData = v.object({ commands: v.array(CommandEntry) });
/**
 * run_command's answer. `prompt` (an extension command answered with a prompt) also starts a
 * turn: its events follow and end with done, as for a prompt command.
 */
export const RunCommandData = v.object({
  command: v.string(),
  action: v.union([CommandAction, v.picklist(["started"])]),
  /** displayed or inserted text, or the prompt that was started */
  text: v.optional(v.string()),
  extension: v.optional(v.string()),
});
export const ReloadData = v.object({
  stopped: v.number(),
  loaded: v.number(),
  ready: v.number(),
  warnings: v.array(v.string()),
});

/** One MCP server of the run, as get_mcp_servers and mcp_reconnect give it. */
export const McpServerEntry = v.object({
  name: v.string(),
  /** where it is configured (".mcp.json", "~/.claude.json", "--mcp-config") */
  source: v.string(),
  state: v.picklist(["starting", "connected", "failed", "stopped"]),
  /** why it failed, or why it is being started again */
  error: v.optional(v.string()),
  /** sdk: a server inside the program running zot (the Claude Agent SDK's) */
  transport: v.picklist(["stdio", "http", "sse", "sdk"]),
  pid: v.optional(v.number()),
  /** its tools, as the model calls them (mcp__<server>__<tool>) */
  tools: v.array(v.string()),
  /** its prompts, as slash commands */
  prompts: v.array(v.string()),
  /** how many resources it offers to read (ListMcpResourcesTool, `@server:uri`); absent: it has none */
  resources: v.optional(v.number()),
  /** its log file */
  log: v.string(),
});
export const McpServersData = v.object({
  servers: v.array(McpServerEntry),
  /** the tools are deferred behind tool_search */
  deferring: v.boolean(),
});

/** One session of the working directory, as list_sessions and session_tree give it. */
export const SessionListEntry = v.object({
  id: v.string(),
  file: v.string(),
  /** RFC 3339 */
  created: v.string(),
  /** the last write, RFC 3339 */
  updated: v.string(),
  /** the model and provider it ended on */
  model: v.string(),
  provider: v.string(),
  /** messages a resume loads */
  messages: v.number(),
  cost_usd: v.number(),
  /** the first user prompt, on one line ("" when none yet) */
  first_prompt: v.string(),
  /** a fork's parent session and the user turn it was forked after */
  parent: v.optional(v.string()),
  fork_point: v.optional(v.number()),
  /** pid of the live zot recording it (this process's own pid for the current one) */
  locked_by: v.optional(v.number()),
  /** it is this process's session */
  current: v.boolean(),
});
export const SessionsData = v.object({
  /** newest first */
  sessions: v.array(SessionListEntry),
  /** files in the sessions directory that could not be read, one sentence each */
  problems: v.array(v.string()),
});
export type SessionTreeNode = v.InferOutput<typeof SessionListEntry> & { children: SessionTreeNode[] };
export const SessionTreeNode: v.GenericSchema<SessionTreeNode> = v.object({
  ...SessionListEntry.entries,
  /** the forks made from it, oldest first */
  children: v.array(v.lazy(() => SessionTreeNode)),
});
export const SessionTreeData = v.object({
  /** sessions that are no fork of another here, newest first, each with its forks below it */
  roots: v.array(SessionTreeNode),
  problems: v.array(v.string()),
});
export const ForkSessionData = v.object({
  /** the new session */
  id: v.string(),
  file: v.string(),
  parent: v.string(),
  /** the user turn it ends after, of `turns` (0 of 0: the session has no numbered turn, and the fork holds all of it) */
  at: v.number(),
  turns: v.number(),
  messages: v.number(),
  /** the fork became this process's session (it records one) */
  switched: v.boolean(),
  /** when switched: what the user should know (a model this provider lacks, …) */
  notes: v.array(v.string()),
});
export const ExportSessionData = v.object({
  /** the .zotsession file written */
  file: v.string(),
  problems: v.array(v.string()),
});
export const ImportSessionData = v.object({
  /** the imported session's fresh id */
  id: v.string(),
  file: v.string(),
  problems: v.array(v.string()),
});
export const ResumeSessionData = v.object({
  session: CurrentSession,
  /** the model the process goes on with (the session's, when this provider has it) */
  provider: ProviderName,
  model: v.string(),
  message_count: v.number(),
  /** the session's cumulative usage, now this process's */
  usage: Usage,
  /** what the user should know: a damaged tail dropped, a model this provider lacks, … */
  notes: v.array(v.string()),
});

/** What `data` holds in a successful response to each command (absent when undefined). */
export const RPC_RESPONSE_DATA = {
  hello: HelloData,
  prompt: StartedData,
  abort: undefined,
  compact: StartedData,
  get_state: StateData,
  get_messages: MessagesData,
  clear: undefined,
  set_model: SetModelData,
  get_models: ModelsData,
  ping: PongData,
  set_reasoning: SetReasoningData,
  get_commands: CommandsData,
  run_command: RunCommandData,
  reload_extensions: ReloadData,
  confirm: undefined,
  get_mcp_servers: McpServersData,
  mcp_reconnect: McpServersData,
  list_sessions: SessionsData,
  session_tree: SessionTreeData,
  fork_session: ForkSessionData,
  export_session: ExportSessionData,
  import_session: ImportSessionData,
  resume_session: ResumeSessionData,
} as const satisfies Record<RpcCommandType, v.GenericSchema | undefined>;

export type RpcDataOf<T extends RpcCommandType> = (typeof RPC_RESPONSE_DATA)[T] extends v.GenericSchema
  ? v.InferOutput<(typeof RPC_RESPONSE_DATA)[T]>
  : undefined;

// ── responses (zot → client) ────────────────────────────────────────────────────────────────

export const RpcSuccess = v.object({
  type: v.literal("response"),
  id,
  /** the command's type, as sent */
  command: v.string(),
  success: v.literal(true),
  data: v.optional(v.unknown()),
});
/**
 * A command that failed, or a line that could not be read: `command` is "parse" for a line that
 * is not JSON (or too long), and the sent type (or "" when it had none) otherwise.
 */
export const RpcFailure = v.object({
  type: v.literal("response"),
  id,
  command: v.string(),
  success: v.literal(false),
  error: v.string(),
});
export const RpcResponse = v.union([RpcSuccess, RpcFailure]);
export type RpcSuccess = v.InferOutput<typeof RpcSuccess>;
export type RpcFailure = v.InferOutput<typeof RpcFailure>;
export type RpcResponse = v.InferOutput<typeof RpcResponse>;
