// Profile-guided bytecode layout for the zot binary (`bun build --bytecode-order`): runs a freshly
// built binary the ways users start it, each run writing which functions it loaded
// (BUN_BYTECODE_ORDER_OUT), so the next build places that bytecode together at the front and a
// start reads and decodes less of the binary (a one-shot run: ~2 MB less peak RSS, scripts/bench
// floor). Rule: the profile holds hashes of functions, never source, and is recorded by every
// build from the code being built, so it is never stale; the most common start goes first.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import "../test/support/mock-llm.ts";
import { anthropicResponse } from "../test/support/mock-llm/anthropic.ts";
import type { RecordedRequest } from "../test/support/mock-llm.ts";

/**
 * Runs `zot` (built for this machine) in each recorded start and hands `use` the profile files,
 * most common first; everything the recording made is removed once `use` is done.
 */
export async function withBytecodeOrder(zot: string, use: (files: string[]) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "zot-bytecode-order-"));
  const home = mkdtempSync(join(tmpdir(), "zot-bytecode-order-home-"));
  const cwd = mkdtempSync(join(tmpdir(), "zot-bytecode-order-cwd-"));
  // A local Anthropic Messages endpoint: the starts below take the SDK path a user's run takes.
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const text = await req.text();
      const recorded: RecordedRequest = { method: req.method, path: "/v1/messages", headers: Object.fromEntries(req.headers), body: text ? JSON.parse(text) : undefined };
      return anthropicResponse({ text: "Recorded." }, recorded);
    },
  });
  const anthropic = ["--provider", "anthropic", "--api-key", "k", "--base-url", `http://127.0.0.1:${server.port}`];
  const starts: { name: string; args: string[] }[] = [
    { name: "oneshot", args: ["-p", "hello", ...anthropic] },
    { name: "json", args: ["--json", "hello", ...anthropic] },
    { name: "demo", args: ["-p", "hello"] },
    { name: "help", args: ["--help"] },
  ];
  try {
    const files: string[] = [];
    for (const start of starts) {
      const file = join(dir, `${start.name}.order`);
      const proc = Bun.spawn([zot, ...start.args], {
        cwd,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ZOT_HOME: home, BUN_BYTECODE_ORDER_OUT: file },
        stdin: "ignore",
        stdout: "ignore",
        stderr: "pipe",
      });
      const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
      if (code !== 0) throw new Error(`recording the bytecode order of \`zot ${start.args.join(" ")}\` failed (exit ${code}): ${stderr.slice(0, 400)}`);
      if (!(await Bun.file(file).exists())) throw new Error(`\`zot ${start.args.join(" ")}\` wrote no bytecode order to ${file}`);
      files.push(file);
    }
    await server.stop(true);
    await use(files);
  } finally {
    await server.stop(true);
    for (const made of [dir, home, cwd]) rmSync(made, { recursive: true, force: true });
  }
}
