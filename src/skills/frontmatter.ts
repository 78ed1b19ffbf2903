// The SKILL.md file format: a `---` frontmatter block of simple `key: value` lines, then the
// Markdown body. It is the Agent Skills format Claude Code and other agents use, so a skill written
// for them loads here unchanged.
// Rule: a file that is not a skill says so in one sentence naming the file and what to fix; the
// parser never throws for bad content, so one broken skill cannot stop the others from loading.
import * as v from "valibot";

/** A frontmatter value: a scalar line, or an indented `- item` list / inline `[a, b]` list. */
export type FrontmatterValue = string | string[];

export interface Frontmatter {
  /** every key in file order; later duplicates replace earlier ones, as in YAML tools that allow them */
  attributes: Record<string, FrontmatterValue>;
  /** the Markdown after the closing `---`, trimmed */
  body: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Names are what the model passes to the `skill` tool, so they stay plain (the Agent Skills rule). */
export const SKILL_NAME_PATTERN = /^[a-z0-9-]+$/;
export const SKILL_NAME_MAX = 64;

const NAME_RULE = "a skill name is lowercase letters, digits and hyphens (like code-review)";
const NAME_LENGTH_RULE = `a skill name is at most ${SKILL_NAME_MAX} characters`;

export const SkillName = v.pipe(v.string(), v.regex(SKILL_NAME_PATTERN, NAME_RULE), v.maxLength(SKILL_NAME_MAX, NAME_LENGTH_RULE));

const NO_DESCRIPTION = 'there is no "description:" line; add one saying when the skill should be used';

/**
 * A yes-or-no key, as Claude Code's YAML reads one: true or false in any case, quoted or not.
 * Anything else is refused rather than guessed at, since guessing `disable-model-invocation: yes`
 * wrong would hand a deploy skill to the model.
 */
function flag(key: string, choices: string) {
  return v.optional(
    v.pipe(
      v.string(`"${key}" must be true or false, not a list`),
      v.trim(),
      v.toLowerCase(),
      v.picklist(["true", "false"], `write ${choices}`),
      v.transform((value) => value === "true"),
    ),
  );
}

/** The keys whose bad value is quoted back in the sentence about it. */
const QUOTED_KEYS = new Set(["name", "disable-model-invocation", "user-invocable"]);

const SkillAttributes = v.looseObject(
  {
    name: v.optional(
      v.pipe(
        v.string('"name" must be a single value, not a list'),
        v.trim(),
        v.regex(SKILL_NAME_PATTERN, NAME_RULE),
        v.maxLength(SKILL_NAME_MAX, NAME_LENGTH_RULE),
      ),
    ),
    description: v.pipe(
      v.string('"description" must be text, not a list'),
      v.trim(),
      v.minLength(1, '"description" is empty; say in one sentence when the skill should be used'),
    ),
    // Claude Code's: true keeps the skill from the model (only the user's /name starts it).
    "disable-model-invocation": flag("disable-model-invocation", "true (only the user starts the skill, by typing its /name) or false"),
    // Claude Code's: false keeps the skill from the user's slash commands (only the model loads it).
    "user-invocable": flag("user-invocable", "false (only the model loads the skill; it is no slash command) or true"),
  },
  // valibot reports a missing key with the object's message; description is the only required key.
  NO_DESCRIPTION,
);

export interface SkillFile {
  name: string;
  description: string;
  body: string;
  attributes: Record<string, FrontmatterValue>;
  /** false with `disable-model-invocation: true`: the model is not told of it and may not load it */
  modelInvocable: boolean;
  /** false with `user-invocable: false`: no slash command starts it */
  userInvocable: boolean;
}

/**
 * Splits `---\n<frontmatter>\n---\n<body>`. A leading BOM and blank lines are skipped and CRLF line
 * ends are accepted, because skills get edited on Windows and copied between tools.
 */
export function parseFrontmatter(text: string, file: string): Parsed<Frontmatter> {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  let start = 0;
  while (start < lines.length && lines[start].trim() === "") start++;
  if (start >= lines.length || lines[start].trimEnd() !== "---") {
    return { ok: false, error: `${file} has no frontmatter; start the file with a "---" line, then "name:" and "description:" lines, then "---"` };
  }
  const end = lines.findIndex((line, i) => i > start && line.trimEnd() === "---");
  if (end === -1) {
    return { ok: false, error: `${file}: the frontmatter opened on line ${start + 1} is never closed; add a "---" line after it` };
  }

  const attributes: Record<string, FrontmatterValue> = {};
  for (let i = start + 1; i < end; ) {
    const line = lines[i];
    const lineNo = i + 1;
    i++;
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    if (/^\s/.test(line)) {
      return { ok: false, error: `${file}: frontmatter line ${lineNo} is indented but belongs to no key; write it as "key: value"` };
    }
    const match = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*:(?:\s+(.*))?$/.exec(line.trimEnd());
    if (!match) {
      return { ok: false, error: `${file}: frontmatter line ${lineNo} is not "key: value" (${JSON.stringify(line.trim())})` };
    }
    const key = match[1];
    const raw = (match[2] ?? "").trim();

    // The indented lines under this key: a YAML list, a `|` / `>` block, or a long value wrapped.
    const nested: string[] = [];
    while (i < end && (lines[i].trim() === "" || /^\s/.test(lines[i]))) {
      nested.push(lines[i]);
      i++;
    }
    while (nested.length > 0 && nested[nested.length - 1].trim() === "") nested.pop();

    const value = readValue(raw, nested);
    if (typeof value === "object" && "error" in value) {
      return { ok: false, error: `${file}: frontmatter key "${key}" (line ${lineNo}) ${value.error}` };
    }
    attributes[key] = value;
  }

  const body = lines.slice(end + 1).join("\n").trim();
  return { ok: true, value: { attributes, body } };
}

function readValue(raw: string, nested: string[]): FrontmatterValue | { error: string } {
  if (/^[|>][-+]?$/.test(raw)) {
    const texts = dedent(nested);
    // `|` keeps line breaks, `>` folds lines into one paragraph: the two YAML block styles
    // people use for long descriptions.
    return raw.startsWith("|") ? texts.join("\n").trim() : texts.map((t) => t.trim()).join(" ").replace(/\s+/g, " ").trim();
  }
  if (nested.length > 0 && raw !== "") {
    // YAML continues a plain value on indented lines, folding them into one line.
    if (/^["']/.test(raw)) return { error: "is a quoted value continued on the next lines; put it on one line" };
    return [raw, ...nested.map((line) => line.trim())].filter(Boolean).join(" ");
  }
  if (nested.length > 0) {
    const items: string[] = [];
    for (const line of nested) {
      if (line.trim() === "") continue;
      const item = /^\s+-\s*(.*)$/.exec(line);
      // Nested maps (`permissions:` blocks) are kept as their raw lines: no skill field we use
      // needs them, and refusing them would reject skills written for other tools.
      items.push(item ? unquote(item[1].trim()) : line.trim());
    }
    return items;
  }
  if (raw.startsWith("[") && raw.endsWith("]")) {
    const inner = raw.slice(1, -1).trim();
    return inner === "" ? [] : inner.split(",").map((item) => unquote(item.trim()));
  }
  return unquote(raw);
}

function dedent(lines: string[]): string[] {
  const indents = lines.filter((l) => l.trim() !== "").map((l) => /^\s*/.exec(l)![0].length);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(Math.min(cut, /^\s*/.exec(l)![0].length)));
}

/** Strips one pair of matching quotes; double quotes also take the common escapes. */
function unquote(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    return text.slice(1, -1).replace(/\\(["\\nt])/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c));
  }
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) return text.slice(1, -1).replace(/''/g, "'");
  // YAML comments after a plain value: `name: x  # note`.
  return text.replace(/\s+#.*$/, "");
}

/**
 * Reads a SKILL.md: frontmatter with a `description` (what the model decides by) and an optional
 * `name`, which defaults to the folder the file sits in; Claude Code's `disable-model-invocation`
 * and `user-invocable` say who may start it.
 */
export function parseSkillFile(text: string, file: string, folderName: string): Parsed<SkillFile> {
  const parsed = parseFrontmatter(text, file);
  if (!parsed.ok) return parsed;
  const { attributes, body } = parsed.value;

  const checked = v.safeParse(SkillAttributes, attributes);
  if (!checked.success) {
    const issue = checked.issues[0];
    const key = issue.path?.[0]?.key;
    const value = typeof key === "string" && QUOTED_KEYS.has(key) ? attributes[key] : undefined;
    return { ok: false, error: `${file}: ${typeof value === "string" ? `"${key}: ${value}" is invalid: ` : ""}${issue.message}` };
  }

  const name = checked.output.name ?? folderName;
  if (checked.output.name === undefined && !v.is(SkillName, name)) {
    return {
      ok: false,
      error: `${file}: the folder name "${folderName}" is not a valid skill name (lowercase letters, digits and hyphens); add a "name:" line or rename the folder`,
    };
  }
  if (body === "") return { ok: false, error: `${file} has no instructions after the frontmatter` };
  const { description, "disable-model-invocation": modelOff = false, "user-invocable": userInvocable = true } = checked.output;
  return { ok: true, value: { name, description, body, attributes, modelInvocable: !modelOff, userInvocable } };
}
