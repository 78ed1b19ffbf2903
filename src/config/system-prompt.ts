// The system prompt: identity, project context files, appended instructions, environment.
// Rule: the parts always come in that order, outer context before inner (global, then the folders
// down to the cwd: memory-files.ts), so a nearer AGENTS.md or CLAUDE.md has the last word; one memory
// file never hides another.
import { zotPaths } from "./home.ts";
import type { SettingSourceName } from "../protocol/setting-sources.ts";
import { findContextFiles, readTextFile, whyUnreadable } from "./memory-files.ts";
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
  /** whether the folder is trusted: only then are its memory files' imports from outside it read */
  projectTrusted?: boolean;
  /** `$CODEX_HOME` (Codex's AGENTS.md is there); default ~/.codex */
  codexHome?: string;
  /** `$PI_CODING_AGENT_DIR` (memory-files.ts) */
  piAgentDir?: string;
  /** --setting-sources: which of Claude Code's memory files are read; undefined = all */
  claudeSources?: readonly SettingSourceName[];
  /** folders above `cwd` the user trusted (memory-files.ts: their own memory files import from inside them) */
  trustedAbove?: readonly string[];
  /** what the user should hear (an import left out) */
  onNote?: (message: string) => void;
  /** the paths of the memory files the prompt holds (a subfolder's read later does not give them again) */
  onMemoryFiles?: (paths: string[]) => void;
}

export async function buildSystemPrompt(options: SystemPromptOptions): Promise<string> {
  const sections: string[] = [identity(options)];

  const memory = findContextFiles(options.cwd, options.home, {
    ...(options.userHome ? { userHome: options.userHome } : {}),
    ...(options.codexHome ? { codexHome: options.codexHome } : {}),
    ...(options.piAgentDir ? { piAgentDir: options.piAgentDir } : {}),
    projectTrusted: options.projectTrusted === true,
    ...(options.claudeSources ? { claudeSources: options.claudeSources } : {}),
    ...(options.trustedAbove ? { trustedAbove: options.trustedAbove } : {}),
  });
  for (const note of memory.notes) options.onNote?.(note);
  options.onMemoryFiles?.(memory.files.map((file) => file.path));
  const contextFiles = memory.files;
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

function identity(options: SystemPromptOptions): string {
  if (options.systemPrompt !== undefined && options.systemPrompt.trim()) return options.systemPrompt.trim();
  const file = zotPaths(options.home).systemPromptFile;
  const custom = readTextFile(file);
  if (custom?.trim()) return custom.trim();
  const why = custom === undefined ? whyUnreadable(file) : undefined;
  if (why) options.onNote?.(`${file} cannot be read (${why}); zot's own identity is used instead`);
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
