// One stdin line of `zot rpc` → a checked command, or the failure response it gets.
// Rule: every line that is not blank is answered; the failure names what was wrong (not JSON, no
// or unknown type with the known ones listed, the path of a missing or mistyped field) and echoes
// the line's id whenever it had a usable one.
import * as v from "valibot";
import { errorText } from "../protocol/error-text.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import {
  RPC_COMMAND_TYPES,
  RPC_MAX_LINE_BYTES,
  RpcCommand,
  type RpcFailure,
  type RpcId,
  type RpcCommandType,
} from "../protocol/rpc-frames.ts";
import { frameHead } from "../protocol/frame-head.ts";
import { describeIssue, issuePath } from "../protocol/schema-issue.ts";

export type RpcRequest = { ok: true; command: RpcCommand } | { ok: false; failure: RpcFailure };

const SCHEMAS = new Map<string, v.GenericSchema>(RpcCommand.options.map((schema) => [schema.entries.type.literal, schema]));
const KNOWN = `known commands: ${RPC_COMMAND_TYPES.join(", ")}`;

export function failure(id: RpcId | undefined, command: string, error: string): RpcFailure {
  return { type: "response", ...(id !== undefined ? { id } : {}), command, success: false, error };
}

/**
 * The failure for a line over RPC_MAX_LINE_BYTES (it was skipped, never buffered); it names the
 * command and echoes the id its first bytes held, so the client's call fails instead of waiting.
 */
export function tooLong(bytes: number, head = ""): RpcFailure {
  const { id, type } = frameHead(head);
  return failure(
    id,
    type ?? "parse",
    `line of ${bytes} bytes is over the limit of ${RPC_MAX_LINE_BYTES} bytes (16 MiB); it was skipped. Send smaller images or fewer at once`,
  );
}

export function readRequest(line: string): RpcRequest {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, failure: failure(undefined, "parse", `not JSON: ${errorText(error)}`) };
  }
  if (!isJsonObject(value)) {
    return { ok: false, failure: failure(undefined, "", `a command is a JSON object with a "type" (${KNOWN})`) };
  }
  const id = usableId(value.id);
  const type = value.type;
  if (typeof type !== "string") {
    const problem = type === undefined ? 'has no "type"' : 'has a "type" that is not a string';
    return { ok: false, failure: failure(id, "", `the command ${problem} (${KNOWN})`) };
  }
  const schema = SCHEMAS.get(type);
  if (!schema) return { ok: false, failure: failure(id, type, `unknown command "${type}" (${KNOWN})`) };
  // 1e400 parses as Infinity, which JSON writes back as null: an id the client could not match.
  if (typeof value.id === "number" && !Number.isFinite(value.id)) {
    return { ok: false, failure: failure(undefined, type, `${type}: field "id": a number id must be finite (this one read as ${value.id})`) };
  }
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) return { ok: false, failure: failure(id, type, describeIssues(type as RpcCommandType, parsed.issues)) };
  return { ok: true, command: parsed.output as RpcCommand };
}

/** A string or number id is echoed as it came; anything else is not an id (and fails the command's check). */
function usableId(id: unknown): RpcId | undefined {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : undefined;
}

function describeIssues(type: RpcCommandType, issues: readonly v.BaseIssue<unknown>[]): string {
  const sentences = issues.slice(0, 3).map((issue) => `field "${issuePath(issue)}": ${describeIssue(issue)}`);
  return `${type}: ${sentences.join("; ")}`;
}
