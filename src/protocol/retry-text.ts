// How a `retry` event reads to a person: the same words on stderr (-p) and in the TUI's status bar.
// Rule: it says what failed, how long zot waits and which try this is, so a long retry-after is
// never mistaken for a hang.
import type { EventOf } from "./events.ts";

/** `anthropic: HTTP 429: rate limited; retrying in 30 s (retry 1 of 2)` */
export function retryText(event: EventOf<"retry">): string {
  return `${event.message.replace(/\.$/, "")}; retrying in ${waitText(event.wait_ms)} (retry ${event.attempt} of ${event.max_attempts})`;
}

/** The short form for a status line: `retrying in 30 s (HTTP 429)`; `leftMs` counts it down (whole seconds, rounded up). */
export function retryLabel(event: EventOf<"retry">, leftMs?: number): string {
  const wait = leftMs === undefined ? waitText(event.wait_ms) : `${Math.max(0, Math.ceil(leftMs / 1000))} s`;
  return `retrying in ${wait}${event.status !== undefined ? ` (HTTP ${event.status})` : ""}`;
}

function waitText(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  // 1.5 s is said as such, not as "2 s"; whole seconds from 10 s on.
  return ms < 10_000 ? `${Number((ms / 1000).toFixed(1))} s` : `${Math.round(ms / 1000)} s`;
}
