// Session figures the sessions issue names: resuming a 10,000-message session to prompt-ready
// (≤ 200 ms), and what appending a record costs on disk (no rewrites: bytes written per record ≈
// the record's size). Rule: printed, never asserted.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "../../src/core/agent.ts";
import { nowIso, type Message } from "../../src/protocol/messages.ts";
import { SESSION_FORMAT } from "../../src/protocol/session-format.ts";
import { createScriptedProvider } from "../../src/providers/scripted.ts";
import { openSession } from "../../src/session/open.ts";
import { sessionPath } from "../../src/session/paths.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { testModel } from "../../test/support/test-model.ts";

const ZOT = join(import.meta.dir, "..", "..", "dist", "zot");
const MESSAGES = 10_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const verdict = (value: number, target: number) => (value <= target ? "met" : "MISSED");

/** A session of `count` messages in turns of four (prompt, tool call, a 1 KB tool result, answer), with usage after each call. */
function writeBigSession(home: string, cwd: string, count: number): string {
  const id = "20260101-000000-00bench0";
  const file = sessionPath(home, cwd, id);
  const writer = SessionWriter.create(file, {
    type: "session",
    format: SESSION_FORMAT,
    id,
    cwd,
    created: nowIso(),
    model: "scripted",
    provider: "scripted",
    zot_version: "bench",
  });
  const time = nowIso();
  const usage = { input: 1000, output: 50, cache_read: 0, cache_write: 0, cost_usd: 0.001, reasoning: null };
  for (let i = 0; i < count; i++) {
    const turn = Math.floor(i / 4);
    const message: Message = [
      { role: "user", content: [{ type: "text", text: `step ${turn}: look at src/module-${turn}.ts and fix what is wrong` }], time },
      { role: "assistant", content: [{ type: "tool_call", id: `call_${turn}`, name: "read", args: { path: `src/module-${turn}.ts` } }], time },
      { role: "tool", content: [{ type: "tool_result", call_id: `call_${turn}`, is_error: false, content: [{ type: "text", text: `export const x${turn} = 1;\n`.repeat(40) }] }], time },
      { role: "assistant", content: [{ type: "text", text: `Module ${turn} reads fine; the bug was an off-by-one in the loop, fixed.` }], time },
    ][i % 4] as Message;
    writer.write({ type: "message", message });
    if (i % 4 === 1 || i % 4 === 3) writer.write({ type: "usage", time, usage, cumulative: { ...usage, cost_usd: usage.cost_usd * (i + 1) } });
  }
  writer.close();
  return file;
}

/** Bytes this process has passed to write() so far (Linux); undefined elsewhere. */
function bytesWritten(): number | undefined {
  try {
    return Number(/^wchar: (\d+)$/m.exec(readFileSync("/proc/self/io", "utf8"))?.[1]);
  } catch {
    return undefined;
  }
}

export async function sessionResumeBench(env: Record<string, string>): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "zot-bench-sess-home-"));
  const cwd = mkdtempSync(join(tmpdir(), "zot-bench-sess-cwd-"));
  const file = writeBigSession(home, cwd, MESSAGES);
  const size = statSync(file).size;

  // In process: open (lock, read, check, replay, repair) and build the agent with the transcript.
  const model = testModel({ id: "scripted", provider: "scripted" });
  const times: number[] = [];
  for (let i = 0; i < 12; i++) {
    const t0 = performance.now();
    const session = await openSession({ kind: "continue" }, { home, cwd });
    const resumed = session.resumed!;
    const agent = new Agent({ provider: createScriptedProvider([]), model, tools: [], system: "", cwd, messages: resumed.messages, cumulative: resumed.cumulative });
    session.record(agent, (m) => console.error(m));
    const ms = performance.now() - t0;
    if (agent.messages.length !== MESSAGES) throw new Error(`resumed ${agent.messages.length} messages, not ${MESSAGES}`);
    session.close();
    if (i >= 2) times.push(ms);
  }
  const inProcess = median(times);
  console.log(
    `session-resume ${MESSAGES.toLocaleString("en")} messages (${(size / 1e6).toFixed(1)} MB) to prompt-ready in process: median ${fmt(inProcess)} (target ≤ 200 ms: ${verdict(inProcess, 200)}), min ${fmt(Math.min(...times))} (10 runs)`,
  );

  // Through the binary: a whole -p run resuming it (-c) against the same run without a session.
  const script = join(cwd, "answer.json");
  writeFileSync(script, JSON.stringify([{ text: "ok" }]));
  const runEnv = { ...env, ZOT_HOME: home };
  const run = async (args: string[]) => {
    const t0 = performance.now();
    const proc = Bun.spawn([ZOT, "-p", "next step", "--script", script, "--no-ext", ...args], { cwd, env: runEnv, stdout: "pipe", stderr: "pipe" });
    const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    if (code !== 0) throw new Error(`zot ${args.join(" ")} failed (${code}): ${stderr}`);
    return performance.now() - t0;
  };
  const resumed: number[] = [];
  const fresh: number[] = [];
  for (let i = 0; i < 12; i++) {
    const a = await run(["-c"]);
    const b = await run(["--no-session"]);
    if (i >= 2) {
      resumed.push(a);
      fresh.push(b);
    }
  }
  console.log(
    `session-resume zot -p -c on it: median ${fmt(median(resumed))} against ${fmt(median(fresh))} with --no-session (${fmt(median(resumed) - median(fresh))} more, the scripted provider's pass over the 10,000-message request included; 10 runs each)`,
  );
}

export async function sessionAppendBench(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "zot-bench-sess-home-"));
  const cwd = mkdtempSync(join(tmpdir(), "zot-bench-sess-cwd-"));
  const file = writeBigSession(home, cwd, MESSAGES);
  const prompts = 200;
  const turns = Array.from({ length: prompts }, (_, i) => ({ text: `answer ${i}: ${"details ".repeat(i % 50)}`, usage: { input: 100, output: 10 } }));
  const session = await openSession({ kind: "continue" }, { home, cwd });
  const agent = new Agent({
    provider: createScriptedProvider(turns),
    model: testModel({ id: "scripted", provider: "scripted" }),
    tools: [],
    system: "",
    cwd,
    autoCompact: 0,
    messages: session.resumed!.messages,
    cumulative: session.resumed!.cumulative,
  });
  session.record(agent, (m) => console.error(m));
  const sizeBefore = statSync(file).size;
  const linesBefore = readFileSync(file, "utf8").split("\n").length;
  const wcharBefore = bytesWritten();
  const signal = new AbortController().signal;
  for (let i = 0; i < prompts; i++) await agent.prompt({ text: `prompt ${i}` }, signal);
  const wcharAfter = bytesWritten();
  session.close();
  const grown = statSync(file).size - sizeBefore;
  const records = readFileSync(file, "utf8").split("\n").length - linesBefore;
  const written = wcharBefore !== undefined && wcharAfter !== undefined ? wcharAfter - wcharBefore : undefined;
  console.log(
    `session-append ${records} records appended to a ${(sizeBefore / 1e6).toFixed(1)} MB session: the file grew ${grown.toLocaleString("en")} bytes (${(grown / records).toFixed(0)} per record)` +
      (written !== undefined
        ? `; the process wrote ${written.toLocaleString("en")} bytes (${(written / records).toFixed(0)} per record, ${(written / grown).toFixed(3)}× the records' size: no rewrites)`
        : "; bytes written by the process are read from /proc/self/io, not available here"),
  );
}
