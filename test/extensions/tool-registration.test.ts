// register_tool frames read into tools: a schema that is no JSON Schema of an object skips that one
// tool with a diagnostic naming it, since the providers refuse every request that offers it.
import { describe, expect, test } from "bun:test";
import { toolRegistration } from "../../src/extensions/tool-registration.ts";

const frame = (schema: unknown) => ({ type: "register_tool" as const, name: "t", schema: schema as Record<string, unknown> });

describe("toolRegistration's schema", () => {
  test("an object's schema is kept, and one without a type is said to be an object's", () => {
    const kept = toolRegistration(frame({ type: "object", properties: { a: { type: "string" } }, required: ["a"] }), "ext");
    expect("def" in kept && kept.def.schema).toEqual({ type: "object", properties: { a: { type: "string" } }, required: ["a"] });
    const typeless = toolRegistration(frame({ properties: { a: { type: "string" } } }), "ext");
    expect("def" in typeless && typeless.def.schema).toEqual({ type: "object", properties: { a: { type: "string" } } });
    const none = toolRegistration({ type: "register_tool", name: "t" }, "ext");
    expect("def" in none && none.def.schema).toEqual({ type: "object", properties: {} });
  });

  test("a schema of another type, or with properties or required of the wrong shape skips the tool, saying why", () => {
    const cases: [unknown, string][] = [
      [{ type: "string" }, 'is of type "string"'],
      [{ type: "banana", properties: {} }, 'is of type "banana"'],
      [{ type: "object", properties: 5 }, 'has "properties" that is not an object'],
      [{ type: "object", properties: [] }, 'has "properties" that is not an object'],
      [{ type: "object", required: "x" }, 'has "required" that is not a list of names'],
      [{ type: "object", required: [1] }, 'has "required" that is not a list of names'],
    ];
    for (const [schema, why] of cases) {
      const read = toolRegistration(frame(schema), "ext");
      expect(read).toEqual({ skipped: { kind: "tool_schema", message: expect.stringContaining(`tool "t" has a schema that ${why}, skipped`) } });
    }
  });
});

describe("toolRegistration's schema depth", () => {
  test("a schema nested deeper than 64 levels (one that would overflow every request's building) skips the tool; a deep real one is kept", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 50_000; i++) deep = { type: "object", properties: { x: deep } };
    expect(toolRegistration(frame(deep), "ext")).toEqual({
      skipped: { kind: "tool_schema", message: expect.stringContaining('tool "t" has a schema that is nested more than 64 levels deep, skipped') },
    });
    let fine: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 20; i++) fine = { type: "object", properties: { x: fine } };
    expect("def" in toolRegistration(frame(fine), "ext")).toBe(true);
  });
});

describe("toolRegistration's exposure and replay", () => {
  test('"" is absent, as a Go struct without omitempty sends it: the tool is kept, direct, never replayed, with no problem', () => {
    const read = toolRegistration({ type: "register_tool", name: "t", exposure: "", replay: "" }, "ext");
    expect(read).toMatchObject({ def: { exposure: "direct", replay: "never" }, problems: [] });
    // An unknown word is still said.
    expect(toolRegistration({ type: "register_tool", name: "t", exposure: "sideways" }, "ext")).toMatchObject({ skipped: { kind: "tool_exposure" } });
  });
});
