// `scripts/bench floor` (issue 17): zot against the floor of a compiled Bun program doing the same
// job. The floor programs (scripts/bench/floor/*.ts) are compiled with zot's own flags and the
// same Bun; runs are interleaved (zot, floor, zot, floor, …) and medians printed, with each
// process's phases: start → the request reaches the mock → exit. The one-shot also runs two
// references (oneshot-sdk*.ts): the floor with the official Anthropic SDK, and that with node:fs,
// node:path and node:os loaded too; zot's ratio to the second is what zot adds over what it must
// load (its own code and its other libraries). Also zot's OpenAI Chat route against its Anthropic
// route on the same 50,000-delta answer (beside the floor's own ratio between the two wires), and
// the TUI streaming that answer against --json. ZOT_BENCH_BEFORE=<an older zot> interleaves that
// binary too and prints its ratios beside the current one's. Rule: numbers are printed, never
// asserted; a run whose output is wrong throws, so a ratio is never computed from a broken run.
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMPILE_FLAGS } from "../compile-flags.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import type { FormatResponder, RecordedRequest } from "../../test/support/mock-llm.ts";
import { anthropicResponse } from "../../test/support/mock-llm/anthropic.ts";
import { openaiChatResponse } from "../../test/support/mock-llm/openai-chat.ts";
import { Screen } from "../../test/support/pty.ts";

interface Run {
  wallMs: number;
  /** spawn → the request reached the mock */
  startMs: number;
  /** the request reached the mock → the process exited (the TUI: → the whole answer on screen) */
  restMs: number;
  cpuMs: number;
  /** CPU spent after the request reached the mock (undefined where /proc cannot tell) */
  restCpuMs?: number;
  rssMb: number;
  stdout: string;
}

/** A response the mock made once, kept as bytes to replay. */
interface RenderedResponse {
  bytes: Uint8Array;
  status: number;
  headers: Headers;
}

/**
 * A mock that notes when each request arrives, on the bench's own clock, and tells `onArrival`;
 * it replays each response it rendered before (same turn, route, model and stream options).
 */
function timingMock() {
  const arrivals: number[] = [];
  const turns: ScriptTurn[] = [];
  const rendered = new Map<ScriptTurn, Map<string, RenderedResponse>>();
  const routes: Record<string, FormatResponder> = { "/v1/messages": anthropicResponse, "/v1/chat/completions": openaiChatResponse };
  const mock = {
    url: "",
    arrivals,
    turns,
    onArrival: undefined as (() => void) | undefined,
    stop: () => server.stop(true),
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      arrivals.push(performance.now());
      mock.onArrival?.();
      const path = new URL(req.url).pathname.replace(/^\/v1\/v1\//, "/v1/");
      const text = await req.text();
      const recorded: RecordedRequest = { method: req.method, path, headers: Object.fromEntries(req.headers), body: text ? JSON.parse(text) : undefined };
      const turn = turns.shift();
      const route = routes[path];
      if (!turn || !route) return Response.json({ error: { message: "bench mock: no turn or route" } }, { status: 400 });
      // The mock's own work stays out of the clients' time: a response is rendered once (in a
      // warm-up round) and replayed as bytes, so every timed run gets its first byte at once and
      // the whole body as fast as it can read it.
      const body = recorded.body as { model?: unknown; stream_options?: unknown } | undefined;
      const key = `${path} ${String(body?.model)} ${JSON.stringify(body?.stream_options ?? null)}`;
      let perTurn = rendered.get(turn);
      if (!perTurn) rendered.set(turn, (perTurn = new Map()));
      let response = perTurn.get(key);
      if (!response) {
        const made = await route(turn, recorded);
        response = { bytes: new Uint8Array(await made.arrayBuffer()), status: made.status, headers: made.headers };
        perTurn.set(key, response);
      }
      return new Response(response.bytes, { status: response.status, headers: response.headers });
    },
  });
  mock.url = `http://127.0.0.1:${server.port}`;
  return mock;
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

/**
 * CPU ms a running process has used so far, or undefined: the sum over its threads of the time the
 * scheduler ran them (/proc/PID/task/TID/schedstat, in ns; Linux), where /proc's stat counts in
 * 10 ms ticks, too coarse for a 50 ms program. A thread that already ended is not counted (the
 * programs measured here keep theirs to the end).
 */
function cpuMsOf(pid: number): number | undefined {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    return ns / 1e6;
  } catch {
    return undefined;
  }
}

/** The one child of `pid` (the program GNU time runs), or undefined. */
function childOf(pid: number): number | undefined {
  try {
    const tasks = readdirSync(`/proc/${pid}/task`);
    const children = tasks.flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean));
    return children.length === 1 ? Number(children[0]) : undefined;
  } catch {
    return undefined;
  }
}

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
  // GNU time reports the child's own peak RSS: Bun's resourceUsage() counts the pages of
  // the forked bench process too (a `true` shows 25 MB there).
  // Standard output goes to a file, a reader that never makes the program wait (a pipe to this
  // process would time this process's reads too).
  const outFile = `${cwd}.stdout`;
  const proc = Bun.spawn([TIME, "-f", "zot-bench %M %U %S", ...cmd], { cwd, env, stdout: Bun.file(outFile), stderr: "pipe", stdin: "ignore" });
  let cpuAtRequest: number | undefined;
  mock.onArrival = () => {
    // GNU time's own share too, as the total at the end counts it.
    const child = childOf(proc.pid);
    const [program, time] = [child === undefined ? undefined : cpuMsOf(child), cpuMsOf(proc.pid)];
    cpuAtRequest = program === undefined || time === undefined ? undefined : program + time;
  };
  const stderr = await new Response(proc.stderr).text();
  const code = await proc.exited;
  const ended = performance.now();
  const stdout = readFileSync(outFile, "utf8");
  rmSync(outFile, { force: true });
  mock.onArrival = undefined;
  if (code !== 0) throw new Error(`${cmd[0]} exited ${code}: ${stderr.slice(0, 400)}`);
  const arrived = mock.arrivals[before] ?? ended;
  const measured = /zot-bench (\d+) ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
  if (!measured) throw new Error(`no measurement from ${TIME}: ${stderr.slice(-200)}`);
  // The kernel's account of GNU time and the program it waited for, in µs (GNU time prints 10 ms).
  const usage = proc.resourceUsage();
  const cpuMs = usage ? Number(usage.cpuTime.user + usage.cpuTime.system) / 1000 : (Number(measured[2]) + Number(measured[3])) * 1000;
  return {
    wallMs: ended - started,
    startMs: arrived - started,
    restMs: ended - arrived,
    cpuMs,
    ...(cpuAtRequest !== undefined ? { restCpuMs: cpuMs - cpuAtRequest } : {}),
    rssMb: Number(measured[1]) / 1024,
    stdout,
  };
}

const TUI_COLS = 100;
const TUI_ROWS = 40;

/**
 * zot's TUI given the prompt on its command line, in a pseudo-terminal read back by the emulator:
 * the run ends when the whole answer is on screen and nothing runs any more (`done` says so), then
 * Ctrl+D quits it. restMs is the request → the screen that showed it done; CPU from /proc.
 */
async function runTui(
  cmd: string[],
  mock: ReturnType<typeof timingMock>,
  turn: ScriptTurn,
  env: Record<string, string>,
  cwd: string,
  done: (screen: Screen) => boolean,
): Promise<Run> {
  mock.turns.push(turn);
  const before = mock.arrivals.length;
  const started = performance.now();
  let doneAt = 0;
  let proc: ReturnType<typeof Bun.spawn> | undefined;
  const screen = new Screen(TUI_COLS, TUI_ROWS, (reply) => proc?.terminal?.write(reply));
  let cpuAtRequest: number | undefined;
  mock.onArrival = () => (cpuAtRequest = proc ? cpuMsOf(proc.pid) : undefined);
  proc = Bun.spawn(cmd, {
    cwd,
    env: { ...env, TERM: "xterm-256color" },
    terminal: {
      cols: TUI_COLS,
      rows: TUI_ROWS,
      data: (_terminal, data) => {
        const at = performance.now();
        screen.write(data.slice());
        // The screen as of this write: the first write that shows the answer done dates it.
        void screen.settled().then(() => {
          if (!doneAt && mock.arrivals.length > before && done(screen)) doneAt = at;
        });
      },
    },
  });
  const deadline = Date.now() + 60_000;
  while (!doneAt && Date.now() < deadline && proc.exitCode === null) await Bun.sleep(5);
  mock.onArrival = undefined;
  if (!doneAt) {
    proc.kill();
    throw new Error(`the TUI did not finish the answer; the screen shows:\n${screen.text()}`);
  }
  const cpuMs = cpuMsOf(proc.pid) ?? 0;
  let rssMb = 0;
  try {
    rssMb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {}
  proc.terminal?.write("\x04");
  await Promise.race([proc.exited, Bun.sleep(5000)]);
  if (proc.exitCode === null) proc.kill();
  proc.terminal?.close();
  const arrived = mock.arrivals[before] ?? doneAt;
  return {
    wallMs: doneAt - started,
    startMs: arrived - started,
    restMs: doneAt - arrived,
    cpuMs,
    ...(cpuAtRequest !== undefined ? { restCpuMs: cpuMs - cpuAtRequest } : {}),
    rssMb,
    stdout: screen.text(),
  };
}

function summary(runs: Run[]) {
  const restCpu = runs.flatMap((r) => (r.restCpuMs === undefined ? [] : [r.restCpuMs]));
  return {
    wall: median(runs.map((r) => r.wallMs)),
    start: median(runs.map((r) => r.startMs)),
    rest: median(runs.map((r) => r.restMs)),
    cpu: median(runs.map((r) => r.cpuMs)),
    restCpu: restCpu.length > 0 ? median(restCpu) : undefined,
    rss: median(runs.map((r) => r.rssMb)),
  };
}

function line(label: string, s: ReturnType<typeof summary>): string {
  const restCpu = s.restCpu === undefined ? "" : ` (after the request ${s.restCpu.toFixed(0)} ms)`;
  return `  ${label.padEnd(30)} wall ${s.wall.toFixed(1).padStart(7)} ms (start→request ${s.start.toFixed(1)} ms, request→exit ${s.rest.toFixed(1)} ms), CPU ${s.cpu.toFixed(1)} ms${restCpu}, peak RSS ${s.rss.toFixed(1)} MB`;
}

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/** The one-shot floor's two references, as labelled in the bench's output. */
const WITH_SDK = "floor + SDK";
const WITH_FILES = "floor + SDK + node:fs/path/os";

interface Command {
  label: string;
  cmd: string[];
  check: (stdout: string) => void;
  /** a TUI run, over when this says the screen shows the answer done */
  tui?: (screen: Screen) => boolean;
}

/** Interleaves the commands (every other round in reverse), `rounds` times after `warm` untimed rounds each; checks every output. */
async function interleaved(
  commands: Command[],
  mock: ReturnType<typeof timingMock>,
  turn: ScriptTurn,
  env: Record<string, string>,
  cwd: string,
  rounds: number,
  warm: number,
): Promise<Map<string, ReturnType<typeof summary>>> {
  const runs = new Map(commands.map((c) => [c.label, [] as Run[]]));
  for (let i = 0; i < warm + rounds; i++) {
    // Every other round backwards: a run's place after another (whose exit the machine may still
    // be cleaning up) evens out across the commands.
    for (const c of i % 2 === 0 ? commands : [...commands].reverse()) {
      const run = c.tui ? await runTui(c.cmd, mock, turn, env, cwd, c.tui) : await runOnce(c.cmd, mock, turn, env, cwd);
      c.check(run.stdout);
      if (i >= warm) runs.get(c.label)?.push(run);
    }
  }
  return new Map([...runs].map(([label, list]) => [label, summary(list)]));
}

/** Interleaved rounds each program runs, after its warm-up runs. */
const ONE_SHOT_ROUNDS = 20;
// The OpenAI Chat / Anthropic ratio sits near its 1.2× target, and with 11 rounds its median moved
// by ±0.05 between runs of the bench; 21 narrow that for about 40 s more.
const STREAM_ROUNDS = 21;

export async function floorBench(zot: string, env: Record<string, string>): Promise<void> {
  if (!(await Bun.file(TIME).exists())) throw new Error(`floor needs GNU time at ${TIME} (apt-get install time)`);
  const dir = mkdtempSync(join(tmpdir(), "zot-bench-floor-"));
  const cwd = mkdtempSync(join(tmpdir(), "zot-bench-floor-cwd-"));
  const [oneshot, oneshotSdk, oneshotSdkFiles, stream, streamChat] = await Promise.all(
    ["oneshot", "oneshot-sdk", "oneshot-sdk-files", "stream", "stream-chat"].map((name) => compileFloor(dir, name)),
  );
  const mock = timingMock();
  const anthropic = ["--provider", "anthropic", "--api-key", "k", "--base-url", mock.url];
  // Each zot measured: the current binary, and the one ZOT_BENCH_BEFORE names (the same figures, side by side).
  const before = process.env.ZOT_BENCH_BEFORE;
  // Peak RSS counts the pages of the binary a program touches, and how many the kernel maps on each
  // fault depends on how the file sits in the page cache: the same zot binary measured 44.1 MB as a
  // file just written and 39.6 MB as one written hours before. Every program measured is therefore a
  // file written now, as the floor programs are compiled now.
  const fresh = (bin: string, name: string) => {
    const copy = join(dir, name);
    copyFileSync(bin, copy);
    chmodSync(copy, 0o755);
    return copy;
  };
  const zots = [{ tag: "", bin: fresh(zot, "zot") }, ...(before ? [{ tag: " [before]", bin: fresh(before, "zot-before") }] : [])];
  if (before) console.log(`floor: [before] is ${before}`);
  try {
    // One-shot: the same short answer, printed.
    const answer = "Hello! How can I help you today?";
    const shortTurn: ScriptTurn = { text: answer };
    const expectAnswer = (stdout: string) => {
      if (stdout !== `${answer}\n`) throw new Error(`unexpected one-shot output: ${JSON.stringify(stdout.slice(0, 200))}`);
    };
    const one = await interleaved(
      [
        ...zots.map(({ tag, bin }) => ({ label: `zot -p${tag}`, cmd: [bin, "-p", "hello", ...anthropic], check: expectAnswer })),
        { label: "floor", cmd: [oneshot, mock.url], check: expectAnswer },
        { label: WITH_SDK, cmd: [oneshotSdk, mock.url], check: expectAnswer },
        { label: WITH_FILES, cmd: [oneshotSdkFiles, mock.url], check: expectAnswer },
      ],
      mock,
      shortTurn,
      env,
      cwd,
      ONE_SHOT_ROUNDS,
      3,
    );
    const floorOne = one.get("floor")!;
    console.log(`floor: one-shot answer from the local mock (Anthropic wire), medians of ${ONE_SHOT_ROUNDS} interleaved runs`);
    for (const { tag } of zots) console.log(line(`zot -p${tag}`, one.get(`zot -p${tag}`)!));
    console.log(line("floor (fetch + print)", floorOne));
    // References, not targets: the floor with the official SDK zot must use (DESIGN.md), then with
    // node:fs, node:path and node:os too. They are built without zot's bytecode layout
    // (scripts/build.ts), which makes zot's ratio to them, if anything, too low.
    const withSdk = one.get(WITH_SDK)!;
    const withFiles = one.get(WITH_FILES)!;
    console.log(line(WITH_SDK, withSdk));
    console.log(line(WITH_FILES, withFiles));
    console.log(`  the references / the floor: + SDK wall ${ratio(withSdk.wall, floorOne.wall)}, peak RSS ${ratio(withSdk.rss, floorOne.rss)}; + files wall ${ratio(withFiles.wall, floorOne.wall)}, peak RSS ${ratio(withFiles.rss, floorOne.rss)}`);
    for (const { tag } of zots) {
      const z = one.get(`zot -p${tag}`)!;
      console.log(`  ratio${tag}: wall ${ratio(z.wall, floorOne.wall)}, start→request ${ratio(z.start, floorOne.start)}, peak RSS ${ratio(z.rss, floorOne.rss)}`);
      console.log(`  ratio to ${WITH_FILES}${tag}: wall ${ratio(z.wall, withFiles.wall)}, start→request ${ratio(z.start, withFiles.start)}, peak RSS ${ratio(z.rss, withFiles.rss)}`);
    }

    // The stream: 50,000 text deltas, one JSON line each; and the TUI showing the same answer.
    const deltas = 50_000;
    const longTurn: ScriptTurn = { text: "x".repeat(deltas), chunk_size: 1 };
    const countDeltas = (stdout: string) => {
      let n = 0;
      for (let i = stdout.indexOf('"text_delta"'); i !== -1; i = stdout.indexOf('"text_delta"', i + 1)) n++;
      if (n !== deltas) throw new Error(`expected ${deltas} text_delta lines, got ${n}`);
    };
    // The answer's last rows on screen (98 x's a row inside the padding) and nothing running.
    const answerDone = (screen: Screen) => {
      const text = screen.text();
      return text.includes("x".repeat(90)) && !text.includes("working") && !text.includes("starting");
    };
    const answerShown = (text: string) => {
      if (!text.includes("x".repeat(90))) throw new Error(`the TUI did not show the answer:\n${text}`);
    };
    const openaiChat = ["--provider", "openai", "--model", "gpt-4.1", "--api-key", "k", "--base-url", `${mock.url}/v1`];
    const streams = await interleaved(
      [
        ...zots.flatMap(({ tag, bin }) => [
          { label: `zot --json (anthropic)${tag}`, cmd: [bin, "--json", "go", ...anthropic], check: countDeltas },
          { label: `zot --json (openai chat)${tag}`, cmd: [bin, "--json", "go", ...openaiChat], check: countDeltas },
          { label: `zot TUI (anthropic)${tag}`, cmd: [bin, "go", ...anthropic], check: answerShown, tui: answerDone },
        ]),
        { label: "floor", cmd: [stream, mock.url], check: countDeltas },
        { label: "floor (openai chat)", cmd: [streamChat, mock.url], check: countDeltas },
      ],
      mock,
      longTurn,
      env,
      cwd,
      STREAM_ROUNDS,
      1,
    );
    const floorS = streams.get("floor")!;
    console.log(`floor: ${deltas.toLocaleString("en-US")}-delta stream to one JSON line per delta, medians of ${STREAM_ROUNDS} interleaved runs`);
    for (const { tag } of zots) {
      for (const what of ["--json (anthropic)", "--json (openai chat)", "TUI (anthropic)"]) console.log(line(`zot ${what}${tag}`, streams.get(`zot ${what}${tag}`)!));
    }
    const floorChat = streams.get("floor (openai chat)")!;
    console.log(line("floor (fetch + NDJSON)", floorS));
    console.log(line("floor (openai chat)", floorChat));
    // What the Chat wire (twice the bytes, each event a larger JSON object) costs any client.
    console.log(`  the floor's own OpenAI Chat / Anthropic: wall ${ratio(floorChat.wall, floorS.wall)}, CPU ${ratio(floorChat.cpu, floorS.cpu)}`);
    for (const { tag } of zots) {
      const a = streams.get(`zot --json (anthropic)${tag}`)!;
      const o = streams.get(`zot --json (openai chat)${tag}`)!;
      const t = streams.get(`zot TUI (anthropic)${tag}`)!;
      const cpuAfter = (x: typeof a, y: typeof a) => (x.restCpu !== undefined && y.restCpu ? `, CPU after the request ${ratio(x.restCpu, y.restCpu)}` : "");
      console.log(`  ratio to the floor${tag}: wall ${ratio(a.wall, floorS.wall)}, CPU ${ratio(a.cpu, floorS.cpu)}`);
      console.log(`  OpenAI Chat route / Anthropic route${tag}: wall ${ratio(o.wall, a.wall)}, CPU ${ratio(o.cpu, a.cpu)}`);
      console.log(`  TUI / --json, request → answer done${tag}: wall ${ratio(t.rest, a.rest)}${cpuAfter(t, a)}`);
    }
  } finally {
    await mock.stop();
    // The compiled floors and the copies of zot are ~100 MB each: nothing of a run stays in the temp directory.
    for (const made of [dir, cwd, `${cwd}.stdout`]) rmSync(made, { recursive: true, force: true });
  }
}
