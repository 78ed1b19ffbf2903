// A model server's response body as zot reads it: zot asks for none compressed (its fetch is told
// not to decompress, and so sends no Accept-Encoding), and decodes one a server or a proxy sends
// compressed anyway itself. Rule: Bun's own decoding is never used, because a body it cannot decode
// (a proxy that labels a plain stream gzip) makes the runtime write "Decompression error: ZlibError"
// straight onto fd 2, over the TUI; decoded here, the failure is a read error of the stream, which
// the call reports in its own words (provider-failure.ts).

/** DecompressionStream's names for the content-codings Bun's fetch would have decoded (Bun's takes brotli and zstd too). */
const FORMATS: Readonly<Record<string, "gzip" | "deflate" | "brotli" | "zstd">> = {
  gzip: "gzip",
  "x-gzip": "gzip",
  deflate: "deflate",
  br: "brotli",
  zstd: "zstd",
};

/** The response with its body decoded as its content-encoding says; the response itself when it says none (or one zot does not know). */
export function decodedBody(response: Response): Response {
  const header = response.headers.get("content-encoding");
  if (!header || !response.body) return response;
  // Applied in the order listed: undone in the reverse.
  const codings = header.split(",").map((c) => c.trim().toLowerCase()).filter((c) => c && c !== "identity");
  if (codings.length === 0 || !codings.every((c) => Object.hasOwn(FORMATS, c))) return response;
  let body: ReadableStream<Uint8Array> = response.body;
  for (const coding of codings.reverse()) body = body.pipeThrough(decoder(FORMATS[coding]!));
  const headers = new Headers(response.headers);
  headers.delete("content-encoding");
  headers.delete("content-length");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** A stream that undoes one coding; the types know only the web's names, and bytes as BufferSource. */
function decoder(format: "gzip" | "deflate" | "brotli" | "zstd"): ReadableWritablePair<Uint8Array, Uint8Array> {
  return new DecompressionStream(format as "gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
}
