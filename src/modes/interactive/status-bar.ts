// The two lines above the editor: what zot is doing (spinner and elapsed time while busy), the
// provider and model, tokens (↑input ↓output, cache read/write), cost, and how full the context
// window is (yellow past 70%, red past 90%); then the tags in force (jailed, confirmations on) and
// the working directory with ~ for home. Rule: everything is read when drawn, from the snapshot the
// app hands over, so the bar can never show a stale model or total.
import type { ContextUse } from "../../conversation/conversation.ts";
import type { Usage } from "../../protocol/usage.ts";
import type { Component } from "../../tui/component.ts";
import type { Spinner } from "../../tui/spinner.ts";
import type { Theme } from "../../tui/theme.ts";
import { truncateToWidth, visibleWidth } from "../../tui/width.ts";
import { printable } from "../../protocol/printable.ts";
import { formatCost } from "../session-rows.ts";

export interface StatusSnapshot {
  /** set while a turn, a compaction or the start-up runs */
  busy?: { label: string; since: number };
  provider?: string;
  model?: string;
  usage?: Usage;
  context?: ContextUse;
  cwd: string;
  home: string;
  tags: string[];
}

/** A model id cut shorter than this ("cla…") says nothing; it is left out instead. */
const MIN_MODEL_COLUMNS = 4;

export class StatusBar implements Component {
  constructor(
    private readonly theme: Theme,
    private readonly spinner: Spinner,
    private readonly snapshot: () => StatusSnapshot,
    private readonly now: () => number = () => performance.now(),
  ) {}

  render(width: number): string[] {
    const state = this.snapshot();
    const { muted } = this.theme;
    const busy = state.busy ? `${this.spinner.glyph()} ${state.busy.label} · ${formatElapsed(this.now() - state.busy.since)}` : "";
    const stats = this.statsWithin(state, width - 2);
    const first = [busy, stats].filter(Boolean).join("  ");
    const lines = visibleWidth(first) + 2 <= width || !busy ? [first] : [busy, stats];
    // A folder's name may hold anything (an archive's): no escape of it reaches the terminal.
    const place = [...state.tags, printable(tildePath(state.cwd, state.home))].join(" · ");
    lines.push(muted(place));
    return lines.map((line) => truncateToWidth(`  ${line}`, width));
  }

  /**
   * Model, tokens, cost and context in the columns there are. A narrow terminal loses the least
   * useful parts first (the provider, then the cache counts, then the input/output counts, then the
   * end of the model id, then the model id), so cost and context use stay readable at 40 columns
   * however long the id (a dated snapshot, a proxy's vendor/model); only then is the line cut.
   */
  private statsWithin(state: StatusSnapshot, columns: number): string {
    const { muted } = this.theme;
    const context = this.contextText(state.context);
    const variants = [
      { provider: true, cache: true, io: true },
      { provider: false, cache: true, io: true },
      { provider: false, cache: false, io: true },
      { provider: false, cache: false, io: false },
    ].map(({ provider, cache, io }) => {
      const model = state.model ? muted(provider ? `(${state.provider}) ${state.model}` : state.model) : "";
      return [model, this.usageText(state.usage, { cache, io }), context].filter(Boolean).join(" ");
    });
    const fits = variants.find((line) => visibleWidth(line) <= columns);
    if (fits !== undefined) return fits;
    const figures = [this.usageText(state.usage, { cache: false, io: false }), context].filter(Boolean).join(" ");
    const room = columns - visibleWidth(figures) - (figures ? 1 : 0);
    if (!state.model || room < MIN_MODEL_COLUMNS) return figures || (state.model ? muted(state.model) : "");
    return [muted(truncateToWidth(state.model, room)), figures].filter(Boolean).join(" ");
  }

  private usageText(usage: Usage | undefined, show = { cache: true, io: true }): string {
    if (!usage) return "";
    const parts = [
      show.io && usage.input > 0 && `↑${formatTokens(usage.input)}`,
      show.io && usage.output > 0 && `↓${formatTokens(usage.output)}`,
      show.cache && usage.cache_read > 0 && `R${formatTokens(usage.cache_read)}`,
      show.cache && usage.cache_write > 0 && `W${formatTokens(usage.cache_write)}`,
      // As zot sessions list shows it: a cost under a tenth of a cent still reads as money spent.
      usage.cost_usd > 0 && formatCost(usage.cost_usd),
    ].filter((part): part is string => typeof part === "string");
    return parts.join(" ");
  }

  private contextText(context: ContextUse | undefined): string {
    // An empty conversation (a fresh start, after /clear) shows 0.0%: the figure never vanishes.
    if (!context) return "";
    if (context.window <= 0) return context.tokens > 0 ? this.theme.muted(`${formatTokens(context.tokens)} ctx`) : "";
    const text = `${(context.fraction * 100).toFixed(1)}%/${formatTokens(context.window)}`;
    if (context.fraction > 0.9) return this.theme.error(text);
    if (context.fraction > 0.7) return this.theme.warning(text);
    return this.theme.muted(text);
  }
}

/**
 * 999 → "999", 2_700 → "2.7k", 35_400 → "35k", 1_100_000 → "1.1M", 12_000_000 → "12M". A number
 * that rounds up to the next unit reads in it: 9_960 → "10k", 999_600 → "1.0M", not "10.0k", "1000k".
 */
export function formatTokens(n: number): string {
  if (Math.round(n) < 1000) return String(Math.round(n));
  const thousands = n / 1000;
  if (Number(thousands.toFixed(1)) < 10) return `${thousands.toFixed(1)}k`;
  if (Math.round(thousands) < 1000) return `${Math.round(thousands)}k`;
  const millions = n / 1_000_000;
  if (Number(millions.toFixed(1)) < 10) return `${millions.toFixed(1)}M`;
  return `${Math.round(millions)}M`;
}

/** 4_200 → "4s", 65_000 → "1m 05s". */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
}

/** The path with the home directory shown as ~. */
export function tildePath(path: string, home: string): string {
  if (home === "" || home === "/") return path;
  if (path === home) return "~";
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}
