// The built-in skills, read and checked when the code is built: a Bun macro that parses each
// `builtin/<folder>/SKILL.md` (frontmatter, name, description, body) into the bundle, so no start
// of zot parses a 38 KB file it ships itself. Rule: imported only `with { type: "macro" }`; a
// built-in skill that does not parse fails the build (and every test that loads skills) with the
// parser's own sentence.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseSkillFile } from "./frontmatter.ts";

export interface BuiltinSkill {
  folder: string;
  name: string;
  description: string;
  body: string;
  /** the frontmatter's `disable-model-invocation` and `user-invocable`, as read */
  modelInvocable: boolean;
  userInvocable: boolean;
}

/** The skill in `builtin/<folder>/SKILL.md`, parsed. */
export function builtinSkill(folder: string): BuiltinSkill {
  const file = path.join(import.meta.dir, "builtin", folder, "SKILL.md");
  const parsed = parseSkillFile(readFileSync(file, "utf8"), `built-in skill ${folder}`, folder);
  if (!parsed.ok) throw new Error(parsed.error);
  const { name, description, body, modelInvocable, userInvocable } = parsed.value;
  return { folder, name, description, body, modelInvocable, userInvocable };
}
