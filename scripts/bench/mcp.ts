// `scripts/bench mcp` (issue 16): what MCP servers cost a run of dist/zot. The first request's size
// with every tool schema sent against the same tools deferred behind tool_search (the reference
// filesystem + everything servers, and a server of 100 and of 500 API-shaped tools), and a -p
// one-shot's time with the two reference servers configured against none. Rule: numbers are
// printed, never asserted; a run whose output is wrong throws.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockLlm } from "../../test/support/mock-llm.ts";

const ROOT = join(import.meta.dir, "..", "..");
const ZOT = join(ROOT, "dist", "zot");
const modules = join(ROOT, "node_modules", "@modelcontextprotocol");
const EVERYTHING = join(modules, "server-everything", "dist", "index.js");
const FILESYSTEM = join(modules, "server-filesystem", "dist", "index.js");
const MANY = join(import.meta.dir, "mcp-many-tools.mjs");

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A ZOT_HOME whose user-scope mcp.json holds `servers` (no trust needed), and a clean HOME. */
function homeWith(servers: Record<string, unknown>): { base: string; home: string; cwd: string; userHome: string } {
  const base = mkdtempSync(join(tmpdir(), "zot-bench-mcp-"));
  const dirs = { base, home: join(base, "home"), cwd: join(base, "cwd"), userHome: join(base, "user") };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  writeFileSync(join(dirs.home, "mcp.json"), JSON.stringify({ mcpServers: servers }));
  return dirs;
}

async function run(servers: Record<string, unknown>, extraEnv: Record<string, string>): Promise<{ ms: number; requestBytes: number; toolsBytes: number; tools: number }> {
  const { base, home, cwd, userHome } = homeWith(servers);
  const mock = startMockLlm([{ text: "ok" }]);
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: userHome, ZOT_HOME: home, ...extraEnv };
  const started = performance.now();
  const proc = Bun.spawn([ZOT, "-p", "hi", "--provider", "anthropic", "--api-key", "k", "--base-url", mock.url], { cwd, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const ms = performance.now() - started;
  await mock.stop();
  rmSync(base, { recursive: true, force: true });
  if (code !== 0 || stdout !== "ok\n") throw new Error(`zot -p failed (exit ${code}): ${stderr}`);
  const body = mock.requests[0]!.body;
  return { ms, requestBytes: Buffer.byteLength(JSON.stringify(body)), toolsBytes: Buffer.byteLength(JSON.stringify(body.tools ?? [])), tools: (body.tools ?? []).length };
}

export async function mcpBench(): Promise<void> {
  const reference = { fs: { command: "node", args: [FILESYSTEM, tmpdir()] }, everything: { command: "node", args: [EVERYTHING, "stdio"] } };
  const cases: [string, Record<string, unknown>][] = [
    ["filesystem + everything", reference],
    ["100 API-shaped tools", { many: { command: "node", args: [MANY, "100"] } }],
    ["500 API-shaped tools", { many: { command: "node", args: [MANY, "500"] } }],
  ];
  const none = await run({}, {});
  console.log(`mcp request size, no MCP server: ${none.requestBytes} bytes (${none.tools} tools, ${none.toolsBytes} bytes of them)`);
  for (const [label, servers] of cases) {
    const direct = await run(servers, { ENABLE_TOOL_SEARCH: "false" });
    const deferred = await run(servers, { ENABLE_TOOL_SEARCH: "true" });
    const auto = await run(servers, {});
    console.log(
      `mcp request size, ${label}: every schema ${direct.requestBytes} bytes (${direct.tools} tools) · deferred behind tool_search ${deferred.requestBytes} bytes (${deferred.tools} tools), ${(100 - (100 * deferred.requestBytes) / direct.requestBytes).toFixed(0)} % less · default (auto, 10 % of a 200k window) sends ${auto.tools} tools, ${auto.requestBytes} bytes`,
    );
  }
  // A server that starts as fast as node can (no dependencies) shows zot's own share: the SDK's
  // import, the spawn, the handshake and the stop.
  const tiny = { tiny: { command: "node", args: [MANY, "10"] } };
  const times = { none: [] as number[], tiny: [] as number[], reference: [] as number[], bare: [] as number[] };
  for (let i = 0; i < 12; i++) {
    times.none.push((await run({}, {})).ms);
    times.tiny.push((await run(tiny, {})).ms);
    times.reference.push((await run(reference, { ENABLE_TOOL_SEARCH: "false" })).ms);
    const started = performance.now();
    await Bun.spawn(["node", MANY, "10"], { stdin: "ignore", stdout: "ignore" }).exited;
    times.bare.push(performance.now() - started);
  }
  const m = (xs: number[]) => `${median(xs.slice(2)).toFixed(1)} ms`;
  console.log(
    `mcp zot -p one answer: no server ${m(times.none)} · one dependency-free node server ${m(times.tiny)} (node alone starts and exits in ${m(times.bare)}) · filesystem + everything over stdio ${m(times.reference)} (medians of 10, interleaved)`,
  );
}
