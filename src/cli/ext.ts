// `zot ext …`: manage extensions from the command line (list, install, remove, enable, disable,
// logs, new, check, doctor). This file only routes to the subcommand and prints usage.
// Rule: each subcommand loads lazily, so `zot ext list` pays only for listing; a bad subcommand or
// flag is a UsageError (exit 2) naming what is valid, any other failure a sentence (exit 1).
import { isatty } from "node:tty";
import type { ArgsDef, BooleanArgDef } from "citty";
import { zotHome } from "../config/home.ts";
import { UsageError } from "../config/usage-error.ts";
import { EXIT } from "./router.ts";
import { ownEntry } from "../protocol/own-key.ts";

/** What every subcommand needs to know about where it runs; passed in, never read deep inside. */
export interface ExtContext {
  home: string;
  cwd: string;
  env: Record<string, string | undefined>;
  /** whether a person can answer a question (stdin and stderr are terminals) */
  interactive: boolean;
}

/** Accepted by every subcommand: the router reads it to show stack traces. */
export const DEBUG_ARG = { type: "boolean", description: "Show stack traces on errors" } satisfies BooleanArgDef;

/** A subcommand module: its flags (for parsing and --help) and what it does. */
export interface ExtCommand {
  usage: string;
  description: string;
  args: ArgsDef;
  run(argv: string[], ctx: ExtContext): Promise<number>;
}

const COMMANDS: Record<string, { summary: string; load: () => Promise<ExtCommand> }> = {
  list: { summary: "list extensions, their state and where they come from", load: async () => (await import("./ext-list.ts")).LIST },
  install: {
    summary: "copy a directory or clone a git URL into $ZOT_HOME/extensions/",
    load: async () => (await import("./ext-install.ts")).INSTALL,
  },
  remove: { summary: "delete an installed extension, by its name or its directory's (alias: rm)", load: async () => (await import("./ext-remove.ts")).REMOVE },
  enable: { summary: "enable a disabled extension", load: async () => (await import("./ext-enable.ts")).ENABLE },
  disable: { summary: "disable an extension without removing it", load: async () => (await import("./ext-enable.ts")).DISABLE },
  logs: { summary: "print an extension's log (stderr and host notes); -f follows it", load: async () => (await import("./ext-logs.ts")).LOGS },
  new: { summary: "scaffold a working extension in TypeScript, JavaScript or Python", load: async () => (await import("./ext-new.ts")).NEW },
  check: { summary: "start an extension once and report what it registers and every protocol error", load: async () => (await import("./ext-check.ts")).CHECK },
  doctor: {
    summary: "start every installed extension as zot would; report errors, shadowing, conflicts, ready state and logs",
    load: async () => (await import("./ext-doctor.ts")).DOCTOR,
  },
};
const ALIASES: Record<string, string> = { rm: "remove", ls: "list" };

/** Every word `zot ext` takes as its command (cli/subcommands.ts spells them out for the root command). */
export const EXT_VERBS = [...Object.keys(COMMANDS), ...Object.keys(ALIASES)];

const USAGE_LINES: [string, string][] = [
  ["list [--json]", COMMANDS.list.summary],
  ["install <path|git-url> [--force]", COMMANDS.install.summary],
  ["remove <name> [--yes]", COMMANDS.remove.summary],
  ["enable <name>", COMMANDS.enable.summary],
  ["disable <name>", COMMANDS.disable.summary],
  ["logs <name> [-f]", COMMANDS.logs.summary],
  ["new <name> [--lang ts|js|python] [--dir PATH]", COMMANDS.new.summary],
  ["check <path|name>", COMMANDS.check.summary],
  ["doctor [--json]", COMMANDS.doctor.summary],
];

export function extUsage(): string {
  const width = Math.max(...USAGE_LINES.map(([left]) => left.length));
  return [
    "Manage zot extensions",
    "",
    "USAGE zot ext <command> [options]",
    "",
    "COMMANDS",
    "",
    ...USAGE_LINES.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
    "",
    "Extensions are found in <project>/.zot/extensions/<name>/ (first) and $ZOT_HOME/extensions/<name>/.",
    "`zot ext <command> --help` shows a command's options.",
  ].join("\n");
}

export async function runExt(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    console.log(extUsage());
    return EXIT.ok;
  }
  const name = ownEntry(ALIASES, first) ?? first;
  const entry = ownEntry(COMMANDS, name);
  if (!entry) {
    const what = first.startsWith("-") ? `unknown flag "${first}" before the subcommand` : `unknown ext subcommand "${first}"`;
    throw new UsageError(`${what}; valid subcommands: ${Object.keys(COMMANDS).join(", ")} (zot ext --help)`);
  }
  const command = await entry.load();
  if (rest.includes("--help") || rest.includes("-h")) {
    const { renderHelp, helpStyle } = await import("./help.ts");
    const page = { title: command.description, usage: [[`zot ext ${command.usage}`, ""]] as [string, string][], args: command.args };
    await Bun.write(Bun.stdout, renderHelp(page, helpStyle()));
    return EXIT.ok;
  }
  const home = zotHome(process.env);
  // The environment a run would give the extensions: Claude Code's settings env included (runtime/run-env.ts).
  const { runEnv } = await import("../runtime/run-env.ts");
  const ctx: ExtContext = {
    home,
    cwd: process.cwd(),
    env: runEnv({ cwd: process.cwd(), home, started: process.env }).env,
    interactive: isatty(0) && isatty(2),
  };
  return await command.run(rest, ctx);
}
