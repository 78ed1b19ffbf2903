// Random names and SHA-256 without node:crypto: the digests are node:crypto's exactly (a session
// directory is named by its cwd's digest, so a changed digest would lose every earlier session),
// and the random names have the length and alphabet they promise.
import { expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { randomHex, sha256Hex } from "../../src/protocol/random-hex.ts";
import { sessionDir } from "../../src/session/paths.ts";

test("sha256Hex is node:crypto's SHA-256 of text (UTF-8) and of bytes", () => {
  for (const text of ["", "/home/ada/project", "/tmp/zot ünïcødé/🌍", "x".repeat(100_000)]) {
    expect(sha256Hex(text)).toBe(createHash("sha256").update(text).digest("hex"));
  }
  const bytes = new Uint8Array([0, 1, 2, 250, 251, 255]);
  expect(sha256Hex(bytes)).toBe(createHash("sha256").update(bytes).digest("hex"));
});

test("a session directory keeps its name: the first 16 hex digits of its cwd's SHA-256", () => {
  const cwd = "/home/ada/project";
  expect(sessionDir("/h", cwd).endsWith(createHash("sha256").update(cwd).digest("hex").slice(0, 16))).toBe(true);
});

test("randomHex gives 2 lowercase hex digits per byte, different each time", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const hex = randomHex(4);
    expect(hex).toMatch(/^[0-9a-f]{8}$/);
    seen.add(hex);
  }
  expect(seen.size).toBeGreaterThan(190);
  expect(randomHex(6)).toHaveLength(12);
});
