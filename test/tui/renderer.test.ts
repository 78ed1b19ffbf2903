import { describe, expect, test } from "bun:test";
import { CURSOR_MARKER } from "../../src/tui/component.ts";
import { Renderer } from "../../src/tui/renderer.ts";
import { Screen } from "../support/pty.ts";

/** A renderer painting `frame` into an emulated terminal, with every write kept. */
function setup(columns: number, rows: number, prompt = "$ zot") {
  const screen = new Screen(columns, rows);
  // What the shell left: a prompt line, the cursor on the next row.
  screen.write(`${prompt}\r\n`);
  const writes: string[] = [];
  const target = {
    columns,
    rows,
    write(data: string) {
      writes.push(data);
      screen.write(data);
    },
  };
  let frame: string[] = [];
  const renderer = new Renderer(target, { render: () => frame });
  return {
    screen,
    writes,
    renderer,
    target,
    async show(lines: string[]) {
      frame = lines;
      renderer.renderNow();
      await screen.settled();
    },
    /** What the frames since `from` wrote, joined. */
    since: (from: number) => writes.slice(from).join(""),
    /** The next frame, painted by the next resize (a resize that lands on a paint where the frame grew). */
    next(lines: string[]) {
      frame = lines;
    },
    async resize(cols: number, height: number) {
      target.columns = cols;
      target.rows = height;
      screen.resize(cols, height);
      renderer.renderNow();
      await screen.settled();
    },
  };
}

const numbered = (count: number, prefix = "line") => Array.from({ length: count }, (_, i) => `${prefix} ${i}`);

describe("Renderer", () => {
  test("the first frame is painted below the shell prompt, which stays", async () => {
    const t = setup(40, 10);
    await t.show(["hello", "world"]);
    expect(t.screen.lines().slice(0, 3)).toEqual(["$ zot", "hello", "world"]);
    expect(t.writes).toHaveLength(1);
    expect(t.writes[0]).toStartWith("\x1b[?2026h");
    expect(t.writes[0]).toEndWith("\x1b[?2026l");
  });

  test("one changed row rewrites that row only, in one synchronized write", async () => {
    const t = setup(40, 10);
    await t.show(["alpha", "beta", "gamma", "delta"]);
    const mark = t.writes.length;
    await t.show(["alpha", "BETA", "gamma", "delta"]);
    expect(t.writes.length - mark).toBe(1);
    const frame = t.since(mark);
    expect(frame).toContain("BETA");
    expect(frame).not.toContain("alpha");
    expect(frame).not.toContain("gamma");
    expect(frame).not.toContain("\x1b[H");
    expect(t.screen.lines().slice(1, 5)).toEqual(["alpha", "BETA", "gamma", "delta"]);
  });

  test("a frame that changes nothing writes nothing", async () => {
    const t = setup(40, 10);
    await t.show(["same"]);
    const mark = t.writes.length;
    await t.show(["same"]);
    await t.show(["same"]);
    expect(t.writes.length).toBe(mark);
  });

  test("rows pushed past the top go to the scrollback in order, once each, never cleared", async () => {
    const t = setup(30, 8);
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) {
      lines.push(`row ${i}`);
      await t.show([...lines, "── status ──", "> input"]);
    }
    const all = t.screen.allLines().filter((line) => line !== "");
    expect(all).toEqual(["$ zot", ...numbered(40, "row"), "── status ──", "> input"]);
    const everything = t.since(0);
    expect(everything).not.toContain("\x1b[3J");
    expect(everything).not.toContain("\x1b[2J");
    expect(everything).not.toContain("\x1b[H");
    expect(t.renderer.stats).toMatchObject({ fullRedraws: 0, viewportRepaints: 0 });
  });

  test("bytes per appended row do not grow with what is already in the scrollback", async () => {
    const t = setup(80, 24);
    const lines = numbered(2000);
    const band = ["status: busy", "> editor text"];
    await t.show([...lines, ...band]);
    const cost = async () => {
      lines.push(`line ${lines.length}`);
      const mark = t.writes.length;
      await t.show([...lines, ...band]);
      return Buffer.byteLength(t.since(mark));
    };
    const early = await cost();
    for (let i = 0; i < 500; i++) lines.push(`line ${lines.length}`);
    await t.show([...lines, ...band]);
    const late = await cost();
    expect(late).toBe(early);
    expect(late).toBeLessThan(200);
  });

  test("a change above the visible viewport is dropped, not a reason to repaint", async () => {
    const t = setup(30, 6);
    const lines = numbered(20);
    await t.show(lines);
    const before = t.screen.allLines();
    const mark = t.writes.length;
    await t.show(lines.map((line, i) => (i === 3 ? "spinner ⠙" : line)));
    expect(t.writes.length).toBe(mark);
    expect(t.screen.allLines()).toEqual(before);
  });

  test("a change inside the viewport of a long frame rewrites only that row", async () => {
    const t = setup(30, 6);
    const lines = numbered(20);
    await t.show(lines);
    const mark = t.writes.length;
    await t.show(lines.map((line, i) => (i === 17 ? "changed" : line)));
    expect(t.since(mark)).not.toContain("line 18");
    expect(t.screen.lines()).toEqual(["line 14", "line 15", "line 16", "changed", "line 18", "line 19"]);
  });

  test("a frame that shrinks erases the rows it no longer has", async () => {
    const t = setup(30, 10);
    await t.show(["a", "popup 1", "popup 2", "popup 3", "> input"]);
    await t.show(["a", "> input"]);
    expect(t.screen.lines().slice(0, 6)).toEqual(["$ zot", "a", "> input", "", "", ""]);
  });

  test("rows wider than the terminal are cut to it, wide characters included", async () => {
    const t = setup(10, 5);
    await t.show(["0123456789ABCDEF", "日本語のテキストです"]);
    expect(t.screen.lines().slice(1, 3)).toEqual(["0123456789", "日本語のテ"]);
    expect(t.screen.lines()[3]).toBe("");
  });

  test("styles never bleed into the next row", async () => {
    const t = setup(20, 5);
    await t.show(["\x1b[31mred without a close", "plain"]);
    const cell = t.screen.xterm.buffer.active.getLine(2)?.getCell(0);
    expect(cell?.getChars()).toBe("p");
    expect(cell?.isFgDefault()).toBe(true);
  });

  test("the cursor marker places the terminal cursor and shows it; without it the cursor is hidden", async () => {
    const t = setup(30, 10);
    await t.show(["transcript", `> 日本${CURSOR_MARKER}語`, "status"]);
    expect(t.screen.cursor()).toEqual({ x: 6, y: 2 });
    expect(t.screen.cursorHidden).toBe(false);
    expect(t.screen.lines()[2]).toBe("> 日本語");
    await t.show(["transcript", "> 日本語", "status"]);
    expect(t.screen.cursorHidden).toBe(true);
  });

  test("moving only the cursor writes a cursor move, no rows", async () => {
    const t = setup(30, 10);
    await t.show([`> ab${CURSOR_MARKER}c`, "status"]);
    const mark = t.writes.length;
    await t.show([`> a${CURSOR_MARKER}bc`, "status"]);
    const frame = t.since(mark);
    expect(frame).not.toContain("\x1b[2K");
    expect(t.screen.cursor()).toEqual({ x: 3, y: 1 });
  });

  test("a resize repaints the visible viewport from the top and leaves the scrollback alone", async () => {
    const t = setup(40, 8);
    const lines = numbered(30);
    await t.show(lines);
    const scrolled = t.screen.scrollback;
    const mark = t.writes.length;
    await t.resize(30, 12);
    const frame = t.since(mark);
    expect(frame).toContain("\x1b[H");
    expect(frame).not.toContain("\x1b[3J");
    expect(frame).not.toContain("\x1b[2J");
    expect(frame).not.toContain("line 17\r"); // rows above the new viewport are not written
    expect(t.screen.lines()).toEqual(numbered(12).map((_, i) => `line ${18 + i}`));
    expect(t.screen.scrollback).toBeGreaterThan(0);
    expect(t.screen.scrollback).toBeLessThanOrEqual(scrolled);
    expect(t.renderer.stats).toMatchObject({ viewportRepaints: 1, fullRedraws: 0 });
    // And the diff goes on from there.
    await t.show([...lines, "line 30"]);
    expect(t.screen.lines().at(-1)).toBe("line 30");
    expect(t.screen.lines().at(-2)).toBe("line 29");
  });

  test("a resize that lands where the frame grew: the rows it gained reach the scrollback, each once (taller and shorter)", async () => {
    for (const [rows, grownTo] of [[12, 40], [6, 50], [8, 31]] as const) {
      const t = setup(40, 8);
      await t.show(numbered(30));
      t.next(numbered(grownTo));
      await t.resize(40, rows);
      const all = t.screen.allLines().filter((line) => line.startsWith("line "));
      expect([rows, all]).toEqual([rows, numbered(grownTo)]);
      expect(t.screen.lines().at(-1)).toBe(`line ${grownTo - 1}`);
      // The diff goes on from there.
      await t.show(numbered(grownTo + 1));
      expect(t.screen.lines().at(-1)).toBe(`line ${grownTo}`);
    }
  });

  test("a short frame is repainted in place when the terminal grows: the shell's rows above it stay", async () => {
    const t = setup(40, 10);
    await t.show(["frame 1", "frame 2"]);
    for (const [cols, rows] of [[60, 10], [60, 14], [70, 8]]) {
      const mark = t.writes.length;
      await t.resize(cols, rows);
      expect(t.since(mark)).not.toContain("\x1b[H");
      expect(t.screen.lines().slice(0, 3)).toEqual(["$ zot", "frame 1", "frame 2"]);
    }
    // Narrower: the terminal may have rewrapped rows, so the viewport is rewritten from the top.
    const mark = t.writes.length;
    await t.resize(30, 8);
    expect(t.since(mark)).toContain("\x1b[H");
    expect(t.screen.lines().slice(0, 2)).toEqual(["frame 1", "frame 2"]);
    expect(t.renderer.stats.viewportRepaints).toBe(4);
  });

  test("clearScreen (Ctrl+L) is the one full redraw: scrollback emptied, the whole frame written again", async () => {
    const t = setup(30, 6);
    await t.show(numbered(20));
    t.renderer.clearScreen();
    t.renderer.renderNow();
    await t.screen.settled();
    expect(t.writes.at(-1)).toContain("\x1b[3J");
    expect(t.renderer.stats.fullRedraws).toBe(1);
    expect(t.screen.allLines().filter((line) => line !== "")).toEqual(numbered(20));
  });

  test("requests are coalesced into one paint, and nothing ticks afterwards", async () => {
    const t = setup(30, 6);
    let frame = ["a"];
    let renders = 0;
    const renderer = new Renderer(t.target, {
      render: () => {
        renders++;
        return frame;
      },
    });
    for (let i = 0; i < 20; i++) {
      frame = [`value ${i}`];
      renderer.requestRender();
    }
    await Bun.sleep(50);
    expect(renders).toBe(1);
    await Bun.sleep(50);
    expect(renders).toBe(1);
  });

  test("a row the terminal draws wider than measured (a ZWJ family emoji) is cut, not wrapped: the rows under it stay where they are", async () => {
    const t = setup(80, 10);
    const family = "👨‍👩‍👧‍👦";
    await t.show(["top", `${"x".repeat(73)}${family}`, "tick 1", "bottom"]);
    await t.show(["top", `${"x".repeat(73)}${family}`, "tick 2", "bottom"]);
    const lines = t.screen.lines();
    expect(lines.slice(1, 5)).toEqual(["top", expect.stringMatching(/^x{73}/), "tick 2", "bottom"]);
    expect(t.since(0)).toContain("\x1b[?7l");
    expect(t.writes.every((frame) => frame.lastIndexOf("\x1b[?7h") > frame.lastIndexOf("\x1b[?7l"))).toBe(true);
  });

  test("park moves the cursor to a fresh row below the frame", async () => {
    const t = setup(30, 10);
    await t.show([`> ${CURSOR_MARKER}`, "status", "hint"]);
    t.target.write(t.renderer.park());
    await t.screen.settled();
    expect(t.screen.cursor()).toEqual({ x: 0, y: 4 });
    t.renderer.renderNow();
    expect(t.renderer.stats.frames).toBe(1);
  });
});
