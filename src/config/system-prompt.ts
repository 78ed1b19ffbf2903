// The system prompt: identity, project context files, appended instructions, environment.
// Rule: the parts always come in that order, outer context before inner (global, then the
// repository root down to the cwd), so a nearer AGENTS.md has the last word. Memory files of zot
// and of Claude Code are read alike: AGENTS.md, CLAUDE.md and CLAUDE.local.md all count (one never
// hides another), and their `@path` imports are brought in after the file that names them. The
// files are read synchronously: a dozen small files (most of them missing) cost a start less that
// way than a dozen trips through the thread pool (about 1 ms of a one-shot run, scripts/bench floor).
import { readFileSync, realpathSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { zotPaths } from "./home.ts";
import { localDate } from "./local-date.ts";

export interface SystemPromptOptions {
  cwd: string;
  home: string;
  /** `--system-prompt`: replaces the identity (wins over $ZOT_HOME/SYSTEM.md) */
  systemPrompt?: string;
  /** `--append-system-prompt` values, in order */
  append: string[];
  now: Date;
  platform: string;
  /** names of the tools the model will be offered, for the built-in identity's guidance */
  toolNames: string[];
  /** the user's home directory (~/.claude/CLAUDE.md, `@~/…` imports); default os.homedir() */
  userHome?: string;
}

export interface ContextFile {
  path: string;
  content: string;
  /** the context file whose `@path` brought this one in */
  importedBy?: string;
}

/** Read in this order in each directory, every one found (a file reached twice, a symlink, once). */
const CONTEXT_FILE_NAMES = ["AGENTS.md", "CLAUDE.md", "CLAUDE.local.md"];
/** `@path` imports nest at most this deep (Claude Code's limit). */
const MAX_IMPORT_DEPTH = 5;
/** An imported file larger than this is left out (a stray `@node_modules/…` must not fill the prompt). */
const MAX_IMPORT_BYTES = 256 * 1024;

export async function buildSystemPrompt(options: SystemPromptOptions): Promise<string> {
  const sections: string[] = [identity(options)];

  const contextFiles = await findContextFiles(options.cwd, options.home, options.userHome);
  if (contextFiles.length > 0) {
    const parts = contextFiles.map(
      (file) => `## ${file.path}${file.importedBy ? ` (imported by ${file.importedBy})` : ""}\n\n${file.content.trim()}`,
    );
    sections.push(
      [
        "# Project context",
        "Instructions from context files, outermost first; where they disagree, the later (nearer) file wins.",
        ...parts,
      ].join("\n\n"),
    );
  }

  for (const text of options.append) {
    if (text.trim()) sections.push(text.trim());
  }

  sections.push(environment(options));
  return `${sections.join("\n\n")}\n`;
}

/**
 * $ZOT_HOME/AGENTS.md and ~/.claude/CLAUDE.md, then AGENTS.md, CLAUDE.md and CLAUDE.local.md of
 * every directory from the repository root (the nearest ancestor holding `.git`) down to the cwd
 * (just the cwd outside a repository), each followed by the files its `@path` lines import. Empty
 * files are skipped; a file reached twice (a symlinked CLAUDE.md, home inside the repo) is listed once.
 */
export async function findContextFiles(cwd: string, home: string, userHome: string = os.homedir()): Promise<ContextFile[]> {
  const start = path.resolve(cwd);
  const root = repositoryRoot(start);
  const dirs: string[] = [];
  if (root) {
    for (let dir = start; ; dir = path.dirname(dir)) {
      dirs.unshift(dir);
      if (dir === root) break;
    }
  } else {
    dirs.push(start);
  }

  const candidates = [
    path.join(path.resolve(home), "AGENTS.md"),
    path.join(userHome, ".claude", "CLAUDE.md"),
    ...dirs.flatMap((dir) => CONTEXT_FILE_NAMES.map((name) => path.join(dir, name))),
  ];
  const found: ContextFile[] = [];
  const seen = new Set<string>();
  const add = (file: string, importedBy: string | undefined, depth: number): void => {
    const content = readTextFile(file, importedBy ? MAX_IMPORT_BYTES : undefined);
    if (content === undefined || !content.trim()) return;
    const real = realOrSame(file);
    if (seen.has(real)) return;
    seen.add(real);
    found.push({ path: file, content, ...(importedBy ? { importedBy } : {}) });
    if (depth >= MAX_IMPORT_DEPTH) return;
    for (const target of importsOf(content, path.dirname(file), userHome)) add(target, file, depth + 1);
  };
  for (const file of candidates) add(file, undefined, 0);
  return found;
}

/**
 * The files a memory file imports: `@path` words (`@docs/style.md`, `@~/notes.md`, `@/abs/x.md`)
 * outside code spans and fenced blocks, relative to the importing file. A word that names no file
 * (an e-mail address, a package scope) is simply not an import.
 */
export function importsOf(content: string, dir: string, userHome: string): string[] {
  const targets: string[] = [];
  let fenced = false;
  for (const line of content.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const prose = line.replace(/`[^`]*`/g, "");
    for (const match of prose.matchAll(/(?:^|\s)@((?:~\/|\.{1,2}\/|\/)?[\w.\-/]+[\w\-/])/g)) {
      const raw = match[1];
      const target = raw.startsWith("~/") ? path.join(userHome, raw.slice(2)) : path.resolve(dir, raw);
      if (!targets.includes(target)) targets.push(target);
    }
  }
  return targets;
}

function repositoryRoot(start: string): string | undefined {
  for (let dir = start; ; ) {
    // `.git` is a directory in a clone and a file in worktrees and submodules.
    if (exists(path.join(dir, ".git"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function identity(options: SystemPromptOptions): string {
  if (options.systemPrompt !== undefined && options.systemPrompt.trim()) return options.systemPrompt.trim();
  const custom = readTextFile(zotPaths(options.home).systemPromptFile);
  if (custom?.trim()) return custom.trim();
  return defaultIdentity(options.toolNames);
}

/** The built-in identity, with guidance for exactly the tools this session offers. */
export function defaultIdentity(toolNames: readonly string[]): string {
  const tools = new Set(toolNames);
  const canEdit = tools.has("edit") || tools.has("write");
  const paragraphs = [
    "You are zot, a coding agent working in the user's terminal, in their current project. You help with software engineering: reading and changing code, running commands, debugging, and explaining how things work. (If asked what zot stands for: zero-overhead-tool.)",
    "Be concise and direct. When a task needs doing, do it with your tools rather than describing what you would do, and don't announce each tool call before you make it. When you are done, summarise in a few lines what you changed and what you found. Ask first only when the request is genuinely ambiguous or an action is destructive or hard to undo.",
    "Your replies are rendered as Markdown in a terminal: use short paragraphs, lists and fenced code blocks with a language tag; keep tables narrow; no HTML. Refer to code as `path:line` so the user can jump to it.",
  ];

  const practice = [
    "- Read the relevant code before changing it, and follow the conventions already in the codebase.",
    "- Keep changes focused on the request; don't reformat unrelated code or add files nobody asked for.",
  ];
  if (canEdit) {
    const how =
      tools.has("edit") && tools.has("write")
        ? "Prefer `edit` for changes to existing files and `write` for new files or complete rewrites."
        : tools.has("edit")
          ? "Change files with `edit`."
          : "Create and rewrite files with `write`.";
    // Shell edits bypass the diff the user reviews and the confirmation gate.
    practice.push(`- ${how} Never change files through the shell (no \`>\`/\`>>\` redirection, \`sed -i\`, \`tee\` or heredocs into files).`);
  }
  if (tools.has("bash")) {
    practice.push(
      "- Verify your work: run the relevant tests, type-checker or build after a change, and report the result honestly, failures included.",
      "- Don't run destructive or irreversible commands (`rm -rf`, `git reset --hard`, `git push --force`) unless the user asked for them.",
    );
  }
  paragraphs.push(`Working with code:\n${practice.join("\n")}`);

  const guidance: string[] = [];
  if (tools.has("read")) guidance.push("- `read`: look at a file's contents; read large files in ranges instead of all at once.");
  if (tools.has("edit")) guidance.push("- `edit`: replace an exact snippet of an existing file; include enough surrounding lines for the match to be unique, and read the file first.");
  if (tools.has("write")) guidance.push("- `write`: create a new file or replace a whole file; it overwrites without asking.");
  if (tools.has("bash")) {
    guidance.push(
      "- `bash`: run shell commands in the working directory: search (`rg`, `grep`, `find`), list files, run tests and builds, use git. Avoid interactive programs and commands that never exit, such as dev servers or watchers.",
    );
  }
  if (tools.has("skill")) guidance.push("- `skill`: load a skill's instructions when the task matches one of the available skills.");
  const described = new Set(["read", "edit", "write", "bash", "skill"]);
  const others = toolNames.filter((name) => !described.has(name));
  if (others.length > 0) guidance.push(`- Also available: ${others.map((n) => `\`${n}\``).join(", ")}; see their descriptions.`);

  paragraphs.push(
    guidance.length > 0
      ? `Tools:\n${guidance.join("\n")}`
      : "No tools are available in this session: answer from the conversation, and say so when a task needs files or commands you cannot reach.",
  );
  return paragraphs.join("\n\n");
}

function environment(options: SystemPromptOptions): string {
  return [
    "# Environment",
    // the user's "today", not UTC's, read without waking ICU (~5 ms of a one-shot start)
    `- Date: ${localDate(options.now)}`,
    `- Working directory: ${options.cwd || "."}`,
    `- Platform: ${platformName(options.platform)}`,
  ].join("\n");
}

function platformName(platform: string): string {
  const names: Record<string, string> = { darwin: "macOS", linux: "Linux", win32: "Windows" };
  const name = names[platform];
  return name ? `${name} (${platform})` : platform;
}

function readTextFile(file: string, maxBytes?: number): string | undefined {
  try {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) return undefined;
    if (maxBytes !== undefined && stat.size > maxBytes) return undefined;
    return readFileSync(file, "utf8");
  } catch {
    // Missing or unreadable: context files are optional, and a prompt without one still works.
    return undefined;
  }
}

function exists(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false }) !== undefined;
}

function realOrSame(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
