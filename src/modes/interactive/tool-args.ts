// What a tool box shows of a call's arguments: one short line a person can follow (the path for
// read/write/edit, the command for bash, the skill's name, compact JSON for any other tool), also
// while the arguments are still streaming in as partial JSON. Rule: a summary, never the whole
// arguments (a write's content or an edit's texts are the result's business, not the header's).
import { counted } from "../../protocol/counted.ts";
import { isJsonObject } from "../../protocol/json-object.ts";

/** The argument each built-in tool is known by. */
const KEY_ARGUMENT: Record<string, string> = { read: "path", write: "path", edit: "path", bash: "command", skill: "name" };

/** The summary of complete arguments. */
export function argsSummary(tool: string, args: Record<string, unknown>): string {
  const key = KEY_ARGUMENT[tool];
  const value = key ? args[key] : undefined;
  if (typeof value !== "string") return compactJson(args);
  switch (tool) {
    case "bash":
      return `$ ${value}`;
    case "read":
      return value + readRange(args);
    case "write":
      return typeof args.content === "string" ? `${value} (${counted(lineCount(args.content), "line")})` : value;
    case "edit":
      return Array.isArray(args.edits) ? `${value} (${counted(args.edits.length, "edit")})` : value;
    default:
      return value;
  }
}

/** The summary of arguments still arriving: the key argument as far as it came, else the raw text. */
export function partialArgsSummary(tool: string, partialJson: string): string {
  try {
    const parsed: unknown = JSON.parse(partialJson);
    if (isJsonObject(parsed)) return argsSummary(tool, parsed);
  } catch {
    // incomplete, as expected while streaming
  }
  const key = KEY_ARGUMENT[tool];
  const value = key ? partialString(partialJson, key) : undefined;
  if (value !== undefined) return tool === "bash" ? `$ ${value}` : value;
  return partialJson.replace(/\s+/g, " ").trim();
}

/** The value of `"key": "…` in partial JSON, escapes decoded, up to where it has arrived. */
function partialString(json: string, key: string): string | undefined {
  const match = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)(\\\\?)`).exec(json);
  if (!match) return undefined;
  try {
    return JSON.parse(`"${match[1]}"`) as string;
  } catch {
    return match[1];
  }
}

function readRange(args: Record<string, unknown>): string {
  const offset = typeof args.offset === "number" ? args.offset : undefined;
  const limit = typeof args.limit === "number" ? args.limit : undefined;
  if (offset === undefined && limit === undefined) return "";
  const from = offset ?? 1;
  return limit === undefined ? ` (from line ${from})` : ` (lines ${from}–${from + limit - 1})`;
}

function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

function compactJson(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return text === "{}" ? "" : text;
}
