// Claude Code's settings hooks for a run: the runtime's one entry point to them. Rule: what runs
// hooks (attach.ts: the hook runner, the settings' schemas) loads only when a settings file is
// there or the program running zot registered hooks; with neither, no hook can run all run long
// (the hooks of the start hold, settings-sources.ts), and a file that appears meanwhile is said as
// a file that changes is: its hooks take effect at the next start.
import { statSync } from "node:fs";
import type { SettingsHooks, SettingsHooksOptions } from "./attach.ts";
import { SettingsChanges } from "./settings-changes.ts";
import { settingsSources } from "./settings-locations.ts";
import type { AgentEvent } from "../protocol/events.ts";

/** The settings hooks on options.agent, or undefined when there are none to run (then a file that appears is said). */
export async function startSettingsHooks(options: SettingsHooksOptions): Promise<SettingsHooks | undefined> {
  const files =
    options.files === false
      ? []
      : settingsSources({ cwd: options.cwd, home: options.home, userHome: options.userHome, projectTrusted: options.projectTrusted, only: options.settingSources });
  if ((options.hosted?.length ?? 0) > 0 || files.some(({ file }) => isThere(file))) {
    const { attachSettingsHooks } = await import("./attach.ts");
    return attachSettingsHooks(options, files);
  }
  // Where a hook would have run (a prompt, a tool call and its result, a turn's end), a file that appeared is said.
  const changes = new SettingsChanges(files, (message) => options.log(message));
  options.agent.onEvent((event) => WOULD_RUN_HOOKS.has(event.type) && changes.notice(), { deltas: false });
  return undefined;
}

const WOULD_RUN_HOOKS: ReadonlySet<AgentEvent["type"]> = new Set(["user_message", "tool_call", "tool_result", "turn_end"]);

/** Whether a file is there to read, or to report as unreadable: only a missing one is not. */
function isThere(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ENOTDIR";
  }
}
