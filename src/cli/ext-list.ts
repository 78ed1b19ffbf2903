// `zot ext list [--json]`: every extension discovery finds, project first, then global, with its
// state: ok, disabled, broken (which file, which field), shadowed (by which directory) or untrusted
// (a project's, in a folder the user has not trusted: it does not run).
// Rule: the list shows what `zot` itself would load, because it asks the same discovery code;
// a broken manifest is a row with the reason, never silently skipped.
import type { ArgsDef } from "citty";
import path from "node:path";
import { folderAnswer, folderKey } from "../config/trust-store.ts";
import { UsageError } from "../config/usage-error.ts";
import { shellQuote } from "../config/workspace-trust.ts";
import { DEBUG_ARG, type ExtCommand, type ExtContext } from "./ext.ts";
import { displayName, type Found, globalDir, projectDir } from "./ext-find.ts";
import { parseFlags } from "./parse-flags.ts";
import { EXIT } from "./router.ts";
import { discoverExtensions } from "../extensions/discover.ts";
import { type HookEntry, listHooksConfig } from "../extensions/hooks-config.ts";
import { printable, printableVerbatim } from "../protocol/printable.ts";

const ARGS = {
  json: { type: "boolean", description: "Print a JSON array instead of a table" },
  debug: DEBUG_ARG,
} satisfies ArgsDef;

export type ListState = "ok" | "disabled" | "broken" | "shadowed" | "untrusted";

export interface ListRow {
  name: string;
  version: string | null;
  /** null when the manifest is too broken to say */
  enabled: boolean | null;
  state: ListState;
  /** broken: `<file>: <what is wrong>` */
  error?: string;
  /** shadowed: the directory whose extension of the same name wins */
  shadowed_by?: string;
  source: string;
  /** "jsonrpc" for a process hook; null when the manifest is too broken to say */
  protocol: "zot" | "jsonrpc" | null;
  language: string | null;
  description: string | null;
  dir: string;
  manifest_file: string;
}

export const LIST: ExtCommand = {
  usage: "list [--json]",
  description: "List extensions (project, then global) with version, state, source, language and description",
  args: ARGS,
  async run(argv: string[], ctx: ExtContext): Promise<number> {
    const { values, positionals } = parseFlags(ARGS, argv, undefined, "zot ext list");
    if (positionals.length > 0) throw new UsageError(`zot ext list takes no arguments (got "${positionals[0]}")`);
    // What a run here would do without --trust: the remembered answer decides.
    const projectTrusted = folderAnswer(ctx.home, ctx.cwd)?.trusted === true;
    const found = await discoverExtensions({ cwd: ctx.cwd, home: ctx.home, explicit: [], noDiscovery: false, projectTrusted });
    const hooks = listHooksConfig({ cwd: ctx.cwd, home: ctx.home, env: ctx.env, projectTrusted });
    const rows = [...found.filter((entry) => entry.source !== "flag").map(toRow), ...hooks.entries.map(hookRow)];
    for (const warning of hooks.warnings) console.error(`zot: ${warning}`);
    if (rows.some((row) => row.state === "untrusted")) {
      console.error(printableVerbatim(`zot: this folder is not trusted, so its extensions and hooks (state untrusted) do not run; zot trust ${shellQuote(folderKey(ctx.cwd))} trusts it`));
    }
    if (values.json) {
      console.log(JSON.stringify(rows, null, 2));
      return EXIT.ok;
    }
    if (rows.length === 0) {
      console.error(
        [
          `no extensions in ${projectDir(ctx)} or ${globalDir(ctx)}`,
          "install one with `zot ext install <path|git-url>`, or create one with `zot ext new <name>`",
        ].join("\n"),
      );
      return EXIT.ok;
    }
    // Names and descriptions come from manifests a folder may hold: shown as text, never as escapes.
    console.log(printable(formatTable(rows)));
    return EXIT.ok;
  },
};

export function toRow(entry: Found): ListRow {
  const m = entry.manifest;
  const state: ListState = entry.untrusted ? "untrusted" : !m ? "broken" : entry.shadowedBy ? "shadowed" : m.enabled === false ? "disabled" : "ok";
  return {
    name: displayName(entry),
    version: m?.version ?? null,
    enabled: m ? m.enabled !== false : null,
    state,
    ...(!m ? { error: brokenReason(entry) } : {}),
    ...(entry.shadowedBy ? { shadowed_by: entry.shadowedBy } : {}),
    source: entry.source,
    protocol: m?.protocol ?? null,
    language: m?.language ?? null,
    description: m?.description ?? null,
    dir: entry.dir,
    manifest_file: entry.manifestFile,
  };
}

/** A `hooks.processes` entry of hooks.json (PicoClaw's config). */
function hookRow(entry: HookEntry): ListRow {
  const state: ListState = entry.untrusted ? "untrusted" : entry.shadowedBy ? "shadowed" : entry.error ? "broken" : entry.enabled ? "ok" : "disabled";
  return {
    name: entry.name,
    version: null,
    enabled: entry.enabled,
    state,
    ...(entry.error ? { error: entry.error } : {}),
    ...(entry.shadowedBy ? { shadowed_by: entry.shadowedBy } : {}),
    source: entry.source,
    protocol: "jsonrpc",
    language: null,
    description: null,
    dir: entry.spec?.dir ?? path.dirname(entry.file),
    manifest_file: entry.file,
  };
}

function brokenReason(entry: Found): string {
  const error = entry.error ?? "the manifest cannot be read";
  // The reason names the file unless discovery already did.
  return error.includes(entry.manifestFile) || error.includes(entry.dir) ? error : `${entry.manifestFile}: ${error}`;
}

const COLUMNS = ["NAME", "VERSION", "ENABLED", "STATE", "SOURCE", "LANGUAGE", "DESCRIPTION"] as const;

/** Aligned columns (by display width, so wide characters line up); reasons on a line below the row. */
export function formatTable(rows: ListRow[]): string {
  const cells = rows.map((row) => [
    row.name,
    row.version ?? "-",
    row.enabled === null ? "-" : row.enabled ? "yes" : "no",
    row.state,
    row.source,
    // A hook speaks PicoClaw's JSON-RPC protocol (docs/hooks.md), not zot's.
    row.protocol === "jsonrpc" ? `${row.language ? `${row.language} ` : ""}hook` : (row.language ?? "-"),
    row.description ?? "",
  ]);
  const widths = COLUMNS.map((title, i) => Math.max(Bun.stringWidth(title), ...cells.map((c) => Bun.stringWidth(c[i]))));
  const line = (values: readonly string[]) =>
    values
      .map((value, i) => (i === values.length - 1 ? value : value + " ".repeat(widths[i] - Bun.stringWidth(value))))
      .join("  ")
      .trimEnd();
  const out = [line(COLUMNS)];
  rows.forEach((row, i) => {
    out.push(line(cells[i]));
    if (row.error && (row.state === "broken" || row.state === "untrusted")) out.push(`  ↳ broken: ${row.error}`);
    if (row.shadowed_by) out.push(`  ↳ shadowed by ${row.shadowed_by}`);
  });
  return out.join("\n");
}
