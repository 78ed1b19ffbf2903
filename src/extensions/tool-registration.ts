// A `register_tool` frame read into the tool an extension registered: its schema, how it is offered
// (exposure), whether it waits for a person (interactive), and the fields zot keeps for
// programmatic callers (output_schema, namespace…) and for durable hosts (replay).
// Rule: a value zot does not know never breaks the extension: an unknown exposure skips that one
// tool, an unknown replay counts as "never"; each says so as a diagnostic naming the tool. A schema
// that is no JSON Schema of an object skips the tool too: sent on, the provider refuses every
// request that offers it, so one bad tool would stop every turn of the session.
import type { ExtFrameOf, ToolExposure, ToolReplay } from "../protocol/ext-frames.ts";
import { TOOL_EXPOSURES, TOOL_REPLAYS } from "../protocol/ext-frames.ts";
import type { ExtToolDef } from "./ext-tool.ts";
import { MAX_SCHEMA_DEPTH, nestedDeeperThan } from "../protocol/json-depth.ts";

const EMPTY_SCHEMA = { type: "object", properties: {} };

/** A protocol mistake in the frame, for the host's log and diagnostics. */
export interface RegistrationProblem {
  kind: "tool_exposure" | "tool_replay" | "tool_schema";
  message: string;
}

export type ToolRegistration = { def: ExtToolDef; problems: RegistrationProblem[] } | { skipped: RegistrationProblem };

export function toolRegistration(frame: ExtFrameOf<"register_tool">, extension: string): ToolRegistration {
  const problems: RegistrationProblem[] = [];
  const wrongSchema = frame.schema === undefined ? undefined : schemaProblem(frame.schema);
  if (wrongSchema) {
    const shape = wrongSchema.startsWith("is nested") ? "" : ` (a tool's arguments are a JSON object: {"type": "object", "properties": {…}})`;
    return { skipped: { kind: "tool_schema", message: `tool "${frame.name}" has a schema that ${wrongSchema}, skipped${shape}` } };
  }
  let exposure: ToolExposure = frame.deferred ? "deferred" : "direct";
  // "" is absent: a Go struct without omitempty sends every field, its zero value too.
  if (frame.exposure !== undefined && frame.exposure !== "") {
    if (!isOneOf(TOOL_EXPOSURES, frame.exposure)) {
      return {
        skipped: {
          kind: "tool_exposure",
          message: `tool "${frame.name}" has unknown exposure ${JSON.stringify(frame.exposure)}, skipped (known: ${TOOL_EXPOSURES.join(", ")})`,
        },
      };
    }
    exposure = frame.exposure;
  }
  let replay: ToolReplay = "never";
  if (frame.replay !== undefined && frame.replay !== "") {
    if (isOneOf(TOOL_REPLAYS, frame.replay)) replay = frame.replay;
    else problems.push({ kind: "tool_replay", message: `tool "${frame.name}" has unknown replay ${JSON.stringify(frame.replay)}; using "never" (known: ${TOOL_REPLAYS.join(", ")})` });
  }
  const def: ExtToolDef = {
    name: frame.name,
    description: frame.description ?? "",
    // A schema that leaves out "type" (as many do) is an object's: the providers require it said.
    schema: frame.schema === undefined ? EMPTY_SCHEMA : { type: "object", ...frame.schema },
    exposure,
    interactive: frame.interactive === true,
    replay,
    namespace: frame.namespace || extension,
    ...(frame.namespace_description ? { namespaceDescription: frame.namespace_description } : {}),
    ...(frame.namespace_instructions ? { namespaceInstructions: frame.namespace_instructions } : {}),
    ...(frame.output_schema !== undefined ? { outputSchema: frame.output_schema } : {}),
  };
  return { def, problems };
}

/** What makes `schema` no JSON Schema of an object, or undefined when it is one. */
function schemaProblem(schema: Record<string, unknown>): string | undefined {
  if (schema.type !== undefined && schema.type !== "object") return `is of type ${JSON.stringify(schema.type)}`;
  const { properties, required } = schema;
  if (properties !== undefined && (typeof properties !== "object" || properties === null || Array.isArray(properties))) return 'has "properties" that is not an object';
  if (required !== undefined && !(Array.isArray(required) && required.every((name) => typeof name === "string"))) return 'has "required" that is not a list of names';
  // Deeper than this, building and sending each request overflows the stack: every model call would fail, naming the provider.
  if (nestedDeeperThan(schema, MAX_SCHEMA_DEPTH)) return `is nested more than ${MAX_SCHEMA_DEPTH} levels deep`;
  return undefined;
}

function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}
