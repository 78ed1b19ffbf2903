// Finds the skills a session offers: the built-ins embedded in the binary, and (only with
// `--with-skills`) SKILL.md folders in the project and the user's home.
// Rule: the first skill found for a name wins, searching nearest first: project folders, then the
// user's folders, then the built-ins. So a project can pin its own version of a skill, and anyone
// can replace a built-in by writing a skill of the same name (with a warning, so it is never a
// surprise). A broken SKILL.md costs only itself: it becomes a warning naming the file.
import { type SettingSourceName, sourceRead } from "../protocol/setting-sources.ts";
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BuiltinSkill, builtinSkill } from "./builtin-skills.ts" with { type: "macro" };
import { parseSkillFile, type SkillFile } from "./frontmatter.ts";
import { splitRuleList } from "../protocol/rule-list.ts";
import { argumentNamesOf, refusedNamesWarning } from "./argument-names.ts";

/** `extension`: shipped by an extension (its manifest's `skills`), named `<extension>:<skill>` */
export type SkillSource = "builtin" | "project" | "user" | "extension";

export interface Skill {
  name: string;
  /** one or two sentences: what the model reads to decide whether to load the skill */
  description: string;
  /** the instructions the `skill` tool returns */
  body: string;
  /** the SKILL.md file, or `builtin:<folder>` for a skill embedded in the binary */
  path: string;
  source: SkillSource;
  /** frontmatter `allowed-tools`, as written (`Bash(git *)`, `Read`): what `/<skill>` lets through unasked, as a command's */
  allowedTools?: string[];
  /** frontmatter `arguments:`: the names of its positional arguments in `/<skill>`'s body (`$issue`), in order */
  argumentNames?: string[];
  /** frontmatter `argument-hint`: shown after `/<skill>` where the commands are listed (`[file]`) */
  argumentHint?: string;
  /** frontmatter `model`: the model `/<skill>`'s prompt runs on, as a command's `model:` */
  model?: string;
  /**
   * false with Claude Code's `disable-model-invocation: true`: only the user starts it (`/<skill>`);
   * the system prompt does not name it and the skill tool refuses it
   */
  modelInvocable?: false;
  /** false with Claude Code's `user-invocable: false`: no slash command; only the model loads it */
  userInvocable?: false;
}

/** Whether the model is told of the skill and may load it with the skill tool. */
export function modelInvocable(skill: Pick<Skill, "modelInvocable">): boolean {
  return skill.modelInvocable !== false;
}

/** Whether the skill is a slash command the user may type. */
export function userInvocable(skill: Pick<Skill, "userInvocable">): boolean {
  return skill.userInvocable !== false;
}

/**
 * The Skill fields a typed `/<skill>` takes as a Markdown command takes them, present only when
 * set: `argument-hint` (a `[file]` a YAML-ish reading made a list is text to show) and `model`.
 */
export function commandFieldsOf(attributes: Record<string, unknown>): Pick<Skill, "argumentHint" | "model"> {
  const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : undefined);
  const rawHint = attributes["argument-hint"];
  const hint = Array.isArray(rawHint) ? `[${rawHint.join(", ")}]` : text(rawHint);
  const model = text(attributes.model);
  return { ...(hint ? { argumentHint: hint } : {}), ...(model ? { model } : {}) };
}

/** The Skill fields for who may start a parsed SKILL.md, present only when it is not everyone. */
export function invocationOf(file: Pick<SkillFile, "modelInvocable" | "userInvocable">): Pick<Skill, "modelInvocable" | "userInvocable"> {
  return { ...(file.modelInvocable ? {} : { modelInvocable: false }), ...(file.userInvocable ? {} : { userInvocable: false }) };
}

export interface LoadSkillsOptions {
  /** the project directory (the agent's cwd) */
  cwd: string;
  /** $ZOT_HOME */
  home: string;
  /** `--with-skills`: read every skill folder, the project's whatever its trust */
  withUserSkills: boolean;
  /**
   * Without --with-skills: the user's own folders ($ZOT_HOME/skills, ~/.claude/skills,
   * ~/.agents/skills) load by default, and the project's (.zot/skills, .claude/skills,
   * .agents/skills) when the folder is trusted. Default false: only the built-ins.
   */
  byDefault?: { projectTrusted: boolean };
  /** the user's home directory for ~/.claude and ~/.agents; defaults to os.homedir() */
  userHome?: string;
  /** --setting-sources: whether Claude Code's skill folders are read (config/setting-sources.ts); undefined = all */
  claudeSources?: readonly SettingSourceName[];
  /** `$CODEX_HOME` (Codex's skills are in its `skills`); default ~/.codex */
  codexHome?: string;
  /** `$PI_CODING_AGENT_DIR` (pi's skills are in its `skills`); default ~/.pi/agent */
  piAgentDir?: string;
}

export interface LoadedSkills {
  /** sorted by name, so the system prompt is the same from run to run (prompt caching) */
  skills: Skill[];
  /** one sentence each, for the user: a broken file, an overridden built-in, a shadowed copy */
  warnings: string[];
}

/** Embedded and parsed at build time (builtin-skills.ts), so the binary needs no files beside it. */
export const BUILTIN_SKILLS: readonly BuiltinSkill[] = [builtinSkill("init"), builtinSkill("write-zot-extension")];

/** A SKILL.md larger than this is refused: the whole body goes into the context when loaded. */
export const SKILL_MAX_BYTES = 1024 * 1024;

export interface SkillDir {
  dir: string;
  source: Exclude<SkillSource, "builtin" | "extension">;
}

/**
 * Where skill folders are searched, first match per name wins. zot's own folder comes first in
 * each scope; `.claude` and `.agents` follow so skills written for Claude Code and other agents
 * work as they are.
 */
export function skillSearchDirs(options: Pick<LoadSkillsOptions, "cwd" | "home" | "userHome" | "claudeSources" | "codexHome" | "piAgentDir">): SkillDir[] {
  const cwd = path.resolve(options.cwd);
  const userHome = options.userHome ?? os.homedir();
  const read = (source: SettingSourceName) => sourceRead(options.claudeSources, source);
  // `.agents/skills` of each folder from here up to the repository's root, nearest first, as Codex
  // and pi read them (a monorepo's skills from one of its packages).
  const root = repositoryRoot(cwd) ?? cwd;
  const agentsDirs: SkillDir[] = [];
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    agentsDirs.push({ dir: path.join(dir, ".agents", "skills"), source: "project" });
    if (dir === root || path.dirname(dir) === dir || !dir.startsWith(root)) break;
  }
  const dirs: SkillDir[] = [
    { dir: path.join(cwd, ".zot", "skills"), source: "project" },
    ...(read("project") ? [{ dir: path.join(cwd, ".claude", "skills"), source: "project" as const }] : []),
    ...agentsDirs,
    { dir: path.join(cwd, ".codex", "skills"), source: "project" },
    { dir: path.join(cwd, ".pi", "skills"), source: "project" },
    { dir: path.join(path.resolve(options.home), "skills"), source: "user" },
  ];
  // No home directory at all (some containers): there is no ~ to search.
  if (userHome) {
    if (read("user")) dirs.push({ dir: path.join(path.resolve(userHome), ".claude", "skills"), source: "user" });
    dirs.push({ dir: path.join(path.resolve(userHome), ".agents", "skills"), source: "user" });
  }
  // Codex's and pi's own (their `.system` and other dot folders are skipped as every skills folder's are).
  const codexHome = options.codexHome?.trim() ? path.resolve(options.codexHome.trim()) : userHome ? path.join(path.resolve(userHome), ".codex") : undefined;
  const piAgentDir = options.piAgentDir?.trim() ? path.resolve(options.piAgentDir.trim()) : userHome ? path.join(path.resolve(userHome), ".pi", "agent") : undefined;
  if (codexHome) dirs.push({ dir: path.join(codexHome, "skills"), source: "user" });
  if (piAgentDir) dirs.push({ dir: path.join(piAgentDir, "skills"), source: "user" });
  // Run from the home directory, <cwd>/.claude and ~/.claude are one folder: search it once, in the
  // project's place, as the user's own (which loads whether or not the folder is trusted).
  const users = new Set(dirs.filter(({ source }) => source === "user").map(({ dir }) => dir));
  const seen = new Set<string>();
  return dirs.filter(({ dir }) => !seen.has(dir) && seen.add(dir)).map((entry) => (users.has(entry.dir) ? { ...entry, source: "user" } : entry));
}

/**
 * The repository `start` is in: the nearest folder with a `.git` (a directory in a clone, a file in
 * a worktree), when it is the user's own: a `.git` someone else made above a folder (a shared /tmp)
 * does not make its `.agents/skills` the project's.
 */
function repositoryRoot(start: string): string | undefined {
  const uid = process.getuid?.();
  for (let dir = start; ; dir = path.dirname(dir)) {
    const git = statSync(path.join(dir, ".git"), { throwIfNoEntry: false });
    if (git !== undefined) return uid === undefined || git.uid === uid ? dir : undefined;
    if (path.dirname(dir) === dir) return undefined;
  }
}

export function loadSkills(options: LoadSkillsOptions): LoadedSkills {
  const warnings: string[] = [];
  const byName = new Map<string, Skill>();
  // Realpaths already loaded: a skill symlinked into both ~/.claude and ~/.agents is one skill.
  const loadedFiles = new Set<string>();

  const dirs = options.withUserSkills
    ? skillSearchDirs(options)
    : options.byDefault
      ? skillSearchDirs(options).filter(({ source }) => source === "user" || options.byDefault?.projectTrusted)
      : [];
  {
    for (const { dir, source } of dirs) {
      for (const found of readSkillDir(dir, source, warnings)) {
        const real = realpathOr(found.path);
        if (loadedFiles.has(real)) continue;
        loadedFiles.add(real);
        const first = byName.get(found.name);
        if (!first) {
          byName.set(found.name, found);
        } else if (first.body !== found.body || first.description !== found.description) {
          // The same skill copied into two folders is common and harmless; two different skills
          // sharing a name is worth saying, because only one of them will ever be used.
          warnings.push(`skill "${found.name}" in ${found.path} is ignored: ${first.path} has the same name and is searched first`);
        }
      }
    }
  }

  for (const { folder, name, description, body, ...invocation } of BUILTIN_SKILLS) {
    const where = `builtin:${folder}`;
    const mine = byName.get(name);
    if (mine) {
      warnings.push(`skill "${name}" in ${mine.path} replaces the built-in skill of the same name`);
      continue;
    }
    byName.set(name, { name, description, body, path: where, source: "builtin", ...invocationOf(invocation) });
  }

  const skills = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // The project's skill folders an untrusted folder keeps shut: said, so a /deploy that goes to the
  // model as text is not a mystery. Only folders that exist are named (a stat each, no reads).
  if (options.byDefault && !options.byDefault.projectTrusted && !options.withUserSkills) {
    const all = skillSearchDirs(options);
    // A home that is the working folder: its skills are the user's, and loaded.
    const users = new Set(all.filter(({ source }) => source === "user").map(({ dir }) => realpathOr(dir)));
    const shut = all
      .filter(({ source, dir }) => source !== "user" && !users.has(realpathOr(dir)) && isDirectory(dir))
      .map(({ dir }) => dir);
    if (shut.length > 0) {
      warnings.push(`this folder's skills (${shut.join(", ")}) are not loaded until you trust it (zot trust), or for one run with --with-skills`);
    }
  }
  return { skills, warnings };
}

/** Every `<dir>/<folder>/SKILL.md`, folders in name order; a missing `dir` is no skills, not an error. */
function readSkillDir(dir: string, source: SkillDir["source"], warnings: string[]): Skill[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") warnings.push(`cannot read skills folder ${dir}: ${reason(error)}`);
    return [];
  }

  const skills: Skill[] = [];
  for (const folder of entries) {
    if (folder.startsWith(".")) continue;
    const file = path.join(dir, folder, "SKILL.md");
    // stat, not the directory entry's type: skill folders are often symlinks into a shared checkout.
    let size: number;
    try {
      const info = statSync(file);
      if (!info.isFile()) continue;
      size = info.size;
    } catch (error) {
      // A folder without a SKILL.md is not a skill (it may hold a skill's shared scripts).
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") warnings.push(`cannot read skill ${file}: ${reason(error)}`);
      continue;
    }
    if (size > SKILL_MAX_BYTES) {
      warnings.push(`skill ${file} is skipped: it is ${Math.ceil(size / 1024)} KB, over the ${SKILL_MAX_BYTES / 1024} KB limit; move details into files beside it`);
      continue;
    }

    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      warnings.push(`cannot read skill ${file}: ${reason(error)}`);
      continue;
    }
    const parsed = parseSkillFile(text, file, folder);
    if (!parsed.ok) {
      warnings.push(`skill skipped: ${parsed.error}`);
      continue;
    }
    const { name, description, body, attributes } = parsed.value;
    const tools = attributes["allowed-tools"];
    // A list's items may hold several (`- Read, Grep`), as the one-line form does.
    const allowedTools = Array.isArray(tools) ? tools.flatMap((item) => splitRuleList(String(item))) : typeof tools === "string" ? splitRuleList(tools) : undefined;
    const named = argumentNamesOf(attributes.arguments);
    if (named.refused.length > 0) warnings.push(refusedNamesWarning(file, named.refused));
    skills.push({
      name,
      description,
      body,
      path: file,
      source,
      ...(allowedTools?.length ? { allowedTools } : {}),
      ...(named.names.length > 0 ? { argumentNames: named.names } : {}),
      ...commandFieldsOf(attributes),
      ...invocationOf(parsed.value),
    });
  }
  return skills;
}

/** Whether `dir` is a folder; a file in its place, a part that is a file, a folder it may not read or a loop: no. */
function isDirectory(dir: string): boolean {
  try {
    return statSync(dir, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

function realpathOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function reason(error: unknown): string {
  const err = error as NodeJS.ErrnoException;
  if (err.code === "EACCES" || err.code === "EPERM") return "permission denied";
  return err.message ?? String(error);
}
