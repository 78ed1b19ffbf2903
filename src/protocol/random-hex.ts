// Random hex names (session ids, temp files) and SHA-256 digests through the runtime's Web Crypto
// and Bun's native one-shot hash. Rule: nothing on zot's start path imports node:crypto, whose
// module costs about 2 ms and 5 MB of a one-shot run (scripts/bench floor); these cost about 0.1 ms
// (and Bun.SHA256.hash about 0.5 MB less than a Bun.CryptoHasher).

/** `bytes` random bytes as lowercase hex (2 digits each). */
export function randomHex(bytes: number): string {
  let hex = "";
  for (const byte of crypto.getRandomValues(new Uint8Array(bytes))) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** The SHA-256 digest of text (as UTF-8) or bytes, as lowercase hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return Bun.SHA256.hash(data, "hex") as string;
}
