// The status bar drawn from snapshots, and the frame that keeps the editor on screen.
import { describe, expect, test } from "bun:test";
import { AppActivity } from "../../src/modes/interactive/app-activity.ts";
import { AppFrame } from "../../src/modes/interactive/app-frame.ts";
import { formatElapsed, formatTokens, StatusBar, type StatusSnapshot, tildePath } from "../../src/modes/interactive/status-bar.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import { CURSOR_MARKER } from "../../src/tui/component.ts";
import { Renderer } from "../../src/tui/renderer.ts";
import { Spinner } from "../../src/tui/spinner.ts";
import { Text } from "../../src/tui/text.ts";
import { createTheme } from "../../src/tui/theme.ts";

const usage = { input: 12_400, output: 2_700, cache_read: 900, cache_write: 35_000, cost_usd: 0.0421, reasoning: null };

function bar(snapshot: Partial<StatusSnapshot>, color = false, width = 120): string[] {
  const spinner = new Spinner(() => {}, { animate: false });
  const full: StatusSnapshot = { cwd: "/home/ann/project", home: "/home/ann", tags: [], ...snapshot };
  return new StatusBar(createTheme({ color }), spinner, () => full, () => 65_000).render(width);
}

describe("the status bar", () => {
  test("provider and model, ↑input ↓output, cache read/write, cost, context use; then tags and the cwd with ~", () => {
    const [first, second] = bar({ provider: "anthropic", model: "claude-x", usage, context: { tokens: 50_000, window: 200_000, fraction: 0.25 }, tags: ["jailed", "confirmations on"] });
    expect(first).toBe("  (anthropic) claude-x ↑12k ↓2.7k R900 W35k $0.0421 25.0%/200k");
    expect(second).toBe("  jailed · confirmations on · ~/project");
  });

  test("the cost as zot sessions list shows it: a call that cost under a tenth of a cent is not $0.000", () => {
    const cost = (cost_usd: number) => bar({ usage: { ...usage, cost_usd } })[0];
    expect(cost(0.0003)).toBe("  ↑12k ↓2.7k R900 W35k $0.0003");
    expect(cost(1.234)).toBe("  ↑12k ↓2.7k R900 W35k $1.23");
    expect(cost(0)).toBe("  ↑12k ↓2.7k R900 W35k");
    // under a hundredth of a cent, and just under a dollar
    expect(cost(0.00004)).toBe("  ↑12k ↓2.7k R900 W35k <$0.0001");
    expect(cost(0.99996)).toBe("  ↑12k ↓2.7k R900 W35k $1.00");
  });

  test("busy: the spinner, what runs and for how long, before the model", () => {
    const [first] = bar({ busy: { label: "working", since: 0 }, provider: "openai", model: "gpt" });
    expect(first).toBe("  ⠋ working · 1m 05s  (openai) gpt");
  });

  test("the context use turns yellow past 70% and red past 90%", () => {
    const context = (fraction: number) => bar({ provider: "p", model: "m", context: { tokens: fraction * 1000, window: 1000, fraction } }, true)[0];
    expect(context(0.5)).toContain("\x1b[90m50.0%/1.0k");
    expect(context(0.75)).toContain("\x1b[33m75.0%/1.0k");
    expect(context(0.95)).toContain("\x1b[31m95.0%/1.0k");
  });

  test("an empty context (a fresh start, after /clear) still shows its share, 0.0%; with no window known, tokens only once there are some", () => {
    expect(bar({ provider: "p", model: "m", context: { tokens: 0, window: 200_000, fraction: 0 } })[0]).toBe("  (p) m 0.0%/200k");
    expect(bar({ provider: "p", model: "m", context: { tokens: 0, window: 0, fraction: 0 } })[0]).toBe("  (p) m");
    expect(bar({ provider: "p", model: "m", context: { tokens: 2_700, window: 0, fraction: 0 } })[0]).toBe("  (p) m 2.7k ctx");
  });

  test("a narrow terminal drops the provider, then the cache counts, then ↑↓, so cost and context stay in view", () => {
    const snapshot = { provider: "anthropic", model: "claude-sonnet-4-5", usage, context: { tokens: 50_000, window: 200_000, fraction: 0.25 } };
    expect(bar(snapshot, false, 61)[0]).toBe("  claude-sonnet-4-5 ↑12k ↓2.7k R900 W35k $0.0421 25.0%/200k");
    expect(bar(snapshot, false, 51)[0]).toBe("  claude-sonnet-4-5 ↑12k ↓2.7k $0.0421 25.0%/200k");
    expect(bar(snapshot, false, 41)[0]).toBe("  claude-sonnet-4-5 $0.0421 25.0%/200k");
    // Busy at 41 columns: the spinner on its own line, the stats kept whole on the next.
    const busy = bar({ ...snapshot, busy: { label: "working", since: 0 } }, false, 41);
    expect(busy.slice(0, 2)).toEqual(["  ⠋ working · 1m 05s", "  claude-sonnet-4-5 $0.0421 25.0%/200k"]);
  });

  test("a long model id (a dated snapshot, a proxy's vendor/model) is shortened, then left out, before cost and context use are cut", () => {
    const snapshot = { provider: "anthropic", model: "claude-sonnet-4-5-20250929", usage: { ...usage, cost_usd: 0.081 }, context: { tokens: 1_800, window: 200_000, fraction: 0.009 } };
    expect(bar(snapshot, false, 46)[0]).toBe("  claude-sonnet-4-5-20250929 $0.0810 0.9%/200k");
    expect(bar(snapshot, false, 36)[0]).toBe("  claude-sonnet-4… $0.0810 0.9%/200k");
    expect(bar(snapshot, false, 26)[0]).toBe("  claud… $0.0810 0.9%/200k");
    expect(bar(snapshot, false, 22)[0]).toBe("  $0.0810 0.9%/200k");
    // With nothing to keep in view, the id alone is shortened to the width.
    expect(bar({ provider: "p", model: "vendor/a-very-long-model-name" }, false, 20)[0]).toBe("  vendor/a-very-lon…");
  });

  test("numbers as people read them", () => {
    expect([999, 2_700, 35_400, 1_100_000, 12_000_000].map(formatTokens)).toEqual(["999", "2.7k", "35k", "1.1M", "12M"]);
    // What rounds up to the next unit reads in it.
    expect([999.6, 9_949, 9_960, 999_400, 999_600, 9_960_000].map(formatTokens)).toEqual(["1.0k", "9.9k", "10k", "999k", "1.0M", "10M"]);
    expect([4_200, 65_000].map(formatElapsed)).toEqual(["4s", "1m 05s"]);
    expect(tildePath("/home/ann", "/home/ann")).toBe("~");
    expect(tildePath("/home/annex/x", "/home/ann")).toBe("/home/annex/x");
  });
});

describe("the app frame", () => {
  test("a shrink that would take the band off the screen keeps the frame's end (the editor) on screen; a smaller one does not move rows", () => {
    const screen = { columns: 40, rows: 10, out: "", write(data: string) { this.out += data; } };
    const chat = new Text(Array.from({ length: 30 }, (_, i) => `row ${i}`).join("\n"));
    const frame = new AppFrame({ renderWithin: (width) => chat.render(width).slice() }, () => screen.rows);
    const editor = new Text("> editor");
    frame.band.add(editor);
    const renderer = new Renderer(screen, frame);
    renderer.renderNow();
    const rendered = () => frame.render(40);
    expect(rendered().at(-1)).toBe("> editor");
    expect(rendered()).toHaveLength(31);
    // A popup-sized shrink: nothing is padded, rows keep their places.
    chat.setText(Array.from({ length: 27 }, (_, i) => `row ${i}`).join("\n"));
    expect(rendered()).toHaveLength(28);
    // /clear: the transcript gone; the frame keeps its length, so the editor is on the last row.
    chat.setText("");
    const rows = rendered();
    expect(rows).toHaveLength(31);
    expect(rows.at(-1)).toBe("> editor");
    expect(rows.slice(0, -1).every((row) => row === "")).toBe(true);
    // After the screen was cleared (Ctrl+L) the padding goes.
    frame.reset();
    expect(rendered()).toEqual(["> editor"]);
  });

  test("a popup taller than half the screen closing: no blank rows on top, so no row in the scrollback comes back on screen", () => {
    const frame = new AppFrame({ renderWithin: () => Array.from({ length: 30 }, (_, i) => `row ${i}`) }, () => 10);
    const popup = new Text(Array.from({ length: 7 }, (_, i) => `item ${i}`).join("\n"));
    frame.band.add(new Text("> /")).add(popup);
    const open = frame.render(40);
    popup.setText("");
    const closed = frame.render(40);
    expect(closed).toEqual(open.slice(0, 31));
  });

  test("after a popup closed, the chat is told how many of its rows the screen shows (the blank rows under the frame take the rest)", () => {
    const shown: number[] = [];
    const frame = new AppFrame({ renderWithin: () => Array.from({ length: 30 }, (_, i) => `row ${i}`), shownRows: (rows) => shown.push(rows) }, () => 10);
    const popup = new Text(Array.from({ length: 4 }, (_, i) => `item ${i}`).join("\n"));
    frame.band.add(new Text("> /")).add(popup);
    frame.render(40);
    expect(shown.at(-1)).toBe(10 - 5);
    popup.setText("");
    frame.render(40);
    // the band is one row now, and the four rows the popup had are blank under it: 10 - 1 - 4 rows of the chat show
    expect(shown.at(-1)).toBe(5);
  });

  test("Ctrl+Z: the band is left out while zot is stopped; continued, the frame starts at the chat's first row that can still change, and Ctrl+L gives the whole frame back", () => {
    let final = 6;
    const shown: number[] = [];
    let chatRows = Array.from({ length: 8 }, (_, i) => `row ${i}`);
    const frame = new AppFrame({ renderWithin: () => chatRows.slice(), finalRows: () => final, shownRows: (rows) => shown.push(rows) }, () => 10);
    frame.band.add(new Text("status")).add(new Text("> editor"));
    expect(frame.render(40)).toEqual([...chatRows, "status", "> editor"]);
    frame.hideBand(true);
    expect(frame.render(40)).toEqual(chatRows);
    frame.hideBand(false);
    frame.continueBelow();
    // rows 6 and 7 still change (an answer streaming): drawn again under the shell's lines, with the band
    expect(frame.render(40)).toEqual(["row 6", "row 7", "status", "> editor"]);
    // the chat's rows above the first row painted since the stop are not on screen (Ctrl+O leaves them)
    expect(shown.at(-1)).toBe(2);
    chatRows = [...chatRows, "row 8"];
    final = 9;
    expect(frame.render(40)).toEqual(["row 6", "row 7", "row 8", "status", "> editor"]);
    // a second stop with nothing changing: only the band is drawn again
    frame.continueBelow();
    expect(frame.render(40)).toEqual(["status", "> editor"]);
    // /clear: the chat shrank above the first row painted since the stop; the band stays in the frame
    chatRows = ["new"];
    final = 1;
    expect(frame.render(40).slice(-2)).toEqual(["status", "> editor"]);
    frame.reset();
    expect(frame.render(40)).toEqual(["new", "status", "> editor"]);
  });

  test("a band taller than the screen: the chat keeps a row, the band drops its blank rows, then rows above the editor's cursor", () => {
    const frame = new AppFrame({ renderWithin: (_width, room) => (room >= 1 ? ["answer"] : []) }, () => 5);
    frame.band.add(new Text(" ")).add(new Text("status 1\nstatus 2")).add(new Text("cwd")).add(new Text(`> ${CURSOR_MARKER}`));
    expect(frame.render(40)).toEqual(["answer", "status 1", "status 2", "cwd", `> ${CURSOR_MARKER}`]);
    const short = new AppFrame({ renderWithin: (_width, room) => Array.from({ length: room }, () => "chat") }, () => 4);
    short.band.add(new Text(" ")).add(new Text("status")).add(new Text(`> ${CURSOR_MARKER}`)).add(new Text("item 1\nitem 2\nitem 3"));
    expect(short.render(40)).toEqual(["chat", `> ${CURSOR_MARKER}`, "item 1", "item 2"]);
  });
});

describe("what the status bar says runs", () => {
  test("a retry waited out is counted down in whole seconds, and goes at the next event", () => {
    let now = 1_000;
    const activity = new AppActivity(new Spinner(() => {}, { animate: false }), () => now);
    activity.follow({ kind: "turn", label: "prompt" });
    expect(activity.shown?.label).toBe("working");
    activity.event({ type: "retry", attempt: 1, max_attempts: 2, wait_ms: 3_000, status: 429, message: "anthropic: HTTP 429" });
    expect(activity.shown?.label).toBe("retrying in 3 s (HTTP 429)");
    now += 1_200;
    expect(activity.shown?.label).toBe("retrying in 2 s (HTTP 429)");
    now += 1_500;
    expect(activity.shown?.label).toBe("retrying in 1 s (HTTP 429)");
    activity.event({ type: "assistant_start" } as AgentEvent);
    expect(activity.shown?.label).toBe("working");
  });
});
