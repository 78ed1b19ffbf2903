// Custom slash commands written as Markdown files, the way Claude Code users keep them: a file
// `review.md` in `.claude/commands/` (or `.zot/commands/`, `$ZOT_HOME/commands/`,
// `~/.claude/commands/`) is the command `/review`; a subfolder organises, as in Claude Code:
// `frontend/lint.md` is `/lint`, described as (project:frontend), and `/frontend:lint` runs it too.
// Codex's custom prompts (`$CODEX_HOME/prompts/*.md`) are commands in the namespace `prompts`
// (`/prompts:review`, and `/review` where no earlier folder has it), and pi's prompt templates
// (`~/.pi/agent/prompts/`, a folder's `.pi/prompts/`) commands as Claude Code's are.
// Rule: a project's commands come before the user's (the user's first while the folder is not
// trusted: a cloned repository's `commit.md` must not take the place of the user's own /commit and
// speak as the user; run from the home folder, `~/.claude/commands` is the user's, read once), zot's
// folder before Claude Code's, and the first of a name wins; a subfolder's command keeps its short
// name only while no file outside a subfolder, and no earlier subfolder's, has it (else it is
// `/frontend:lint` alone); a file that cannot be a command is a warning naming it, never a failure
// of the others.
import { type SettingSourceName, sourceRead } from "../protocol/setting-sources.ts";
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { parseFrontmatter } from "../skills/frontmatter.ts";
import { argumentNamesOf, refusedNamesWarning } from "../skills/argument-names.ts";
import { splitRuleList } from "../protocol/rule-list.ts";
import { errnoWords } from "../protocol/errno-words.ts";

export type CommandScope = "project" | "user";

export interface MarkdownCommand {
  /** what the user types after `/`: `review`, `lint` (frontend/lint.md), or `frontend:lint` when another has `lint` */
  name: string;
  /** a subfolder's command's namespaced name (`frontend:lint`), which runs it too */
  alias?: string;
  /**
   * a skill (skill-commands.ts): `$0` is its first argument, `${CLAUDE_SKILL_DIR}` is `dir` (the
   * folder of its SKILL.md; none for a built-in), and only the @files of the words the user typed are attached (its body's and what its ! commands print are not the user's)
   */
  skill?: { dir?: string };
  description: string;
  /** frontmatter `argument-hint`: shown after the name in the popup (`[file] [focus]`) */
  argumentHint?: string;
  /** frontmatter `model`: the model the prompt should run on */
  model?: string;
  /** frontmatter `allowed-tools`, as written (`Bash(git diff:*)`, `Read`) */
  allowedTools?: string[];
  /** frontmatter `arguments:`: the names of the positional arguments in the body (`$issue`), in order */
  argumentNames?: string[];
  /** the Markdown after the frontmatter: the prompt, before $ARGUMENTS, @file and !`cmd` are expanded */
  body: string;
  file: string;
  scope: CommandScope;
}

export interface LoadedCommands {
  commands: MarkdownCommand[];
  warnings: string[];
}

export interface CommandDirsOptions {
  cwd: string;
  /** $ZOT_HOME */
  home: string;
  /** the user's home (~/.claude/commands) */
  userHome: string;
  /**
   * Why a project command's file or folder is not to be read, or undefined: the runtime withholds
   * links out of a folder not trusted, as it does memory files' (a cloned repository's
   * `.claude/commands/x.md` linked to /proc/self/environ or ~/.ssh/id_rsa would be a prompt).
   */
  withheld?: (path: string) => string | undefined;
  /** false: the folder is not trusted, so the user's commands come before its own (default true) */
  projectTrusted?: boolean;
  /** --setting-sources: whether Claude Code's command folders are read (config/setting-sources.ts); undefined = all */
  claudeSources?: readonly SettingSourceName[];
  /** `$CODEX_HOME` (its `prompts` are Codex's custom prompts); default ~/.codex */
  codexHome?: string;
  /** `$PI_CODING_AGENT_DIR` (its `prompts` are pi's templates); default ~/.pi/agent */
  piAgentDir?: string;
}

/** A command file larger than this is skipped: a prompt, not a dump. */
const MAX_COMMAND_BYTES = 256 * 1024;
/** Names are what the user types: letters, digits, `-`, `_`, and `:` between namespace parts. */
const NAME_PART = /^[A-Za-z0-9_-]+$/;

/** Where commands are looked for, in precedence order. */
export function commandDirs(options: CommandDirsOptions): { dir: string; scope: CommandScope; namespace?: string }[] {
  const read = (source: SettingSourceName) => sourceRead(options.claudeSources, source);
  const codexHome = options.codexHome?.trim() ? path.resolve(options.codexHome.trim()) : path.join(options.userHome, ".codex");
  const piAgentDir = options.piAgentDir?.trim() ? path.resolve(options.piAgentDir.trim()) : path.join(options.userHome, ".pi", "agent");
  const project: { dir: string; scope: CommandScope; namespace?: string }[] = [
    { dir: path.join(options.cwd, ".zot", "commands"), scope: "project" as const },
    ...(read("project") ? [{ dir: path.join(options.cwd, ".claude", "commands"), scope: "project" as const }] : []),
    { dir: path.join(options.cwd, ".pi", "prompts"), scope: "project" as const },
  ];
  const user: { dir: string; scope: CommandScope; namespace?: string }[] = [
    { dir: path.join(options.home, "commands"), scope: "user" as const },
    ...(read("user") ? [{ dir: path.join(options.userHome, ".claude", "commands"), scope: "user" as const }] : []),
    { dir: path.join(codexHome, "prompts"), scope: "user" as const, namespace: "prompts" },
    { dir: path.join(piAgentDir, "prompts"), scope: "user" as const },
  ];
  // Run from the home directory, <cwd>/.claude/commands and ~/.claude/commands are one folder (and
  // <cwd>/.zot/commands may be $ZOT_HOME/commands): read once, as the user's own, in the user's place.
  const users = new Set(user.map(({ dir }) => realOr(dir)));
  const own = project.filter(({ dir }) => !users.has(realOr(dir)));
  return options.projectTrusted === false ? [...user, ...own] : [...own, ...user];
}

/** Where `dir` really is (a link followed), or `dir` when it is not there. */
function realOr(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Every command in the folders, first of a name winning; broken files are warnings. */
export function loadMarkdownCommands(options: CommandDirsOptions): LoadedCommands {
  const commands: MarkdownCommand[] = [];
  const warnings: string[] = [];
  /** each name taken, and the file that took it */
  const takenBy = new Map<string, MarkdownCommand>();
  const taken = new Set<string>();
  for (const { dir, scope, namespace } of commandDirs(options)) {
    const withheld = scope === "project" ? options.withheld : undefined;
    for (const file of markdownFiles(dir, new Set(), withheld, warnings)) {
      const plain = commandName(dir, file);
      // A Codex prompt takes its plain name where no earlier folder has it (so, while the folder is not
      // trusted, before the folder's own commands), and answers to `prompts:<name>` always.
      const name = plain && namespace && taken.has(plain.toLowerCase()) ? `${namespace}:${plain}` : plain;
      const alias = plain && namespace && name === plain ? `${namespace}:${plain}` : undefined;
      if (!name) {
        warnings.push(`${file}: not a command name (use letters, digits, - and _ in file and folder names); skipped`);
        continue;
      }
      if (taken.has(name.toLowerCase())) {
        const first = takenBy.get(name.toLowerCase());
        if (scope === "project" && first?.scope === "user") {
          warnings.push(`${file}: /${name} is not this folder's while the folder is not trusted: your own ${first.file} has the name and comes first (zot trust, or --trust for one run)`);
        }
        continue;
      }
      const read = readCommand(file, name, scope, warnings);
      if ("error" in read) {
        warnings.push(read.error);
        continue;
      }
      const loaded = alias ? { ...read, alias } : read;
      taken.add(name.toLowerCase());
      takenBy.set(name.toLowerCase(), loaded);
      if (alias) taken.add(alias.toLowerCase());
      commands.push(loaded);
    }
  }
  return { commands: withShortNames(commands, taken), warnings };
}

/** A subfolder's commands by their file's name (`/lint`), as Claude Code names them, where no other command has it. */
function withShortNames(commands: MarkdownCommand[], taken: ReadonlySet<string>): MarkdownCommand[] {
  const shortTaken = new Set<string>();
  return commands.map((command) => {
    const colon = command.name.lastIndexOf(":");
    if (colon === -1) return command;
    const short = command.name.slice(colon + 1);
    if (taken.has(short.toLowerCase()) || shortTaken.has(short.toLowerCase())) return command;
    shortTaken.add(short.toLowerCase());
    return { ...command, name: short, alias: command.name };
  });
}

/** `frontend/lint.md` under dir → `frontend:lint`; undefined when a part is not a plain name. */
function commandName(dir: string, file: string): string | undefined {
  const parts = path.relative(dir, file).replace(/\.md$/i, "").split(path.sep);
  return parts.every((part) => NAME_PART.test(part)) ? parts.join(":") : undefined;
}

function readCommand(file: string, name: string, scope: CommandScope, warnings: string[]): MarkdownCommand | { error: string } {
  let text: string;
  try {
    if (statSync(file).size > MAX_COMMAND_BYTES) return { error: `${file}: larger than ${MAX_COMMAND_BYTES / 1024} KiB; skipped` };
    text = readFileSync(file, "utf8");
  } catch (error) {
    return { error: `${file}: cannot be read (${errnoWords(error)}); skipped` };
  }
  let attributes: Record<string, string | string[]> = {};
  // CRLF line ends read as a frontmatter's body reads them (parseFrontmatter): a ```! block's lines
  // would run with a stray \r (`git --version\r`).
  let body = text.replace(/\r\n/g, "\n").trim();
  if (/^\uFEFF?\s*---\s*\r?\n/.test(text)) {
    const parsed = parseFrontmatter(text, file);
    if (!parsed.ok) return { error: `${parsed.error}; skipped` };
    attributes = parsed.value.attributes;
    body = parsed.value.body;
  }
  const text1 = (key: string) => {
    const value = attributes[key];
    return typeof value === "string" && value.trim() ? value.trim() : undefined;
  };
  // `argument-hint: [message]` reads as a one-item list to a YAML-ish parser; it is text to show.
  const hint = attributes["argument-hint"];
  if (Array.isArray(hint)) attributes["argument-hint"] = `[${hint.join(", ")}]`;
  const tools = attributes["allowed-tools"];
  // A list's items may hold several (`- Read, Grep`), as the one-line form does.
  const allowedTools = Array.isArray(tools) ? tools.flatMap((item) => splitRuleList(String(item))) : typeof tools === "string" ? splitRuleList(tools) : undefined;
  const named = argumentNamesOf(attributes.arguments);
  if (named.refused.length > 0) warnings.push(refusedNamesWarning(file, named.refused));
  const description = text1("description") ?? firstLine(body) ?? `/${name}`;
  const folder = name.includes(":") ? `:${name.slice(0, name.lastIndexOf(":"))}` : "";
  return {
    name,
    description: `${description} (${scope}${folder})`,
    ...(text1("argument-hint") ? { argumentHint: text1("argument-hint") } : {}),
    ...(text1("model") ? { model: text1("model") } : {}),
    ...(allowedTools && allowedTools.length > 0 ? { allowedTools } : {}),
    ...(named.names.length > 0 ? { argumentNames: named.names } : {}),
    body,
    file,
    scope,
  };
}

function firstLine(body: string): string | undefined {
  const line = body.split(/\r?\n/).find((l) => l.trim() !== "");
  if (!line) return undefined;
  const plain = line.replace(/^#+\s*/, "").trim();
  return plain.length > 80 ? `${plain.slice(0, 79)}…` : plain;
}

/**
 * Every `.md` file under dir, sorted, subfolders included (symlinked folders followed once). A file
 * or folder `withheld` gives a reason for is left out, with the reason as a warning.
 */
function markdownFiles(dir: string, seen: Set<string>, withheld: ((path: string) => string | undefined) | undefined, warnings: string[]): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry);
    let stats: ReturnType<typeof statSync>;
    try {
      stats = statSync(full);
    } catch {
      continue;
    }
    const wanted = stats.isDirectory() || (stats.isFile() && entry.toLowerCase().endsWith(".md"));
    const reason = wanted ? withheld?.(full) : undefined;
    if (reason !== undefined) {
      warnings.push(reason);
      continue;
    }
    if (stats.isDirectory()) {
      const key = `${stats.dev}:${stats.ino}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(...markdownFiles(full, seen, withheld, warnings));
    } else if (wanted) out.push(full);
  }
  return out;
}
