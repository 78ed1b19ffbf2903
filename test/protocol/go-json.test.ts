// Reading what Go programs send as Go's encoding/json reads it: field names without case, null as
// absent, and what the schema leaves open kept as sent.
import { expect, test } from "bun:test";
import * as v from "valibot";
import { EventInterceptResponseFrame, ExtToHostFrame } from "../../src/protocol/ext-frames.ts";
import { asGoReads } from "../../src/protocol/go-json.ts";
import { BeforeToolResult } from "../../src/protocol/hook-rpc.ts";

test("an interceptor's block with reason null is a block; modified_args null is no rewrite", () => {
  const sent = { type: "event_intercept_response", id: "7", block: true, reason: null, modified_args: null };
  expect(v.safeParse(EventInterceptResponseFrame, sent).success).toBe(false);
  const read = v.parse(ExtToHostFrame, asGoReads(ExtToHostFrame, sent));
  expect(read).toEqual({ type: "event_intercept_response", id: "7", block: true });
});

test("null in a frame's optional fields, nested ones too, reads as absent; defaults apply", () => {
  const read = v.parse(ExtToHostFrame, asGoReads(ExtToHostFrame, { type: "tool_result", id: "1", content: null, is_error: null }));
  expect(read).toMatchObject({ type: "tool_result", id: "1", content: [] });
  expect("is_error" in read).toBe(false);
  const tool = v.parse(ExtToHostFrame, asGoReads(ExtToHostFrame, { type: "register_tool", name: "t", description: null, schema: null }));
  expect(tool).toEqual({ type: "register_tool", name: "t" });
  const blocks = v.parse(ExtToHostFrame, asGoReads(ExtToHostFrame, { type: "tool_result", id: "2", content: [{ type: "text", text: "hi", data: null }] }));
  expect(blocks).toMatchObject({ content: [{ type: "text", text: "hi" }] });
});

test("what the schema leaves open keeps its nulls and its keys as sent (arguments, JSON Schemas)", () => {
  const sent = { type: "call_tool", id: "c", name: "bash", args: { Command: "ls", timeout: null } };
  expect(asGoReads(ExtToHostFrame, sent)).toEqual(sent);
  const schema = { type: "object", properties: { x: { type: ["string", "null"], default: null } } };
  expect(asGoReads(ExtToHostFrame, { type: "register_tool", name: "t", schema })).toEqual({ type: "register_tool", name: "t", schema });
});

test("a PicoClaw reply's field names match without regard to case; of two spellings the later wins, and null changes nothing, as in Go", () => {
  expect(v.parse(BeforeToolResult, asGoReads(BeforeToolResult, { Action: "deny_tool", Reason: "no" }))).toEqual({ action: "deny_tool", reason: "no" });
  expect(asGoReads(BeforeToolResult, { Action: "continue", action: "deny_tool" })).toEqual({ action: "deny_tool" });
  expect(asGoReads(BeforeToolResult, { action: null, Action: "deny_tool" })).toEqual({ action: "deny_tool" });
  expect(asGoReads(BeforeToolResult, { Action: "deny_tool", action: null })).toEqual({ action: "deny_tool" });
  expect(asGoReads(BeforeToolResult, { ACTION: "modify", Call: { Tool: "bash", Arguments: { Command: "ls" } } })).toEqual({ action: "modify", call: { tool: "bash", arguments: { Command: "ls" } } });
  expect(asGoReads(BeforeToolResult, null)).toBe(null);
});
