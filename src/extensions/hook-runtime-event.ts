// PicoClaw HEAD's hook.runtime_event params, built from the hook.event params of the same event:
// the lowercase pkg/events.Event envelope (id, kind, time, source, scope, correlation, severity,
// payload, attrs), dotted kinds (`agent.tool.exec_start`), and HEAD's severity rule.
// Rule: one event, two spellings. Nothing here decides *what* happened (hook-events.ts does); this
// file only re-spells it, field for field as HEAD's Go code marshals it: empty scope and
// correlation fields left out, `iteration` only when not 0, payloads keeping Go field names.
import { type HookEventParams, RUNTIME_EVENT_KINDS, type RuntimeEventParams } from "../protocol/hook-rpc.ts";

export interface RuntimeEventInput {
  /** the event as hook.event carries it */
  event: HookEventParams;
  /** the event's id (`evt-<n>`), the same for every hook that receives it */
  id: string;
  /** the payload as HEAD has it, where HEAD's differs from the document's (turn_start, turn_end) */
  payload?: Record<string, unknown>;
  /** PicoClaw's inbound channel and chat, as zot's requests carry them */
  channel: string;
  chatId: string;
}

export function toRuntimeEvent(input: RuntimeEventInput): RuntimeEventParams {
  const { event, id } = input;
  const meta = event.Meta;
  const kind = RUNTIME_EVENT_KINDS[event.Kind];
  const payload = input.payload ?? event.Payload;
  return {
    id,
    kind,
    time: event.Time,
    source: { component: "agent", ...present({ name: meta.AgentID }) },
    scope: present({
      agent_id: meta.AgentID,
      session_key: meta.SessionKey,
      turn_id: meta.TurnID,
      channel: input.channel,
      chat_id: input.chatId,
    }),
    correlation: present({ trace_id: meta.TracePath, parent_turn_id: meta.ParentTurnID }),
    severity: severity(kind, payload),
    payload,
    ...(meta.Source !== "" || meta.Iteration !== 0
      ? { attrs: { ...present({ agent_source: meta.Source }), ...(meta.Iteration !== 0 && { iteration: meta.Iteration }) } }
      : {}),
  };
}

/** HEAD's runtimeSeverityForAgentEvent, for the kinds zot sends. */
function severity(kind: RuntimeEventParams["kind"], payload: Record<string, unknown>): RuntimeEventParams["severity"] {
  switch (kind) {
    case "agent.error":
    case "agent.subturn.orphan":
      return "error";
    case "agent.llm.retry":
    case "agent.context.compress":
    case "agent.tool.exec_skipped":
      return "warn";
    case "agent.turn.end":
      return payload.Status === "error" ? "error" : payload.Status === "aborted" ? "warn" : "info";
    case "agent.tool.exec_end":
      return payload.IsError === true ? "warn" : "info";
    default:
      return "info";
  }
}

/** The fields that are not empty strings (Go's `omitempty`). */
function present<T extends Record<string, string>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== "")) as Partial<T>;
}
