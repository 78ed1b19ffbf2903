// A subfolder's memory file as the model gets it, and the transcript as the record of which ones it has.
import { describe, expect, test } from "bun:test";
import type { Message } from "../../src/protocol/messages.ts";
import { givenMemoryFiles, memoryBlock } from "../../src/protocol/nested-memory-block.ts";

const time = "2026-05-06T10:00:00Z";

describe("memoryBlock", () => {
  test("names the file and the folder it holds instructions for, relative to the cwd; an import names its importer", () => {
    const block = memoryBlock({ path: "/w/packages/api/CLAUDE.md", content: "No default exports.\n", folder: "/w/packages/api" }, "/w");
    expect(block).toBe(
      '<memory-file path="/w/packages/api/CLAUDE.md">\npackages/api/CLAUDE.md holds instructions for the files under packages/api/: follow them while you work there; where they disagree with the project context, they win for those files.\n\nNo default exports.\n</memory-file>',
    );
    const imported = memoryBlock({ path: "/w/docs/style.md", content: "Tabs.", folder: "/w/packages/api", importedBy: "/w/packages/api/CLAUDE.md" }, "/w");
    expect(imported).toContain("docs/style.md, which packages/api/CLAUDE.md imports, holds instructions for the files under packages/api/");
  });
});

describe("givenMemoryFiles", () => {
  test("the files whose blocks are in the transcript, in a prompt's or a tool result's own text block; a quote of one inside a file's text is not one", () => {
    const odd = '/w/a "quoted" & odd/CLAUDE.md';
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "look" }, { type: "text", text: memoryBlock({ path: odd, content: "x", folder: "/w/a \"quoted\" & odd" }, "/w") }], time },
      {
        role: "tool",
        content: [
          {
            type: "tool_result",
            call_id: "c1",
            is_error: false,
            content: [
              { type: "text", text: `   1\t<memory-file path="/w/quoted/CLAUDE.md">` },
              { type: "text", text: memoryBlock({ path: "/w/packages/api/CLAUDE.md", content: "x", folder: "/w/packages/api" }, "/w") },
            ],
          },
        ],
        time,
      },
    ];
    expect([...givenMemoryFiles(messages)]).toEqual([odd, "/w/packages/api/CLAUDE.md"]);
    expect(givenMemoryFiles([]).size).toBe(0);
  });
});
