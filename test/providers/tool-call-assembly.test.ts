// The tool-call assembly every wire API shares: when a call is announced, what each piece becomes,
// when it ends, and what the transcript keeps.
import { describe, expect, test } from "bun:test";
import type { ProviderEvent } from "../../src/protocol/provider.ts";
import { ToolCallAssembly } from "../../src/providers/tool-call-assembly.ts";

describe("ToolCallAssembly", () => {
  test("announced once it has an id and a name, with the arguments buffered until then; empty fragments are no events", () => {
    const calls = new ToolCallAssembly();
    const out: ProviderEvent[] = [];
    calls.add(0, { args: '{"pa' }, out);
    calls.add(0, { name: "read" }, out);
    expect(out).toEqual([]);
    calls.add(0, { id: "c1", args: 'th":' }, out);
    calls.add(0, { args: "" }, out);
    calls.add(0, { id: "c1", name: "read", args: '"x"}' }, out);
    calls.end(0, out);
    calls.end(0, out);
    calls.add(0, { args: "late" }, out);
    expect(out).toEqual([
      { type: "tool_use_start", id: "c1", name: "read" },
      { type: "tool_use_args", id: "c1", delta: '{"path":' },
      { type: "tool_use_args", id: "c1", delta: '"x"}' },
      { type: "tool_use_end", id: "c1" },
    ]);
    expect(calls.blocks()).toEqual([{ type: "tool_call", id: "c1", name: "read", args: { path: "x" } }]);
  });

  test("a new id at a key starts a new call; a call without an id gets one at its end; one without a name is dropped", () => {
    const calls = new ToolCallAssembly();
    const out: ProviderEvent[] = [];
    calls.add(0, { id: "a", name: "bash", args: "{}" }, out);
    calls.add(0, { id: "b", name: "read", args: "{}" }, out);
    calls.add(1, { name: "write", args: '{"n":1}' }, out);
    calls.add(2, { args: "{}" }, out);
    calls.endAll(out);
    const [, , third] = calls.blocks();
    expect(third?.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(calls.blocks()).toEqual([
      { type: "tool_call", id: "a", name: "bash", args: {} },
      { type: "tool_call", id: "b", name: "read", args: {} },
      { type: "tool_call", id: third!.id, name: "write", args: { n: 1 } },
    ]);
    expect(out.filter((e) => e.type === "tool_use_end").map((e) => (e as { id: string }).id)).toEqual(["a", "b", third!.id]);
    expect(calls.any).toBe(true);
    expect(new ToolCallAssembly().any).toBe(false);
  });

  test("whole arguments at the end: sent as one fragment when none streamed, else the authority", () => {
    const calls = new ToolCallAssembly();
    const out: ProviderEvent[] = [];
    calls.add(0, { id: "a", name: "read" }, out);
    calls.complete(0, '{"p":1}', out);
    calls.add(1, { id: "b", name: "read", args: '{"p":' }, out);
    calls.complete(1, '{"p":2}', out);
    expect(out.filter((e) => e.type === "tool_use_args")).toEqual([
      { type: "tool_use_args", id: "a", delta: '{"p":1}' },
      { type: "tool_use_args", id: "b", delta: '{"p":' },
    ]);
    expect(calls.block(0)?.args).toEqual({ p: 1 });
    expect(calls.block(1)?.args).toEqual({ p: 2 });
    expect(calls.block(5)).toBeUndefined();
  });

  test("an id a server gives two calls of one answer is made unique for the second: each call has its own box and result", () => {
    const calls = new ToolCallAssembly();
    const out: ProviderEvent[] = [];
    calls.add(0, { id: "same", name: "bash", args: '{"command":"echo D1"}' }, out);
    calls.add(1, { id: "same", name: "bash", args: '{"command":"echo D2"}' }, out);
    calls.endAll(out);
    expect(calls.blocks().map((b) => [b.id, b.args])).toEqual([
      ["same", { command: "echo D1" }],
      ["same_2", { command: "echo D2" }],
    ]);
    expect(out.filter((e) => e.type === "tool_use_start").map((e) => (e as { id: string }).id)).toEqual(["same", "same_2"]);
  });

  test("arguments that are not one JSON object are kept as sent, beside empty args; {} and nothing are plain", () => {
    const calls = new ToolCallAssembly();
    const out: ProviderEvent[] = [];
    calls.add(0, { id: "a", name: "bash", args: '{"command": "echo hi' }, out);
    calls.add(1, { id: "b", name: "bash", args: "[1,2]" }, out);
    calls.add(2, { id: "c", name: "bash", args: "{}" }, out);
    calls.add(3, { id: "d", name: "bash" }, out);
    calls.add(4, { id: "e", name: "bash", args: "null" }, out);
    calls.endAll(out);
    expect(calls.blocks()).toEqual([
      { type: "tool_call", id: "a", name: "bash", args: {}, unparsed_args: '{"command": "echo hi' },
      { type: "tool_call", id: "b", name: "bash", args: {}, unparsed_args: "[1,2]" },
      { type: "tool_call", id: "c", name: "bash", args: {} },
      { type: "tool_call", id: "d", name: "bash", args: {} },
      { type: "tool_call", id: "e", name: "bash", args: {} },
    ]);
  });
});
