// Strict flag parsing for citty command definitions. citty renders help from the definitions;
// this parses with them. Rule: an unknown flag, a missing value or a value outside an enum is a
// UsageError that names what is valid; nothing is silently ignored.
import { parseArgs } from "node:util";
import type { ArgsDef } from "citty";
import { UsageError } from "../config/usage-error.ts";
import { errorText } from "../protocol/error-text.ts";
import { editDistance } from "./edit-distance.ts";

export interface ParsedFlags {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  /** the first positional came after `--` (so it is never read as a command name) */
  terminated: boolean;
}

/**
 * Flags listed in `repeatable` may be given more than once; their value is an array. `command` is
 * how the user invokes the command (`zot`, `zot rpc`), for the pointer to its --help.
 */
export function parseFlags(
  def: ArgsDef,
  argv: string[],
  repeatable: ReadonlySet<string> = new Set(),
  command = "zot",
): ParsedFlags {
  const options: NonNullable<Parameters<typeof parseArgs>[0]>["options"] = {};
  for (const [name, arg] of Object.entries(def)) {
    if (arg.type === "positional") continue;
    const alias: string | string[] | undefined = "alias" in arg ? arg.alias : undefined;
    const short = typeof alias === "string" ? alias : alias?.find((a) => a.length === 1);
    options[name] = {
      type: arg.type === "boolean" ? "boolean" : "string",
      ...(short ? { short } : {}),
      ...(repeatable.has(name) ? { multiple: true } : {}),
    };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError(explain(error, Object.keys(options), command));
  }
  const values = parsed.values as ParsedFlags["values"];
  for (const [name, arg] of Object.entries(def)) {
    if (arg.type !== "enum") continue;
    const value = values[name];
    const valid = arg.options ?? [];
    if (typeof value === "string" && !valid.includes(value)) {
      throw new UsageError(`--${name} must be one of ${valid.join(", ")} (got "${value}")`);
    }
  }
  const tokens = parsed.tokens ?? [];
  const terminator = tokens.findIndex((t) => t.kind === "option-terminator");
  const firstPositional = tokens.findIndex((t) => t.kind === "positional");
  const terminated = terminator >= 0 && (firstPositional < 0 || terminator < firstPositional);
  return { values, positionals: parsed.positionals, terminated };
}

function explain(error: unknown, known: string[], command: string): string {
  const message = errorText(error);
  const unknown = /Unknown option '([^']+)'/.exec(message);
  if (unknown) {
    const flag = unknown[1];
    const near = closest(flag.replace(/^-+/, ""), known);
    return `unknown flag "${flag}"${near ? `; did you mean --${near}?` : ""} (${command} --help lists every flag)`;
  }
  const missing = /Option '(?:-\w, )?(--[\w-]+)(?: <value>)?' argument missing/.exec(message);
  if (missing) return `${missing[1]} needs a value`;
  return message.replace(/\. To specify a positional argument.*$/, "");
}

function closest(word: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = editDistance(word, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
