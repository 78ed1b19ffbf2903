// `zot --json`: streams every event of the conversation as one JSON object per line, exactly the
// shapes of the event union (the stream `zot rpc` sends): extension notes as `ext_notify`, an
// extension's `/command` as `command_result`, an extension's panel as `panel_open`/`panel_render`/
// `panel_close`, and `done` last. Rule: the first line is the `session` being recorded (when there is
// one), so a script can go on with `--session <id>` instead of the racy `-c`; rpc's own additions
// (`ext_display`, `ext_clear_notes`) are not part of this stream.
import { noFTL } from "bun:jsc";
import type { Conversation, ConversationPrompt, UnitOutcome } from "../conversation/conversation.ts";
import type { AgentEvent, AgentEventType } from "../protocol/events.ts";
import { NdjsonWriter } from "./ndjson-writer.ts";
import { submitOnce } from "./submit-once.ts";

const RPC_ONLY: ReadonlySet<AgentEventType> = new Set(["ext_display", "ext_clear_notes", "confirm_request", "confirm_cancelled"]);

export async function runJsonMode(conversation: Conversation, input: ConversationPrompt, signal: AbortSignal): Promise<UnitOutcome> {
  const writer = new NdjsonWriter();
  if (conversation.session) writer.write({ type: "session", ...conversation.session });
  const writeEvent = (event: AgentEvent) => {
    if (!RPC_ONLY.has(event.type)) writer.write(event);
  };
  // Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
  noFTL(writeEvent);
  const off = conversation.onEvent(writeEvent);
  // A reader that falls behind (`zot --json | slow`) holds the model and the tools back.
  const release = conversation.holdBack(() => writer.pressure());
  let outcome: UnitOutcome;
  try {
    outcome = await submitOnce(conversation, input, signal);
  } finally {
    off();
    release();
    await writer.close();
  }
  // A full disk is no reader done with the stream: the run failed (ndjson-writer.ts).
  if (writer.failure) throw writer.failure;
  return outcome;
}
