// The skills as slash commands, as Claude Code offers them: `/deploy staging` sends the skill's
// instructions with the words after it, so a user need not ask the model to load it. Rule: a
// Markdown command of the same name comes first (the skill is then only the model's); the prompt is
// the skill's body with the words for `$ARGUMENTS` (or after it), and nothing else of a command's
// expansion: a skill's body is instructions with examples (`awk '{print $1}'`, a fenced `!`date``),
// which must reach the model as written. A skill with Claude Code's `user-invocable: false` is no
// command at all (only the model loads it); one with `disable-model-invocation: true` is one as any.
import { type Skill, userInvocable } from "../skills/discover.ts";
import type { MarkdownCommand } from "./markdown-commands.ts";

/** A command for each skill the user may start whose name no command in `taken` has. */
export function skillCommands(skills: readonly Skill[], taken: ReadonlySet<string>): MarkdownCommand[] {
  return skills
    .filter((skill) => userInvocable(skill) && !taken.has(skill.name.toLowerCase()))
    .map((skill) => ({
      name: skill.name,
      description: `${skill.description} (skill)`,
      body: skill.body,
      file: skill.path,
      scope: skill.source === "project" ? "project" : "user",
      plain: true,
      // Claude Code's skill `allowed-tools`: what `/<skill>`'s prompt may run unasked, as a command's.
      ...(skill.allowedTools ? { allowedTools: skill.allowedTools } : {}),
    }));
}

/** A skill's prompt: its body with `args` for `$ARGUMENTS`, or after it when the body has no place for them. */
export function skillPrompt(body: string, args: string): string {
  const words = args.trim();
  // A function, so `$&` or `$$` in what the user typed arrive as typed.
  if (body.includes("$ARGUMENTS")) return body.replaceAll("$ARGUMENTS", () => words);
  return words ? `${body.trimEnd()}\n\n${words}` : body;
}
