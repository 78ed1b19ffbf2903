// /skills: the skills of this run (name, where it comes from, when the model uses it, and who may
// start it). Rule: exactly the conversation's list, the one the system prompt names plus the ones
// only the user starts, each of those marked, so what /skills shows is what the model can load;
// in a run whose model has no skill tool (--tools without skill, --no-tools), said: they are only
// the user's /names then.
import type { Skill } from "../../../conversation/conversation.ts";
import type { SlashCommand } from "../app-context.ts";

const SOURCE = { builtin: "built in", project: "this project", user: "your home", extension: "an extension" } as const;

export const SKILLS_COMMAND: SlashCommand = {
  name: "skills",
  description: "List the skills the model can load, and those only you start",
  run(app) {
    const skills = app.conversation.skills;
    if (skills.length === 0) {
      app.showNote("no skills in this run (--no-skill)");
      return;
    }
    const offered = app.conversation.offeredTools().some((tool) => tool.name === "skill");
    const rows = skills.map((s) => `- **${s.name}** *(${SOURCE[s.source]}${s.source === "builtin" ? "" : `: ${s.path}`})* — ${s.description}${whoStarts(s)}`);
    const onlyBuiltin = skills.every((s) => s.source === "builtin");
    const hint = onlyBuiltin
      ? "\n\nYour own skills ($ZOT_HOME/skills, ~/.claude/skills, ~/.agents/skills) load in every folder; the project's (.zot/skills, .claude/skills, .agents/skills) once you trust the folder (`zot trust`), or with `zot --with-skills`."
      : "";
    const toolless = offered ? "" : "\n\nThe model has no skill tool in this run (--tools without skill, or --no-tools): it is not told of these, and only your `/name` starts one.";
    app.showMarkdown(`**Skills**\n\n${rows.join("\n")}${toolless}${hint}`);
  },
};

/** Claude Code's disable-model-invocation / user-invocable, said where they narrow who starts a skill. */
function whoStarts(skill: Skill): string {
  if (skill.modelInvocable === false && skill.userInvocable === false) return " *(started by no one: disable-model-invocation: true and user-invocable: false)*";
  if (skill.modelInvocable === false) return ` *(only you start it: /${skill.name}; the model is not told of it)*`;
  if (skill.userInvocable === false) return " *(only the model loads it: user-invocable: false)*";
  return "";
}
