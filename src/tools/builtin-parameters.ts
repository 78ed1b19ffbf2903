// The JSON Schema the model sees for a built-in tool's arguments, converted from its valibot schema
// (tools/builtin-args.ts) by a Bun macro: when the binary is bundled, and when a test's source is
// transpiled. Rule: imported only `with { type: "macro" }`, so no start of zot converts a schema or
// loads the converter (about 1 ms of a one-shot run, scripts/bench floor).
import { toJsonSchema } from "@valibot/to-json-schema";
import * as builtinArgs from "./builtin-args.ts";

type SchemaName = { [K in keyof typeof builtinArgs]: (typeof builtinArgs)[K] extends () => { kind: "schema" } ? K : never }[keyof typeof builtinArgs];

/** The JSON Schema of `name`'s arguments, without the `$schema` line the providers do not want. */
export function builtinParameters(name: SchemaName): Record<string, unknown> {
  const { $schema: _drop, ...jsonSchema } = toJsonSchema(builtinArgs[name]()) as Record<string, unknown>;
  return jsonSchema;
}
