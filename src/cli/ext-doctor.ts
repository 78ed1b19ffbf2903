// `zot ext doctor [--json]`: every installed extension at once, started exactly as zot starts them
// (the same discovery and the same manager), and what came of it: manifest errors, disabled,
// shadowed and untrusted ones, failed starts, ready state (a missing ready frame included), what
// each registered (tools deferred or shadowed), registration conflicts, protocol mistakes, and
// where each one's log is.
// Rule: the verdict comes from the code a real start runs, never from a second reading of the
// files; nothing in a folder the user has not trusted is started. Exit 0 when nothing is wrong
// (warnings allowed), 1 otherwise.
import type { ArgsDef } from "citty";
import { extensionLogFile } from "../config/home.ts";
import { folderAnswer, folderKey } from "../config/trust-store.ts";
import { UsageError } from "../config/usage-error.ts";
import { shellQuote } from "../config/workspace-trust.ts";
import { discoverExtensions } from "../extensions/discover.ts";
import type { ExtensionInfo } from "../extensions/manager.ts";
import { VERSION } from "../version.ts";
import { DEBUG_ARG, type ExtCommand, type ExtContext } from "./ext.ts";
import { type ListRow, toRow } from "./ext-list.ts";
import { parseFlags } from "./parse-flags.ts";
import { EXIT } from "./router.ts";
import { printableVerbatim } from "../protocol/printable.ts";

const ARGS = {
  json: { type: "boolean", description: "Print the findings as JSON" },
  debug: DEBUG_ARG,
} satisfies ArgsDef;

/** Host diagnostics that are allowed, only worth knowing: the host closed registration itself. */
// An event name this zot does not send may be a newer protocol's: a warning; an interceptor that never runs is an error.
const WARNING_KINDS: ReadonlySet<string> = new Set(["no_ready", "ready_timeout", "unknown_subscription"]);

export interface DoctorEntry extends ListRow {
  /** ready, failed, exited…: how the start went (absent when it was not started) */
  started?: string;
  start_error?: string;
  /** ready without a ready frame: the host closed registration after silence or 3 s */
  auto_ready?: boolean;
  hello?: { version?: string; capabilities: string[] };
  commands?: string[];
  tools?: { name: string; exposure: string; interactive: boolean; shadowed: boolean }[];
  intercepts?: string[];
  skills?: string[];
  problems: string[];
  warnings: string[];
  log: string;
}

export interface DoctorReport {
  cwd: string;
  project_trusted: boolean;
  extensions: DoctorEntry[];
  /** registration conflicts and load warnings that name no one extension above */
  conflicts: string[];
  problems: number;
}

export const DOCTOR: ExtCommand = {
  usage: "doctor [--json]",
  description: "Start every installed extension as zot would and report manifest errors, shadowing, conflicts, ready state, protocol errors and log paths (exit 1 if anything is wrong)",
  args: ARGS,
  async run(argv: string[], ctx: ExtContext): Promise<number> {
    const { values, positionals } = parseFlags(ARGS, argv, undefined, "zot ext doctor");
    if (positionals.length > 0) throw new UsageError(`zot ext doctor takes no arguments (got "${positionals[0]}"); it looks at every installed extension`);
    const report = await diagnose(ctx);
    if (values.json) console.log(JSON.stringify(report, null, 2));
    // Names, versions and paths come from manifests and folders a repository holds: shown, never obeyed as escapes.
    else console.log(printableVerbatim(formatDoctor(report)));
    if (!report.project_trusted && report.extensions.some((e) => e.state === "untrusted")) {
      console.error(printableVerbatim(`zot: this folder is not trusted, so its extensions were not started; zot trust ${shellQuote(folderKey(ctx.cwd))} trusts it`));
    }
    return report.problems === 0 ? EXIT.ok : EXIT.failed;
  },
};

export async function diagnose(ctx: ExtContext): Promise<DoctorReport> {
  const projectTrusted = folderAnswer(ctx.home, ctx.cwd)?.trusted === true;
  const found = await discoverExtensions({ cwd: ctx.cwd, home: ctx.home, explicit: [], noDiscovery: false, projectTrusted });
  const { ExtensionManager } = await import("../extensions/manager.ts");
  const manager = new ExtensionManager();
  let infos: ExtensionInfo[] = [];
  let warnings: string[] = [];
  try {
    const loaded = await manager.load({
      cwd: ctx.cwd,
      home: ctx.home,
      explicit: [],
      noDiscovery: false,
      projectTrusted,
      provider: "none",
      model: "none",
      zotVersion: VERSION,
      zotBinary: process.execPath,
      env: ctx.env,
      wait: "all",
    });
    warnings = loaded.warnings;
    infos = manager.list();
  } finally {
    await manager.stop();
  }
  const skillsOf = new Map<string, string[]>();
  for (const skill of manager.skills()) {
    const extension = found.find((e) => e.manifest && skill.path.startsWith(`${e.dir}/`))?.manifest?.name;
    if (extension) skillsOf.set(extension, [...(skillsOf.get(extension) ?? []), skill.name]);
  }
  const used = new Set<string>();
  const extensions = found
    .filter((entry) => entry.source !== "flag")
    .map((entry): DoctorEntry => {
      const row = toRow(entry);
      const base: DoctorEntry = { ...row, problems: [], warnings: [], log: extensionLogFile(ctx.home, row.name) };
      if (row.state === "broken") base.problems.push(row.error ?? "the manifest cannot be read");
      const skills = skillsOf.get(row.name);
      if (skills && row.state === "ok") base.skills = skills;
      const info = row.state === "ok" ? infos.find((i) => i.name === row.name && i.dir === entry.dir) : undefined;
      if (!info) return base;
      const mine = warnings.filter((w) => w.startsWith(`extension "${row.name}":`) || w === info.error);
      for (const w of mine) used.add(w);
      const diagnostics = info.diagnostics ?? [];
      const entryOut: DoctorEntry = {
        ...base,
        started: info.state,
        ...(info.error ? { start_error: info.error } : {}),
        ...(diagnostics.some((d) => d.kind === "no_ready" || d.kind === "ready_timeout") ? { auto_ready: true } : {}),
        ...(info.hello ? { hello: info.hello } : {}),
        commands: info.commands,
        tools: info.toolInfo ?? [],
        intercepts: info.intercepts ?? [],
        problems: [
          ...(info.state !== "ready" && info.protocol === "zot" ? [info.error ?? `it is ${info.state}, not running`] : []),
          ...diagnostics.filter((d) => !WARNING_KINDS.has(d.kind)).map((d) => d.message),
          ...mine.filter((w) => w !== info.error),
        ],
        warnings: diagnostics.filter((d) => WARNING_KINDS.has(d.kind)).map((d) => d.message),
      };
      return entryOut;
    });
  // hooks.json entries and load warnings about no one extension above
  const conflicts = warnings.filter((w) => !used.has(w) && !extensions.some((e) => e.problems.includes(w) || (e.error !== undefined && w.includes(e.error))));
  const problems = extensions.reduce((n, e) => n + e.problems.length, 0) + conflicts.length;
  return { cwd: ctx.cwd, project_trusted: projectTrusted, extensions, conflicts, problems };
}

export function formatDoctor(report: DoctorReport): string {
  const out: string[] = [];
  if (report.extensions.length === 0) out.push("no extensions installed (zot ext install <path|git-url>, or zot ext new <name>)");
  for (const e of report.extensions) {
    const version = e.version ? ` ${e.version}` : "";
    out.push(`${e.name}${version} (${e.source}, ${e.dir})`);
    const field = (label: string, value: string) => out.push(`  ${`${label}:`.padEnd(12)}${value}`);
    field("state", stateText(e));
    if (e.hello) field("hello", `capabilities: ${e.hello.capabilities.join(", ") || "none"}`);
    if (e.commands) field("commands", e.commands.length > 0 ? e.commands.map((c) => `/${c}`).join(", ") : "none");
    if (e.tools) field("tools", e.tools.length > 0 ? e.tools.map(toolText).join(", ") : "none");
    if (e.intercepts && e.intercepts.length > 0) field("intercepts", e.intercepts.join(", "));
    if (e.skills) field("skills", e.skills.join(", "));
    field("log", e.log);
    for (const w of e.warnings) out.push(`  warning: ${w}`);
    for (const p of e.problems) out.push(`  problem: ${p}`);
  }
  if (report.conflicts.length > 0) {
    out.push("other problems:");
    for (const c of report.conflicts) out.push(`  - ${c}`);
  }
  const count = report.extensions.length;
  const ready = report.extensions.filter((e) => e.started === "ready").length;
  out.push(
    report.problems === 0
      ? `ok: ${count} extension${count === 1 ? "" : "s"}, ${ready} ready, no problems`
      : `${report.problems} problem${report.problems === 1 ? "" : "s"} in ${count} extension${count === 1 ? "" : "s"} (${ready} ready)`,
  );
  return out.join("\n");
}

function stateText(e: DoctorEntry): string {
  switch (e.state) {
    case "broken":
      return "broken (its manifest cannot be loaded)";
    case "shadowed":
      return `shadowed by ${e.shadowed_by}: not started`;
    case "disabled":
      return "disabled: not started (zot ext enable " + e.name + ")";
    case "untrusted":
      return "untrusted: not started (a project folder the user has not trusted)";
    default:
      if (e.started === undefined) return e.skills ? "skills only: nothing to start" : "not started";
      if (e.started === "ready") return e.auto_ready ? "ready (it sent no ready frame; zot closed registration itself)" : "ready";
      return `${e.started}${e.start_error ? `: ${e.start_error}` : ""}`;
  }
}

function toolText(t: { name: string; exposure: string; interactive: boolean; shadowed: boolean }): string {
  const marks = [t.exposure !== "direct" ? t.exposure : "", t.interactive ? "interactive" : "", t.shadowed ? "shadowed" : ""].filter(Boolean);
  return marks.length > 0 ? `${t.name} (${marks.join(", ")})` : t.name;
}
