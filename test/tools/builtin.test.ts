// The built-in set: choosing tools by name reports unknown names, and every tool advertises a
// JSON Schema a provider accepts (an object schema, no $schema key, required fields listed).
import { expect, test } from "bun:test";
import { BUILTIN_TOOLS, selectBuiltinTools } from "../../src/tools/builtin.ts";

test("the built-in tools, in order", () => {
  expect(BUILTIN_TOOLS.map((t) => t.name)).toEqual(["read", "write", "edit", "bash"]);
});

test("select by name: order kept, duplicates collapsed, unknown names reported", () => {
  const { tools, unknown } = selectBuiltinTools(["bash", "read", "bash", "grep", " Edit ", ""]);
  expect(tools.map((t) => t.name)).toEqual(["bash", "read", "edit"]);
  expect(unknown).toEqual(["grep"]);
  expect(selectBuiltinTools("all").tools).toHaveLength(4);
  expect(selectBuiltinTools("none")).toEqual({ tools: [], unknown: [] });
});

test("every tool advertises an object schema with its required fields and a useful description", () => {
  const required: Record<string, string[]> = {
    read: ["path"],
    write: ["path", "content"],
    edit: ["path", "edits"],
    bash: ["command"],
  };
  for (const tool of BUILTIN_TOOLS) {
    expect(tool.parameters.type).toBe("object");
    expect(tool.parameters.required).toEqual(required[tool.name]);
    expect(tool.parameters).not.toHaveProperty("$schema");
    expect(tool.description.length).toBeGreaterThan(100);
    expect(tool.description.length).toBeLessThan(800);
  }
  const edits = (BUILTIN_TOOLS[2].parameters.properties as Record<string, Record<string, unknown>>).edits;
  expect(edits).toMatchObject({ type: "array", minItems: 1, items: { required: ["old_text", "new_text"] } });
});
