// `set_reasoning` (the newer original's addition): the reasoning effort of the prompts that follow.
// Rule: the original's seven levels map onto zot's five (Claude's effort or thinking budget,
// OpenAI's effort, which takes xhigh and max as high); off sends none, minimum is low. Like
// clear and set_model it is refused while a prompt runs or waits, so none changes under its feet,
// and waits behind a model switch sent before it.
import type { ReasoningLevel } from "../protocol/models.ts";
import { reasoningOfWord } from "../protocol/reasoning-words.ts";
import type { RpcReasoning } from "../protocol/rpc-frames.ts";
import type { Handler } from "./rpc-session.ts";

/** off → none; minimum (minimal) → low; maximum → max; the others as they are. */
export function reasoningLevel(wanted: RpcReasoning): ReasoningLevel | undefined {
  return reasoningOfWord(wanted);
}

export const setReasoning: Handler<"set_reasoning"> = async (command, session) => {
  const level = reasoningLevel(command.reasoning);
  await session.conversation.setReasoning(level);
  return { data: { reasoning: command.reasoning, applied: level ?? "off" } };
};
