// What the TUI issue names for the interactive app, measured on dist/zot in a real pseudo-terminal
// against the local mock LLM: the first frame after start (≤ 50 ms), bytes written to the terminal
// per text_delta with 10,000 rows already in the transcript (≤ 2 KB, independent of its length:
// a resumed session supplies the rows), and CPU while idle (0%: no timers; /proc/<pid>/stat over
// 2 s). Rule: printed, never asserted; Linux only for the CPU figure.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChatView } from "../../src/modes/interactive/chat-view.ts";
import { type Message, nowIso } from "../../src/protocol/messages.ts";
import { SESSION_FORMAT } from "../../src/protocol/session-format.ts";
import { sessionPath } from "../../src/session/paths.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { createTheme } from "../../src/tui/theme.ts";
import { type MockLlm, startMockLlm } from "../../test/support/mock-llm.ts";
import { PtySession } from "../../test/support/pty.ts";

const ZOT = join(import.meta.dir, "..", "..", "dist", "zot");
const COLS = 100;
const ROWS = 40;
const MODEL = "claude-sonnet-5-5";
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const verdict = (ok: boolean) => (ok ? "met" : "MISSED");

function envFor(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ZOT_HOME: home, TERM: "xterm-256color" };
}

const providerArgs = (mock: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", mock.url];

/** Spawn → the first synchronized frame, and → the runtime ready (the status bar names the provider). */
async function firstFrame(mock: MockLlm): Promise<{ frame: number; ready: number }> {
  const home = mkdtempSync(join(tmpdir(), "zot-bench-tui-home-"));
  const cwd = mkdtempSync(join(tmpdir(), "zot-bench-tui-cwd-"));
  let frame = 0;
  let ready = 0;
  let seen = "";
  const started = performance.now();
  const proc = Bun.spawn([ZOT, ...providerArgs(mock), "--no-session"], {
    cwd,
    env: envFor(home),
    terminal: {
      cols: COLS,
      rows: ROWS,
      data: (terminal, data) => {
        const now = performance.now();
        seen += new TextDecoder().decode(data);
        // The emulator is not attached here: answer the device-attributes query as a terminal would.
        if (seen.includes("\x1b[c") && !seen.includes("\x00answered")) {
          terminal.write("\x1b[?62;22c");
          seen += "\x00answered";
        }
        if (!frame && seen.includes("\x1b[?2026h")) frame = now - started;
        if (!ready && seen.includes("(anthropic) ")) ready = now - started;
      },
    },
  });
  const until = Date.now() + 10_000;
  while (!ready && Date.now() < until) await Bun.sleep(2);
  proc.terminal?.write("\x04");
  await proc.exited;
  proc.terminal?.close();
  if (!frame || !ready) throw new Error("zot drew no frame within 10 s");
  return { frame, ready };
}

/** A session whose transcript renders to about `rows` rows at COLS: turns of prompt, a bash box, an answer. */
function writeSession(home: string, cwd: string, rows: number): { id: string; renderedRows: number } {
  const id = "20260101-000000-0tuibench";
  const time = nowIso();
  const messages: Message[] = [];
  const chat = new ChatView(createTheme({ color: true }));
  for (let turn = 0; chat.render(COLS).length < rows; turn++) {
    const batch: Message[] = [
      { role: "user", content: [{ type: "text", text: `step ${turn}: look at module ${turn} and fix what is wrong` }], time },
      { role: "assistant", content: [{ type: "text", text: `Reading **module ${turn}**.` }, { type: "tool_call", id: `call_${turn}`, name: "bash", args: { command: `cat src/module-${turn}.ts` } }], time },
      { role: "tool", content: [{ type: "tool_result", call_id: `call_${turn}`, is_error: false, content: [{ type: "text", text: `export const x${turn} = 1;\n`.repeat(30) }] }], time },
      { role: "assistant", content: [{ type: "text", text: `Module ${turn} reads fine; the bug was an off-by-one in the loop, fixed.` }], time },
    ];
    messages.push(...batch);
    chat.load(messages);
  }
  const writer = SessionWriter.create(sessionPath(home, cwd, id), {
    type: "session",
    format: SESSION_FORMAT,
    id,
    cwd,
    created: time,
    model: MODEL,
    provider: "anthropic",
    zot_version: "bench",
  });
  for (const message of messages) writer.write({ type: "message", message });
  writer.close();
  return { id, renderedRows: chat.render(COLS).length };
}

/** CPU seconds (user + system) of a process so far, from /proc (Linux). */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return undefined;
  }
}

interface StreamFigures {
  deltas: number;
  frames: number;
  bytesPerDelta: number;
  maxFrame: number;
  /** CPU % in three consecutive 2 s windows of idleness */
  idleCpu?: number[];
  idleBytes: number;
}

/** One streamed answer into a transcript of `transcriptRows` rows (0: a fresh session), then 2 s idle. */
async function streamInto(mock: MockLlm, transcriptRows: number): Promise<StreamFigures & { renderedRows: number }> {
  const home = mkdtempSync(join(tmpdir(), "zot-bench-tui-home-"));
  const cwd = mkdtempSync(join(tmpdir(), "zot-bench-tui-cwd-"));
  const session = transcriptRows > 0 ? writeSession(home, cwd, transcriptRows) : undefined;
  const args = [ZOT, ...providerArgs(mock), ...(session ? ["--session", session.id] : ["--no-session"])];
  const pty = new PtySession(args, { cols: COLS, rows: ROWS, env: envFor(home), cwd });
  try {
    await pty.waitFor((screen) => screen.text().includes("(anthropic) ") && screen.text().includes("ask anything"), "the app ready", 30_000);
    // 400 deltas of 8 characters, a newline every 10th; ~25 ms apart, so each gets a frame of its own.
    const deltas = 400;
    const text = Array.from({ length: deltas }, (_, i) => (i % 10 === 9 ? "word ok\n" : `w${String(i).padStart(4, "0")} ab `)).join("");
    mock.push({ text, chunk_size: 8, chunk_delay_ms: 8 });
    await Bun.sleep(300);
    const frames: number[] = [];
    const before = pty.bytes;
    const beforeOutput = pty.output.length;
    pty.type("stream\r");
    await pty.waitFor((screen) => screen.text().includes("w0398 ab") && !screen.text().includes("working"), "the answer", 60_000);
    const written = pty.output.slice(beforeOutput);
    for (const frame of written.split("\x1b[?2026h").slice(1)) frames.push(Buffer.byteLength(frame) + 8);
    const bytes = pty.bytes - before;
    // Idle: nothing running, nothing typed; the process should neither write nor spend CPU.
    await Bun.sleep(500);
    const idleBefore = pty.bytes;
    const idleCpu: number[] = [];
    for (let window = 0; window < 3; window++) {
      const cpu0 = cpuSeconds(pty.proc.pid);
      await Bun.sleep(2000);
      const cpu1 = cpuSeconds(pty.proc.pid);
      if (cpu0 !== undefined && cpu1 !== undefined) idleCpu.push(((cpu1 - cpu0) / 2) * 100);
    }
    const idleBytes = pty.bytes - idleBefore;
    return {
      deltas,
      frames: frames.length,
      bytesPerDelta: bytes / deltas,
      maxFrame: Math.max(...frames),
      idleCpu: idleCpu.length > 0 ? idleCpu : undefined,
      idleBytes,
      renderedRows: session?.renderedRows ?? 0,
    };
  } finally {
    pty.type("\x04");
    await Promise.race([pty.proc.exited, Bun.sleep(5000)]);
    pty.close();
  }
}

export async function interactiveBench(): Promise<void> {
  const mock = startMockLlm();
  try {
    const runs: { frame: number; ready: number }[] = [];
    for (let i = 0; i < 23; i++) {
      const run = await firstFrame(mock);
      if (i >= 3) runs.push(run);
    }
    const frame = runs.map((r) => r.frame);
    const ready = runs.map((r) => r.ready);
    console.log(
      `tui-app first frame after spawn: median ${median(frame).toFixed(1)} ms, p90 ${pct(frame, 0.9).toFixed(1)} ms (target ≤ 50 ms: ${verdict(median(frame) <= 50)}); ` +
        `runtime ready (provider in the status bar): median ${median(ready).toFixed(1)} ms (${runs.length} runs, ${COLS}x${ROWS}, anthropic, no extensions)`,
    );
    for (const rows of [0, 10_000]) {
      const r = await streamInto(mock, rows);
      const label = rows === 0 ? "empty transcript" : `${r.renderedRows.toLocaleString("en-US")} transcript rows (resumed session)`;
      const target = rows === 0 ? "" : ` (target ≤ 2048 B: ${verdict(r.bytesPerDelta <= 2048)})`;
      console.log(
        `tui-app bytes per text_delta, ${label}: ${r.bytesPerDelta.toFixed(0)} B${target}, largest frame ${r.maxFrame} B (${r.deltas} deltas of 8 characters in ${r.frames} frames, ${COLS}x${ROWS})`,
      );
      const cpu = r.idleCpu === undefined ? "n/a (no /proc)" : r.idleCpu.map((x) => `${x.toFixed(1)}%`).join(", ");
      const zero = r.idleCpu !== undefined && r.idleCpu.at(-1) === 0;
      console.log(
        `tui-app idle after the answer (${label}): CPU in three 2 s windows ${cpu} (target 0%: ${verdict(zero)}; 1 clock tick = 0.5%), ${r.idleBytes} bytes written in 6 s`,
      );
    }
  } finally {
    await mock.stop();
  }
}

if (import.meta.main) await interactiveBench();
