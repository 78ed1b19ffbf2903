// What the status bar says runs, with the spinner and the time since it started: zot starting up,
// or what the conversation runs: a turn ("working", "compacting" while it compacts, a provider's
// retry while one is waited out, counted down), or an operation by its own label ("running git status").
// Rule: it follows the conversation (its queue changes and its events); the app never sets it for
// work of its own, so the bar can never say something runs that does not.
import { noFTL } from "bun:jsc";
import { COMPACTION_UNIT } from "../../conversation/conversation.ts";
import type { AgentEvent, EventOf } from "../../protocol/events.ts";
import { retryLabel } from "../../protocol/retry-text.ts";
import type { Spinner } from "../../tui/spinner.ts";

interface Activity {
  label: string;
  /** a provider's retry being waited out, counted down ("retrying in 30 s (HTTP 429)") instead of the label until the next event */
  retry?: { event: EventOf<"retry">; at: number };
  since: number;
}

export class AppActivity {
  private current: Activity | undefined;

  constructor(
    private readonly spinner: Spinner,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** What the status bar shows, or undefined when nothing runs. */
  get shown(): { label: string; since: number } | undefined {
    const current = this.current;
    if (!current) return undefined;
    const retry = current.retry;
    const label = retry ? retryLabel(retry.event, retry.event.wait_ms - (this.now() - retry.at)) : current.label;
    return { label, since: current.since };
  }

  /** zot is starting up (before the conversation exists), or no longer. */
  starting(on: boolean): void {
    this.set(on ? "starting" : undefined);
  }

  /** What the conversation runs now changed: a new activity starts, or none runs. */
  follow(running: { kind: "turn" | "operation"; label: string } | undefined): void {
    if (!running) this.set(undefined);
    else if (!this.current) this.set(running.kind === "turn" ? (running.label === COMPACTION_UNIT ? "compacting" : "working") : running.label);
  }

  /** An event of what runs: a compaction inside a turn, a retry being waited out. */
  event(event: AgentEvent): void {
    const current = this.current;
    if (!current) return;
    if (event.type === "compact_start" || event.type === "compact_done") current.label = event.type === "compact_start" ? "compacting" : "working";
    current.retry = event.type === "retry" ? { event, at: this.now() } : undefined;
  }

  private set(label: string | undefined): void {
    if (label === undefined) {
      if (this.current) this.spinner.stop();
      this.current = undefined;
      return;
    }
    this.current = { label, since: this.now() };
    this.spinner.start();
  }
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(AppActivity.prototype.event);
