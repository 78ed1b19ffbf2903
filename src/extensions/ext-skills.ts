// The skills an extension ships: its manifest's `skills` list, each a directory inside the
// extension (searched for SKILL.md files at any depth) or a SKILL.md file, relative to the manifest.
// Rule: a skill is named `<extension>:<skill>` (the extension's name in kebab case), so it never
// takes a name from the user's or another extension's skills; a path that leaves the extension's
// directory (`..`, an absolute path, a symlink out) is refused; one broken skill or path costs only
// itself and becomes a warning naming the file.
import { statSafe } from "../config/quiet-fs.ts";
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { parseSkillFile } from "../skills/frontmatter.ts";
import { commandFieldsOf, invocationOf, SKILL_MAX_BYTES, type Skill } from "../skills/discover.ts";
import { argumentNamesOf, refusedNamesWarning } from "../skills/argument-names.ts";
import type { Manifest } from "./manifest.ts";

/** A SKILL.md deeper than this below a listed directory is not looked for. */
const MAX_DEPTH = 6;

export interface ExtensionSkills {
  skills: Skill[];
  warnings: string[];
}

/** `Git_Tools` → `git-tools`: the namespace of an extension's skills. */
export function skillNamespace(extension: string): string {
  return extension
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The skills of the extensions given (loaded ones, in precedence order); the first of a name wins. */
export function extensionSkills(extensions: readonly { manifest: Manifest; dir: string }[]): ExtensionSkills {
  const skills: Skill[] = [];
  const warnings: string[] = [];
  const seen = new Map<string, string>();
  for (const { manifest, dir } of extensions) {
    for (const skill of skillsOf(manifest, dir, warnings)) {
      const first = seen.get(skill.name);
      if (first) {
        warnings.push(`skill "${skill.name}" in ${skill.path} is ignored: ${first} has the same name and comes first`);
        continue;
      }
      seen.set(skill.name, skill.path);
      skills.push(skill);
    }
  }
  return { skills, warnings };
}

function skillsOf(manifest: Manifest, dir: string, warnings: string[]): Skill[] {
  const listed = manifest.skills ?? [];
  if (listed.length === 0) return [];
  const namespace = skillNamespace(manifest.name);
  const root = realOr(dir);
  const files: string[] = [];
  for (const entry of listed) {
    const where = `extension "${manifest.name}": skills entry ${JSON.stringify(entry)}`;
    const target = path.resolve(dir, entry);
    const real = realOr(target);
    if (!inside(root, real)) {
      warnings.push(`${where} leaves the extension's directory ${dir}; skills must be inside it`);
      continue;
    }
    const stats = statSafe(real);
    if (!stats) warnings.push(`${where}: ${target} does not exist`);
    else if (stats.isDirectory()) files.push(...findSkillFiles(real, root, 0));
    else if (path.basename(real) === "SKILL.md") files.push(real);
    else warnings.push(`${where} is neither a directory nor a SKILL.md file`);
  }
  const skills: Skill[] = [];
  for (const file of [...new Set(files)]) {
    const skill = readSkill(file, namespace, warnings);
    if (skill) skills.push(skill);
  }
  return skills;
}

/** SKILL.md files under dir, in name order, none outside root, hidden folders and node_modules skipped. */
function findSkillFiles(dir: string, root: string, depth: number): string[] {
  if (depth > MAX_DEPTH) return [];
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    if (name.startsWith(".") || name === "node_modules") continue;
    const full = path.join(dir, name);
    const real = realOr(full);
    if (!inside(root, real)) continue;
    const stats = statSafe(real);
    if (stats?.isDirectory()) out.push(...findSkillFiles(real, root, depth + 1));
    else if (stats?.isFile() && name === "SKILL.md") out.push(real);
  }
  return out;
}

function readSkill(file: string, namespace: string, warnings: string[]): Skill | undefined {
  let text: string;
  try {
    if (statSync(file).size > SKILL_MAX_BYTES) {
      warnings.push(`skill ${file} is skipped: it is over the ${SKILL_MAX_BYTES / 1024} KB limit; move details into files beside it`);
      return undefined;
    }
    text = readFileSync(file, "utf8");
  } catch (error) {
    warnings.push(`cannot read skill ${file}: ${(error as Error).message}`);
    return undefined;
  }
  const parsed = parseSkillFile(text, file, path.basename(path.dirname(file)));
  if (!parsed.ok) {
    warnings.push(`skill skipped: ${parsed.error}`);
    return undefined;
  }
  const { name, description, body, attributes } = parsed.value;
  const named = argumentNamesOf(attributes.arguments);
  if (named.refused.length > 0) warnings.push(refusedNamesWarning(file, named.refused));
  const argumentNames = named.names.length > 0 ? { argumentNames: named.names } : {};
  return { name: `${namespace}:${name}`, description, body, path: file, source: "extension", ...argumentNames, ...commandFieldsOf(attributes), ...invocationOf(parsed.value) };
}

function inside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

function realOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}
