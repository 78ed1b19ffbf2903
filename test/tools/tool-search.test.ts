// The search tool's own words stay bounded however many tools wait behind it: its description and a
// failed search list names up to the same budget and count the rest.
import { expect, test } from "bun:test";
import { createToolSearchTool } from "../../src/tools/tool-search.ts";

const names = Array.from({ length: 20_000 }, (_, i) => `mcp__srv__tool_number_${i}`);
const catalog = {
  search: () => [],
  activate: (wanted: readonly string[]) => ({ activated: [], unknown: [...wanted] }),
  pendingNames: () => names,
  activeNames: () => [],
};
const ctx = { cwd: process.cwd(), signal: new AbortController().signal, onProgress() {} };
const text = (result: { content: { type: string; text?: string }[] }) => result.content.map((block) => block.text ?? "").join("");

test("20,000 deferred tools: a search that finds nothing, or a select: of an unknown name, lists as many names as the description, then how many more", async () => {
  const tool = createToolSearchTool(catalog);
  expect(tool.description.length).toBeLessThan(7_000);
  for (const query of ["no such thing at all", "select:nope"]) {
    const said = text(await tool.execute({ query }, ctx));
    expect(said.length).toBeLessThan(7_000);
    expect(said).toContain("mcp__srv__tool_number_0, mcp__srv__tool_number_1");
    expect(said).toMatch(/… and \d+ more \(search finds them\)/);
  }
});
