// The system prompt's skills section: which skills exist and when to load one.
// Rule: only names, descriptions and locations go into the prompt; a skill's body reaches the
// context only when the model asks for it with the `skill` tool, so skills cost little until used;
// a skill only the user may start (`disable-model-invocation: true`) is not named at all.
import { namesWithin } from "../protocol/names-within.ts";
import { wholeCharacterCut } from "../protocol/whole-characters.ts";
import { modelInvocable, type Skill } from "./discover.ts";

/** A description's most characters in the prompt (the Agent Skills format's limit). */
const DESCRIPTION_MAX = 1024;
/** Characters of skill lines in every request; the skills past it are named only. */
const SECTION_BUDGET = 16_000;
/** Characters of those names; past it, how many more there are. */
const NAMES_BUDGET = 4_000;

/**
 * Empty when no skill is the model's to load, so the caller can append it unconditionally. Bounded
 * however many skills there are: 300 skills with long descriptions made a 1.2 MB system prompt.
 */
export function skillsPromptSection(skills: readonly Skill[]): string {
  const offered = skills.filter(modelInvocable);
  if (offered.length === 0) return "";
  const lines: string[] = [];
  let used = 0;
  let at = 0;
  for (; at < offered.length; at++) {
    const skill = offered[at]!;
    // The location lets the model read files a skill refers to (scripts, references) beside it.
    const where = skill.source === "builtin" ? "" : ` (${skill.path})`;
    const line = `- ${skill.name}${where}: ${cut(oneLine(skill.description), DESCRIPTION_MAX)}`;
    if (used + line.length > SECTION_BUDGET && lines.length > 0) break;
    lines.push(line);
    used += line.length + 1;
  }
  const rest = offered.slice(at).map((skill) => skill.name);
  return [
    "# Skills",
    "Skills are instructions for particular kinds of task, loaded on demand. When the user's request matches a skill's description, call the `skill` tool with its name before you start, then follow the instructions it returns; paths in a skill are relative to its SKILL.md. Don't load a skill the request doesn't need.",
    lines.join("\n"),
    ...(rest.length > 0 ? [`${rest.length} more skills, named only (their descriptions would not fit): ${namesWithin(rest, NAMES_BUDGET)}`] : []),
  ].join("\n\n");
}

/** `text` cut to `max` characters with an ellipsis, never between the halves of a surrogate pair (a lone one makes the API refuse every request). */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, wholeCharacterCut(text, max - 1))}…`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
