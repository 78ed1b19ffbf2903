// Measures what the issues name as targets and prints the figures. Rule: numbers are printed,
// never asserted; run on a quiet machine: `bun run build && bun scripts/bench.ts [name…]`.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockLlm } from "../test/support/mock-llm.ts";

const ZOT = join(import.meta.dir, "..", "dist", "zot");
const home = mkdtempSync(join(tmpdir(), "zot-bench-home-"));
const cwd = mkdtempSync(join(tmpdir(), "zot-bench-cwd-"));
const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ZOT_HOME: home };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function timed(args: string[], stdin?: string): Promise<{ ms: number; rssMb: number; code: number }> {
  const started = performance.now();
  const proc = Bun.spawn([ZOT, ...args], { cwd, env, stdout: "pipe", stderr: "pipe", stdin: stdin ? new Blob([stdin]) : "ignore" });
  await new Response(proc.stdout).arrayBuffer();
  const code = await proc.exited;
  const ms = performance.now() - started;
  // maxRSS is reported in bytes
  const rssMb = (proc.resourceUsage()?.maxRSS ?? 0) / (1024 * 1024);
  return { ms, rssMb, code };
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

const BENCHES: Record<string, () => Promise<void>> = { version, print: printAnswer, json: jsonThroughput };
const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(BENCHES)) {
  if (wanted.length === 0 || wanted.includes(name)) await run();
}
