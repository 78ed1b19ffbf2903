// A prompt that runs on a model the agent lends its turns (a Markdown command's `model:`; see
// OnePromptModel): the agent's own model and client wait in the state meanwhile. Rule: a lent model
// never changes the conversation: where the transcript would have to be compacted for it (its
// compaction point reached, or an overflow), the prompt is handed back to the agent's own model for
// the rest of its turns, and the lender hears why; nothing is compacted for a lent model's sake.
import type { AgentState } from "./agent-state.ts";

/** The agent's own model and client while a prompt runs on a lent one, and who lent it. */
export interface LentFrom {
  model: AgentState["model"];
  provider: AgentState["provider"];
  /** told when the prompt is handed back before its end */
  handedBack?: (why: string) => void;
}

/** The agent's own model takes the prompt back; false when none was lent. */
export function handBack(state: AgentState, why: string): boolean {
  const lent = state.lentFrom;
  if (!lent) return false;
  const borrowed = state.model.id;
  state.model = lent.model;
  state.provider = lent.provider;
  state.lentFrom = undefined;
  lent.handedBack?.(`${why}; the rest of the prompt runs on ${lent.model.id} instead of ${borrowed}`);
  return true;
}
