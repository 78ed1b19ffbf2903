// Strict flag parsing for citty command definitions. citty renders help from the definitions;
// this parses with them, with node:util's parseArgs grammar (`--name value`, `--name=value`,
// `-n value`, `-nvalue`, `-abc` for boolean shorts, `--` ends the flags) without loading node:util,
// whose module costs a one-shot run about 1 ms and 3 MB (scripts/bench floor).
// Rule: an unknown flag, a missing value or a value outside an enum is a UsageError that names
// what is valid; nothing is silently ignored.
import type { ArgsDef } from "citty";
import { UsageError } from "../config/usage-error.ts";
import { shellQuote } from "../protocol/shell-quote.ts";
import { editDistance } from "../protocol/edit-distance.ts";

export interface ParsedFlags {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  /** the first positional came after `--` (so it is never read as a command name) */
  terminated: boolean;
}

interface FlagSpec {
  name: string;
  takesValue: boolean;
  multiple: boolean;
}

/**
 * Flags listed in `repeatable` may be given more than once; their value is an array. `command` is
 * how the user invokes the command (`zot`, `zot rpc`), for the pointer to its --help. A flag in
 * `followers` takes the arguments after it that `followers` says are its own, as Claude Code's
 * flags do: a flag with a value (repeatable) more values while they qualify (`--allowedTools Read
 * "Bash(git log *)" "the prompt"`), a boolean flag one optional value (`--resume <id>`).
 */
export function parseFlags(
  def: ArgsDef,
  argv: string[],
  repeatable: ReadonlySet<string> = new Set(),
  command = "zot",
  followers: ReadonlyMap<string, (arg: string) => boolean> = new Map(),
  /** for an enum flag, values other tools take that zot does not, and what to do instead (`--provider kimi`) */
  unserved: Readonly<Record<string, Readonly<Record<string, string>>>> = {},
): ParsedFlags {
  const long = new Map<string, FlagSpec>();
  const short = new Map<string, FlagSpec>();
  for (const [name, arg] of Object.entries(def)) {
    if (arg.type === "positional") continue;
    const spec = { name, takesValue: arg.type !== "boolean", multiple: repeatable.has(name) };
    long.set(name, spec);
    const alias: string | string[] | undefined = "alias" in arg ? arg.alias : undefined;
    const letter = typeof alias === "string" ? alias : alias?.find((a) => a.length === 1);
    if (letter) short.set(letter, spec);
  }
  const values: ParsedFlags["values"] = {};
  const positionals: string[] = [];
  let terminated = false;
  /** `typed` is the argument the flag was typed in, when that is more than the flag (`-vq`). */
  const unknown = (flag: string, typed = flag) => {
    const near = closest(flag.replace(/^-+/, ""), [...long.keys()]);
    const within = typed === flag ? "" : ` in "${typed}"`;
    return new UsageError(`unknown flag "${flag}"${within}${near ? `; did you mean --${near}?` : ""} (${command} --help lists every flag)`);
  };
  /** Whether an argument is only switches (`-p`, `--json`): no value of the user's (a key) to repeat back. */
  const isSwitch = (arg: string) =>
    arg.startsWith("--") ? long.get(arg.slice(2))?.takesValue === false : /^-\w+$/.test(arg) && [...arg.slice(1)].every((c) => short.get(c)?.takesValue === false);
  /**
   * argv[i] starts with "-" but is no flag (`-v is broken`, `-5`): words meant as the prompt, which
   * go after `--`. The example repeats the rest of the command line when it is only switches.
   */
  const notAFlag = (i: number) => {
    const arg = argv[i]!;
    const rest = argv.filter((_, j) => j !== i);
    const flags = rest.every(isSwitch) ? rest.join(" ") : "[flags]";
    const example = [command, flags, "--", shellQuote(arg)].filter(Boolean).join(" ");
    const what = command === "zot" ? "a prompt" : "a word";
    return new UsageError(`"${arg}" is not a flag; ${what} that starts with "-" goes after --, which ends the flags: ${example}`);
  };
  /** A flag's shape: one or two dashes, a letter, no space; `-v is broken` and `-5` are words. */
  const flagShaped = (flag: string) => /^--?[A-Za-z][^\s]*$/.test(flag);
  const set = (spec: FlagSpec, value: string | boolean) => {
    if (!spec.multiple) values[spec.name] = value;
    else ((values[spec.name] ??= []) as string[]).push(value as string);
  };
  /** The value of `spec` from the next argument, which must not look like a flag. */
  const nextValue = (spec: FlagSpec, i: number): string => {
    const next = argv[i + 1];
    if (next === undefined) throw new UsageError(`--${spec.name} needs a value`);
    if (next.startsWith("-") && next !== "-") {
      throw new UsageError(`--${spec.name} needs a value (to give one that starts with "-", write --${spec.name}=${next})`);
    }
    return next;
  };
  /** Whether the argument after argv[i] is the flag's own (followers). */
  const follows = (spec: FlagSpec, i: number): boolean => {
    const next = argv[i + 1];
    const own = followers.get(spec.name);
    return own !== undefined && next !== undefined && !next.startsWith("-") && own(next);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      const rest = argv.slice(i + 1);
      if (rest.length > 0 && positionals.length === 0) terminated = true;
      positionals.push(...rest);
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = arg.slice(2, eq === -1 ? undefined : eq);
      const spec = long.get(name);
      if (!spec) {
        const flag = eq === -1 ? arg : arg.slice(0, eq);
        throw flagShaped(flag) ? unknown(flag) : notAFlag(i);
      }
      if (!spec.takesValue) {
        // A boolean flag that may take a value (followers) takes one after = as well (--resume=<id>).
        if (eq !== -1 && !followers.has(name)) throw new UsageError(`--${name} does not take a value`);
        set(spec, eq !== -1 ? arg.slice(eq + 1) : follows(spec, i) ? argv[++i]! : true);
      } else {
        set(spec, eq !== -1 ? arg.slice(eq + 1) : nextValue(spec, i++));
        while (follows(spec, i)) set(spec, argv[++i]!);
      }
      continue;
    }
    if (arg.startsWith("-") && arg !== "-") {
      // Words that start with "-" are no cluster of shorts (-v of `-v is broken` would set --version).
      if (!flagShaped(arg)) throw notAFlag(i);
      // -p, -m value, -mvalue, and -pc for several boolean shorts.
      for (let at = 1; at < arg.length; at++) {
        const spec = short.get(arg[at]!);
        if (!spec) throw unknown(`-${arg[at]}`, arg);
        if (!spec.takesValue) {
          // The last of a cluster may take its optional value (-r <id>).
          set(spec, at === arg.length - 1 && follows(spec, i) ? argv[++i]! : true);
          continue;
        }
        if (at + 1 < arg.length) set(spec, arg.slice(at + 1));
        else set(spec, nextValue(spec, i++));
        break;
      }
      continue;
    }
    positionals.push(arg);
  }
  for (const [name, arg] of Object.entries(def)) {
    if (arg.type !== "enum") continue;
    const value = values[name];
    const valid = arg.options ?? [];
    if (typeof value === "string" && !valid.includes(value)) {
      const instead = Object.hasOwn(unserved[name] ?? {}, value) ? unserved[name]![value] : undefined;
      throw new UsageError(`--${name} must be one of ${valid.join(", ")} (got "${value}")${instead ? `: ${instead}` : ""}`);
    }
  }
  return { values, positionals, terminated };
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
