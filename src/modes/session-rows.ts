// How a session reads in a listing (zot sessions list and tree, the --resume prompt, the TUI's
// /sessions and /session tree): local time of the last write, model, message count, cost, first
// prompt. Rule: the columns line up, and a row never wraps: the first prompt is cut to what the
// width leaves.
import type { SessionNode, SessionSummary } from "../conversation/conversation.ts";

export interface RowColumns {
  time: string;
  model: string;
  messages: string;
  cost: string;
  prompt: string;
}

/** `2026-11-23 10:15`, in local time. */
export function localTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** `$0.0421`, `$12.30`; a cost under a hundredth of a cent is `<$0.0001`, never `$0.0000`, and one that rounds to a dollar reads as one (`$1.00`). */
export function formatCost(usd: number): string {
  if (usd > 0 && usd < 0.00005) return "<$0.0001";
  return `$${usd.toFixed(Number(usd.toFixed(4)) >= 1 ? 2 : 4)}`;
}

export function rowColumns(s: SessionSummary): RowColumns {
  return {
    time: localTime(s.updated),
    model: s.model,
    messages: `${s.messages} msg${s.messages === 1 ? "" : "s"}`,
    cost: formatCost(s.cost_usd),
    prompt: s.first_prompt ? `"${s.first_prompt}"` : "(no prompt yet)",
  };
}

/**
 * Aligned lines, one per session, each after its `prefix` (a number, an id, tree branches).
 * `width` is the terminal's, when known.
 */
export function formatRows(sessions: readonly SessionSummary[], prefixes: readonly string[], width?: number): string[] {
  const cols = sessions.map(rowColumns);
  // Each column's width measured once (a row measuring them all made thousands of sessions take seconds),
  // without spreading thousands of arguments into Math.max.
  const widest = (texts: readonly string[]) => texts.reduce((most, text) => Math.max(most, Bun.stringWidth(text)), 0);
  const w = { time: widest(cols.map((c) => c.time)), model: widest(cols.map((c) => c.model)), messages: widest(cols.map((c) => c.messages)), cost: widest(cols.map((c) => c.cost)) };
  const prefixWidth = widest(prefixes);
  return cols.map((c, i) => {
    const pad = (text: string, n: number) => text + " ".repeat(Math.max(0, n - Bun.stringWidth(text)));
    const prefix = pad(prefixes[i] ?? "", prefixWidth);
    const head = `${prefix}  ${pad(c.time, w.time)}  ${pad(c.model, w.model)}  ${c.messages.padStart(w.messages)}  ${c.cost.padStart(w.cost)}  `;
    const room = width ? width - Bun.stringWidth(head) : Infinity;
    return head + fit(c.prompt, room);
  });
}

/** A forest of forks (each session under its parent, with branches) as rows, `*` before `marked`. */
export function forestRows(roots: readonly SessionNode[], marked: string | undefined, width?: number): string[] {
  const order: SessionSummary[] = [];
  const prefixes: string[] = [];
  const walk = (nodes: SessionNode[], indent: string, nested: boolean) => {
    nodes.forEach((node, i) => {
      const last = i === nodes.length - 1;
      const branch = nested ? (last ? "└─ " : "├─ ") : "";
      const { session } = node;
      const fork = session.fork_point !== undefined ? ` (fork at turn ${session.fork_point})` : "";
      order.push(session);
      prefixes.push(`${session.id === marked ? "*" : " "} ${indent}${branch}${session.id}${fork}`);
      walk(node.children, nested ? indent + (last ? "   " : "│  ") : indent, true);
    });
  };
  walk([...roots], "", false);
  return formatRows(order, prefixes, width);
}

function fit(text: string, room: number): string {
  if (Bun.stringWidth(text) <= room) return text;
  if (room <= 1) return "";
  let out = "";
  for (const ch of text) {
    if (Bun.stringWidth(`${out}${ch}…`) > room) break;
    out += ch;
  }
  return `${out}…`;
}
