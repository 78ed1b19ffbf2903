// Tool arguments: one valibot schema per tool gives both the parser and the JSON Schema the model
// sees, plus the path rule every file tool shares. Rule: a bad argument is never thrown; it becomes
// an is_error result that names the field and what it should be, so the model can retry.
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import * as v from "valibot";
import { issuePath } from "../protocol/schema-issue.ts";
import { type ToolResult, textResult } from "../protocol/tool.ts";

type JsonSchema = Record<string, unknown>;

export type ParsedArgs<T> = { ok: true; value: T } | { ok: false; error: ToolResult };

export interface ToolArgs<S extends v.GenericSchema> {
  /** advertised to the model as the tool's `parameters` */
  jsonSchema: JsonSchema;
  parse(raw: Record<string, unknown>): ParsedArgs<v.InferOutput<S>>;
}

/**
 * Binds a tool's valibot schema (built on the first call) to its name, for error sentences like `read: "path" is required
 * (string)`, and to its JSON Schema (`builtinParameters(…)`, made when the binary is built).
 */
export function defineArgs<S extends v.GenericSchema>(toolName: string, schema: () => S, jsonSchema: JsonSchema): ToolArgs<S> {
  return {
    jsonSchema,
    parse(raw) {
      const result = v.safeParse(schema(), coerceScalars(raw ?? {}, jsonSchema));
      if (result.success) {
        // No file's path holds a NUL byte; said here, not as the runtime's sentence about its argument.
        const path = (result.output as { path?: unknown }).path;
        if (typeof path === "string" && path.includes("\0")) return { ok: false, error: textResult(`${toolName}: "path" holds a NUL byte, which no file's path can`, true) };
        return { ok: true, value: result.output };
      }
      const sentences = result.issues.slice(0, 3).map((issue) => describeIssue(issue, jsonSchema));
      return { ok: false, error: textResult(`${toolName}: ${sentences.join("; ")}`, true) };
    },
  };
}

/**
 * Models sometimes send `"offset": "10"` or `"replace_all": "true"`. Coercing top-level scalars the
 * schema declares as numbers or booleans costs nothing and saves a failed round trip.
 */
function coerceScalars(raw: Record<string, unknown>, schema: JsonSchema): Record<string, unknown> {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const out: Record<string, unknown> = { ...raw };
  for (const [key, prop] of Object.entries(props)) {
    const value = out[key];
    if (typeof value !== "string") continue;
    if ((prop.type === "integer" || prop.type === "number") && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) {
      out[key] = Number(value);
    } else if (prop.type === "boolean" && (value === "true" || value === "false")) {
      out[key] = value === "true";
    }
  }
  return out;
}

function describeIssue(issue: v.BaseIssue<unknown>, schema: JsonSchema): string {
  const keys = (issue.path ?? []).map((item) => item.key as string | number);
  const field = issuePath(issue);
  const expected = describeSchema(schemaAt(schema, keys));
  if (!field) return `arguments must be an object (${expected})`;
  if (issue.received === "undefined") return `"${field}" is required (${expected})`;
  if (issue.type === "min_length") return `"${field}" must not be empty (${expected})`;
  return `"${field}" must be ${expected}, got ${issue.received}`;
}

function schemaAt(schema: JsonSchema, keys: (string | number)[]): JsonSchema {
  let node: JsonSchema | undefined = schema;
  for (const key of keys) {
    if (!node) break;
    node = typeof key === "number" ? (node.items as JsonSchema | undefined) : (node.properties as Record<string, JsonSchema> | undefined)?.[key];
  }
  return node ?? {};
}

function describeSchema(node: JsonSchema): string {
  switch (node.type) {
    case "integer":
      return typeof node.minimum === "number" ? `an integer ≥ ${node.minimum}` : "an integer";
    case "number":
      return typeof node.exclusiveMinimum === "number" ? `a number > ${node.exclusiveMinimum}` : "a number";
    case "array": {
      const items = node.items as JsonSchema | undefined;
      return items?.type === "object" ? `an array of objects with ${describeObject(items)}` : "an array";
    }
    case "object":
      return `an object with ${describeObject(node)}`;
    case "string":
      return typeof node.minLength === "number" && node.minLength > 0 ? "a non-empty string" : "string";
    case undefined:
      return "a value";
    default:
      return String(node.type);
  }
}

function describeObject(node: JsonSchema): string {
  const required = (node.required as string[] | undefined) ?? [];
  return required.length ? required.map((key) => `"${key}"`).join(", ") : "fields";
}

/**
 * Resolves a path the model gave against the working directory. `~/` means the home directory,
 * because models write it and the shell would have expanded it.
 */
export function resolveToolPath(cwd: string, path: string): string {
  if (path === "~" || path.startsWith("~/")) return resolve(homedir(), path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/** Renames camelCase or other harnesses' keys to ours, without overwriting keys already present. */
export function renameKeys(raw: Record<string, unknown>, aliases: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...raw };
  for (const [alias, key] of Object.entries(aliases)) {
    if (alias in out && !(key in out)) {
      out[key] = out[alias];
      delete out[alias];
    }
  }
  return out;
}
