// `zot ext check <path|name>`: starts one extension exactly as zot would (the same host code:
// hello/hello_ack, registration until ready or 250 ms of silence, at most 3 s), prints what it
// registered, says shutdown, and reports every protocol mistake it made on the way.
// Rule: the verdict comes from the host itself, not from a second reading of the protocol: the
// mistakes are the diagnostics the host reports while it runs the extension, so `check` passes
// exactly when a real zot would have nothing to complain about. The run uses a private, temporary
// ZOT_HOME (logs, data, SDK runtime), so it neither writes into the user's nor mixes with another
// zot running the same extension. A command or tool named as one of zot's own (/help, read) is
// reported too: a real zot would shadow it and never use it. Exit 0 clean, 1 otherwise.
import { statSafe } from "../config/quiet-fs.ts";
import type { ArgsDef } from "citty";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { folderAnswer, folderKey } from "../config/trust-store.ts";
import { UsageError } from "../config/usage-error.ts";
import { shellQuote } from "../config/workspace-trust.ts";
import { BUILTIN_TOOL_NAMES, isBuiltinCommand } from "../extensions/builtin-names.ts";
import { loadManifest, loadManifestFile, type Manifest } from "../extensions/manifest.ts";
import { ZotExtensionHost } from "../extensions/zot-host.ts";
import { errorText } from "../protocol/error-text.ts";
import { EXT_EVENTS, type ExtInterceptName } from "../protocol/ext-frames.ts";
import type { InterceptFields } from "../extensions/ext-intercept.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import { VERSION } from "../version.ts";
import { DEBUG_ARG, type ExtCommand, type ExtContext } from "./ext.ts";
import { findInstalled } from "./ext-find.ts";
import { parseFlags } from "./parse-flags.ts";
import { EXIT } from "./router.ts";

const ARGS = {
  path: { type: "positional", required: true, description: "The extension's directory (or its extension.json), or an installed extension's name" },
  debug: DEBUG_ARG,
} satisfies ArgsDef;

export const CHECK: ExtCommand = {
  usage: "check <path|name>",
  description: "Start an extension once, print what it registers, and report every protocol error it makes (exit 1 if any)",
  args: ARGS,
  async run(argv: string[], ctx: ExtContext): Promise<number> {
    const { positionals } = parseFlags(ARGS, argv, undefined, "zot ext check");
    if (positionals.length !== 1 || positionals[0] === "") throw new UsageError("zot ext check takes one extension directory, e.g. zot ext check ./my-extension");
    const { manifest, dir } = await locate(positionals[0], ctx);
    if (manifest.protocol === "jsonrpc") {
      throw new Error(
        `"${manifest.name}" is a process hook (the "jsonrpc" protocol), and zot ext check knows only the zot extension protocol; try it with zot --ext ${dir} -p "…", then read zot ext logs ${manifest.name} (docs/hooks.md)`,
      );
    }
    // A bundle with nothing to run (skills, a theme) is never started: there is no protocol to check.
    if (manifest.exec === undefined) {
      const skills = Array.isArray(manifest.skills) ? manifest.skills.length : 0;
      console.log(`${manifest.name} (${dir}): ${skills > 0 ? `skills only (${skills} folder${skills === 1 ? "" : "s"})` : "nothing to run"}; it is never started, so there is no protocol to check`);
      return EXIT.ok;
    }
    const report = await checkExtension(manifest, dir, ctx);
    console.log(formatReport(report, dir));
    return report.problems.length === 0 && report.taken.length === 0 ? EXIT.ok : EXIT.failed;
  },
};

/**
 * A bare name is an installed extension's, when one has it; anything else (and a name nothing is
 * installed under) is a path, a directory or a manifest file. An installed name wins over a
 * directory of the same name in the folder, so a repository cannot put its own code in the place
 * of the extension the user named. A project's extension named in a folder that is not trusted is
 * refused: trusting the folder, or naming its directory, is the user's deliberate choice to run it.
 */
async function locate(target: string, ctx: ExtContext): Promise<{ manifest: Manifest; dir: string }> {
  const resolved = path.resolve(ctx.cwd, target);
  const looksLikeName = !target.includes("/") && !target.includes("\\") && !target.startsWith(".");
  const found = looksLikeName
    ? await findInstalled(target, ctx).catch((error: unknown) => {
        // Two installed copies of the name: findInstalled's message says how to pick one.
        if (error instanceof UsageError) throw error;
        return undefined;
      })
    : undefined;
  if (found) {
    if (found.source === "project" && folderAnswer(ctx.home, ctx.cwd)?.trusted !== true) {
      throw new UsageError(
        `"${target}" is this folder's extension (${found.dir}), and the folder is not trusted, so zot ext check does not start it; ` +
          `trust it (zot trust ${shellQuote(folderKey(ctx.cwd))}), or name the directory to run it once: zot ext check ${shellQuote(path.relative(ctx.cwd, found.dir) || found.dir)}`,
      );
    }
    if (!found.manifest) throw new Error(found.error ?? `${found.manifestFile} cannot be read`);
    return { manifest: found.manifest, dir: found.dir };
  }
  const stats = statSafe(resolved);
  if (!stats) {
    if (!looksLikeName) throw new Error(`${resolved} does not exist; give the extension's directory`);
    throw new Error(`no directory ${resolved} and no installed extension named "${target}"; give the extension's directory`);
  }
  const loaded = stats.isDirectory() ? loadManifest(resolved) : loadManifestFile(resolved);
  if (!loaded.ok) throw new Error(loaded.error);
  return { manifest: loaded.manifest, dir: loaded.dir };
}

export interface CheckReport {
  name: string;
  version?: string;
  /** what the hello frame said, when one came */
  hello?: { version?: string; capabilities: string[] };
  /** the host's state once registration closed: "ready" when it came up */
  state: string;
  /** why it did not come up */
  startError?: string;
  commands: { name: string; description: string }[];
  tools: { name: string; description: string; schema: Record<string, unknown>; exposure?: string; interactive?: boolean }[];
  events: string[];
  intercepts: string[];
  /** milliseconds from spawn until registration closed */
  startMs: number;
  /** milliseconds from shutdown until the process was gone */
  stopMs: number;
  /** every protocol mistake, in the order the host met them */
  problems: string[];
  /** commands and tools it registered whose names zot's own have: zot never uses them */
  taken: string[];
  /** what is allowed but worth knowing (no ready frame: the host closes registration itself, as the original did) */
  warnings: string[];
  /** the extension's own stderr during the check (last lines) */
  stderr: string[];
}

const STDERR_LINES = 20;
/** Host diagnostics that are not mistakes: registration closed by the host's timers, which the protocol allows. */
// An event name this zot does not send may be a newer protocol's: a warning; an interceptor that never runs is an error.
const WARNING_KINDS: ReadonlySet<string> = new Set(["no_ready", "ready_timeout", "unknown_subscription"]);

export async function checkExtension(manifest: Manifest, dir: string, ctx: ExtContext): Promise<CheckReport> {
  const home = mkdtempSync(path.join(tmpdir(), "zot-ext-check-"));
  try {
    return await checkIn(home, manifest, dir, ctx);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

async function checkIn(home: string, manifest: Manifest, dir: string, ctx: ExtContext): Promise<CheckReport> {
  const problems: string[] = [];
  const warnings: string[] = [];
  const host = new ZotExtensionHost({
    manifest,
    dir,
    home,
    cwd: ctx.cwd,
    // No model runs during a check; the extension still gets a well-formed hello_ack.
    provider: "none",
    model: "none",
    zotVersion: VERSION,
    zotBinary: process.execPath,
    // Whatever the extension starts (a zot of its own, say) keeps to the private home too.
    env: { ...ctx.env, ZOT_HOME: home },
    onDiagnostic: (diagnostic) => (WARNING_KINDS.has(diagnostic.kind) ? warnings : problems).push(diagnostic.message),
  });
  const started = performance.now();
  await host.start();
  const startMs = performance.now() - started;
  const hello = host.hello;
  const report = {
    ...(hello ? { hello: { ...(hello.version !== undefined ? { version: hello.version } : {}), capabilities: hello.capabilities } } : {}),
    state: host.state,
    startError: host.error,
    commands: host.commands(),
    tools: host.tools(),
    events: EXT_EVENTS.filter((event) => host.subscribed(event)),
    intercepts: host.intercepts(),
  };
  if (host.live) problems.push(...(await probeIntercepts(host)));
  const stopping = performance.now();
  await host.stop();
  const stopMs = performance.now() - stopping;
  if (report.state !== "ready" && problems.length === 0) {
    problems.push(report.startError ?? `the extension was ${report.state} when registration closed, not running`);
  }
  const stderr = stderrLines(host.logFile).slice(-STDERR_LINES);
  const taken = takenNames(report.commands, report.tools);
  return { name: manifest.name, version: manifest.version, ...report, startMs, stopMs, problems, taken, warnings, stderr };
}

/**
 * Each interception the extension subscribed to, asked once with a harmless payload (reading this
 * README, the first step, a short answer): an interceptor that does not answer in time, or answers
 * with an invalid frame, is a problem, since zot would then go on without it (or refuse every tool
 * call, for a guard with fail_closed). before_agent_start is left out: it rewrites the system prompt.
 */
async function probeIntercepts(host: ZotExtensionHost): Promise<string[]> {
  const payloads: Partial<Record<ExtInterceptName, InterceptFields>> = {
    tool_call: { event: "tool_call", tool_id: "zot-ext-check", tool_name: "read", tool_args: { path: "README.md" } },
    turn_start: { event: "turn_start", step: 1 },
    assistant_message: { event: "assistant_message", text: "zot ext check asks this interceptor once." },
  };
  const problems: string[] = [];
  for (const stage of host.intercepts()) {
    const fields = payloads[stage];
    if (!fields || !host.live) continue;
    try {
      await host.intercept(fields, new AbortController().signal);
    } catch (error) {
      const then = stage === "tool_call" && host.failClosed ? "refuse every tool call (fail_closed)" : `go on without it (${stage} is allowed)`;
      problems.push(`it did not answer a ${stage} intercept (${describeProbe(fields)}): ${errorText(error)}; zot would ${then}`);
    }
  }
  return problems;
}

function describeProbe(fields: InterceptFields): string {
  if (fields.event === "tool_call") return `a harmless read of ${String(fields.tool_args?.path)}`;
  if (fields.event === "turn_start") return "step 1";
  return "a short answer";
}

/** What a real zot would shadow (and say so when it loads the extension): zot's own command and tool names. */
function takenNames(commands: { name: string }[], tools: { name: string }[]): string[] {
  return [
    ...commands
      .filter((c) => isBuiltinCommand(c.name))
      .map((c) => `command /${c.name} is zot's built-in /${c.name.toLowerCase()}, which always wins: the extension's never runs; rename it (e.g. /my-${c.name.toLowerCase()})`),
    ...tools
      .filter((t) => BUILTIN_TOOL_NAMES.has(t.name))
      .map((t) => `tool "${t.name}" is zot's built-in ${t.name} tool, which always wins: the model never sees the extension's; rename it`),
  ];
}

/**
 * The extension's stderr: its log without the host's `[zot] ` lines. The log sits in this check's
 * private home, so every line in it is from this run; the verdict never depends on it.
 */
function stderrLines(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  return text.split(/\r?\n/).filter((line) => line.trim() !== "" && !line.startsWith("[zot] "));
}

export function formatReport(report: CheckReport, dir: string): string {
  const out: string[] = [`${report.name}${report.version ? ` ${report.version}` : ""} (${dir})`];
  const field = (label: string, value: string) => out.push(`  ${`${label}:`.padEnd(12)}${value}`);
  // One line per item, descriptions in a column after the widest item.
  const list = (label: string, items: [string, string][]) => {
    if (items.length === 0) return field(label, "none");
    const width = Math.max(...items.map(([item]) => Bun.stringWidth(item)));
    items.forEach(([item, description], i) => {
      const line = description ? `${item}${" ".repeat(width - Bun.stringWidth(item))}  ${clip(description)}` : item;
      if (i === 0) field(label, line);
      else out.push(`${" ".repeat(14)}${line}`);
    });
  };
  if (report.state === "ready") field("started", `registration closed after ${Math.round(report.startMs)} ms`);
  else field("started", `no (${report.state})`);
  if (report.hello) {
    const capabilities = report.hello.capabilities.length === 0 ? "none" : report.hello.capabilities.join(", ");
    field("hello", `version ${report.hello.version ?? "(none)"}, capabilities: ${capabilities}`);
  }
  list("commands", report.commands.map((c) => [`/${c.name}`, c.description]));
  list("tools", report.tools.map((t) => [`${t.name}(${schemaSummary(t.schema)})${toolMarks(t)}`, t.description]));
  field("events", report.events.length === 0 ? "none" : report.events.join(", "));
  field("intercepts", report.intercepts.length === 0 ? "none" : report.intercepts.join(", "));
  if (report.state === "ready") field("shutdown", `gone ${Math.round(report.stopMs)} ms after shutdown`);
  else field("shutdown", report.state === "failed" ? "not sent: it did not start" : `not sent: it had already ${report.state}`);
  if (report.stderr.length > 0) {
    out.push("  stderr:");
    for (const line of report.stderr) out.push(`    ${line}`);
  }
  if (report.warnings.length > 0) {
    out.push(`${report.warnings.length} warning${report.warnings.length === 1 ? "" : "s"}:`);
    for (const warning of report.warnings) out.push(`  - ${warning}`);
  }
  if (report.taken.length > 0) {
    out.push(`${report.taken.length} name${report.taken.length === 1 ? "" : "s"} zot already has:`);
    for (const name of report.taken) out.push(`  - ${name}`);
  }
  if (report.problems.length === 0) {
    out.push(report.taken.length === 0 ? "ok: no protocol errors" : "no protocol errors, but it cannot be used as it is");
  } else {
    out.push(`${report.problems.length} protocol error${report.problems.length === 1 ? "" : "s"}:`);
    for (const problem of report.problems) out.push(`  - ${problem}`);
  }
  return out.join("\n");
}

/** ` [deferred, interactive]`: how a tool is offered, when not the usual way. */
function toolMarks(tool: { exposure?: string; interactive?: boolean }): string {
  const marks = [tool.exposure && tool.exposure !== "direct" ? tool.exposure : "", tool.interactive ? "interactive" : ""].filter(Boolean);
  return marks.length > 0 ? ` [${marks.join(", ")}]` : "";
}

/** `city: string, days?: integer` from a JSON Schema object: names, types, `?` when optional. */
export function schemaSummary(schema: Record<string, unknown>): string {
  const properties = schema.properties;
  if (!isJsonObject(properties)) return "";
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : []);
  return Object.entries(properties)
    .map(([name, property]) => `${name}${required.has(name) ? "" : "?"}: ${typeName(property)}`)
    .join(", ");
}

function typeName(property: unknown): string {
  if (!isJsonObject(property)) return "any";
  const p = property;
  if (Array.isArray(p.enum)) return p.enum.map((e) => JSON.stringify(e)).join("|");
  if (typeof p.type === "string") return p.type === "array" ? `${typeName(p.items)}[]` : p.type;
  if (Array.isArray(p.type)) return p.type.join("|");
  return "any";
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}
