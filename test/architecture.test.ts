// The arrows of DESIGN.md's Layout, kept: every import in src/ (static, `import type`, a re-export,
// a dynamic `import("…")`) goes from a layer to one below it. Rule: a file's layer is its first
// folder under src/ (or the top-level file: main.ts, version.ts); an import that
// carries `with { type: "text" }` brings a file's text in as an asset (the extension SDK's source
// embedded in the binary), not its module, and is no arrow.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = join(import.meta.dir, "..", "src");

/**
 * What each layer may import besides itself. protocol, process and version.ts are leaves everyone
 * below the command line may use: pure shapes and helpers, the ownership of child processes, the
 * version string.
 */
const ALLOWED: Record<string, readonly string[]> = {
  // pure: nothing of ours
  protocol: [],
  process: [],
  "version.ts": [],
  config: ["protocol"],
  skills: ["protocol"],
  // markdown slash commands (Claude Code's .claude/commands): files read by their front matter;
  // their `!` lines run through the settings hooks' command runner
  commands: ["protocol", "skills", "settings-hooks"],
  providers: ["protocol", "config"],
  tools: ["protocol", "config", "skills", "process"],
  // providers and tools only through their interfaces
  core: ["protocol"],
  session: ["core", "config", "protocol", "process", "version.ts"],
  // (the skills an extension ships are read as skills are)
  extensions: ["core", "config", "protocol", "process", "skills", "version.ts"],
  // Claude Code's settings hooks: participants of the chain, like the extensions' hooks; they map
  // Claude Code's tool arguments onto the built-in tools' (tools/args.ts); their commands run in owned process groups
  "settings-hooks": ["core", "config", "protocol", "process", "tools"],
  // Claude Code's permission rules: a participant of the chain, reading the settings files the
  // settings hooks read (their sources and cache) and the file tools' paths as the tools resolve them
  "permission-rules": ["core", "protocol", "settings-hooks", "tools"],
  // MCP servers: children like the extensions' (extensions/child.ts), tools deferred behind tool_search
  mcp: ["core", "config", "protocol", "process", "extensions", "tools", "version.ts"],
  // wires the concrete parts
  runtime: ["config", "core", "extensions", "mcp", "settings-hooks", "permission-rules", "commands", "protocol", "providers", "session", "skills", "tools", "version.ts"],
  // the controller sits on the runtime
  conversation: ["runtime", "config", "core", "extensions", "mcp", "commands", "protocol", "providers", "session", "skills", "tools", "version.ts"],
  // the front ends and the SDK use the controller, never what is under it
  modes: ["conversation", "protocol", "version.ts"],
  sdk: ["conversation", "protocol", "version.ts"],
  // the toolkit knows nothing of the agent
  tui: [],
  cli: [
    "modes", "sdk", "conversation", "runtime", "mcp", "settings-hooks", "extensions", "session", "core", "providers", "tools",
    "skills", "commands", "config", "process", "protocol", "tui", "version.ts",
  ],
  "main.ts": ["cli", "version.ts"],
};

/** Layers a layer's sub-folder may use besides its layer's: the TUI application draws with the toolkit. */
const ALLOWED_BELOW: Record<string, readonly string[]> = {
  "modes/interactive": ["tui"],
};

interface ImportSite {
  /** the text between the quotes */
  specifier: string;
  line: number;
  /** `with { type: "text" }`: the file's text, not its module */
  asset: boolean;
}

/** Comments out: their words are no imports (a header quoting `import { extension } from "@zot/sdk"`). */
function withoutComments(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, " "))
    .split("\n")
    .map((line) => (/^\s*\/\//.test(line) ? "" : line))
    .join("\n");
}

/** Every import and re-export of `source`, static, type-only or dynamic. */
function importSites(source: string): ImportSite[] {
  const code = withoutComments(source);
  const sites: ImportSite[] = [];
  const lineOf = (index: number) => code.slice(0, index).split("\n").length;
  const statement = /(?:^|[;\n])\s*(?:import|export)\s+(?:type\s+)?(?:[\w*$\s{},]+?\s+from\s+)?(["'])([^"'\n]+)\1(\s*with\s*\{[^}]*\})?/g;
  for (const match of code.matchAll(statement)) {
    const asset = /type\s*:\s*["']text["']/.test(match[3] ?? "");
    sites.push({ specifier: match[2]!, line: lineOf(match.index! + match[0].indexOf(match[2]!)), asset });
  }
  for (const match of code.matchAll(/\bimport\(\s*(["'])([^"'\n]+)\1\s*(,\s*\{[^)]*\})?\)/g)) {
    const asset = /type\s*:\s*["']text["']/.test(match[3] ?? "");
    sites.push({ specifier: match[2]!, line: lineOf(match.index!), asset });
  }
  return sites;
}

/** `modes/interactive/app.ts` → its layer ("modes") and its sub-folder ("modes/interactive"). */
function layerOf(pathInSrc: string): { layer: string; folder: string } {
  const parts = pathInSrc.split("/");
  if (parts.length === 1) return { layer: parts[0]!, folder: parts[0]! };
  return { layer: parts[0]!, folder: parts.slice(0, -1).join("/") };
}

/** Why importing `target` (a path in src/) from `from` breaks the arrows, or undefined when it does not. */
function violation(from: string, target: string): string | undefined {
  const source = layerOf(from);
  const wanted = layerOf(target).layer;
  if (wanted === source.layer) return undefined;
  const allowed = ALLOWED[source.layer];
  if (!allowed) return `${from} is in no layer the arrows know (${source.layer}); add it to test/architecture.test.ts`;
  const below = Object.entries(ALLOWED_BELOW).find(([folder]) => source.folder === folder || source.folder.startsWith(`${folder}/`))?.[1] ?? [];
  if (allowed.includes(wanted) || below.includes(wanted)) return undefined;
  return `${from} imports ${target}: ${source.layer} may import ${[...allowed, ...below].join(", ") || "nothing of ours"}`;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Every arrow src/ draws that the layout does not allow. */
function violations(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = relative(SRC, file);
    for (const site of importSites(readFileSync(file, "utf8"))) {
      if (site.asset || !site.specifier.startsWith(".")) continue;
      const target = relative(SRC, resolve(dirname(file), site.specifier));
      // package.json (the version) lives above src/: no layer.
      if (target.startsWith("..")) continue;
      const problem = violation(from, target);
      if (problem) found.push(`${problem} (line ${site.line})`);
    }
  }
  return found;
}

describe("the arrows point down", () => {
  test("no file in src/ imports against the layout", () => {
    expect(violations()).toEqual([]);
  });

  test("every layer under src/ has its rule", () => {
    const layers = new Set(readdirSync(SRC).map((name) => layerOf(name).layer));
    expect([...layers].filter((layer) => !(layer in ALLOWED))).toEqual([]);
  });
});

describe("the check itself", () => {
  test("finds static, type-only, re-exported, multi-line and dynamic imports; comments are no imports", () => {
    const source = [
      "// import { no } from \"../core/agent.ts\";",
      "/* export * from \"../core/none.ts\" */",
      'import { a } from "./a.ts";',
      'import type { B } from "../core/agent.ts";',
      "import {",
      "  c,",
      "  type D,",
      '} from "../session/list.ts";',
      'export type { E } from "../extensions/manager.ts";',
      'export * from "../tools/bash.ts";',
      'import "./side-effect.ts";',
      'const { f } = await import("../providers/catalog.ts");',
      'import * as text from "../sdk/extension.ts" with { type: "text" };',
    ].join("\n");
    expect(importSites(source).map((s) => [s.specifier, s.asset])).toEqual([
      ["./a.ts", false],
      ["../core/agent.ts", false],
      ["../session/list.ts", false],
      ["../extensions/manager.ts", false],
      ["../tools/bash.ts", false],
      ["./side-effect.ts", false],
      ["../sdk/extension.ts", true],
      ["../providers/catalog.ts", false],
    ]);
  });

  test("an upward or sideways arrow is named with what the layer may import; the TUI's toolkit is the interactive mode's alone", () => {
    expect(violation("modes/print.ts", "core/agent.ts")).toBe(
      "modes/print.ts imports core/agent.ts: modes may import conversation, protocol, version.ts",
    );
    expect(violation("core/agent.ts", "providers/anthropic.ts")).toContain("core may import protocol");
    expect(violation("protocol/messages.ts", "config/home.ts")).toContain("protocol may import nothing of ours");
    expect(violation("tui/editor.ts", "conversation/conversation.ts")).toBeDefined();
    expect(violation("sdk/runtime.ts", "config/home.ts")).toBeDefined();
    expect(violation("modes/rpc.ts", "tui/theme.ts")).toBeDefined();
    expect(violation("modes/interactive/app.ts", "tui/theme.ts")).toBeUndefined();
    expect(violation("modes/interactive/commands/model.ts", "providers/catalog.ts")).toBeDefined();
    expect(violation("cli/root.ts", "conversation/conversation.ts")).toBeUndefined();
    expect(violation("conversation/conversation.ts", "runtime/runtime.ts")).toBeUndefined();
    expect(violation("runtime/runtime.ts", "conversation/conversation.ts")).toBeDefined();
    expect(violation("mcp/manager.ts", "runtime/runtime.ts")).toBeDefined();
  });
});
