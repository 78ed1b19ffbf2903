// The skills as slash commands, as Claude Code offers them: `/deploy staging` sends the skill's
// instructions with the words after it, so a user need not ask the model to load it. Rule: a
// Markdown command of the same name comes first (the skill is then only the model's); the prompt is
// the skill's body expanded as a command's is ($ARGUMENTS, `!` lines where a command's would run).
import type { Skill } from "../skills/discover.ts";
import type { MarkdownCommand } from "./markdown-commands.ts";

/** A command for each skill whose name no command in `taken` has. */
export function skillCommands(skills: readonly Skill[], taken: ReadonlySet<string>): MarkdownCommand[] {
  return skills
    .filter((skill) => !taken.has(skill.name.toLowerCase()))
    .map((skill) => ({
      name: skill.name,
      description: `${skill.description} (skill)`,
      body: skill.body,
      file: skill.path,
      // A project's skill runs its `!` lines only in a trusted folder, as a project's command does.
      scope: skill.source === "project" ? "project" : "user",
    }));
}
