// The environment variables models.json names as keys (`"apiKey": "$TOGETHER_KEY"`, pi's bare
// `"TOGETHER_API_KEY"`, a header's `"$PORTKEY_KEY"`): credentials as much as OPENAI_API_KEY is, so no child inherits them
// (config/child-env.ts). Rule: read from the file as it is now, so a key named after zot started is
// kept from children too; a file that cannot be read names none (the catalog reports why).
import * as v from "valibot";
import { zotPaths } from "./home.ts";
import { readRegularFile } from "./regular-file.ts";

/** `TOGETHER_KEY` for `$TOGETHER_KEY`, `${TOGETHER_KEY}` or `TOGETHER_KEY`; undefined for text that cannot name a variable. */
export function keyVariable(written: string): string | undefined {
  return /^\$?\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(written.trim())?.[1];
}

/** Whether the text asks for a variable and nothing else (`$VAR`, `${VAR}`): unset, it is no key at all. */
export function onlyVariable(written: string): boolean {
  return written.trim().startsWith("$") && keyVariable(written) !== undefined;
}

const Keyed = v.looseObject({ apiKey: v.optional(v.unknown()), headers: v.optional(v.unknown()), models: v.optional(v.unknown()) });

/** The texts of an entry's `headers`, which name variables as an apiKey does. */
function headerTexts(headers: unknown): unknown[] {
  return typeof headers === "object" && headers !== null ? Object.values(headers) : [];
}
const ModelsFileKeys = v.looseObject({ providers: v.record(v.string(), v.unknown()) });

/** Every variable an `apiKey` of `<home>/models.json` names, or a header's value that is only `$VAR`, at provider and model level. */
export function modelKeyVariables(home: string): string[] {
  let data: unknown;
  try {
    data = JSON.parse(readRegularFile(zotPaths(home).modelsFile, "utf8").replace(/^\uFEFF/, ""));
  } catch {
    return [];
  }
  const file = v.safeParse(ModelsFileKeys, data);
  if (!file.success) return [];
  const written: unknown[] = [];
  // Entry by entry: one broken provider or model hides no other's key.
  for (const raw of Object.values(file.output.providers)) {
    const provider = v.safeParse(Keyed, raw);
    if (!provider.success) continue;
    written.push(provider.output.apiKey, ...headerTexts(provider.output.headers));
    for (const model of Array.isArray(provider.output.models) ? provider.output.models : []) {
      const keyed = v.safeParse(Keyed, model);
      if (keyed.success) written.push(keyed.output.apiKey, ...headerTexts(keyed.output.headers));
    }
  }
  return [...new Set(written.flatMap((text) => (typeof text === "string" && keyVariable(text) ? [keyVariable(text) as string] : [])))];
}
