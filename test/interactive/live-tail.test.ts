// The transcript's rows with a live tail, and the rows of the settled blocks kept between frames:
// whatever the blocks do, the rows are exactly theirs, in order, as if every frame read them all.
import { expect, test } from "bun:test";
import type { Component } from "../../src/tui/component.ts";
import { renderLiveTail, StableRows } from "../../src/modes/interactive/live-tail.ts";
import { createTheme } from "../../src/tui/theme.ts";

const theme = createTheme({ color: false });

/** A block that gives the same array until it is changed, as the transcript's cached blocks do. */
class Block implements Component {
  private rows: string[];
  constructor(private readonly name: string, lines = 2) {
    this.rows = Array.from({ length: lines }, (_, i) => `${name}.${i}`);
  }
  render(): string[] {
    return this.rows;
  }
  redraw(lines: number): void {
    this.rows = Array.from({ length: lines }, (_, i) => `${this.name}*${i}`);
  }
}

const all = (blocks: readonly Component[], width = 80) => blocks.flatMap((block) => block.render(width));

test("kept rows are the blocks' rows after blocks are added, redrawn, removed and the width changes", () => {
  const stable = new StableRows();
  const blocks: Block[] = [new Block("a"), new Block("b", 3)];
  expect(stable.rowsOf(80, blocks, 2)).toEqual(all(blocks));
  blocks.push(new Block("c", 1), new Block("d", 4));
  expect(stable.rowsOf(80, blocks, 4)).toEqual(all(blocks));
  // A settled block redrawn (a finished call's result, Ctrl+O): its rows and every row after it are read again.
  blocks[1]!.redraw(5);
  expect(stable.rowsOf(80, blocks, 4)).toEqual(all(blocks));
  // Fewer settled blocks (one became live again), then a block removed from the middle (a /clear and new ones).
  expect(stable.rowsOf(80, blocks, 2)).toEqual(all(blocks.slice(0, 2)));
  blocks.splice(1, 1);
  expect(stable.rowsOf(80, blocks, 3)).toEqual(all(blocks));
  expect(stable.rowsOf(100, blocks, 3)).toEqual(all(blocks, 100));
  blocks.length = 0;
  expect(stable.rowsOf(80, blocks, 0)).toEqual([]);
});

test("renderLiveTail gives the same rows with kept rows as without, frame after frame, and never changes what it keeps", () => {
  const stable = new StableRows();
  const blocks: Block[] = Array.from({ length: 6 }, (_, i) => new Block(`b${i}`, i + 1));
  let live: Component | undefined = blocks[3];
  const tail = (withStable: boolean) => ({ blocks, isLive: (block: Component) => block === live, room: 12, below: 1, ...(withStable ? { stable } : {}) });
  for (let frame = 0; frame < 5; frame++) {
    const kept = renderLiveTail(80, tail(true), theme);
    expect(kept).toEqual(renderLiveTail(80, tail(false), theme));
    kept.push("changed by the caller");
    if (frame === 1) blocks[1]!.redraw(7);
    if (frame === 2) live = undefined;
    if (frame === 3) blocks.push(new Block("new", 2));
  }
});
