// A model server (or a proxy on the way) that sends its body compressed, or says it did and did
// not: zot decodes it itself, so a body that cannot be decoded is zot's one sentence, and the
// runtime writes nothing of its own onto the terminal (the TUI's screen stays whole).
import { afterEach, expect, test } from "bun:test";
// The mock's module first: its formats import it back (as scripts/bytecode-order.ts does).
import "../support/mock-llm.ts";
import type { MockLlm } from "../support/mock-llm.ts";
import { anthropicResponse } from "../support/mock-llm/anthropic.ts";
import { ptyRuns } from "../support/pty-runs.ts";
import { ready } from "../support/zot-pty.ts";
import { zot } from "../support/zot.ts";

const runs = ptyRuns();
let server: ReturnType<typeof Bun.serve> | undefined;
afterEach(async () => {
  await server?.stop(true);
  server = undefined;
});

const SSE = (text: string) => anthropicResponse({ text }, { method: "POST", path: "/v1/messages", headers: { "x-api-key": "k" }, body: {} }).text();

/** A server whose answers are `encode`d and labelled `coding`; records the Accept-Encoding each request sent. */
async function serving(coding: string, encode: (body: string) => Uint8Array | string): Promise<{ url: string; accepted: (string | null)[] }> {
  const accepted: (string | null)[] = [];
  const body = await SSE("decoded by zot");
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      if (req.method === "HEAD") return new Response(null, { status: 404 });
      accepted.push(req.headers.get("accept-encoding"));
      return new Response(encode(body), { headers: { "content-type": "text/event-stream", "content-encoding": coding } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, accepted };
}

const anthropic = (url: string) => ["--provider", "anthropic", "--api-key", "k", "--base-url", url];

test("a stream a server compresses though zot asked for none (gzip, br, zstd) is decoded and answered", async () => {
  const zlib = await import("node:zlib");
  for (const [coding, encode] of [
    ["gzip", (b: string) => Bun.gzipSync(b)],
    ["br", (b: string) => new Uint8Array(zlib.brotliCompressSync(b))],
    ["zstd", (b: string) => Bun.zstdCompressSync(b)],
  ] as const) {
    const { url, accepted } = await serving(coding, encode);
    const run = await zot(["-p", "hi", ...anthropic(url)]);
    expect([coding, run.code, run.stdout, run.stderr]).toEqual([coding, 0, "decoded by zot\n", ""]);
    // zot asks for the body as it is: nothing for a proxy to get wrong.
    expect(accepted).toEqual([null]);
    await server?.stop(true);
  }
});

test("-p: a plain stream labelled gzip is zot's one sentence on stderr, without the runtime's own line", async () => {
  const { url } = await serving("gzip", (b) => b);
  const run = await zot(["-p", "hi", ...anthropic(url)]);
  expect(run.code).toBe(1);
  expect(run.stderr).toBe(
    "zot: anthropic: the server sent a malformed stream (its compressed body could not be decoded (inflate failed); a proxy on the way may be re-encoding the stream)\n",
  );
});

test("the TUI: a plain stream labelled gzip leaves only zot's error on the screen, and one status bar", async () => {
  const { url } = await serving("gzip", (b) => b);
  const { session } = runs.start({ url, stop: async () => {} } as unknown as MockLlm, { cols: 100, rows: 30 });
  await ready(session);
  const from = session.output.length;
  session.type("hi\r");
  await session.waitForText("compressed body could not be decoded", 15_000);
  await Bun.sleep(300);
  await session.screen.settled();
  expect(session.output.slice(from)).not.toContain("Decompression error");
  expect(session.screen.allLines().filter((line) => /\(anthropic\) claude-/.test(line))).toHaveLength(1);
}, 30_000);
