// `--help` pages of every command, rendered from the same citty ArgsDef the parser reads.
// Rule: a page fits the width it is printed at (the terminal's, else $COLUMNS, else 80): long
// descriptions wrap under themselves, never past the edge; colour only on a terminal, never with
// NO_COLOR (or TERM=dumb).
import type { ArgsDef } from "citty";
import { colorAllowed } from "../tui/theme.ts";

export interface HelpPage {
  /** one line: what the command is */
  title: string;
  /** usage forms: [form, what it does] (the second may be "") */
  usage: [string, string][];
  /** subcommands: [name, one line] */
  commands?: [string, string][];
  args?: ArgsDef;
  /** paragraphs after the options */
  notes?: string[];
}

export interface HelpStyle {
  color: boolean;
  width: number;
}

const MAX_WIDTH = 100;
const MIN_WIDTH = 40;
/** The option column's width; a longer option puts its description on the next line. */
const MAX_LEFT = 28;

/** How stdout wants the page: colour and width. */
export function helpStyle(
  env: Record<string, string | undefined> = process.env,
  stdout: { isTTY?: boolean; columns?: number } = process.stdout,
): HelpStyle {
  const columns = stdout.isTTY && stdout.columns ? stdout.columns : Number(env.COLUMNS) || 80;
  // One column spare: a row that fills the last column makes some terminals wrap an empty row after it.
  return { color: colorAllowed(env, Boolean(stdout.isTTY)), width: Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, columns)) - 1 };
}

export function renderHelp(page: HelpPage, style: HelpStyle): string {
  const heading = (text: string) => (style.color ? `\x1b[1m${text}\x1b[22m` : text);
  const accent = (text: string) => (style.color ? `\x1b[36m${text}\x1b[39m` : text);
  const out: string[] = [...wrap(page.title, style.width), ""];
  out.push(heading("USAGE"), ...table(page.usage, style.width, accent), "");
  if (page.commands?.length) out.push(heading("COMMANDS"), ...table(page.commands, style.width, accent), "");
  const positionals = Object.entries(page.args ?? {}).filter(([, arg]) => arg.type === "positional");
  const argRows = positionals.map(([name, arg]): [string, string] => [name.toUpperCase(), arg.description ?? ""]);
  if (argRows.length > 0) out.push(heading("ARGUMENTS"), ...table(argRows, style.width, accent), "");
  const options = optionRows(page.args ?? {});
  if (options.length > 0) out.push(heading("OPTIONS"), ...table(options, style.width, accent), "");
  for (const note of page.notes ?? []) out.push(...wrap(note, style.width), "");
  return `${out.join("\n").trimEnd()}\n`;
}

/** One row per flag; a flag described as "Same as --x" is folded into --x's row. */
function optionRows(args: ArgsDef): [string, string][] {
  const rows = new Map<string, [string, string]>();
  const aliasesOf = new Map<string, string[]>();
  for (const [name, arg] of Object.entries(args)) {
    const same = /^Same as --([\w-]+)$/.exec(arg.description ?? "");
    if (same && same[1] in args) {
      aliasesOf.set(same[1], [...(aliasesOf.get(same[1]) ?? []), `--${name}`]);
      continue;
    }
    if (arg.type === "positional") continue;
    const alias: string | string[] | undefined = "alias" in arg ? arg.alias : undefined;
    const short = (typeof alias === "string" ? [alias] : (alias ?? [])).find((a) => a.length === 1);
    const hint = arg.type === "boolean" ? "" : ` <${("valueHint" in arg && arg.valueHint) || "value"}>`;
    const left = `${short ? `-${short}, ` : "    "}--${name}${hint}`;
    let description = arg.description ?? "";
    if (arg.type === "enum" && arg.options?.length && !arg.options.every((o) => description.includes(o))) {
      description += ` (${arg.options.join(", ")})`;
    }
    rows.set(name, [left, description]);
  }
  for (const [name, aliases] of aliasesOf) {
    const row = rows.get(name);
    if (row) row[1] += ` (also ${aliases.join(", ")})`;
  }
  return [...rows.values()];
}

/** Two columns, the left one coloured; a row whose left side is too wide continues on the next line. */
function table(rows: [string, string][], width: number, accent: (text: string) => string): string[] {
  const leftWidth = Math.min(MAX_LEFT, Math.floor(width * 0.4), Math.max(0, ...rows.map(([left]) => left.length)));
  const indent = 2;
  const descColumn = indent + leftWidth + 2;
  const lines: string[] = [];
  for (const [left, right] of rows) {
    const description = right ? wrap(right, Math.max(20, width - descColumn)) : [];
    const pad = " ".repeat(descColumn);
    if (left.length > leftWidth || description.length === 0) {
      lines.push(" ".repeat(indent) + accent(left));
      lines.push(...description.map((line) => pad + line));
    } else {
      lines.push(" ".repeat(indent) + accent(left.padEnd(leftWidth)) + "  " + description[0]);
      lines.push(...description.slice(1).map((line) => pad + line));
    }
  }
  return lines;
}

/** Greedy word wrap of plain text; a word longer than the width gets a line of its own. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/ +/)) {
      if (line && Bun.stringWidth(line) + 1 + Bun.stringWidth(word) > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  return lines;
}
