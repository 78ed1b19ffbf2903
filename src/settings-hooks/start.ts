// Claude Code's settings hooks for a run: the runtime's one entry point to them. Rule: what runs
// hooks (attach.ts: the hook runner, the settings' schemas) loads only when a settings file is
// there or the program running zot registered hooks; with neither, no hook can run all run long
// (the hooks of the start hold, settings-sources.ts), and a file that appears meanwhile is said as
// a file that changes is: its hooks take effect at the next start.
import type { AgentEvent } from "../protocol/events.ts";
import type { SettingsHooks, SettingsHooksOptions } from "./attach.ts";
import { SettingsChanges } from "./settings-changes.ts";
import { settingsFileStat } from "./settings-file-cache.ts";
import { settingsSources } from "./settings-locations.ts";

/** The settings hooks on options.agent, or undefined when there are none to run (then a file that appears is said). */
export async function startSettingsHooks(options: SettingsHooksOptions): Promise<SettingsHooks | undefined> {
  const files =
    options.files === false
      ? []
      : settingsSources({
          cwd: options.cwd,
          home: options.home,
          userHome: options.userHome,
          projectTrusted: options.projectTrusted,
          only: options.settingSources,
          codexHome: (options.env ?? process.env).CODEX_HOME,
        });
  // A file that cannot be read is there too: attach.ts says why its hooks do not run.
  const there = (file: string) => {
    const { info, failed } = settingsFileStat(file);
    return info !== undefined || failed !== undefined;
  };
  if ((options.hosted?.length ?? 0) > 0 || files.some(({ file }) => there(file))) {
    const { attachSettingsHooks } = await import("./attach.ts");
    return attachSettingsHooks(options, files);
  }
  // Where a hook would have run (a prompt, a tool call and its result, a turn's end, a compaction), a file that appeared is said.
  const changes = new SettingsChanges(files, (message) => options.log(message));
  options.agent.onEvent(
    (event) => {
      if (WOULD_RUN_HOOKS.has(event.type)) changes.notice();
    },
    { deltas: false },
  );
  return undefined;
}

const WOULD_RUN_HOOKS: ReadonlySet<AgentEvent["type"]> = new Set(["user_message", "tool_call", "tool_result", "turn_end", "compact_start"]);
