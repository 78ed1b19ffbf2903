// Claude Code's streaming input (`--input-format stream-json`), the protocol the Claude Agent SDK
// drives it with: user messages and control frames on stdin, control frames beside the messages of
// protocol/claude-output.ts on stdout. A control request asks the other side for something
// (`initialize`, `interrupt`, `set_model` from the program; `can_use_tool`, `hook_callback`,
// `mcp_message` from zot), and a control response with its request_id answers it.
// Rule: Claude Code's field names and spellings; a line zot cannot read is said on stderr, and a
// request it cannot serve gets an error response naming what it can, never silence.
import * as v from "valibot";

const JsonObject = v.record(v.string(), v.unknown());

const TextBlock = v.looseObject({ type: v.literal("text"), text: v.string() });
const ImageBlock = v.looseObject({
  type: v.literal("image"),
  source: v.looseObject({ type: v.literal("base64"), media_type: v.string(), data: v.string() }),
});
/** A block of a user message; zot takes text and base64 images, and says so about the rest. */
const InputBlock = v.union([TextBlock, ImageBlock, v.looseObject({ type: v.string() })]);

/** A prompt: `{"type":"user","message":{"role":"user","content":"…" | [blocks]}}`. */
export const ClaudeUserInput = v.looseObject({
  type: v.literal("user"),
  message: v.looseObject({ role: v.literal("user"), content: v.union([v.string(), v.array(InputBlock)]) }),
  parent_tool_use_id: v.optional(v.nullable(v.string())),
  session_id: v.optional(v.string()),
});
export type ClaudeUserInput = v.InferOutput<typeof ClaudeUserInput>;

/** A request, either way: what is asked is `request.subtype`, its fields beside it. */
export const ClaudeControlRequest = v.object({
  type: v.literal("control_request"),
  request_id: v.string(),
  request: v.looseObject({ subtype: v.string() }),
});
export type ClaudeControlRequest = v.InferOutput<typeof ClaudeControlRequest>;

/** The answer to a request, either way. */
export const ClaudeControlResponse = v.object({
  type: v.literal("control_response"),
  response: v.variant("subtype", [
    v.looseObject({ subtype: v.literal("success"), request_id: v.string(), response: v.optional(v.unknown()) }),
    v.looseObject({ subtype: v.literal("error"), request_id: v.string(), error: v.string() }),
  ]),
});
export type ClaudeControlResponse = v.InferOutput<typeof ClaudeControlResponse>;

/** The asker gave up on a request (its signal aborted): no answer is wanted any more. */
export const ClaudeControlCancel = v.object({ type: v.literal("control_cancel_request"), request_id: v.string() });

/** Every line the program may send. */
export const ClaudeInputLine = v.variant("type", [
  ClaudeUserInput,
  ClaudeControlRequest,
  ClaudeControlResponse,
  ClaudeControlCancel,
  v.looseObject({ type: v.literal("keep_alive") }),
]);
export type ClaudeInputLine = v.InferOutput<typeof ClaudeInputLine>;

// ── What the program's requests carry ──

/** A hook the program registered: its matcher and the callbacks zot asks it to run (`hook_callback`). */
const HookMatcher = v.looseObject({
  matcher: v.optional(v.nullable(v.string())),
  hookCallbackIds: v.array(v.string()),
  /** seconds */
  timeout: v.optional(v.number()),
});

/** `initialize`: what the SDK's options say beyond the flags. */
export const InitializeRequest = v.looseObject({
  subtype: v.literal("initialize"),
  hooks: v.optional(v.nullable(v.record(v.string(), v.array(HookMatcher)))),
  /** servers that live in the program (`createSdkMcpServer`), reached with `mcp_message` */
  sdkMcpServers: v.optional(v.array(v.string())),
  /** other servers, shaped as .mcp.json's `mcpServers` (the SDK's `mcpServersDelivery: "initialize"`) */
  mcpServers: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
  /** subagents: zot has none, and says so */
  agents: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
  /** replaces the system prompt; the SDK sends [""] when its option is not given */
  systemPrompt: v.optional(v.union([v.string(), v.array(v.string())])),
  appendSystemPrompt: v.optional(v.string()),
});
export type InitializeRequest = v.InferOutput<typeof InitializeRequest>;

export const SetModelRequest = v.looseObject({ subtype: v.literal("set_model"), model: v.optional(v.nullable(v.string())) });
export const SetPermissionModeRequest = v.looseObject({ subtype: v.literal("set_permission_mode"), mode: v.string() });
export const McpReconnectRequest = v.looseObject({ subtype: v.literal("mcp_reconnect"), serverName: v.string() });

// ── What the program answers zot's requests with ──

/** `can_use_tool`'s answer (the SDK's canUseTool). */
export const PermissionResult = v.variant("behavior", [
  v.looseObject({ behavior: v.literal("allow"), updatedInput: v.optional(JsonObject) }),
  v.looseObject({ behavior: v.literal("deny"), message: v.optional(v.string(), ""), interrupt: v.optional(v.boolean()) }),
]);

/** `mcp_message`'s answer: the server's JSON-RPC reply. */
export const McpMessageResult = v.looseObject({ mcp_response: JsonObject });

/** `hook_callback`'s answer is a hook's output, as a command hook prints it on stdout. */
export const HookCallbackResult = JsonObject;
