// The MCP servers tests start: the reference "everything" and "filesystem" servers from the npm
// registry (devDependencies, run with node) and test/fixtures/mcp/misbehaving-server.mjs. Rule: a
// test starts its own servers (an HTTP one on a free loopback port) and stops them by pid.
import { join } from "node:path";
import { ROOT } from "./zot.ts";

const modules = join(ROOT, "node_modules", "@modelcontextprotocol");
export const EVERYTHING = join(modules, "server-everything", "dist", "index.js");
export const FILESYSTEM = join(modules, "server-filesystem", "dist", "index.js");
export const MISBEHAVING = join(ROOT, "test", "fixtures", "mcp", "misbehaving-server.mjs");

/** `.mcp.json`-style entries */
export const everythingStdio = () => ({ command: "node", args: [EVERYTHING, "stdio"] });
export const filesystemStdio = (dir: string) => ({ command: "node", args: [FILESYSTEM, dir] });
export const misbehaving = (...flags: string[]) => ({ command: "node", args: [MISBEHAVING, ...flags] });

/** A port nothing listens on right now. */
function freePort(): number {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

/** The everything server over HTTP ("streamableHttp" at /mcp, or "sse" at /sse), once it listens (on `port`, or a free one). */
export async function startEverythingHttp(mode: "streamableHttp" | "sse", port = freePort()): Promise<{ url: string; port: number; stop: () => void }> {
  const proc = Bun.spawn(["node", EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdout: "ignore", stderr: "pipe" });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      await fetch(`${base}/`, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline || proc.exitCode !== null) {
        proc.kill();
        throw new Error(`the everything server (${mode}) did not listen on ${port}: ${await new Response(proc.stderr).text()}`);
      }
      await Bun.sleep(50);
    }
  }
  return { url: `${base}${mode === "sse" ? "/sse" : "/mcp"}`, port, stop: () => proc.kill("SIGKILL") };
}
