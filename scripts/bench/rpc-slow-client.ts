// `zot rpc` under a client that reads its stdout slowly (issue 12): peak RSS (VmHWM) while 1 GB of
// bash output streams as tool_progress, and while 1,000 pipelined get_messages of a 1 MB transcript
// are answered (target ≤ 200 MB each), with a check that the same output arrived whole. Rule:
// printed, never asserted; `ZOT_BENCH_BINARY=/path/to/zot` measures another build (before/after).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BenchRpc } from "./rpc-process.ts";

const ZOT = process.env.ZOT_BENCH_BINARY ?? join(import.meta.dir, "..", "..", "dist", "zot");
/** How fast the slow client reads: bytes per millisecond (50 MB/s). */
const READ_BYTES_PER_MS = 50_000;
const BASH_BYTES = 1_000_000_000;
const TRANSCRIPT_CHARS = 1_000_000;
const PIPELINED = 1000;

const verdict = (mb: number) => (mb <= 200 ? "met" : "MISSED");

async function bashOutput(cwd: string, env: Record<string, string>): Promise<void> {
  const script = join(cwd, "bash-1gb.json");
  // 10,000,000 lines of 100 bytes.
  const command = `yes "$(printf '%099d' 0)" | head -c ${BASH_BYTES}`;
  await Bun.write(script, JSON.stringify([{ tool_calls: [{ name: "bash", args: { command } }] }, { text: "done" }]));
  const client = new BenchRpc(ZOT, ["--script", script], cwd, env, READ_BYTES_PER_MS);
  const started = performance.now();
  client.send('{"type":"prompt","message":"go"}\n');
  let streamed = 0;
  let fullOutput: string | undefined;
  await client.readUntil((line) => {
    if (line.startsWith('{"type":"tool_progress"')) streamed += (JSON.parse(line) as { text: string }).text.length;
    else if (line.startsWith('{"type":"tool_result"')) fullOutput = /the full output is in (\S+)/.exec(line)?.[1];
    return line === '{"type":"done"}';
  });
  const seconds = (performance.now() - started) / 1000;
  const peak = client.rssMb("peak");
  await client.close();
  if (fullOutput) rmSync(fullOutput, { force: true });
  const whole = streamed === BASH_BYTES ? "all of it delivered" : `ONLY ${streamed.toLocaleString("en-US")} bytes delivered`;
  console.log(`rpc slow client, 1 GB of bash output: peak RSS ${peak.toFixed(0)} MB (target ≤ 200 MB: ${verdict(peak)}); ${whole} as tool_progress in ${seconds.toFixed(1)} s at ${READ_BYTES_PER_MS / 1000} MB/s reading`);
}

async function pipelinedMessages(cwd: string, env: Record<string, string>): Promise<void> {
  const script = join(cwd, "answer-1mb.json");
  await Bun.write(script, JSON.stringify([{ text: "z".repeat(TRANSCRIPT_CHARS), chunk_size: 65_536 }]));
  const client = new BenchRpc(ZOT, ["--script", script], cwd, env, READ_BYTES_PER_MS);
  client.send('{"type":"prompt","message":"go"}\n');
  await client.readUntil((line) => line === '{"type":"done"}');
  const started = performance.now();
  let commands = "";
  for (let i = 0; i < PIPELINED; i++) commands += `{"type":"get_messages","id":"m${i}"}\n`;
  client.send(commands);
  let answered = 0;
  let whole = 0;
  await client.readUntil((line) => {
    if (!line.includes('"command":"get_messages"')) return false;
    answered++;
    const response = JSON.parse(line) as { data: { messages: { content: { text?: string }[] }[] } };
    const last = response.data.messages.at(-1);
    if (last?.content.some((block) => block.text?.length === TRANSCRIPT_CHARS)) whole++;
    return answered === PIPELINED;
  });
  const seconds = (performance.now() - started) / 1000;
  const peak = client.rssMb("peak");
  await client.close();
  console.log(
    `rpc slow client, ${PIPELINED} pipelined get_messages of a 1 MB transcript: peak RSS ${peak.toFixed(0)} MB (target ≤ 200 MB: ${verdict(peak)}); ${whole} of ${answered} answers whole, in ${seconds.toFixed(1)} s`,
  );
}

export async function rpcSlowClientBench(env: Record<string, string>): Promise<void> {
  const cwd = mkdtempSync(join(tmpdir(), "zot-bench-slow-"));
  if (process.env.ZOT_BENCH_BINARY) console.log(`(measuring ${ZOT})`);
  await bashOutput(cwd, env);
  await pipelinedMessages(cwd, env);
}
