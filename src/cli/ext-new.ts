// `zot ext new <name> [--lang ts|js|python] [--dir PATH]`: scaffolds an extension that works as
// created: a manifest, one source file registering the command /<name> and the tool <name>_echo,
// and a README saying how to run it. The templates are text files embedded in the binary.
// Rule: never write over anyone's files: an existing non-empty directory is refused, and a
// failure halfway removes what this run wrote; never scaffold a command that cannot run: a name
// zot's own commands have (/help) is refused.
import type { ArgsDef } from "citty";
import { chmodSync, existsSync, mkdirSync, readdirSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../config/usage-error.ts";
import { isBuiltinCommand } from "../extensions/builtin-names.ts";
import { errorText } from "../protocol/error-text.ts";
import { DEBUG_ARG, type ExtCommand, type ExtContext } from "./ext.ts";
import readmeTemplate from "./ext-templates/README.md.txt" with { type: "text" };
import mjsTemplate from "./ext-templates/index.mjs.txt" with { type: "text" };
import tsTemplate from "./ext-templates/index.ts.txt" with { type: "text" };
import pyTemplate from "./ext-templates/main.py.txt" with { type: "text" };
import { parseFlags } from "./parse-flags.ts";
import { EXIT } from "./router.ts";

const ARGS = {
  name: { type: "positional", required: true, description: "The extension's name; also its command /<name> and tool <name>_echo" },
  lang: { type: "enum", options: ["ts", "js", "python"], description: "TypeScript with @zot/sdk (default), JavaScript with no SDK, or Python" },
  dir: { type: "string", description: "Where to create it (default ./<name>)", valueHint: "path" },
  debug: DEBUG_ARG,
} satisfies ArgsDef;

type Lang = "ts" | "js" | "python";

interface LangSpec {
  label: string;
  language: string;
  entry: string;
  source: string;
  executable: boolean;
  note: string;
}

const LANGS: Record<Lang, LangSpec> = {
  ts: {
    label: "TypeScript",
    language: "typescript",
    entry: "index.ts",
    source: tsTemplate,
    executable: false,
    note:
      '`index.ts` uses the SDK, `@zot/sdk`, which zot provides itself: no `npm install`, no build step. ' +
      '`"exec": "./index.ts"` in `extension.json` makes zot run it with its built-in runtime. ' +
      "For your editor: once zot has run an extension, the SDK with its types is in " +
      "`$ZOT_HOME/runtime/<zot version>/node_modules/@zot/sdk/` (point `paths` in a tsconfig.json at it).",
  },
  js: {
    label: "JavaScript",
    language: "javascript",
    entry: "index.mjs",
    source: mjsTemplate,
    executable: false,
    note:
      "`index.mjs` speaks the wire protocol directly, with no SDK and no dependencies. " +
      '`"exec": "./index.mjs"` makes zot run it with its built-in runtime; `node index.mjs` works too.',
  },
  python: {
    label: "Python",
    language: "python",
    entry: "main.py",
    source: pyTemplate,
    executable: true,
    note:
      "`main.py` uses only the Python standard library. zot runs it directly " +
      '(`"exec": "./main.py"`: the file is executable and starts with `#!/usr/bin/env python3`), so `python3` must be on PATH.',
  },
};

/**
 * Letters, digits, `-` and `_`, starting with a letter or digit: the name is also a slash command
 * (`[A-Za-z0-9_-]+`) and, with `_echo`, a tool name (at most 64 characters).
 */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,58}$/;

export const NEW: ExtCommand = {
  usage: "new <name> [--lang ts|js|python] [--dir PATH]",
  description: "Create a working extension to start from: /<name> command, <name>_echo tool, README",
  args: ARGS,
  async run(argv: string[], ctx: ExtContext): Promise<number> {
    const { values, positionals } = parseFlags(ARGS, argv, undefined, "zot ext new");
    if (positionals.length !== 1) throw new UsageError("zot ext new takes one name, e.g. zot ext new weather");
    const name = positionals[0];
    if (!NAME.test(name)) {
      throw new UsageError(`"${name}" cannot be an extension name; use up to 59 letters, digits, - and _, starting with a letter or digit`);
    }
    if (isBuiltinCommand(name)) {
      throw new UsageError(
        `"${name}" is the name of zot's built-in /${name.toLowerCase()}, so the extension's /${name} would never run; pick another name, e.g. zot ext new my-${name}`,
      );
    }
    const lang = (values.lang as Lang | undefined) ?? "ts";
    const dir = path.resolve(ctx.cwd, typeof values.dir === "string" ? values.dir : name);
    const shown = shownPath(ctx.cwd, dir);
    const files = scaffold(name, lang, shown);
    writeScaffold(dir, files);
    console.log(
      [
        `created ${shown} (${LANGS[lang].label}): ${files.map((f) => f.name).join(", ")}`,
        `try it:   zot ext check ${shown}`,
        `          zot --ext ${shown} -p "/${name} hi"`,
        `install:  zot ext install ${shown}`,
      ].join("\n"),
    );
    return EXIT.ok;
  },
};

interface ScaffoldFile {
  name: string;
  text: string;
  executable: boolean;
}

export function scaffold(name: string, lang: Lang, shownDir: string): ScaffoldFile[] {
  const spec = LANGS[lang];
  const manifest = {
    name,
    version: "0.1.0",
    description: `starter extension: /${name} and the ${name}_echo tool`,
    exec: `./${spec.entry}`,
    language: spec.language,
    enabled: true,
  };
  const fill = (template: string) =>
    template
      .replaceAll("{{name}}", name)
      .replaceAll("{{language}}", spec.label)
      .replaceAll("{{entry}}", spec.entry)
      .replaceAll("{{entry_note}}", spec.note)
      .replaceAll("{{path}}", shownDir);
  return [
    { name: "extension.json", text: `${JSON.stringify(manifest, null, 2)}\n`, executable: false },
    { name: spec.entry, text: fill(spec.source), executable: spec.executable },
    { name: "README.md", text: fill(readmeTemplate), executable: false },
  ];
}

function writeScaffold(dir: string, files: ScaffoldFile[]): void {
  let created = false;
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new Error(`${dir} already exists and is a file; pick another name or --dir`);
    if (readdirSync(dir).length > 0) throw new Error(`${dir} already exists and is not empty; pick another name or --dir, nothing was written`);
  } else {
    mkdirSync(dir, { recursive: true });
    created = true;
  }
  const written: string[] = [];
  try {
    for (const file of files) {
      const target = path.join(dir, file.name);
      writeFileSync(target, file.text, { flag: "wx" });
      written.push(target);
      if (file.executable) chmodSync(target, 0o755);
    }
  } catch (error) {
    for (const file of written) rmSync(file, { force: true });
    if (created) rmdirSync(dir);
    throw new Error(`could not create the extension in ${dir}: ${errorText(error)}`);
  }
}

/** How to type the directory from where the user is: `./name`, or the absolute path if it is elsewhere. */
function shownPath(cwd: string, dir: string): string {
  const relative = path.relative(cwd, dir);
  if (relative === "") return ".";
  if (relative.startsWith("..") || path.isAbsolute(relative)) return dir;
  return `./${relative}`;
}
