// `scripts/bench first-answer`: a waiting zot's first prompt over a distant server, to its first
// text, with the connection opened while it waited (providers/warm-connection.ts; zot rpc here,
// which opens it as the TUI does). The distance is simulated on loopback: a TLS server behind a TCP
// relay that holds each chunk half a round trip in each direction, and a new connection's first
// bytes one round trip more (TCP's handshake). The certificate is a throwaway one (openssl) that
// zot trusts through NODE_EXTRA_CA_CERTS. ZOT_BENCH_BEFORE=<an older zot> interleaves that binary.
// The warm-up is one HEAD at the server's origin (the request it opens the connection with), which
// the bench's server answers.
// Rule: numbers are printed, never asserted.
import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BenchRpc } from "./rpc-process.ts";

const ZOT = join(import.meta.dir, "..", "..", "dist", "zot");
const ROUNDS = 9;
/** the time the user takes to type the first prompt */
const IDLE_MS = 1000;

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify({ type: event, ...(data as object) })}\n\n`;
const ANSWER = [
  sse("message_start", { message: { id: "m", type: "message", role: "assistant", model: "x", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } }),
  sse("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
  sse("content_block_delta", { index: 0, delta: { type: "text_delta", text: "hi" } }),
  sse("content_block_stop", { index: 0 }),
  sse("message_delta", { delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 1 } }),
  sse("message_stop", {}),
].join("");

/** A relay to 127.0.0.1:`port` that makes it `rttMs` away; counts connections. */
async function distantRelay(port: number, rttMs: number) {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    connections++;
    const handshakeDone = performance.now() + rttMs;
    const upstream = connect(port, "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => (client.destroy(), upstream.destroy(), sockets.delete(socket)));
    }
    const hold = (at: number, send: () => void) => setTimeout(send, Math.max(0, at - performance.now()));
    client.on("data", (chunk) => hold(Math.max(performance.now(), handshakeDone) + rttMs / 2, () => upstream.write(chunk)));
    upstream.on("data", (chunk) => hold(performance.now() + rttMs / 2, () => client.write(chunk)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    stop: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function firstAnswerBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "zot-bench-first-answer-"));
  try {
    const key = join(dir, "key.pem");
    const cert = join(dir, "cert.pem");
    const made = Bun.spawnSync(
      ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
      { stderr: "pipe" },
    );
    if (made.exitCode !== 0) throw new Error(`openssl could not make the bench's certificate: ${made.stderr.toString()}`);
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      tls: { cert: Bun.file(cert), key: Bun.file(key) },
      async fetch(req) {
        await req.text();
        if (req.method === "HEAD") return new Response(null, { status: 404 });
        return new Response(ANSWER, { headers: { "content-type": "text/event-stream" } });
      },
    });
    const home = mkdtempSync(join(dir, "home-"));
    const cwd = mkdtempSync(join(dir, "cwd-"));
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ZOT_HOME: home, NODE_EXTRA_CA_CERTS: cert };
    const before = process.env.ZOT_BENCH_BEFORE;
    const zots = [{ label: "zot", bin: ZOT }, ...(before ? [{ label: "zot [before]", bin: before }] : [])];
    for (const rttMs of [20, 80]) {
      const relay = await distantRelay(Number(server.port), rttMs);
      const args = ["--provider", "anthropic", "--api-key", "k", "--base-url", `https://127.0.0.1:${relay.port}`];
      const results = new Map(zots.map((z) => [z.label, { ms: [] as number[], connections: [] as number[] }]));
      for (let round = 0; round < ROUNDS; round++) {
        for (const z of zots) {
          const opened = relay.connections();
          const rpc = new BenchRpc(z.bin, args, cwd, env);
          rpc.send('{"type":"ping","id":1}\n');
          await rpc.readUntil((line) => line.includes('"command":"ping"'));
          await Bun.sleep(IDLE_MS);
          const sent = performance.now();
          rpc.send('{"type":"prompt","message":"hello"}\n');
          const first = await rpc.readUntil((line) => line.startsWith('{"type":"text_delta"'));
          await rpc.readUntil((line) => line === '{"type":"done"}');
          await rpc.close();
          const result = results.get(z.label)!;
          result.ms.push(first - sent);
          result.connections.push(relay.connections() - opened);
        }
      }
      relay.stop();
      console.log(`first-answer: zot rpc, prompt sent ${IDLE_MS} ms after the start to its first text_delta, TLS server ${rttMs} ms away (medians of ${ROUNDS})`);
      for (const [label, r] of results) {
        console.log(`  ${label.padEnd(14)} ${median(r.ms).toFixed(1).padStart(6)} ms = ${(median(r.ms) / rttMs).toFixed(2)} round trips; connections opened per run: ${median(r.connections)}`);
      }
    }
    server.stop(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
