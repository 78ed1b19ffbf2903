// `zot rpc --schema`: the JSON Schemas (draft-07) of every rpc command, response and event, and of
// every frame of the extension protocol (both directions), generated from the valibot schemas, so
// a client or an extension in any language can generate its types.
// Rule: generated, never written by hand; rpc-frames.ts, events.ts and ext-frames.ts stay the only
// definitions.
import { toJsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";
import { AgentEvent } from "./events.ts";
import { ExtToHostFrame, HostToExtFrame, PROTOCOL_VERSION as EXT_PROTOCOL_VERSION } from "./ext-frames.ts";
import { RPC_PROTOCOL_VERSION, RPC_RESPONSE_DATA, RpcCommand, RpcFailure, RpcSuccess } from "./rpc-frames.ts";

type JsonSchema = Record<string, unknown>;

export interface RpcSchemaDocument {
  protocol_version: number;
  /** one schema per command type */
  commands: Record<string, JsonSchema>;
  /** the two envelopes, and what `data` holds in a success, per command (absent: no data) */
  responses: { success: JsonSchema; failure: JsonSchema; data: Record<string, JsonSchema> };
  /** one schema per event type */
  events: Record<string, JsonSchema>;
  /** the extension protocol (docs/extensions.md): one schema per frame type, each direction */
  extension: { protocol_version: number; to_host: Record<string, JsonSchema>; to_extension: Record<string, JsonSchema> };
}

export function rpcSchemaDocument(): RpcSchemaDocument {
  const data: Record<string, JsonSchema> = {};
  for (const [command, schema] of Object.entries(RPC_RESPONSE_DATA)) {
    if (schema) data[command] = schemaOf(schema);
  }
  return {
    protocol_version: RPC_PROTOCOL_VERSION,
    commands: byType(RpcCommand.options),
    responses: { success: schemaOf(RpcSuccess), failure: schemaOf(RpcFailure), data },
    events: byType(AgentEvent.options),
    extension: {
      protocol_version: EXT_PROTOCOL_VERSION,
      to_host: byType(ExtToHostFrame.options),
      to_extension: byType(HostToExtFrame.options),
    },
  };
}

function byType(options: readonly (v.GenericSchema & { entries: { type: { literal: string } } })[]): Record<string, JsonSchema> {
  return Object.fromEntries(options.map((schema) => [schema.entries.type.literal, schemaOf(schema)]));
}

function schemaOf(schema: v.GenericSchema): JsonSchema {
  return toJsonSchema(schema) as JsonSchema;
}
