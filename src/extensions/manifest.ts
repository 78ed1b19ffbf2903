// An extension's `extension.json`: its schema, loading it with errors a user can fix, turning
// `exec` into a command line, and flipping `enabled` in place.
// Rule: every error names the file and the field; and zot never reformats a user's manifest: an
// edit changes the bytes of one value and nothing else.
import { statSafe } from "../config/quiet-fs.ts";
import { accessSync, constants, writeFileSync } from "node:fs";
import path from "node:path";
import * as v from "valibot";
import { HOOK_EVENT_KINDS, HOOK_INTERCEPTS } from "../protocol/hook-rpc.ts";
import { asGoReads } from "../protocol/go-json.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import { isOwnParticipantName } from "../protocol/own-participants.ts";
import { EventMethodField, InterceptList, ObserveList, TimeoutOverrides } from "./hook-spec.ts";
import { readRegularFile } from "../config/regular-file.ts";
import { findProgram } from "../process/find-program.ts";
import { errnoWords } from "../protocol/errno-words.ts";

export const MANIFEST_FILE = "extension.json";


/** Files the zot binary runs itself (as bun), so users need no node, bun or tsx installed. */
const SCRIPT_EXTENSIONS = new Set([".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx"]);

/** What each field must be, in the words the error messages use. */
const FIELD_RULES: Record<string, string> = {
  name: "a string of letters, digits, \".\", \"-\" and \"_\"",
  version: "a string",
  description: "a string",
  exec: "a string",
  skills: "an array of paths inside the extension: directories holding SKILL.md files, or SKILL.md files",
  args: "an array of strings",
  language: "a string",
  enabled: "true or false",
  priority: "a number",
  protocol: "\"zot\" or \"jsonrpc\"",
  observe: `an array of hook event kinds (${HOOK_EVENT_KINDS.slice(0, 2).join(", ")}, …; docs/hooks.md lists them) or ["*"]`,
  intercept: `an array of ${HOOK_INTERCEPTS.join(", ")}`,
  timeouts: `an object of positive milliseconds per stage (${Object.keys(TimeoutOverrides.entries).join(", ")})`,
  allow_builtin_respond: "true or false",
  fail_closed: "true or false",
  event_method: '"hook.event" or "hook.runtime_event"',
};

/** Extension names zot keeps for itself. */
const RESERVED_NAMES: ReadonlySet<string> = new Set(["commands"]);

export const Manifest = v.looseObject({
  name: v.pipe(
    v.string(),
    v.regex(/^[A-Za-z0-9._-]+$/),
    // "." and ".." would name directories above the extension's own data and log files.
    v.check((name) => !/^\.+$/.test(name)),
  ),
  version: v.optional(v.string()),
  description: v.optional(v.string()),
  /** absent only in a skill-only bundle (skills, nothing to run) */
  exec: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** directories (searched for SKILL.md) or SKILL.md files inside the extension; named `<extension>:<skill>` */
  skills: v.optional(v.array(v.string())),
  args: v.optional(v.array(v.string())),
  language: v.optional(v.string()),
  /** absent (or null, as the original accepted) means enabled */
  enabled: v.nullish(v.boolean(), true),
  /** interception order: lower runs first */
  priority: v.nullish(v.pipe(v.number(), v.finite()), 0),
  /**
   * A guard: when it cannot answer a tool_call intercept (still starting, timed out, an invalid
   * answer, exited, failed to start) the call is refused instead of allowed (ext-intercept.ts)
   */
  fail_closed: v.optional(v.boolean()),
  /** "jsonrpc" = PicoClaw-style process hooks */
  protocol: v.nullish(v.picklist(["zot", "jsonrpc"]), "zot"),
  // The fields below are read only for "jsonrpc" hooks (docs/hooks.md).
  /** hook.event kinds the hook receives */
  observe: v.optional(ObserveList),
  /** hook methods the hook answers */
  intercept: v.optional(InterceptList),
  /** per-stage deadlines in ms (tests use short ones; the defaults are PicoClaw's) */
  timeouts: v.optional(TimeoutOverrides),
  /** let `respond` answer for zot's built-in tools, which skips their approval (hooks and zot extensions alike) */
  allow_builtin_respond: v.optional(v.boolean()),
  /** which generation of observer events the hook speaks (docs/hooks.md) */
  event_method: v.optional(EventMethodField),
});
export type Manifest = v.InferOutput<typeof Manifest>;

export type LoadedManifest =
  | { ok: true; manifest: Manifest; dir: string; file: string }
  | { ok: false; dir: string; file: string; error: string };

/** Reads and validates `<dir>/extension.json`. Never throws. */
export function loadManifest(dir: string): LoadedManifest {
  const absDir = path.resolve(dir);
  return loadManifestFile(path.join(absDir, MANIFEST_FILE), absDir);
}

/** Same, for a manifest file given directly (`--ext path/to/extension.json`); dir defaults to its directory. */
export function loadManifestFile(file: string, dir: string = path.dirname(path.resolve(file))): LoadedManifest {
  const absFile = path.resolve(file);
  const fail = (error: string): LoadedManifest => ({ ok: false, dir, file: absFile, error });
  let text: string;
  try {
    text = readRegularFile(absFile, "utf8");
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === "ENOENT") return fail(`no ${path.basename(absFile)} in ${dir}`);
    if (code === "EISDIR") return fail(`${absFile} is a directory, not a manifest`);
    return fail(`cannot read ${absFile} (${errnoWords(err)})`);
  }
  const parsed = parseJson(text);
  if (!parsed.ok) return fail(`${absFile}: not valid JSON (${parsed.error})`);
  if (!isJsonObject(parsed.value)) {
    return fail(`${absFile}: must be a JSON object with "name" and "exec" (got ${describe(parsed.value)})`);
  }
  // As the original zot (a Go program) read manifests: a null field is absent, a field's name has no case.
  const raw = asGoReads(Manifest, parsed.value) as Record<string, unknown>;
  const result = v.safeParse(Manifest, raw);
  // Only a bundle with nothing to run may leave out exec: skills, or a colour theme the original
  // zot shows (theme.json; zot has no themes, so it is listed and never started).
  const execMissing = raw.exec === undefined && !(Array.isArray(raw.skills) && raw.skills.length > 0) && !hasTheme(dir);
  // zot's own Markdown commands' tool calls carry the origin "commands" (and allow what their
  // allowed-tools allow): no extension may call tools under that name.
  if (result.success && RESERVED_NAMES.has(result.output.name.toLowerCase())) {
    return fail(`${absFile}: "name" must not be "${result.output.name}", which is zot's own (its Markdown commands); choose another`);
  }
  if (result.success && isOwnParticipantName(result.output.name)) {
    return fail(`${absFile}: "name" must not be "${result.output.name}", which is zot's own in the interception chain (what it does would be reported as zot's); choose another`);
  }
  if (result.success && !execMissing) return { ok: true, manifest: result.output, dir, file: absFile };
  const problems: string[] = [];
  for (const issue of result.success ? [] : result.issues) {
    const field = String(issue.path?.[0]?.key ?? "");
    const rule = FIELD_RULES[field] ?? "valid";
    const value = raw[field];
    // A field inside an object (timeouts.hello) is named with its own value: "got an object" says nothing.
    const inner =
      issue.path && issue.path.length > 1 && typeof value === "object" && value !== null && !Array.isArray(value) ? issue.path.map((step) => String(step.key)).join(".") : undefined;
    const got = inner ? `${inner} is ${issue.input === undefined ? "missing" : describe(issue.input)}` : `got ${describe(value)}`;
    const problem = value === undefined ? `"${field}" is required (${rule})` : `"${field}" must be ${rule} (${got})`;
    if (!problems.includes(problem)) problems.push(problem);
  }
  if (execMissing) problems.push(`"exec" is required (${FIELD_RULES.exec})`);
  return fail(`${absFile}: ${problems.join("; ")}`);
}

export type ResolvedExec = { command: string[]; env?: Record<string, string> } | { error: string };

/**
 * The command line that starts an extension. `exec` may be an absolute path; a path relative to
 * the manifest's directory (`./x`, `../x`, `bin/x`); a bare name looked up on PATH; or a
 * TypeScript/JavaScript file, which the zot binary runs itself (`BUN_BE_BUN=1 zot run file`).
 * `"exec": "zot"` means that runtime with the given args, and `"exec": "bun"` falls back to it when
 * bun is not installed. Errors do not name the extension: the caller says which one it was.
 */
export function resolveExec(
  manifest: Manifest,
  dir: string,
  options: { zotBinary: string; env: Record<string, string | undefined> },
): ResolvedExec {
  const { exec } = manifest;
  if (exec === undefined) return { error: 'it has no "exec": a bundle of skills or a theme, which is never started' };
  const args = manifest.args ?? [];
  const asBun = (command: string[]): ResolvedExec => ({ command, env: { BUN_BE_BUN: "1" } });
  // --no-install: a missing import must fail, never be fetched from a registry at run time
  // (@zot/sdk resolves through NODE_PATH; anything else belongs in the extension's node_modules).
  const runScript = (file: string): ResolvedExec => asBun([options.zotBinary, "run", "--no-install", file, ...args]);
  const absDir = path.resolve(dir);

  if (isBareName(exec)) {
    if (exec === "zot") return asBun([options.zotBinary, ...args]);
    // A bare `main.ts` can only mean the file beside the manifest; PATH holds no scripts like that.
    const beside = path.join(absDir, exec);
    if (SCRIPT_EXTENSIONS.has(path.extname(exec)) && statSafe(beside)?.isFile()) {
      return runScript(beside);
    }
    const which = (name: string) => findProgram(name, options.env.PATH);
    // `tsx index.ts` or `npx -y tsx index.ts` (the original's extensions): with no tsx here, the zot binary runs the file.
    const tsxScript = exec === "tsx" ? args[0] : exec === "npx" ? tsxViaNpx(args) : undefined;
    if (tsxScript !== undefined && !which("tsx")) {
      const script = path.resolve(absDir, tsxScript);
      if (SCRIPT_EXTENSIONS.has(path.extname(script)) && statSafe(script)?.isFile()) {
        const rest = args.slice(args.indexOf(tsxScript) + 1);
        return asBun([options.zotBinary, "run", "--no-install", script, ...rest]);
      }
    }
    const found = which(exec);
    if (found) return { command: [found, ...args] };
    if (exec === "bun") return asBun([options.zotBinary, ...args]);
    const script = args.find((arg) => SCRIPT_EXTENSIONS.has(path.extname(arg)));
    return {
      error: `"exec" is "${exec}", which is not on PATH; install it, or make "exec" a path relative to ${absDir} (like "./${exec}")${script ? `, or let zot run the script itself: "exec": "${script}"` : ""}`,
    };
  }

  const file = path.isAbsolute(exec) ? exec : path.resolve(absDir, exec);
  const stats = statSafe(file);
  if (!stats) return { error: `"exec" is "${exec}", but ${file} does not exist` };
  if (stats.isDirectory()) return { error: `"exec" is "${exec}", but ${file} is a directory, not a program` };
  if (SCRIPT_EXTENSIONS.has(path.extname(file))) return runScript(file);
  if (process.platform !== "win32" && !isExecutable(file)) {
    return { error: `"exec" is "${exec}", but ${file} is not executable; run chmod +x ${file}` };
  }
  return { command: [file, ...args] };
}

/** Whether an extension directory holds the original zot's colour theme (theme.json or themes/theme.json). */
function hasTheme(dir: string): boolean {
  return ["theme.json", path.join("themes", "theme.json")].some((file) => statSafe(path.join(dir, file))?.isFile() === true);
}

/** The script of `npx [-y|--yes] tsx <script> …`, or undefined for any other npx command line. */
function tsxViaNpx(args: readonly string[]): string | undefined {
  let i = 0;
  while (args[i] === "-y" || args[i] === "--yes") i++;
  return args[i] === "tsx" ? args[i + 1] : undefined;
}

/**
 * Sets `enabled` in a manifest file, keeping every other byte as it was: an existing value is
 * replaced where it stands; otherwise `"enabled": false` becomes the first key, written in the
 * file's own indentation and spacing. Enabling a manifest without the field changes nothing
 * (absent means enabled). Returns whether the file changed; throws a sentence if it cannot edit.
 */
export function setManifestEnabled(file: string, enabled: boolean): boolean {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file);
  } catch (err) {
    throw new Error(`cannot read ${file} (${errnoWords(err)})`);
  }
  let text: string;
  try {
    // Read leniently, bytes that are no UTF-8 would be written back as U+FFFD: the user's bytes gone.
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new Error(`${file} is not valid UTF-8 (an editor saved it in another encoding?); rewriting it would change those bytes; save it as UTF-8 and try again, or set "enabled" by hand. Nothing was changed`);
  }
  const parsed = parseJson(text);
  if (!parsed.ok) throw new Error(`${file}: not valid JSON (${parsed.error}); fix it, then try again`);
  const scan = scanJson(text);
  if ("error" in scan) throw new Error(`${file}: not valid JSON (${scan.error}); fix it, then try again`);
  if (scan.open < 0) throw new Error(`${file}: must be a JSON object; fix it, then try again`);
  const value = String(enabled);
  // A field's name has no case (as the loader reads it, `"Enabled"` is `enabled`), and a duplicate
  // may stand anywhere: every spelling of it gets the value, the last first so offsets hold.
  const existing = scan.members.filter((member) => member.key.toLowerCase() === "enabled");
  let edited = text;
  if (existing.length > 0) {
    for (const member of existing.reverse()) edited = edited.slice(0, member.valueStart) + value + edited.slice(member.valueEnd);
  } else if (enabled) {
    return false;
  } else {
    edited = insertFirstMember(text, scan, `"enabled"`, value);
  }
  if (edited === text) return false;
  // A safety net: never write a manifest that no longer parses or says something else, read as the loader reads it.
  const check = parseJson(edited);
  const reads = check.ok && isJsonObject(check.value) ? (asGoReads(Manifest, check.value) as Record<string, unknown>) : undefined;
  if (!reads || (reads.enabled !== false) !== enabled) {
    throw new Error(`${file}: could not set "enabled" without changing the file's meaning; edit it by hand`);
  }
  writeFileSync(file, edited);
  return true;
}

function insertFirstMember(text: string, scan: JsonLayout, key: string, value: string): string {
  const [first, second] = scan.members;
  if (!first) {
    // `{}` or `{\n}`: the only member.
    const inner = text.slice(scan.open + 1, scan.close);
    if (!inner.includes("\n")) return `${text.slice(0, scan.open + 1)}${key}: ${value}${text.slice(scan.close)}`;
    const eol = inner.includes("\r\n") ? "\r\n" : "\n";
    return `${text.slice(0, scan.open + 1)}${eol}  ${key}: ${value}${eol}${text.slice(scan.close)}`;
  }
  // The file's own `"key": value` spacing.
  const colon = text.slice(first.keyEnd, first.valueStart);
  const lead = text.slice(scan.open + 1, first.keyStart);
  if (lead.includes("\n")) {
    // The first key sits on its own line: add a line above it with the same indentation.
    const lineStart = text.lastIndexOf("\n", first.keyStart) + 1;
    const indent = text.slice(lineStart, first.keyStart);
    const eol = text[lineStart - 2] === "\r" ? "\r\n" : "\n";
    return `${text.slice(0, lineStart)}${indent}${key}${colon}${value},${eol}${text.slice(lineStart)}`;
  }
  const between = second ? text.slice(first.valueEnd, second.keyStart) : ", ";
  const comma = between.includes("\n") ? ", " : between;
  return `${text.slice(0, first.keyStart)}${key}${colon}${value}${comma}${text.slice(first.keyStart)}`;
}

function isBareName(exec: string): boolean {
  return !exec.includes("/") && !exec.includes("\\") && exec !== "." && exec !== "..";
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return value.length <= 5 && JSON.stringify(value).length <= 60 ? JSON.stringify(value) : "an array";
  if (typeof value === "object") return "an object";
  const json = JSON.stringify(value);
  return json.length > 60 ? `${json.slice(0, 57)}…` : json;
}

// ── JSON text ──────────────────────────────────────────────────────────────────────────────
// JSON.parse says what is wrong but not where, and cannot tell where a value sits in the text.
// This small scanner does both: the line and column of the first error, and the byte ranges of
// the top-level object's members, which is what lets an edit touch one value and nothing else.

interface JsonMember {
  key: string;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
}
/** open/close: offsets of the top-level object's braces, -1 when the top level is not an object */
interface JsonLayout {
  open: number;
  close: number;
  members: JsonMember[];
}
type JsonScan = JsonLayout | { error: string };

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const body = text.replace(/^\uFEFF/, "");
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (err) {
    const scan = scanJson(body);
    return { ok: false, error: "error" in scan ? scan.error : (err as Error).message.replace(/^JSON Parse error: /, "") };
  }
}

class JsonSyntaxError {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {}
}

function scanJson(text: string): JsonScan {
  // A byte-order mark is not JSON but editors write it; skip it the way parseJson does.
  let i = text.startsWith("\uFEFF") ? 1 : 0;
  const members: JsonMember[] = [];
  let open = -1;
  let close = -1;
  const fail = (expected: string): never => {
    throw new JsonSyntaxError(i, expected);
  };
  const skipSpace = () => {
    while (i < text.length && " \t\r\n".includes(text[i])) i++;
  };
  const scanString = () => {
    i++;
    while (i < text.length) {
      const ch = text[i];
      if (ch === '"') {
        i++;
        return;
      }
      if (ch < " ") fail("a closing quote");
      i += ch === "\\" ? 2 : 1;
    }
    fail("a closing quote");
  };
  const scanValue = (depth: number): void => {
    skipSpace();
    const ch = text[i];
    if (ch === "{" || ch === "[") {
      const closer = ch === "{" ? "}" : "]";
      if (depth === 0 && ch === "{") open = i;
      i++;
      skipSpace();
      if (text[i] === closer) {
        if (depth === 0) close = i;
        i++;
        return;
      }
      for (;;) {
        skipSpace();
        if (ch === "{") {
          if (text[i] !== '"') fail("a property name in double quotes");
          const keyStart = i;
          scanString();
          const keyEnd = i;
          skipSpace();
          if (text[i] !== ":") fail('":"');
          i++;
          skipSpace();
          const valueStart = i;
          scanValue(depth + 1);
          if (depth === 0) {
            members.push({ key: JSON.parse(text.slice(keyStart, keyEnd)) as string, keyStart, keyEnd, valueStart, valueEnd: i });
          }
        } else {
          scanValue(depth + 1);
        }
        skipSpace();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === closer) {
          if (depth === 0) close = i;
          i++;
          return;
        }
        fail(`"," or "${closer}"`);
      }
    }
    if (ch === '"') return scanString();
    const literal = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
    literal.lastIndex = i;
    if (literal.exec(text)) {
      i = literal.lastIndex;
      return;
    }
    fail("a value");
  };
  try {
    scanValue(0);
    skipSpace();
    if (i < text.length) fail("the end of the file");
    return { open, close, members };
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) return { error: "nested too deeply to read" };
    const before = text.slice(0, err.offset);
    const line = before.split("\n").length;
    const column = err.offset - before.lastIndexOf("\n");
    const found = err.offset >= text.length ? "the end of the file" : JSON.stringify(text.slice(err.offset, err.offset + 12).split("\n")[0]);
    return { error: `expected ${err.expected} at line ${line}, column ${column}, found ${found}` };
  }
}
