// A response body as zot reads it: decoded by zot as its content-encoding says (Bun's fetch is told
// not to), the header then gone; a coding zot does not know leaves the response as it is.
import { expect, test } from "bun:test";
import { brotliCompressSync, deflateSync } from "node:zlib";
import { decodedBody } from "../../src/providers/body-encoding.ts";
import { modelFetch } from "../../src/providers/model-connections.ts";

const text = "event: ping\ndata: {}\n\n";
const labelled = (body: Uint8Array | string, coding: string) => new Response(body, { headers: { "content-encoding": coding, "content-length": "999", "x-other": "kept" } });

test("gzip, deflate, br, zstd and a chain of two are decoded; the coding and the length go, other headers stay", async () => {
  for (const [coding, body] of [
    ["gzip", Bun.gzipSync(text)],
    ["x-gzip", Bun.gzipSync(text)],
    ["deflate", new Uint8Array(deflateSync(text))],
    ["br", new Uint8Array(brotliCompressSync(text))],
    ["zstd", Bun.zstdCompressSync(text)],
    ["gzip, br", new Uint8Array(brotliCompressSync(Bun.gzipSync(text)))],
    ["Identity", text],
  ] as const) {
    const decoded = decodedBody(labelled(body, coding));
    expect([coding, await decoded.text()]).toEqual([coding, text]);
    if (coding !== "Identity") {
      expect(decoded.headers.get("content-encoding")).toBeNull();
      expect(decoded.headers.get("content-length")).toBeNull();
    }
    expect(decoded.headers.get("x-other")).toBe("kept");
  }
});

test("no coding, or one zot does not know: the response itself", () => {
  const plain = new Response(text);
  expect(decodedBody(plain)).toBe(plain);
  const unknown = labelled(text, "compress");
  expect(decodedBody(unknown)).toBe(unknown);
});

test("a body that is not what its coding says fails as a read of the stream, not in the runtime's own words", async () => {
  const reader = decodedBody(labelled(text, "gzip")).body!.getReader();
  expect(reader.read()).rejects.toThrow(/inflate failed/);
});

test("modelFetch asks for no compression and decodes what comes compressed anyway", async () => {
  let accepted: string | null = "unset";
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      accepted = req.headers.get("accept-encoding");
      return new Response(Bun.gzipSync(text), { headers: { "content-encoding": "gzip" } });
    },
  });
  try {
    const response = await modelFetch(`http://127.0.0.1:${server.port}/`);
    expect(await response.text()).toBe(text);
    expect(accepted).toBeNull();
  } finally {
    await server.stop(true);
  }
});
