// `zot sessions …`: the sessions of this directory from the command line (list, tree, show,
// export, import, fork). This file routes to the subcommand and prints usage.
// Rule: each subcommand loads lazily; a bad subcommand, flag or id is a UsageError naming what is
// valid; nothing here writes to a session another zot may be writing (fork and export only read).
import type { ArgsDef } from "citty";
import { resolve } from "node:path";
import { zotHome } from "../config/home.ts";
import { UsageError } from "../config/usage-error.ts";
import { DEBUG_ARG } from "./ext.ts";
import { parseFlags } from "./parse-flags.ts";
import { EXIT } from "./router.ts";
import { ownEntry } from "../protocol/own-key.ts";
import { realOrSame } from "../config/quiet-fs.ts";

/** What every subcommand needs to know about where it runs; passed in, never read deep inside. */
export interface SessionsContext {
  home: string;
  /** the working directory whose sessions are meant (--cwd, else the current one) */
  cwd: string;
  /** where relative file names are resolved: the current directory */
  here: string;
  userHome: string;
  /** the terminal's width when stdout is one */
  width?: number;
}

export interface SessionsCommand {
  usage: string;
  description: string;
  args: ArgsDef;
  run(flags: Record<string, unknown>, positionals: string[], ctx: SessionsContext): Promise<number>;
}

export const CWD_ARG = {
  type: "string",
  description: "The working directory whose sessions are meant (default: the current one)",
  valueHint: "dir",
} as const;

const COMMANDS: Record<string, { summary: string; load: () => Promise<SessionsCommand> }> = {
  list: { summary: "this directory's sessions, newest first", load: async () => (await import("./sessions-list.ts")).LIST },
  tree: { summary: "this directory's sessions with each fork under its parent", load: async () => (await import("./sessions-list.ts")).TREE },
  show: { summary: "a session's transcript, model changes, compactions and audit trail", load: async () => (await import("./sessions-show.ts")).SHOW },
  export: { summary: "write a session to a portable .zotsession file (paths stripped)", load: async () => (await import("./sessions-transfer.ts")).EXPORT },
  import: { summary: "add a .zotsession file to this directory's sessions under a fresh id", load: async () => (await import("./sessions-transfer.ts")).IMPORT },
  fork: { summary: "a new session holding a session's conversation up to a user turn", load: async () => (await import("./sessions-transfer.ts")).FORK },
};
const ALIASES: Record<string, string> = { ls: "list" };

/** Every word `zot sessions` takes as its command (cli/subcommands.ts spells them out for the root command). */
export const SESSIONS_VERBS = [...Object.keys(COMMANDS), ...Object.keys(ALIASES)];

const USAGE_LINES: [string, string][] = [
  ["list [--json]", COMMANDS.list!.summary],
  ["tree", COMMANDS.tree!.summary],
  ["show <id>", COMMANDS.show!.summary],
  ["export <id> [file|dir] [--force]", COMMANDS.export!.summary],
  ["import <file>", COMMANDS.import!.summary],
  ["fork <id> [--at <turn>]", COMMANDS.fork!.summary],
];

export function sessionsUsage(): string {
  const width = Math.max(...USAGE_LINES.map(([left]) => left.length));
  return [
    "Manage zot sessions",
    "",
    "USAGE zot sessions <command> [options]",
    "",
    "COMMANDS",
    "",
    ...USAGE_LINES.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
    "",
    "Sessions live in $ZOT_HOME/sessions/, one directory per working directory. An <id> may be",
    "shortened to any unique start, or be a path to a session file. Resume one with",
    "`zot -c` (the newest), `zot -r` (pick from a list) or `zot --session <id>`.",
    "`zot sessions <command> --help` shows a command's options.",
  ].join("\n");
}

export async function runSessions(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    console.log(sessionsUsage());
    return EXIT.ok;
  }
  const name = ownEntry(ALIASES, first) ?? first;
  const entry = ownEntry(COMMANDS, name);
  if (!entry) {
    const what = first.startsWith("-") ? `unknown flag "${first}" before the subcommand` : `unknown sessions subcommand "${first}"`;
    throw new UsageError(`${what}; valid subcommands: ${Object.keys(COMMANDS).join(", ")} (zot sessions --help)`);
  }
  const command = await entry.load();
  const args = { ...command.args, cwd: CWD_ARG, debug: DEBUG_ARG } satisfies ArgsDef;
  if (rest.includes("--help") || rest.includes("-h")) {
    const { renderHelp, helpStyle } = await import("./help.ts");
    const page = { title: command.description, usage: [[`zot sessions ${command.usage}`, ""]] as [string, string][], args };
    await Bun.write(Bun.stdout, renderHelp(page, helpStyle()));
    return EXIT.ok;
  }
  const { values, positionals } = parseFlags(args, rest, undefined, `zot sessions ${name}`);
  const here = process.cwd();
  const ctx: SessionsContext = {
    home: zotHome(process.env),
    // Where a --cwd leads, as `cd` there makes the working directory (sessions are keyed by it).
    cwd: typeof values.cwd === "string" ? realOrSame(resolve(nonEmptyCwd(values.cwd))) : here,
    here,
    userHome: (await import("node:os")).homedir(),
    width: process.stdout.isTTY ? process.stdout.columns : undefined,
  };
  return await command.run(values, positionals, ctx);
}

/** The one positional a subcommand expects, or a UsageError saying what is missing or extra. */
export function onePositional(positionals: string[], what: string, usage: string, optional = false): string | undefined {
  if (positionals.length > 1) throw new UsageError(`zot sessions ${usage}: unexpected "${positionals[1]}"`);
  if (positionals.length === 0 && !optional) throw new UsageError(`zot sessions ${usage}: pass the ${what}`);
  if (positionals[0] === "") throw new UsageError(`zot sessions ${usage}: the ${what} is empty (an unset variable?)`);
  return positionals[0];
}

/** `--cwd ""` is no folder (an unset variable), as the root command's --cwd says. */
function nonEmptyCwd(value: string): string {
  if (value === "") throw new UsageError("--cwd needs a value (got an empty one)");
  return value;
}
