// The system prompt's skills section: which skills exist and when to load one.
// Rule: only names, descriptions and locations go into the prompt; a skill's body reaches the
// context only when the model asks for it with the `skill` tool, so skills cost little until used;
// a skill only the user may start (`disable-model-invocation: true`) is not named at all.
import { modelInvocable, type Skill } from "./discover.ts";

/** Empty when no skill is the model's to load, so the caller can append it unconditionally. */
export function skillsPromptSection(skills: readonly Skill[]): string {
  const offered = skills.filter(modelInvocable);
  if (offered.length === 0) return "";
  const lines = offered.map((skill) => {
    // The location lets the model read files a skill refers to (scripts, references) beside it.
    const where = skill.source === "builtin" ? "" : ` (${skill.path})`;
    return `- ${skill.name}${where}: ${oneLine(skill.description)}`;
  });
  return [
    "# Skills",
    "Skills are instructions for particular kinds of task, loaded on demand. When the user's request matches a skill's description, call the `skill` tool with its name before you start, then follow the instructions it returns; paths in a skill are relative to its SKILL.md. Don't load a skill the request doesn't need.",
    lines.join("\n"),
  ].join("\n\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
