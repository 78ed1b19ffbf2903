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

test("each tool's JSON Schema, made when the code is built, is its valibot schema converted", async () => {
  const { toJsonSchema } = await import("@valibot/to-json-schema");
  const args = await import("../../src/tools/builtin-args.ts");
  const { createSkillTool } = await import("../../src/tools/skill.ts");
  const { createToolSearchTool } = await import("../../src/tools/tool-search.ts");
  const converted = (schema: Parameters<typeof toJsonSchema>[0]) => {
    const { $schema: _drop, ...rest } = toJsonSchema(schema) as Record<string, unknown>;
    return rest;
  };
  const schemaOf: Record<string, Parameters<typeof toJsonSchema>[0]> = { read: args.readArgs(), write: args.writeArgs(), edit: args.editArgs(), bash: args.bashArgs() };
  for (const tool of BUILTIN_TOOLS) expect(tool.parameters).toEqual(converted(schemaOf[tool.name]!));
  const skill = createSkillTool([]);
  expect(skill.parameters).toEqual(converted(args.skillArgs()));
  const search = createToolSearchTool({ search: () => [], activate: () => ({ activated: [], unknown: [] }), pendingNames: () => [], activeNames: () => [] });
  expect(search.parameters).toEqual(converted(args.searchArgs()));
  // the limits the descriptions name
  expect(JSON.stringify(search.parameters)).toContain(`default ${args.SEARCH_DEFAULT_RESULTS}`);
  expect(JSON.stringify(BUILTIN_TOOLS[0]!.parameters)).toContain(`maximum ${args.READ_MAX_LINES}`);
});
