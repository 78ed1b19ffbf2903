// `zot rpc` figures the rpc issue names: text_delta events per second through rpc (≥ 50,000),
// the mock's first byte to the first text_delta on stdout (p50 ≤ 2 ms), and the idle RSS after
// one prompt (≤ 60 MB). Rule: printed, never asserted; run through the compiled binary.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockLlm } from "../../test/support/mock-llm.ts";
import { BenchRpc } from "./rpc-process.ts";

const ZOT = join(import.meta.dir, "..", "..", "dist", "zot");

const isDone = (line: string) => line === '{"type":"done"}';

async function throughput(label: string, args: string[], cwd: string, env: Record<string, string>): Promise<void> {
  const rpc = new BenchRpc(ZOT, args, cwd, env);
  let first = 0;
  let last = 0;
  let count = 0;
  rpc.send('{"type":"prompt","message":"go"}\n');
  await rpc.readUntil(isDone, (line, at) => {
    if (!line.startsWith('{"type":"text_delta"')) return;
    if (count === 0) first = at;
    count++;
    last = at;
  });
  await rpc.close();
  const perSecond = Math.round(count / ((last - first) / 1000));
  console.log(`rpc ${label}: ${count.toLocaleString()} text_delta in ${(last - first).toFixed(0)} ms = ${perSecond.toLocaleString()} events/s (target ≥ 50,000)`);
}

/** An Anthropic stream that stamps the moment its first byte leaves, so latency is measured from there. */
function firstByteServer(): { url: string; firstByteAt: () => number; stop: () => void } {
  let firstByte = 0;
  const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  const body = [
    sse("message_start", {
      type: "message_start",
      message: { id: "m", type: "message", role: "assistant", model: "x", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } },
    }),
    sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hi" } }),
    sse("content_block_stop", { type: "content_block_stop", index: 0 }),
    sse("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 1 } }),
    sse("message_stop", { type: "message_stop" }),
  ].join("");
  const bytes = new TextEncoder().encode(body);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      await req.text();
      const stream = new ReadableStream({
        async start(controller) {
          await Bun.sleep(20); // the request is fully handled on zot's side before the first byte
          firstByte = performance.now();
          controller.enqueue(bytes);
          controller.close();
        },
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, firstByteAt: () => firstByte, stop: () => server.stop(true) };
}

async function firstDeltaLatency(cwd: string, env: Record<string, string>): Promise<void> {
  const server = firstByteServer();
  const rpc = new BenchRpc(ZOT, ["--provider", "anthropic", "--api-key", "k", "--base-url", server.url], cwd, env);
  const warm = 10;
  const runs = 100;
  const latencies: number[] = [];
  for (let i = 0; i < warm + runs; i++) {
    rpc.send('{"type":"prompt","message":"go"}\n');
    const at = await rpc.readUntil((line) => line.startsWith('{"type":"text_delta"'));
    await rpc.readUntil(isDone);
    if (i >= warm) latencies.push(at - server.firstByteAt());
  }
  latencies.sort((a, b) => a - b);
  const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))].toFixed(2);
  console.log(`rpc first byte → first text_delta on stdout: p50 ${p(0.5)} ms (target ≤ 2 ms), p90 ${p(0.9)} ms, p99 ${p(0.99)} ms (${runs} prompts after ${warm} warm-up)`);
  console.log(`rpc RSS after ${warm + runs} prompts: ${rpc.rssMb().toFixed(1)} MB`);
  await rpc.close();
  server.stop();
}

async function idleRss(cwd: string, env: Record<string, string>): Promise<void> {
  const mock = startMockLlm([{ text: "Hello! How can I help you today?" }]);
  const rpc = new BenchRpc(ZOT, ["--provider", "anthropic", "--api-key", "k", "--base-url", mock.url], cwd, env);
  rpc.send('{"type":"prompt","message":"hello"}\n');
  await rpc.readUntil(isDone);
  await Bun.sleep(500);
  console.log(`rpc idle RSS after one prompt: ${rpc.rssMb().toFixed(1)} MB (target ≤ 60 MB)`);
  await rpc.close();
  await mock.stop();
}

export async function rpcBench(env: Record<string, string>): Promise<void> {
  const cwd = mkdtempSync(join(tmpdir(), "zot-bench-rpc-"));
  const script = join(cwd, "long.json");
  await Bun.write(script, JSON.stringify([{ text: "x".repeat(200_000), chunk_size: 1 }]));
  await throughput("scripted provider, 200,000 one-character deltas", ["--script", script], cwd, env);
  const mock = startMockLlm([{ text: "y".repeat(100_000), chunk_size: 1 }]);
  await throughput("anthropic from the mock (real SDK), 100,000 deltas", ["--provider", "anthropic", "--api-key", "k", "--base-url", mock.url], cwd, env);
  await mock.stop();
  await firstDeltaLatency(cwd, env);
  await idleRss(cwd, env);
}
