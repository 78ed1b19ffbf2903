// `scripts/bench claude-json`: what Claude Code's ~/.claude.json costs a `zot -p` start. Claude Code
// keeps every folder's history in that file; zot reads it for its MCP servers and keeps what it
// read in $ZOT_HOME/cache (src/mcp/claude-config-view.ts). Prints the median one-shot with a
// ~5 MB file (the first run reads it whole, the others the kept view), with the cache removed
// before every run (the file parsed each time), and with no file. Rule: printed, never asserted.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ZOT = join(import.meta.dir, "..", "..", "dist", "zot");
const RUNS = 30;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function claudeJsonBench(): Promise<void> {
  const base = mkdtempSync(join(tmpdir(), "zot-bench-claude-json-"));
  try {
    const cwd = join(base, "cwd");
    const withFile = join(base, "user");
    const without = join(base, "user-without");
    for (const dir of [cwd, withFile, without]) mkdirSync(dir, { recursive: true });
    // 400 folders with 50 history entries each, none with servers: a long-used Claude Code's file.
    const projects: Record<string, unknown> = {};
    for (let i = 0; i < 400; i++) projects[`/home/u/project-${i}`] = { history: Array.from({ length: 50 }, () => ({ display: "x".repeat(200), pastedContents: {} })), mcpServers: {} };
    const text = JSON.stringify({ numStartups: 100, projects, mcpServers: {} });
    writeFileSync(join(withFile, ".claude.json"), text);
    const script = join(base, "script.json");
    writeFileSync(script, JSON.stringify([{ text: "ok" }]));

    const cases = [
      { label: `a ${(text.length / 1e6).toFixed(1)} MB ~/.claude.json, kept view`, userHome: withFile, home: join(base, "home-kept"), dropCache: false },
      { label: `the same file, parsed every run`, userHome: withFile, home: join(base, "home-parsed"), dropCache: true },
      { label: "no ~/.claude.json", userHome: without, home: join(base, "home-none"), dropCache: false },
    ];
    const times = new Map(cases.map((c) => [c.label, [] as number[]]));
    for (let i = 0; i < RUNS + 1; i++) {
      for (const c of cases) {
        if (c.dropCache) rmSync(join(c.home, "cache"), { recursive: true, force: true });
        const started = performance.now();
        const proc = Bun.spawn([ZOT, "-p", "hi", "--provider", "scripted", "--script", script], {
          cwd,
          env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: c.userHome, ZOT_HOME: c.home },
          stdout: "pipe",
          stderr: "pipe",
        });
        const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
        if (code !== 0 || out !== "ok\n") throw new Error(`zot -p failed (${code}): ${await new Response(proc.stderr).text()}`);
        if (i > 0) times.get(c.label)!.push(performance.now() - started);
      }
    }
    console.log(`claude-json: zot -p on the scripted provider, medians of ${RUNS} interleaved runs`);
    for (const c of cases) console.log(`  ${c.label.padEnd(44)} ${median(times.get(c.label)!).toFixed(1)} ms`);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
