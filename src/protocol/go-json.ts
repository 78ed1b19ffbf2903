// What a Go program sends, read as Go's encoding/json reads it: a field's name matches without
// regard to case (`"Action"` is `action`), and `null` in a field is no value, as absent. The
// original zot and PicoClaw are Go programs, and the extensions and hooks written for them (a Go
// struct without json tags, a Python None, a Go nil) rely on both.
// Rule: shaped by the schema the value is then read with, so only the fields it names change:
// a key it does not know stays as it is, and values the schema leaves open (arguments, JSON
// Schemas, records) keep every key and every null of theirs, where null is a value.
import type * as v from "valibot";
import { isJsonObject } from "./json-object.ts";

type AnySchema = v.GenericSchema & {
  type: string;
  wrapped?: AnySchema;
  entries?: Record<string, AnySchema>;
  item?: AnySchema;
  key?: string;
  options?: AnySchema[];
  literal?: unknown;
};

/** Wrappers that let a field be absent: a null there reads as absent. */
const MAY_BE_ABSENT = new Set(["optional", "exact_optional", "undefinedable"]);
/** Wrappers whose schema reads the value itself. */
const WRAPPERS = new Set(["optional", "exact_optional", "undefinedable", "nullable", "nullish", "non_optional", "non_nullable", "non_nullish"]);
const OBJECTS = new Set(["object", "loose_object", "strict_object", "object_with_rest"]);

/** `value` with its field names matched to `schema`'s case-insensitively, and null in a field that may be absent taken out. */
export function asGoReads(schema: v.GenericSchema, value: unknown): unknown {
  let inner = schema as AnySchema;
  while (WRAPPERS.has(inner.type) && inner.wrapped) inner = inner.wrapped;
  if (inner.type === "array" && inner.item && Array.isArray(value)) return value.map((item) => asGoReads(inner.item!, item));
  if (!isJsonObject(value)) return value;
  if (inner.type === "variant" && inner.key && inner.options) {
    const tag = fieldOf(value, inner.key);
    const option = inner.options.find((candidate) => candidate.entries?.[inner.key!]?.literal === tag);
    return option ? asGoReads(option, value) : value;
  }
  if (!OBJECTS.has(inner.type) || !inner.entries) return value;
  const entries = inner.entries;
  const names = Object.keys(entries);
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const name = Object.hasOwn(entries, key) ? key : names.find((candidate) => candidate.toLowerCase() === key.toLowerCase());
    if (name === undefined) {
      // Defined, not assigned: a member named "__proto__" stays a member and never becomes the copy's prototype.
      Object.defineProperty(out, key, { value: field, enumerable: true, writable: true, configurable: true });
      continue;
    }
    // As Go's decoder: null leaves the field as it was, and of two spellings the later one wins.
    if (field === null && MAY_BE_ABSENT.has(entries[name]!.type)) continue;
    out[name] = asGoReads(entries[name]!, field);
  }
  return out;
}

/** The value of `key` in `value`, its name matched without regard to case. */
function fieldOf(value: Record<string, unknown>, key: string): unknown {
  if (Object.hasOwn(value, key)) return value[key];
  const found = Object.keys(value).find((candidate) => candidate.toLowerCase() === key.toLowerCase());
  return found === undefined ? undefined : value[found];
}
