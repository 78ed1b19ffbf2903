// `zot --json`: streams every agent event as one JSON object per line, exactly the shapes of the
// event union (the same stream `zot rpc` sends): extension notes as `ext_notify`, an extension's
// `/command` as `command_result`, an extension's panel as `panel_open`/`panel_render`/`panel_close`.
// Rule: the first line is the `session` being recorded (when there is one), so a script can go on
// with `--session <id>` instead of the racy `-c`.
import type { PromptInput } from "../core/agent.ts";
import { promptOrCommand, type RunOutcome } from "../extensions/slash-command.ts";
import { NdjsonWriter } from "./ndjson-writer.ts";
import { panelEventSink } from "../extensions/panel-events.ts";
import type { ModeSession } from "./print.ts";

export async function runJsonMode(session: ModeSession, input: PromptInput, signal: AbortSignal): Promise<RunOutcome> {
  const { agent, extensions } = session;
  const writer = new NdjsonWriter();
  if (session.recording) writer.write({ type: "session", ...session.recording });
  const off = agent.onEvent((event) => writer.write(event));
  // A reader that falls behind (`zot --json | slow`) holds the model and the tools back.
  const release = agent.holdBack(() => writer.pressure());
  extensions?.onNotify({ notify: (note) => agent.emit({ type: "ext_notify", ...note }) });
  extensions?.panels.show(panelEventSink(agent));
  try {
    return await promptOrCommand(agent, extensions, input, signal);
  } finally {
    off();
    release();
    await writer.close();
  }
}
