// The settings hooks' deadline in the interception chain: the longest hook of the event, whichever
// group lists it. One guard command in a Read group (1 s) and a Bash group (120 s): a Bash call's
// guard has its 120 s, so the chain must not give up on it (and let the call run) after 3 s.
import { expect, test } from "bun:test";
import { HookRunner } from "../../src/settings-hooks/hook-runner.ts";
import { parseSettingsHooks } from "../../src/settings-hooks/settings-file.ts";
import type { SettingsHooksSources } from "../../src/settings-hooks/settings-sources.ts";
import { toolHooksParticipant } from "../../src/settings-hooks/tool-participant.ts";

test("a command in two groups: the chain waits for the longer timeout, whichever group comes first", () => {
  const settings = {
    hooks: {
      PreToolUse: [
        { matcher: "Read", hooks: [{ type: "command", command: "guard.sh", timeout: 1 }] },
        { matcher: "Bash", hooks: [{ type: "command", command: "guard.sh", timeout: 120 }] },
      ],
      PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "after.sh", timeout: 7 }] }],
    },
  };
  const { hooks } = parseSettingsHooks(JSON.stringify(settings), { file: "/p/.claude/settings.json", label: ".claude/settings.json", scope: "project" });
  const sources = { current: () => hooks } as unknown as SettingsHooksSources;
  const runner = new HookRunner(sources, {} as ConstructorParameters<typeof HookRunner>[1]);
  // What a Bash call runs: the Bash group's copy, with its 120 s.
  expect(runner.matching("PreToolUse", ["Bash"]).map((hook) => hook.timeoutMs)).toEqual([120_000]);
  const participant = toolHooksParticipant({ runner, isBuiltin: () => true });
  expect(participant.timeoutMs).toEqual({ tool_call: 122_000, after_tool: 9_000 });
});
