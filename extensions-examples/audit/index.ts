// audit: appends one JSON line per agent event to <data_dir>/audit.jsonl, and `/audit [n]` shows
// the last n lines (default 10). Written with the zot SDK; zot runs this file itself, nothing to
// install. data_dir comes from zot (hello_ack) and survives reinstalls of the extension.
// Lines are written synchronously, one event at a time in the order zot sent them, so the file
// stays in order and complete even when zot shuts the extension down right after an event.
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { display, type EventName, extension } from "@zot/sdk";

const ext = extension({ name: "audit", version: "1.0.0" });

function auditFile(): string {
  // zot sends hello_ack before any event; the fallback is the extension's own directory (its cwd).
  const dir = ext.host?.data_dir || process.cwd();
  mkdirSync(dir, { recursive: true });
  return path.join(dir, "audit.jsonl");
}

// The story of each turn; the SDK's EVENTS lists every event there is, for a fuller audit.
const AUDITED: EventName[] = ["session_start", "turn_start", "tool_call", "assistant_message", "turn_end"];

for (const name of AUDITED) {
  ext.on(name, (event) => {
    appendFileSync(auditFile(), `${JSON.stringify({ time: new Date().toISOString(), ...event })}\n`);
  });
}

ext.command("audit", "show the last audit lines: /audit [n]", (args) => {
  const count = args === "" ? 10 : Number.parseInt(args, 10);
  if (!Number.isInteger(count) || count < 1) return display("usage: /audit [n], n a positive number");
  let lines: string[];
  try {
    lines = readFileSync(auditFile(), "utf8").split("\n").filter((line) => line !== "");
  } catch {
    lines = [];
  }
  if (lines.length === 0) return display(`no events recorded yet (${auditFile()})`);
  return display([`last ${Math.min(count, lines.length)} of ${lines.length} events in ${auditFile()}:`, ...lines.slice(-count)].join("\n"));
});

await ext.run();
