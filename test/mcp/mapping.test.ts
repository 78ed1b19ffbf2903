// What the model sees of MCP: tool names as Claude Code makes them, results mapped block by block
// and bounded, prompt arguments filled from the words typed, and when tools are deferred.
import { describe, expect, test } from "bun:test";
import { readMcpSettings, shouldDefer } from "../../src/mcp/mcp-settings.ts";
import { MAX_TOOL_NAME, mcpPromptCommand, mcpToolName } from "../../src/mcp/names.ts";
import { fillArguments } from "../../src/mcp/prompt-commands.ts";
import { commandWords } from "../../src/protocol/slash-command.ts";
import { mapResourceContents, mapToolResult, resourceAsText } from "../../src/mcp/result-mapping.ts";
import { saveBlob } from "../../src/mcp/blob-files.ts";
import { readFileSync, rmSync, statSync } from "node:fs";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
const map = (result: Record<string, unknown>, maxOutputTokens?: number) => mapToolResult(result, { server: "s", tool: "t", maxOutputTokens });

describe("names", () => {
  test("mcp__<server>__<tool>, every other character made _; long names stay unique within 64", () => {
    expect(mcpToolName("fs", "read_file")).toBe("mcp__fs__read_file");
    expect(mcpToolName("my.server v2", "get-sum")).toBe("mcp__my_server_v2__get-sum");
    expect(mcpPromptCommand("everything", "args-prompt")).toBe("mcp__everything__args-prompt");
    const a = mcpToolName("a-very-long-server-name-for-testing", "an_equally_long_tool_name_number_one");
    const b = mcpToolName("a-very-long-server-name-for-testing", "an_equally_long_tool_name_number_two");
    expect(a.length).toBe(MAX_TOOL_NAME);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^mcp__a-very-long-server-name-for-testing__an_equally_[0-9a-z_]+$/);
  });
});

describe("a tool result", () => {
  test("text, images, resources and links each become what the model can read; isError is kept", () => {
    const result = map({
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "image", data: "not base64!", mimeType: "image/png" },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "file:///a.txt", text: "inside" } },
        { type: "resource", resource: { uri: "file:///b.bin", blob: "AAAA", mimeType: "application/zip" } },
        { type: "resource_link", uri: "file:///c", name: "c", description: "a file" },
        { type: "video" },
      ],
      isError: true,
    });
    expect(result.is_error).toBe(true);
    expect(result.content).toEqual([
      { type: "text", text: "hello" },
      { type: "image", mime_type: "image/png", data: PNG },
      { type: "text", text: "[an image (image/png) whose data is not base64]" },
      { type: "text", text: "[audio (audio/wav, 3 bytes) that zot cannot pass to the model]" },
      { type: "text", text: "[resource file:///a.txt]\ninside" },
      { type: "text", text: "[resource file:///b.bin (application/zip, 3 bytes)]" },
      { type: "text", text: "[resource link file:///c: c, a file]" },
      { type: "text", text: '[content of type "video" that zot does not know]' },
    ]);
  });

  test("structured content reaches the model when there are no content blocks, and stays in the details always", () => {
    const only = map({ content: [], structuredContent: { temperature: 21 } });
    expect(only.content).toEqual([{ type: "text", text: '{"temperature":21}' }]);
    const both = map({ content: [{ type: "text", text: "It is 21 degrees." }], structuredContent: { temperature: 21 } });
    expect(both.content).toEqual([{ type: "text", text: "It is 21 degrees." }]);
    expect(both.details).toMatchObject({ structured_content: { temperature: 21 } });
    expect(map({}).content).toEqual([{ type: "text", text: "(the tool returned no content)" }]);
    expect(map({ isError: "yes" }).is_error).toBe(false);
  });

  test("text over MAX_MCP_OUTPUT_TOKENS is cut with a note saying so", () => {
    const result = map({ content: [{ type: "text", text: "a".repeat(300) }, { type: "text", text: "b".repeat(300) }] }, 100);
    const texts = result.content.map((block) => (block.type === "text" ? block.text : ""));
    expect(texts[0]).toBe("a".repeat(300));
    expect(texts[1]).toBe("b".repeat(100));
    expect(texts[2]).toContain("the tool returned 600 characters, more than the 100-token limit (MAX_MCP_OUTPUT_TOKENS)");
  });
});

describe("a resource's blob", () => {
  const b64 = (text: string | Uint8Array) => Buffer.from(text).toString("base64");
  const read = (resource: Record<string, unknown>) => mapResourceContents([{ uri: "x://r", ...resource }], { server: "s", tool: "x://r", saveBlob }).content;

  test("a textual type whose bytes are UTF-8 is its text; an image is an image", () => {
    expect(read({ mimeType: "text/plain", blob: b64("SECRET TEXT IN A BLOB") })).toEqual([{ type: "text", text: "[resource x://r]\nSECRET TEXT IN A BLOB" }]);
    expect(read({ mimeType: "application/json; charset=utf-8", blob: b64('{"a":1}') })).toEqual([{ type: "text", text: '[resource x://r]\n{"a":1}' }]);
    expect(read({ mimeType: "application/vnd.api+json", blob: b64("{}") })).toEqual([{ type: "text", text: "[resource x://r]\n{}" }]);
    expect(read({ mimeType: "image/png", blob: PNG })).toEqual([{ type: "text", text: "[resource x://r]" }, { type: "image", mime_type: "image/png", data: PNG }]);
    expect(resourceAsText([{ uri: "x://r", mimeType: "text/markdown", blob: b64("# title") }], 1000)).toEqual({ text: "# title" });
    expect(resourceAsText([{ uri: "x://r", mimeType: "application/pdf", blob: b64("%PDF") }], 1000)).toEqual({ why: "it is not text (application/pdf); the model can still read it with ReadMcpResourceTool" });
  });

  test("other bytes (a PDF, text that is not UTF-8) are saved to a file named with their type and size", () => {
    const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0xff, 0xfe, 0x00, 0x01]);
    for (const mimeType of ["application/pdf", "text/plain"]) {
      const [block] = read({ mimeType, blob: b64(bytes) });
      const match = /^\[resource x:\/\/r \(([^,]+), 8 bytes\) saved to (\/.*zot-mcp-blob-[0-9a-f]{12}\.(pdf|plain))\]$/.exec(block!.type === "text" ? block!.text : "");
      expect(match?.[1]).toBe(mimeType);
      expect(new Uint8Array(readFileSync(match![2]!))).toEqual(bytes);
      expect(statSync(match![2]!).mode & 0o777).toBe(0o600);
      rmSync(match![2]!);
    }
    expect(read({ mimeType: "application/zip", blob: "not base64!" })).toEqual([{ type: "text", text: "[resource x://r (application/zip), its data is not base64]" }]);
  });
});

describe("prompt arguments", () => {
  const prompt = { name: "p", arguments: [{ name: "city", required: true }, { name: "note" }] };
  test("by position, quotes keep words together, the last argument takes the rest", () => {
    expect(commandWords(`"New York" 'a b'  c`)).toEqual(["New York", "a b", "c"]);
    expect(fillArguments(prompt, ["Berlin", "rainy", "and", "cold"])).toEqual({ values: { city: "Berlin", note: "rainy and cold" } });
    expect(fillArguments(prompt, ["Berlin"])).toEqual({ values: { city: "Berlin" } });
    expect(fillArguments(prompt, [])).toEqual({ missing: ["city"] });
  });
});

describe("when tools are deferred (ENABLE_TOOL_SEARCH, as Claude Code reads it)", () => {
  test("auto at 10 % of the window by default, auto:N, true and false; a bad value is a warning", () => {
    expect(readMcpSettings({}).toolSearch).toEqual({ mode: "auto", percent: 10 });
    expect(readMcpSettings({ ENABLE_TOOL_SEARCH: "auto:5" }).toolSearch).toEqual({ mode: "auto", percent: 5 });
    expect(readMcpSettings({ ENABLE_TOOL_SEARCH: "true" }).toolSearch).toEqual({ mode: "always" });
    expect(readMcpSettings({ ENABLE_TOOL_SEARCH: "false" }).toolSearch).toEqual({ mode: "never" });
    const bad = readMcpSettings({ ENABLE_TOOL_SEARCH: "sometimes", MCP_TIMEOUT: "soon" });
    expect(bad.warnings).toEqual([expect.stringContaining("MCP_TIMEOUT=soon is not a positive number"), expect.stringContaining("ENABLE_TOOL_SEARCH=sometimes")]);
    expect(bad.startMs).toBe(30_000);
    // 200k tokens × 10 % = 20k tokens ≈ 80,000 characters of definitions
    expect(shouldDefer({ mode: "auto", percent: 10 }, 79_000, 200_000)).toBe(false);
    expect(shouldDefer({ mode: "auto", percent: 10 }, 81_000, 200_000)).toBe(true);
    expect(shouldDefer({ mode: "always" }, 10, 200_000)).toBe(true);
    expect(shouldDefer({ mode: "never" }, 1e9, 200_000)).toBe(false);
  });
});
