// How many processes outlive zot (issue 12), counted through /proc once zot is gone: `zot -p` with
// a bash command that leaves a tree (a `&` child, a setsid'd one, a foreground sleep that ignores
// SIGTERM) and an extension behind a wrapper script that leaves four more (`&`, setsid, two
// double-forked daemons), ended by each signal, by a second SIGTERM, and normally; and `zot rpc`
// on SIGHUP. Rule: printed, never asserted; survivors are killed by pid after each count;
// `ZOT_BENCH_BINARY=/path/to/zot` measures another build.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ZOT = process.env.ZOT_BENCH_BINARY ?? join(import.meta.dir, "..", "..", "dist", "zot");
const SCRIPTED_EXTENSION = join(import.meta.dir, "..", "..", "test", "fixtures", "extensions", "scripted.py");

function running(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ").includes(marker)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (!/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await Bun.sleep(20);
  }
  return true;
}

interface Scenario {
  label: string;
  mode: "print" | "rpc";
  /** signals sent, 100 ms apart; none: zot ends by itself */
  signals: NodeJS.Signals[];
}

const SCENARIOS: Scenario[] = [
  { label: "-p, SIGHUP", mode: "print", signals: ["SIGHUP"] },
  { label: "-p, SIGTERM", mode: "print", signals: ["SIGTERM"] },
  { label: "-p, SIGINT", mode: "print", signals: ["SIGINT"] },
  { label: "-p, SIGTERM twice", mode: "print", signals: ["SIGTERM", "SIGTERM"] },
  { label: "-p, SIGINT twice", mode: "print", signals: ["SIGINT", "SIGINT"] },
  { label: "rpc, SIGHUP", mode: "rpc", signals: ["SIGHUP"] },
  { label: "rpc, SIGTERM twice", mode: "rpc", signals: ["SIGTERM", "SIGTERM"] },
  { label: "-p, normal end (background server)", mode: "print", signals: [] },
];

async function scenario(s: Scenario, n: number): Promise<string> {
  const tool = String(700_000 + n * 2);
  const ext = String(700_001 + n * 2);
  const home = mkdtempSync(join(tmpdir(), "zot-bench-orphans-home-"));
  const cwd = mkdtempSync(join(tmpdir(), "zot-bench-orphans-cwd-"));
  const dir = join(home, "extensions", "leaky");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "run.sh"),
    [
      "#!/bin/sh",
      `sleep ${ext} > /dev/null 2>&1 &`,
      `setsid sleep ${ext} > /dev/null 2>&1 &`,
      `(sh -c 'sleep ${ext} > /dev/null 2>&1 &' &)`,
      `(setsid sh -c 'sleep ${ext} > /dev/null 2>&1 &' &)`,
      `python3 ${SCRIPTED_EXTENSION} config.json`,
    ].join("\n"),
  );
  chmodSync(join(dir, "run.sh"), 0o755);
  writeFileSync(join(dir, "config.json"), "{}");
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "leaky", exec: "./run.sh" }));
  const command =
    s.signals.length > 0 ? `sleep ${tool} & setsid sleep ${tool} & trap '' TERM; sleep ${tool}` : `(setsid sleep ${tool} > /dev/null 2>&1 &); sleep ${tool} > /dev/null 2>&1 & echo started`;
  const script = join(cwd, "script.json");
  writeFileSync(script, JSON.stringify([{ tool_calls: [{ name: "bash", args: { command } }] }, { text: "done" }]));
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ZOT_HOME: home };
  const args = s.mode === "rpc" ? ["rpc", "--script", script] : ["-p", "go", "--script", script];
  const proc = Bun.spawn([ZOT, ...args], { cwd, env, stdin: "pipe", stdout: "ignore", stderr: "ignore" });
  if (s.mode === "rpc") {
    proc.stdin.write('{"type":"prompt","message":"go"}\n');
    proc.stdin.flush();
  } else proc.stdin.end();
  const started = await until(() => running(ext).length >= 4 && (s.signals.length === 0 || running(tool).length >= 3), 15_000);
  for (const [i, signal] of s.signals.entries()) {
    if (i > 0) await Bun.sleep(100);
    proc.kill(signal);
  }
  if (s.mode === "rpc" && s.signals.length === 0) proc.stdin.end();
  const code = await proc.exited;
  await until(() => running(tool).length + running(ext).length === 0, 3000);
  const left = { tool: running(tool), ext: running(ext) };
  for (const pid of [...left.tool, ...left.ext]) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
  const note = started ? "" : " (the tree had not fully started)";
  return `orphans ${s.label}: ${left.tool.length + left.ext.length} left (bash tool ${left.tool.length} of ${s.signals.length > 0 ? 3 : 2}, extension ${left.ext.length} of 4), exit ${code}${note}`;
}

export async function orphansBench(): Promise<void> {
  if (process.env.ZOT_BENCH_BINARY) console.log(`(measuring ${ZOT})`);
  for (const [n, s] of SCENARIOS.entries()) console.log(await scenario(s, n));
}
