// `set_reasoning` (the newer original's addition): the reasoning effort of the prompts that follow.
// Rule: the original's seven levels map onto the three zot's providers send (Anthropic's thinking
// budget, OpenAI's reasoning effort); off sends none, the others clamp to the nearest zot has. Like
// clear and set_model it is refused while a prompt runs or waits, so none changes under its feet,
// and waits behind a model switch sent before it.
import type { ReasoningLevel } from "../protocol/models.ts";
import type { RpcReasoning } from "../protocol/rpc-frames.ts";
import type { Handler } from "./rpc-session.ts";

/** off → none; minimum → low; low, medium, high as they are; xhigh and max → high. */
export function reasoningLevel(wanted: RpcReasoning): ReasoningLevel | undefined {
  switch (wanted) {
    case "off":
      return undefined;
    case "minimum":
      return "low";
    case "xhigh":
    case "max":
      return "high";
    default:
      return wanted;
  }
}

export const setReasoning: Handler<"set_reasoning"> = async (command, session) => {
  const level = reasoningLevel(command.reasoning);
  await session.conversation.setReasoning(level);
  return { data: { reasoning: command.reasoning, applied: level ?? "off" } };
};
