// JSON objects as zot meets them untrusted: tool arguments a model streamed as text, script turns,
// extension frames and manifests before their schema has looked at them.
// Rule: an object is a plain `{…}`: never null, never an array.
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Tool arguments streamed as JSON text → an object. Empty text, broken JSON (a truncated stream)
 * and a value that is not an object (a bare string) all become {}: a model's mistake must not
 * crash the turn, and the tool's own validation then names what is missing.
 */
export function parseJsonObject(text: string): JsonObject {
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : {};
  } catch {
    return {};
  }
}
