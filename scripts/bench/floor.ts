// `scripts/bench floor` (issue 17): zot against the floor of a compiled Bun program doing the same
// job. Two floor programs (scripts/bench/floor/*.ts) are compiled with zot's own flags and the same
// Bun; runs are interleaved (zot, floor, zot, floor, …) and medians printed, with each process's
// phases: start → the request reaches the mock → exit. Also zot's OpenAI Chat route against its
// Anthropic route on the same 50,000-delta answer. Rule: numbers are printed, never asserted; a
// run whose output is wrong throws, so a ratio is never computed from a broken run.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMPILE_FLAGS } from "../compile-flags.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import type { FormatResponder, RecordedRequest } from "../../test/support/mock-llm.ts";
import { anthropicResponse } from "../../test/support/mock-llm/anthropic.ts";
import { openaiChatResponse } from "../../test/support/mock-llm/openai-chat.ts";

interface Run {
  wallMs: number;
  /** spawn → the request reached the mock */
  startMs: number;
  /** the request reached the mock → the process exited */
  restMs: number;
  cpuMs: number;
  rssMb: number;
  stdout: string;
}

/** A mock that notes when each request arrives, on the bench's own clock. */
function timingMock() {
  const arrivals: number[] = [];
  const turns: ScriptTurn[] = [];
  const routes: Record<string, FormatResponder> = { "/v1/messages": anthropicResponse, "/v1/chat/completions": openaiChatResponse };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      arrivals.push(performance.now());
      const path = new URL(req.url).pathname.replace(/^\/v1\/v1\//, "/v1/");
      const text = await req.text();
      const recorded: RecordedRequest = { method: req.method, path, headers: Object.fromEntries(req.headers), body: text ? JSON.parse(text) : undefined };
      const turn = turns.shift();
      const route = routes[path];
      if (!turn || !route) return Response.json({ error: { message: "bench mock: no turn or route" } }, { status: 400 });
      return route(turn, recorded);
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, arrivals, turns, stop: () => server.stop(true) };
}

async function compileFloor(dir: string, name: string): Promise<string> {
  const out = join(dir, name);
  const proc = Bun.spawn([process.execPath, "build", ...COMPILE_FLAGS, join(import.meta.dir, "floor", `${name}.ts`), "--outfile", out], {
    stdout: "pipe",
    stderr: "pipe",
  });
  if ((await proc.exited) !== 0) throw new Error(`compiling the ${name} floor failed: ${await new Response(proc.stderr).text()}`);
  return out;
}

/** GNU time, for each run's own peak RSS and CPU (Debian: the `time` package). */
const TIME = "/usr/bin/time";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function runOnce(
  cmd: string[],
  mock: ReturnType<typeof timingMock>,
  turn: ScriptTurn,
  env: Record<string, string>,
  cwd: string,
): Promise<Run> {
  mock.turns.push(turn);
  const before = mock.arrivals.length;
  const started = performance.now();
  // GNU time reports the child's own peak RSS and CPU: Bun's resourceUsage() counts the pages of
  // the forked bench process too (a `true` shows 25 MB there).
  const proc = Bun.spawn([TIME, "-f", "zot-bench %M %U %S", ...cmd], { cwd, env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const code = await proc.exited;
  const ended = performance.now();
  if (code !== 0) throw new Error(`${cmd[0]} exited ${code}: ${stderr.slice(0, 400)}`);
  const arrived = mock.arrivals[before] ?? ended;
  const measured = /zot-bench (\d+) ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
  if (!measured) throw new Error(`no measurement from ${TIME}: ${stderr.slice(-200)}`);
  const cpuMs = (Number(measured[2]) + Number(measured[3])) * 1000;
  return { wallMs: ended - started, startMs: arrived - started, restMs: ended - arrived, cpuMs, rssMb: Number(measured[1]) / 1024, stdout };
}

function summary(runs: Run[]) {
  return {
    wall: median(runs.map((r) => r.wallMs)),
    start: median(runs.map((r) => r.startMs)),
    rest: median(runs.map((r) => r.restMs)),
    cpu: median(runs.map((r) => r.cpuMs)),
    rss: median(runs.map((r) => r.rssMb)),
  };
}

function line(label: string, s: ReturnType<typeof summary>): string {
  return `  ${label.padEnd(26)} wall ${s.wall.toFixed(1).padStart(7)} ms (start→request ${s.start.toFixed(1)} ms, request→exit ${s.rest.toFixed(1)} ms), CPU ${s.cpu.toFixed(1)} ms, peak RSS ${s.rss.toFixed(1)} MB`;
}

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/** Interleaves the commands, `rounds` times after `warm` untimed rounds each; checks every output. */
async function interleaved(
  commands: { label: string; cmd: string[]; check: (stdout: string) => void }[],
  mock: ReturnType<typeof timingMock>,
  turn: ScriptTurn,
  env: Record<string, string>,
  cwd: string,
  rounds: number,
  warm: number,
): Promise<Map<string, Run[]>> {
  const runs = new Map(commands.map((c) => [c.label, [] as Run[]]));
  for (let i = 0; i < warm + rounds; i++) {
    for (const c of commands) {
      const run = await runOnce(c.cmd, mock, turn, env, cwd);
      c.check(run.stdout);
      if (i >= warm) runs.get(c.label)?.push(run);
    }
  }
  return runs;
}

export async function floorBench(zot: string, env: Record<string, string>): Promise<void> {
  if (!(await Bun.file(TIME).exists())) throw new Error(`floor needs GNU time at ${TIME} (apt-get install time)`);
  const dir = mkdtempSync(join(tmpdir(), "zot-bench-floor-"));
  const cwd = mkdtempSync(join(tmpdir(), "zot-bench-floor-cwd-"));
  const [oneshot, stream] = await Promise.all([compileFloor(dir, "oneshot"), compileFloor(dir, "stream")]);
  const mock = timingMock();
  const anthropic = ["--provider", "anthropic", "--api-key", "k", "--base-url", mock.url];
  try {
    // One-shot: the same short answer, printed.
    const answer = "Hello! How can I help you today?";
    const shortTurn: ScriptTurn = { text: answer };
    const expectAnswer = (stdout: string) => {
      if (stdout !== `${answer}\n`) throw new Error(`unexpected one-shot output: ${JSON.stringify(stdout.slice(0, 200))}`);
    };
    const one = await interleaved(
      [
        { label: "zot -p", cmd: [zot, "-p", "hello", ...anthropic], check: expectAnswer },
        { label: "floor", cmd: [oneshot, mock.url], check: expectAnswer },
      ],
      mock,
      shortTurn,
      env,
      cwd,
      20,
      3,
    );
    const zotOne = summary(one.get("zot -p") ?? []);
    const floorOne = summary(one.get("floor") ?? []);
    console.log("floor: one-shot answer from the local mock (Anthropic wire), medians of 20 interleaved runs");
    console.log(line("zot -p", zotOne));
    console.log(line("floor (fetch + print)", floorOne));
    console.log(`  ratio: wall ${ratio(zotOne.wall, floorOne.wall)}, start→request ${ratio(zotOne.start, floorOne.start)}, peak RSS ${ratio(zotOne.rss, floorOne.rss)}`);

    // The stream: 50,000 text deltas, one JSON line each.
    const deltas = 50_000;
    const longTurn: ScriptTurn = { text: "x".repeat(deltas), chunk_size: 1 };
    const countDeltas = (stdout: string) => {
      let n = 0;
      for (let i = stdout.indexOf('"text_delta"'); i !== -1; i = stdout.indexOf('"text_delta"', i + 1)) n++;
      if (n !== deltas) throw new Error(`expected ${deltas} text_delta lines, got ${n}`);
    };
    const openaiChat = ["--provider", "openai", "--model", "gpt-4.1", "--api-key", "k", "--base-url", `${mock.url}/v1`];
    const streams = await interleaved(
      [
        { label: "zot --json (anthropic)", cmd: [zot, "--json", "go", ...anthropic], check: countDeltas },
        { label: "zot --json (openai chat)", cmd: [zot, "--json", "go", ...openaiChat], check: countDeltas },
        { label: "floor", cmd: [stream, mock.url], check: countDeltas },
      ],
      mock,
      longTurn,
      env,
      cwd,
      7,
      1,
    );
    const zotA = summary(streams.get("zot --json (anthropic)") ?? []);
    const zotO = summary(streams.get("zot --json (openai chat)") ?? []);
    const floorS = summary(streams.get("floor") ?? []);
    console.log(`floor: ${deltas.toLocaleString("en-US")}-delta stream to one JSON line per delta, medians of 7 interleaved runs`);
    console.log(line("zot --json (anthropic)", zotA));
    console.log(line("zot --json (openai chat)", zotO));
    console.log(line("floor (fetch + NDJSON)", floorS));
    console.log(`  ratio to the floor: wall ${ratio(zotA.wall, floorS.wall)}, CPU ${ratio(zotA.cpu, floorS.cpu)}`);
    console.log(`  OpenAI Chat route / Anthropic route: wall ${ratio(zotO.wall, zotA.wall)}, CPU ${ratio(zotO.cpu, zotA.cpu)}`);
  } finally {
    await mock.stop();
  }
}
