import { expect, test } from "bun:test";
import { hostHooks } from "../../src/settings-hooks/host-hooks.ts";

test("each callback id is a hook of its event and matcher, with its timeout; an event zot never sends and a bad matcher are warnings", async () => {
  const asked: [string, Record<string, unknown>][] = [];
  const { hooks, warnings } = hostHooks(
    {
      PreToolUse: [{ matcher: "Bash|Write", hookCallbackIds: ["hook_0", "hook_1"], timeout: 5 }, { matcher: "(", hookCallbackIds: ["hook_2"] }],
      Stop: [{ hookCallbackIds: ["hook_3"] }],
      SubagentStart: [{ hookCallbackIds: ["hook_4"] }],
    },
    async (id, input) => {
      asked.push([id, input]);
      return { decision: "block", reason: id };
    },
  );
  expect(hooks.map((h) => [h.event, h.handler.type === "callback" && h.handler.id, h.timeoutMs, h.matcher.matches(["Bash"]), h.matcher.matches(["Read"])])).toEqual([
    ["PreToolUse", "hook_0", 5000, true, false],
    ["PreToolUse", "hook_1", 5000, true, false],
    ["Stop", "hook_3", 60000, true, true],
  ]);
  expect(warnings).toHaveLength(2);
  expect(warnings[0]).toStartWith("the program's PreToolUse hooks #2: ");
  expect(warnings[1]).toStartWith("the program's SubagentStart hooks never run: zot sends PreToolUse, PostToolUse");
  const handler = hooks[1].handler;
  if (handler.type !== "callback") throw new Error("not a callback");
  expect(await handler.run({ tool_name: "Bash" }, 1000, new AbortController().signal)).toMatchObject({ status: "exited", code: 0, stdout: JSON.stringify({ decision: "block", reason: "hook_1" }) });
  expect(asked).toEqual([["hook_1", { tool_name: "Bash" }]]);
});
