// The `skill` tool: returns a skill's full instructions when the model decides it needs them.
// Rule: the tool serves the run's skills as they are now (read again at a reload, which the system
// prompt's list follows at the next new conversation or compaction: run-skills.ts), less the ones
// only the user may start; an unknown name is an error that lists the real ones, so
// the model can correct itself in one step instead of guessing again, and a user-only skill's
// name is refused with what to do instead, never its body.
import type { Tool } from "../protocol/tool.ts";
import { textResult } from "../protocol/tool.ts";
import { modelInvocable, type Skill, userInvocable } from "../skills/discover.ts";
import { defineArgs, renameKeys } from "./args.ts";
import { skillArgs } from "./builtin-args.ts";
import { builtinParameters } from "./builtin-parameters.ts" with { type: "macro" };
import { namesWithin } from "../protocol/names-within.ts";

const args = defineArgs("skill", skillArgs, builtinParameters("skillArgs"));

/** `skills`: the skills it serves, or how to get them as they are at each call. */
export function createSkillTool(skills: readonly Skill[] | (() => readonly Skill[])): Tool {
  const current = typeof skills === "function" ? skills : () => skills;
  return {
    name: "skill",
    description:
      "Load a skill's full instructions by name. Use it when the user's request matches one of the skills listed in the system prompt, before starting the task, then follow the instructions it returns.",
    parameters: args.jsonSchema,
    async execute(raw) {
      const parsed = args.parse(renameKeys(raw, { skill: "name", skill_name: "name" }));
      if (!parsed.ok) return parsed.error;
      const wanted = parsed.value.name;
      const now = current();
      const byName = new Map(now.map((skill) => [skill.name, skill]));
      // Models sometimes write the name as a slash command or in another case; that is not a
      // different skill, so it should not cost a failed call.
      const skill = byName.get(wanted) ?? byName.get(wanted.trim().replace(/^\//, "").toLowerCase());
      if (skill && !modelInvocable(skill)) {
        // Claude Code's disable-model-invocation: true. Its name reached the model some other way
        // (the user wrote it); only the user's /name starts it.
        const how = userInvocable(skill)
          ? `it can be started only by the user, who types /${skill.name}; if it is needed, ask the user to run /${skill.name}`
          : "its SKILL.md turns it off for the model (disable-model-invocation: true) and for the user (user-invocable: false)";
        return textResult(`skill: the skill ${JSON.stringify(skill.name)} is not for the model to load: ${how}`, true);
      }
      if (!skill) {
        const names = now.filter(modelInvocable).map((s) => s.name);
        const available = names.length > 0 ? `available skills: ${namesWithin(names, 6_000)}` : "no skills are available in this session";
        return textResult(`skill: there is no skill named ${JSON.stringify(wanted)}; ${available}`, true);
      }
      return textResult(`# Skill: ${skill.name}\n\n${skill.description}\n\n---\n\n${skill.body}`, false, {
        skill: skill.name,
        path: skill.path,
        source: skill.source,
      });
    },
  };
}
