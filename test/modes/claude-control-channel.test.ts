import { expect, test } from "bun:test";
import * as v from "valibot";
import { ClaudeControlChannel } from "../../src/modes/claude-control-channel.ts";
import { PermissionResult } from "../../src/protocol/claude-control.ts";

function channel() {
  const written: any[] = [];
  const logged: string[] = [];
  return { written, logged, channel: new ClaudeControlChannel((line) => written.push(line), (message) => logged.push(message)) };
}

test("a request goes out with its own id and is settled by the response with that id, read with its schema", async () => {
  const { written, channel: c } = channel();
  const first = c.request({ subtype: "can_use_tool", tool_name: "Bash" }, PermissionResult);
  const second = c.request({ subtype: "can_use_tool", tool_name: "Read" }, PermissionResult);
  expect(written.map((w) => [w.type, w.request.subtype, w.request.tool_name])).toEqual([
    ["control_request", "can_use_tool", "Bash"],
    ["control_request", "can_use_tool", "Read"],
  ]);
  expect(written[0].request_id).not.toBe(written[1].request_id);
  c.settle({ type: "control_response", response: { subtype: "success", request_id: written[1].request_id, response: { behavior: "deny", message: "no" } } });
  c.settle({ type: "control_response", response: { subtype: "success", request_id: written[0].request_id, response: { behavior: "allow" } } });
  expect(await first).toEqual({ behavior: "allow" });
  expect(await second).toEqual({ behavior: "deny", message: "no" });
});

test("an error response, an answer of the wrong shape and a closed program reject with a sentence", async () => {
  const { written, logged, channel: c } = channel();
  const failed = c.request({ subtype: "hook_callback" }, v.record(v.string(), v.unknown()));
  c.settle({ type: "control_response", response: { subtype: "error", request_id: written[0].request_id, error: "callback threw" } });
  await expect(failed).rejects.toThrow("the program answered hook_callback with an error: callback threw");
  const odd = c.request({ subtype: "can_use_tool" }, PermissionResult);
  c.settle({ type: "control_response", response: { subtype: "success", request_id: written[1].request_id, response: { behavior: "maybe" } } });
  await expect(odd).rejects.toThrow("the program's answer to can_use_tool is not what Claude Code's protocol says");
  const waiting = c.request({ subtype: "mcp_message" }, v.unknown());
  c.close("the program closed stdin");
  await expect(waiting).rejects.toThrow("the program closed stdin, so it cannot answer mcp_message");
  await expect(c.request({ subtype: "mcp_message" }, v.unknown())).rejects.toThrow("the program closed stdin, so it cannot answer mcp_message");
  // A response nobody waits for (answered twice) is said, not thrown.
  c.settle({ type: "control_response", response: { subtype: "success", request_id: written[0].request_id } });
  expect(logged).toEqual([`stream-json: a control_response for "${written[0].request_id}", which no request of zot's waits for; ignored`]);
});

test("a request whose asker gives up sends control_cancel_request and rejects; its late response is ignored", async () => {
  const { written, logged, channel: c } = channel();
  const asker = new AbortController();
  const asked = c.request({ subtype: "can_use_tool" }, PermissionResult, asker.signal);
  asker.abort(new Error("the turn ended"));
  await expect(asked).rejects.toThrow("the turn ended");
  expect(written[1]).toEqual({ type: "control_cancel_request", request_id: written[0].request_id });
  c.settle({ type: "control_response", response: { subtype: "success", request_id: written[0].request_id, response: { behavior: "allow" } } });
  expect(logged).toEqual([`stream-json: a control_response for "${written[0].request_id}", which no request of zot's waits for; ignored`]);
});
