// zot's built-in tools as a Claude Code hook knows them, both ways: `bash` is `Bash` (timeout in
// milliseconds there, seconds here), `read`/`write` are `Read`/`Write` with `file_path`
// (absolute) for `path`, `edit` is `Edit` (one edit: old_string/new_string/replace_all) or
// `MultiEdit` (several), `skill` is `Skill`. Every other tool (an extension's, an MCP server's
// `mcp__…`) keeps its name and arguments.
// Rule: a rewrite comes back field by field: a field the hooks left as it was keeps zot's own
// value (a relative path stays relative), so a hook that changes nothing changes nothing.
import type { ToolArgs } from "../core/intercept.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import type { ToolResult } from "../protocol/tool.ts";
import { resolveToolPath } from "../tools/args.ts";

/** A tool call as Claude Code's hooks see it. */
export interface ClaudeCall {
  tool_name: string;
  tool_input: Record<string, unknown>;
}

/** One argument that maps: zot's name, Claude Code's, and how the value changes on the way. */
interface FieldMap {
  zot: string;
  claude: string;
  /** zot's other spellings of the argument, which a rewrite replaces */
  aliases?: string[];
  toClaude?: (value: unknown, cwd: string) => unknown;
  fromClaude?: (value: unknown) => unknown;
}

const absolute = (value: unknown, cwd: string) => (typeof value === "string" && value !== "" ? resolveToolPath(cwd, value) : value);
const seconds = (value: unknown) => (typeof value === "number" ? value / 1000 : value);
const milliseconds = (value: unknown) => (typeof value === "number" ? Math.round(value * 1000) : value);

const PATH: FieldMap = { zot: "path", claude: "file_path", aliases: ["file_path"], toClaude: absolute };

/** The built-ins whose arguments map field by field (edit is mapped on its own). */
const SIMPLE: Record<string, { claude: string; fields: FieldMap[]; claudeOnly?: string[] }> = {
  bash: {
    claude: "Bash",
    fields: [
      { zot: "command", claude: "command", aliases: ["cmd"] },
      { zot: "timeout", claude: "timeout", toClaude: (value) => milliseconds(value), fromClaude: seconds },
    ],
    claudeOnly: ["description", "run_in_background", "dangerouslyDisableSandbox"],
  },
  read: { claude: "Read", fields: [PATH, { zot: "offset", claude: "offset" }, { zot: "limit", claude: "limit" }], claudeOnly: ["pages"] },
  write: { claude: "Write", fields: [PATH, { zot: "content", claude: "content", aliases: ["text"] }] },
  skill: { claude: "Skill", fields: [{ zot: "name", claude: "skill", aliases: ["skill", "skill_name"] }], claudeOnly: ["args"] },
};

/** The names Claude Code gives one of zot's tools (edit is Edit or MultiEdit, by its call); another tool keeps its own. */
export function claudeToolNames(name: string, builtin: boolean): string[] {
  if (!builtin) return [name];
  if (name === "edit") return ["Edit", "MultiEdit"];
  return [SIMPLE[name]?.claude ?? name];
}

/**
 * The names a hook's matcher is tried against for `call`: its Claude Code name and zot's; a call of
 * edit with several edits (MultiEdit) is an Edit too, since Claude Code has had no MultiEdit since
 * 2.0.32 and the hooks written for it guard edits with `Edit|Write`.
 */
export function matcherNames(call: ClaudeCall, zotName: string): string[] {
  return call.tool_name === "MultiEdit" ? ["MultiEdit", "Edit", zotName] : [call.tool_name, zotName];
}

/** zot's call as a Claude Code hook sees it; `builtin` says whether `name` is zot's own tool. */
export function toClaudeCall(name: string, args: ToolArgs, cwd: string, builtin: boolean): ClaudeCall {
  if (!builtin) return { tool_name: name, tool_input: { ...args } };
  if (name === "edit") return editToClaude(args, cwd);
  const spec = SIMPLE[name];
  if (!spec) return { tool_name: name, tool_input: { ...args } };
  const input: Record<string, unknown> = {};
  const mapped = new Set(spec.fields.flatMap((field) => [field.zot, ...(field.aliases ?? [])]));
  for (const field of spec.fields) {
    const value = [field.zot, ...(field.aliases ?? [])].map((key) => args[key]).find((v) => v !== undefined);
    if (value !== undefined) input[field.claude] = field.toClaude ? field.toClaude(value, cwd) : value;
  }
  for (const [key, value] of Object.entries(args)) if (!mapped.has(key)) input[key] = value;
  return { tool_name: spec.claude, tool_input: input };
}

/**
 * zot's arguments after the hooks rewrote Claude Code's input from `before` to `after`: each
 * field they changed is mapped back, every other keeps zot's value; Claude Code's fields that
 * zot's tool has no use for (Bash's description, run_in_background) are dropped.
 */
export function fromClaudeInput(name: string, args: ToolArgs, before: ClaudeCall, after: Record<string, unknown>, builtin: boolean): ToolArgs {
  if (!builtin) return after;
  if (name === "edit") return editFromClaude(args, before.tool_input, after);
  const spec = SIMPLE[name];
  if (!spec) return after;
  const out: ToolArgs = { ...args };
  const changed = (key: string) => !Bun.deepEquals(before.tool_input[key], after[key]);
  const known = new Set([...spec.fields.map((field) => field.claude), ...(spec.claudeOnly ?? [])]);
  for (const field of spec.fields) {
    if (!changed(field.claude)) continue;
    for (const alias of field.aliases ?? []) delete out[alias];
    const value = after[field.claude];
    if (value === undefined) delete out[field.zot];
    else out[field.zot] = field.fromClaude ? field.fromClaude(value) : value;
  }
  for (const key of new Set([...Object.keys(before.tool_input), ...Object.keys(after)])) {
    if (known.has(key) || !changed(key)) continue;
    if (after[key] === undefined) delete out[key];
    else out[key] = after[key];
  }
  return out;
}

/** In the order the edit tool takes them (tools/edit.ts ITEM_ALIASES; a field spelt twice with different values it refuses). */
const EDIT_ITEM_KEYS = { old_text: ["old_text", "oldText", "old_string", "old_str"], new_text: ["new_text", "newText", "new_string", "new_str"], replace_all: ["replace_all", "replaceAll"] };
const EDIT_KEYS = ["old_string", "new_string", "replace_all", "edits"];

/** An edit item's field by any of zot's spellings. */
function itemField(item: Record<string, unknown>, field: keyof typeof EDIT_ITEM_KEYS): unknown {
  return EDIT_ITEM_KEYS[field].map((key) => item[key]).find((value) => value !== undefined);
}

/** zot's edits as a list of items, whichever shape the model sent them in. */
function zotEdits(args: ToolArgs): Record<string, unknown>[] {
  let edits = args.edits;
  if (typeof edits === "string") {
    try {
      edits = JSON.parse(edits);
    } catch {}
  }
  if (Array.isArray(edits)) return edits.filter(isJsonObject);
  const single = itemField(args, "old_text") !== undefined || itemField(args, "new_text") !== undefined;
  return single ? [args] : [];
}

function claudeItem(item: Record<string, unknown>): Record<string, unknown> {
  const replaceAll = itemField(item, "replace_all");
  return { old_string: itemField(item, "old_text"), new_string: itemField(item, "new_text"), ...(replaceAll !== undefined ? { replace_all: replaceAll } : {}) };
}

function editToClaude(args: ToolArgs, cwd: string): ClaudeCall {
  const path = args.path ?? args.file_path;
  const file = path === undefined ? {} : { file_path: absolute(path, cwd) };
  const edits = zotEdits(args).map(claudeItem);
  if (edits.length === 1) return { tool_name: "Edit", tool_input: { ...file, ...edits[0] } };
  return { tool_name: "MultiEdit", tool_input: { ...file, edits } };
}

function editFromClaude(args: ToolArgs, before: Record<string, unknown>, after: Record<string, unknown>): ToolArgs {
  const out: ToolArgs = { ...args };
  if (!Bun.deepEquals(before.file_path, after.file_path)) {
    delete out.file_path;
    out.path = after.file_path;
  }
  if (EDIT_KEYS.some((key) => !Bun.deepEquals(before[key], after[key]))) {
    for (const keys of Object.values(EDIT_ITEM_KEYS)) for (const key of keys) delete out[key];
    const items = Array.isArray(after.edits) ? after.edits.filter(isJsonObject) : [after];
    out.edits = items.map((item) => {
      const replaceAll = itemField(item, "replace_all");
      return { old_text: itemField(item, "old_text"), new_text: itemField(item, "new_text"), ...(replaceAll !== undefined ? { replace_all: replaceAll } : {}) };
    });
  }
  return out;
}

/**
 * A tool's result as PostToolUse's `tool_response`, in the shape Claude Code gives for its own
 * tool: Bash's stdout (zot merges stderr into it), the file tools' filePath and their text; any
 * other tool's content blocks as they are.
 */
/** The line bash's result ends with (`[exit 0] 0.1s`), which Claude Code's Bash response has no field for. */
const BASH_ENDING = /\n?\[(exit -?\d+|timed out after [^\]]*|aborted|killed by \w+)\] \S+$/;

export function toClaudeResponse(call: ClaudeCall, result: ToolResult): unknown {
  const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  const input = call.tool_input;
  const details = result.details ?? {};
  switch (call.tool_name) {
    case "Bash":
      return {
        stdout: text.replace(BASH_ENDING, ""),
        stderr: "",
        interrupted: details.timed_out === true || details.aborted === true,
        isImage: false,
        ...(typeof details.exit_code === "number" ? { exit_code: details.exit_code } : {}),
      };
    case "Read":
      return { type: "text", file: { filePath: input.file_path, content: text } };
    case "Write":
      return { filePath: input.file_path, content: input.content, success: !result.is_error, message: text };
    case "Edit":
      return { filePath: input.file_path, oldString: input.old_string, newString: input.new_string, replaceAll: input.replace_all === true, userModified: false, message: text };
    case "MultiEdit":
      return { filePath: input.file_path, edits: input.edits, userModified: false, message: text };
    default:
      return result.content.map((block) => (block.type === "text" ? { type: "text", text: block.text } : { type: block.type }));
  }
}

/**
 * A PostToolUse hook's updatedToolOutput as the result the model reads instead, read in the shape
 * toClaudeResponse gives for the tool: Bash's stdout and stderr (bash's own ending line kept), Read's
 * file content, the file tools' message; any other tool's text blocks, a string, or an MCP result's
 * `content`. Undefined when it is not that shape: the tool's own result stands, as in Claude Code.
 */
export function fromClaudeResponse(call: ClaudeCall, value: unknown, original: ToolResult): ToolResult | undefined {
  const text = (body: string): ToolResult => ({ ...original, content: [{ type: "text", text: body }] });
  const field = (object: unknown, name: string) => (isJsonObject(object) && typeof object[name] === "string" ? (object[name] as string) : undefined);
  switch (call.tool_name) {
    case "Bash": {
      const stdout = field(value, "stdout");
      if (stdout === undefined) return undefined;
      const stderr = field(value, "stderr") ?? "";
      const ending = original.content.map((block) => (block.type === "text" ? block.text : "")).join("").match(BASH_ENDING)?.[0] ?? "";
      return text(`${stdout}${stderr ? `${stdout && !stdout.endsWith("\n") ? "\n" : ""}${stderr}` : ""}${ending}`);
    }
    case "Read": {
      const content = isJsonObject(value) ? field(value.file, "content") : undefined;
      return content === undefined ? undefined : text(content);
    }
    case "Write":
    case "Edit":
    case "MultiEdit": {
      const message = field(value, "message");
      return message === undefined ? undefined : text(message);
    }
    default: {
      if (typeof value === "string") return text(value);
      const blocks = isJsonObject(value) && Array.isArray(value.content) ? value.content : value;
      if (!Array.isArray(blocks) || !blocks.every((block) => field(block, "text") !== undefined && isJsonObject(block) && block.type === "text")) return undefined;
      return { ...original, content: blocks.map((block) => ({ type: "text" as const, text: field(block, "text")! })) };
    }
  }
}
