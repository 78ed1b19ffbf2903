// A command that floods its output in the TUI (`yes`): the compiled zot in a pseudo-terminal, the
// scripted provider asking for bash `yes`. Prints the peak RSS while it runs, how many bytes the app
// draws a second (a frozen app draws none), and how long Esc takes to cancel the turn. Before the
// bounded tool box and the yielding pump, RSS grew by hundreds of MB a second and Esc did nothing.
// Rule: printed, never asserted.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PtySession } from "../../test/support/pty.ts";

const RUN_MS = 8_000;

function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return kb ? Number(kb) / 1024 : 0;
}

export async function tuiFloodBench(zot: string, env: Record<string, string>, dir: string): Promise<void> {
  const script = join(dir, "flood.json");
  writeFileSync(script, JSON.stringify([{ tool_calls: [{ name: "bash", args: { command: "yes" } }] }, { text: "never" }]));
  const session = new PtySession([zot, "--no-session", "--provider", "scripted", "--script", script], { cols: 100, rows: 30, env: { ...env, TERM: "xterm-256color" }, cwd: dir });
  try {
    await session.waitForText("ask anything");
    session.type("flood\r");
    await session.waitForText("$ yes");
    const started = performance.now();
    const firstBytes = session.bytes;
    let peak = 0;
    while (performance.now() - started < RUN_MS) {
      peak = Math.max(peak, rssMb(session.proc.pid));
      await Bun.sleep(250);
    }
    const drawnPerSecond = ((session.bytes - firstBytes) / (performance.now() - started)) * 1000;
    const escAt = performance.now();
    session.type("\x1b");
    let cancelMs: number | undefined;
    try {
      await session.waitForText("turn cancelled", 20_000);
      cancelMs = performance.now() - escAt;
    } catch {}
    console.log(`tui-flood: bash \`yes\` for ${RUN_MS / 1000} s in the TUI`);
    console.log(`  peak RSS ${peak.toFixed(1)} MB · drawn ${(drawnPerSecond / 1024).toFixed(1)} KB/s · Esc cancels the turn in ${cancelMs === undefined ? "never (20 s)" : `${cancelMs.toFixed(0)} ms`}`);
  } finally {
    session.close();
  }
}
