// Measures what the issues name as targets and prints the figures. Rule: numbers are printed,
// never asserted; run on a quiet machine: `bun run build && bun scripts/bench.ts [name…]`.
// Names: version, print, json, ext-spawn, ext-intercept, ext-startup, hook-before-tool, session-resume, session-append, edit-race, rpc, rpc-slow-client, orphans, tui-bytes, tui-app, tui-flood, floor, first-answer, local-date, mcp, call-tool, deferred-tools (none named = all).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "../src/core/agent.ts";
import type { ChainOutcome } from "../src/core/intercept.ts";
import { ExtensionManager } from "../src/extensions/manager.ts";
import { loadManifest } from "../src/extensions/manifest.ts";
import { ZotExtensionHost } from "../src/extensions/zot-host.ts";
import type { ModelInfo } from "../src/protocol/models.ts";
import { VERSION } from "../src/version.ts";
import { rpcBench } from "./bench/rpc.ts";
import { rpcSlowClientBench } from "./bench/rpc-slow-client.ts";
import { orphansBench } from "./bench/orphans.ts";
import { sessionAppendBench, sessionResumeBench } from "./bench/sessions.ts";
import { editRaceBench } from "./bench/edit-race.ts";
import { interactiveBench } from "./bench/interactive.ts";
import { tuiBench } from "./bench/tui.ts";
import { tuiFloodBench } from "./bench/tui-flood.ts";
import { claudeJsonBench } from "./bench/claude-json.ts";
import { floorBench } from "./bench/floor.ts";
import { firstAnswerBench } from "./bench/first-answer.ts";
import { localDateBench } from "./bench/local-date.ts";
import { mcpBench } from "./bench/mcp.ts";
import { callToolBench, deferredToolsBench } from "./bench/host-services.ts";
import { startMockLlm } from "../test/support/mock-llm.ts";
import { testModel } from "../test/support/test-model.ts";

const ZOT = join(import.meta.dir, "..", "dist", "zot");
const home = mkdtempSync(join(tmpdir(), "zot-bench-home-"));
const cwd = mkdtempSync(join(tmpdir(), "zot-bench-cwd-"));
const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ZOT_HOME: home };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function timed(args: string[], stdin?: string, runEnv = env): Promise<{ ms: number; rssMb: number; code: number; stdout: string }> {
  const started = performance.now();
  const proc = Bun.spawn([ZOT, ...args], { cwd, env: runEnv, stdout: "pipe", stderr: "pipe", stdin: stdin ? new Blob([stdin]) : "ignore" });
  const stdout = await new Response(proc.stdout).text();
  const code = await proc.exited;
  const ms = performance.now() - started;
  // maxRSS is reported in bytes
  const rssMb = (proc.resourceUsage()?.maxRSS ?? 0) / (1024 * 1024);
  return { ms, rssMb, code, stdout };
}

async function version(): Promise<void> {
  for (let i = 0; i < 5; i++) await timed(["--version"]);
  const runs = [];
  for (let i = 0; i < 40; i++) runs.push(await timed(["--version"]));
  console.log(`zot --version: median ${fmt(median(runs.map((r) => r.ms)))}, p90 ${fmt(pct(runs.map((r) => r.ms), 0.9))}, peak RSS ${median(runs.map((r) => r.rssMb)).toFixed(1)} MB (40 runs)`);
}

async function printAnswer(): Promise<void> {
  const n = 30;
  const mock = startMockLlm();
  const args = ["-p", "hello", "--provider", "anthropic", "--api-key", "k", "--base-url", mock.url];
  const runs = [];
  for (let i = 0; i < n + 3; i++) {
    mock.push({ text: "Hello! How can I help you today?" });
    const r = await timed(args);
    if (r.code !== 0) throw new Error(`zot -p failed with exit ${r.code}`);
    if (i >= 3) runs.push(r);
  }
  await mock.stop();
  console.log(`zot -p one answer from the local mock (anthropic): median ${fmt(median(runs.map((r) => r.ms)))}, peak RSS median ${median(runs.map((r) => r.rssMb)).toFixed(1)} MB, max ${Math.max(...runs.map((r) => r.rssMb)).toFixed(1)} MB (${n} runs)`);
}

async function jsonThroughput(): Promise<void> {
  const deltas = 200_000;
  const scriptFile = join(cwd, "long.json");
  await Bun.write(scriptFile, JSON.stringify([{ text: "x".repeat(deltas), chunk_size: 1 }]));
  const proc = Bun.spawn([ZOT, "--json", "go", "--script", scriptFile], { cwd, env, stdout: "pipe", stderr: "pipe" });
  let first = 0;
  let last = 0;
  let count = 0;
  let carry = "";
  const decoder = new TextDecoder();
  for await (const chunk of proc.stdout) {
    const now = performance.now();
    const text = carry + decoder.decode(chunk, { stream: true });
    const lines = text.split("\n");
    carry = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.includes('"text_delta"')) continue;
      if (count === 0) first = now;
      count++;
      last = now;
    }
  }
  await proc.exited;
  const seconds = (last - first) / 1000;
  console.log(`zot --json throughput: ${count} text_delta events in ${(seconds * 1000).toFixed(0)} ms = ${Math.round(count / seconds).toLocaleString("en-US")} events/s`);
}

// ── extensions (issue 3) ──────────────────────────────────────────────────────────────────
// Every fixture allows each tool_call intercept and answers its own `/<name>` with "pong <name>",
// so a bench can first check that it really loaded (one that timed zero extensions would lie).
type ExtKind = "ts" | "python" | "node";

const EXT_SOURCES: Record<ExtKind, (name: string) => { file: string; text: string; manifest: Record<string, unknown> }> = {
  ts: (name) => ({
    file: "index.ts",
    manifest: { exec: "./index.ts" },
    text: [
      `import { display, extension } from "@zot/sdk";`,
      `const ext = extension({ name: ${JSON.stringify(name)}, version: "1.0.0" });`,
      `ext.interceptToolCall(() => undefined);`,
      `ext.command(${JSON.stringify(name)}, "answers pong", () => display("pong ${name}"));`,
      `await ext.run();`,
    ].join("\n"),
  }),
  python: (name) => ({
    file: "main.py",
    manifest: { exec: "python3", args: ["main.py"] },
    text: [
      "import json, sys",
      `NAME = ${JSON.stringify(name)}`,
      "def send(frame):",
      "    sys.stdout.write(json.dumps(frame) + '\\n')",
      "    sys.stdout.flush()",
      "send({'type': 'hello', 'name': NAME, 'version': '1.0.0', 'capabilities': ['commands', 'events']})",
      "send({'type': 'register_command', 'name': NAME, 'description': 'answers pong'})",
      "send({'type': 'subscribe', 'intercept': ['tool_call']})",
      "send({'type': 'ready'})",
      "for line in sys.stdin:",
      "    frame = json.loads(line)",
      "    kind = frame.get('type')",
      "    if kind == 'event_intercept':",
      "        send({'type': 'event_intercept_response', 'id': frame['id']})",
      "    elif kind == 'command_invoked':",
      "        send({'type': 'command_response', 'id': frame['id'], 'action': 'display', 'display': 'pong ' + NAME})",
      "    elif kind == 'shutdown':",
      "        send({'type': 'shutdown_ack'})",
      "        break",
    ].join("\n"),
  }),
  node: (name) => ({
    file: "main.js",
    // "node" on PATH, not "./main.js": a .js exec would be run by the zot binary instead.
    manifest: { exec: "node", args: ["main.js"] },
    text: [
      `const readline = require("node:readline");`,
      `const NAME = ${JSON.stringify(name)};`,
      `const send = (frame) => process.stdout.write(JSON.stringify(frame) + "\\n");`,
      `send({ type: "hello", name: NAME, version: "1.0.0", capabilities: ["commands", "events"] });`,
      `send({ type: "register_command", name: NAME, description: "answers pong" });`,
      `send({ type: "subscribe", intercept: ["tool_call"] });`,
      `send({ type: "ready" });`,
      `readline.createInterface({ input: process.stdin }).on("line", (line) => {`,
      `  const frame = JSON.parse(line);`,
      `  if (frame.type === "event_intercept") send({ type: "event_intercept_response", id: frame.id });`,
      `  else if (frame.type === "command_invoked") send({ type: "command_response", id: frame.id, action: "display", display: "pong " + NAME });`,
      `  else if (frame.type === "shutdown") { send({ type: "shutdown_ack" }); process.exit(0); }`,
      `}).on("close", () => process.exit(0));`,
    ].join("\n"),
  }),
};

/** `<zotHome>/extensions/<name>/` with the fixture's source and manifest. */
function writeExtension(zotHome: string, kind: ExtKind, name: string): string {
  const { file, text, manifest } = EXT_SOURCES[kind](name);
  const dir = join(zotHome, "extensions", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), `${text}\n`);
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name, version: "1.0.0", ...manifest }, null, 2));
  return dir;
}

const hostContext = (zotHome: string) => ({
  home: zotHome,
  cwd,
  provider: "scripted",
  model: "bench",
  zotVersion: VERSION,
  // The compiled binary, as a user runs it: .ts execs start as `BUN_BE_BUN=1 dist/zot run …`.
  zotBinary: ZOT,
  env,
});

const stats = (xs: number[]) => `median ${fmt(median(xs))}, p90 ${fmt(pct(xs, 0.9))}, min ${fmt(Math.min(...xs))}`;

// spawn → ready through ZotExtensionHost.start() (prepareLaunch, SDK runtime check, spawn,
// hello/hello_ack, registration until `ready`), then a clean stop. The TS figure is the one issue 3
// asks for; python3 and node are for comparison, since their interpreters start at their own pace.
// The first spawn is printed apart: for TS it also writes the SDK runtime into the fresh ZOT_HOME.
async function extSpawn(): Promise<void> {
  const n = 25;
  const warm = 3;
  const zotHome = mkdtempSync(join(tmpdir(), "zot-bench-spawn-"));
  for (const [kind, name] of [["ts", "sdk"], ["python", "py"], ["node", "js"]] as [ExtKind, string][]) {
    const loaded = loadManifest(writeExtension(zotHome, kind, name));
    if (!loaded.ok) throw new Error(loaded.error);
    const ready: number[] = [];
    const stop: number[] = [];
    let first = 0;
    for (let i = 0; i < warm + n; i++) {
      const host = new ZotExtensionHost({ manifest: loaded.manifest, dir: loaded.dir, ...hostContext(zotHome) });
      const t0 = performance.now();
      await host.start();
      const t1 = performance.now();
      const state = host.state;
      await host.stop();
      const t2 = performance.now();
      if (state !== "ready") throw new Error(`extension "${name}" did not come up (${state}): ${host.error ?? `see ${host.logFile}`}`);
      if (i === 0) first = t1 - t0;
      if (i >= warm) {
        ready.push(t1 - t0);
        stop.push(t2 - t1);
      }
    }
    const label = kind === "ts" ? "TS SDK run by dist/zot" : `${kind} (${runtimePath(kind)}, for comparison)`;
    console.log(`ext-spawn ${label}: spawn → ready ${stats(ready)}; stop ${fmt(median(stop))} median; first spawn ${fmt(first)} (${n} runs after ${warm} warm-up)`);
  }
}

/** A manager with `count` allow-everything TS extensions, attached to an agent that never calls a model. */
async function interceptTimes(count: number, calls: number, warm: number): Promise<number[]> {
  const zotHome = mkdtempSync(join(tmpdir(), "zot-bench-intercept-"));
  for (let k = 1; k <= count; k++) writeExtension(zotHome, "ts", `allow-${k}`);
  const manager = new ExtensionManager();
  const report = await manager.load({ ...hostContext(zotHome), explicit: [], noDiscovery: false, projectTrusted: false });
  try {
    if (report.ready !== count) throw new Error(`${report.ready} of ${count} extensions came up: ${report.warnings.join("; ")}`);
    return await toolCallTimes(manager, calls, warm, (outcome) => {
      if (outcome.action !== "continue") throw new Error(`the chain answered ${outcome.action}, not continue`);
    });
  } finally {
    await manager.stop();
  }
}

/**
 * Times `warm + calls` runs of a bash tool call through the chain of an agent that never calls a
 * model, with `manager`'s extensions attached; `check` throws on an outcome the bench did not expect.
 * Returns the times after the warm-up, in ms.
 */
async function toolCallTimes(
  manager: ExtensionManager,
  calls: number,
  warm: number,
  check: (outcome: ChainOutcome<"tool_call">, i: number) => void,
): Promise<number[]> {
  const agent = new Agent({ provider: idleProvider, model: BENCH_MODEL, tools: [], system: "", cwd });
  manager.attach(agent);
  const signal = new AbortController().signal;
  const times: number[] = [];
  for (let i = 0; i < warm + calls; i++) {
    const t0 = performance.now();
    const outcome = await agent.chain.run("tool_call", { id: `call-${i}`, name: "bash", args: { command: "ls -la" } }, signal);
    const ms = performance.now() - t0;
    check(outcome, i);
    if (i >= warm) times.push(ms);
  }
  return times;
}

const idleProvider = {
  name: "bench",
  async *stream(): AsyncGenerator<never> {
    throw new Error("the intercept bench never calls the model");
  },
};

const BENCH_MODEL: ModelInfo = testModel({ id: "bench", name: "bench" });

const verdict = (value: number, target: number) => (value <= target ? "met" : "MISSED");

// One tool_call through agent.chain.run, as the agent loop does it: event_intercept out, the
// SDK's answer back, the decision folded. Targets from issue 3.
async function extIntercept(): Promise<void> {
  const calls = 2000;
  const warm = 200;
  const one = await interceptTimes(1, calls, warm);
  const three = await interceptTimes(3, calls, warm);
  const [p50, p99, p50x3, p99x3] = [pct(one, 0.5), pct(one, 0.99), pct(three, 0.5), pct(three, 0.99)];
  const ms3 = (x: number) => `${x.toFixed(3)} ms`;
  console.log(`ext-intercept one extension: p50 ${ms3(p50)} (target ≤ 1 ms: ${verdict(p50, 1)}), p99 ${ms3(p99)} (target ≤ 5 ms: ${verdict(p99, 5)}) (${calls} calls after ${warm} warm-up)`);
  console.log(`ext-intercept three extensions: p50 ${ms3(p50x3)} (target ≤ 3 ms: ${verdict(p50x3, 3)}), p99 ${ms3(p99x3)} (${calls} calls after ${warm} warm-up)`);
}

// Which interpreter a bare "python3"/"node" exec resolves to: a version manager's shim (pyenv,
// asdf) starts a shell script before the interpreter, which is most of a python extension's start.
const runtimePath = (kind: "python" | "node") => Bun.which(kind === "python" ? "python3" : "node", { PATH: env.PATH }) ?? `${kind} not on PATH`;

// `zot -p` to exit, one scripted answer, with five extensions in $ZOT_HOME/extensions vs none;
// a third case with only the three TS SDK extensions tells zot's own cost from the interpreters'.
// The cases alternate run by run so drift on the machine hits them alike.
async function extStartup(): Promise<void> {
  const n = 20;
  const warm = 3;
  const five: [ExtKind, string][] = [["ts", "sdk-1"], ["ts", "sdk-2"], ["ts", "sdk-3"], ["python", "py"], ["node", "js"]];
  const homes = {
    none: mkdtempSync(join(tmpdir(), "zot-bench-none-")),
    ts: mkdtempSync(join(tmpdir(), "zot-bench-ts-")),
    five: mkdtempSync(join(tmpdir(), "zot-bench-five-")),
    fiveTs: mkdtempSync(join(tmpdir(), "zot-bench-five-ts-")),
  };
  for (const [kind, name] of five) {
    writeExtension(homes.five, kind, name);
    if (kind === "ts") writeExtension(homes.ts, kind, name);
  }
  // Five TypeScript extensions: what zot's own extension runtime costs with nothing else installed.
  for (let i = 1; i <= 5; i++) writeExtension(homes.fiveTs, "ts", `sdk-${i}`);
  const script = join(cwd, "one-answer.json");
  await Bun.write(script, JSON.stringify([{ text: "ok" }]));
  const envOf = (home: string) => ({ ...env, ZOT_HOME: home });
  for (const [, name] of five) {
    const check = await timed(["-p", `/${name}`], undefined, envOf(homes.five));
    if (check.stdout !== `pong ${name}\n`) throw new Error(`extension "${name}" did not answer /${name} (exit ${check.code}, stdout ${JSON.stringify(check.stdout)})`);
  }
  const args = ["-p", "hi", "--script", script];
  const runs = { none: [] as number[], ts: [] as number[], five: [] as number[], fiveTs: [] as number[] };
  for (let i = 0; i < warm + n; i++) {
    for (const key of ["none", "ts", "five", "fiveTs"] as const) {
      const r = await timed(args, undefined, envOf(homes[key]));
      if (r.code !== 0 || r.stdout !== "ok\n") throw new Error(`zot -p with ${key} failed (exit ${r.code})`);
      if (i >= warm) runs[key].push(r.ms);
    }
  }
  const extra = median(runs.five) - median(runs.none);
  console.log(`ext-startup zot -p, no extensions: ${stats(runs.none)} (${n} runs)`);
  console.log(`ext-startup zot -p, five extensions (3 TS SDK, python3, node): ${stats(runs.five)} (${n} runs)`);
  console.log(`ext-startup difference of medians: ${fmt(extra)} (target ≤ 50 ms: ${verdict(extra, 50)})`);
  console.log(`ext-startup   five TS SDK extensions (run by the zot binary): ${stats(runs.fiveTs)}, ${fmt(median(runs.fiveTs) - median(runs.none))} more than none (target ≤ 50 ms: ${verdict(median(runs.fiveTs) - median(runs.none), 50)})`);
  console.log(`ext-startup   the 3 TS SDK extensions alone: ${stats(runs.ts)}, ${fmt(median(runs.ts) - median(runs.none))} more than none; python3 is ${runtimePath("python")}, node ${runtimePath("node")}`);
}

// ── process hooks (issue 5) ───────────────────────────────────────────────────────────────
// One before_tool through agent.chain.run, as the agent loop does it: the hook.before_tool request
// out to a python3 hook (PicoClaw's protocol), its `modify` back (so each call proves the round
// trip: a failed call would be skipped and leave the arguments as they were), the decision folded.
const PY_HOOK = [
  "import json, sys",
  "for line in sys.stdin:",
  "    message = json.loads(line)",
  "    if 'id' not in message:",
  "        continue",
  "    call = {'tool': 'bash', 'arguments': dict(message['params'].get('arguments', {}), hooked=message['id'])}",
  "    result = {'ok': True} if message['method'] == 'hook.hello' else {'action': 'modify', 'call': call}",
  "    sys.stdout.write(json.dumps({'jsonrpc': '2.0', 'id': message['id'], 'result': result}) + '\\n')",
  "    sys.stdout.flush()",
].join("\n");

async function hookBeforeTool(): Promise<void> {
  const calls = 1000;
  const warm = 100;
  const zotHome = mkdtempSync(join(tmpdir(), "zot-bench-hook-"));
  const dir = join(zotHome, "extensions", "py-hook");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "hook.py"), `${PY_HOOK}\n`);
  const manifest = { name: "py-hook", protocol: "jsonrpc", exec: "python3", args: ["hook.py"], intercept: ["before_tool"] };
  writeFileSync(join(dir, "extension.json"), JSON.stringify(manifest, null, 2));
  const manager = new ExtensionManager();
  const report = await manager.load({ ...hostContext(zotHome), explicit: [], noDiscovery: false, projectTrusted: false });
  try {
    if (report.ready !== 1) throw new Error(`the hook did not come up: ${report.warnings.join("; ")}`);
    const times = await toolCallTimes(manager, calls, warm, (outcome, i) => {
      if (outcome.action !== "continue" || outcome.payload.args.hooked === undefined) {
        throw new Error(`call ${i} did not go through the hook (${outcome.action}); see ${join(zotHome, "logs", "ext-py-hook.log")}`);
      }
    });
    const ms3 = (x: number) => `${x.toFixed(3)} ms`;
    const p50 = pct(times, 0.5);
    console.log(
      `hook-before-tool one python3 hook (${runtimePath("python")}): p50 ${ms3(p50)} (target ≤ 1 ms: ${verdict(p50, 1)}), p90 ${ms3(pct(times, 0.9))}, p99 ${ms3(pct(times, 0.99))} (${calls} calls after ${warm} warm-up)`,
    );
  } finally {
    await manager.stop();
  }
}

const BENCHES: Record<string, () => Promise<void>> = {
  version,
  print: printAnswer,
  json: jsonThroughput,
  "ext-spawn": extSpawn,
  "ext-intercept": extIntercept,
  "ext-startup": extStartup,
  "hook-before-tool": hookBeforeTool,
  "session-resume": () => sessionResumeBench(env),
  "session-append": sessionAppendBench,
  "edit-race": () => editRaceBench(),
  rpc: () => rpcBench(env),
  "rpc-slow-client": () => rpcSlowClientBench(env),
  orphans: orphansBench,
  "tui-bytes": tuiBench,
  "tui-app": interactiveBench,
  "tui-flood": () => tuiFloodBench(ZOT, env, cwd),
  floor: () => floorBench(ZOT, env),
  "first-answer": firstAnswerBench,
  "local-date": () => localDateBench(),
  mcp: mcpBench,
  "claude-json": claudeJsonBench,
  "call-tool": () => callToolBench(env),
  "deferred-tools": () => deferredToolsBench(env),
};
const wanted = process.argv.slice(2);
try {
  for (const [name, run] of Object.entries(BENCHES)) {
    if (wanted.length === 0 || wanted.includes(name)) await run();
  }
} finally {
  for (const made of [home, cwd]) rmSync(made, { recursive: true, force: true });
}
