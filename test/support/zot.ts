// Runs the compiled binary as a user would: a temp ZOT_HOME, no inherited API keys, real stdio.
// Rule: end-to-end tests go through dist/zot, never through src/; every directory tempDir makes is
// removed once the test file that made it is over (test/support/temp-cleanup.ts, the preload).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { registerTempDir } from "./temp-dirs.ts";

export const ROOT = join(import.meta.dir, "..", "..");
export const ZOT = join(ROOT, "dist", "zot");

/** A fresh directory under the system's temp directory, removed after the test file that made it. */
export function tempDir(prefix = "zot-test-"): string {
  return registerTempDir(mkdtempSync(join(tmpdir(), prefix)));
}

/** The environment of a user with nothing configured: no keys, a fresh ZOT_HOME. */
export function cleanEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (/^(ANTHROPIC|OPENAI)_/.test(key) || key === "BUN_BE_BUN") continue;
    env[key] = value;
  }
  return { ...env, ZOT_HOME: home, NO_COLOR: "1", ...extra };
}

export interface ZotRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface ZotOptions {
  home?: string;
  cwd?: string;
  env?: Record<string, string>;
  stdin?: string | Uint8Array;
  /** killed (SIGKILL) past this: a run that would hang or read forever ends the test, not the machine */
  timeoutMs?: number;
}

export async function zot(args: string[], options: ZotOptions = {}): Promise<ZotRun> {
  const home = options.home ?? tempDir("zot-home-");
  const proc = Bun.spawn([ZOT, ...args], {
    cwd: options.cwd ?? tempDir("zot-cwd-"),
    env: cleanEnv(home, options.env),
    stdin: options.stdin !== undefined ? new Blob([options.stdin]) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs, killSignal: "SIGKILL" as const } : {}),
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/** Parses NDJSON output into objects, failing loudly on a line that is not JSON. */
export function ndjson(text: string): any[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
}
