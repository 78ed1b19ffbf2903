// A prompt that names the model it runs on: a Markdown command's `model:` front matter, as Claude
// Code's custom commands have it (`model: haiku` for a cheap command). The name is resolved here to
// a model of the run's provider (and the client it needs), which the agent uses for that prompt's
// turns only (core/outcomes.ts, OnePromptModel): the run's model is never switched, so neither the
// session, a fork, nor the extensions see a change.
// Rule: a prompt that cannot have its model runs on the run's, with a note saying why: an unknown
// id, another provider's model, a client that cannot be made, or a transcript too long for the
// model's window (running it there would compact the conversation to its size); one that outgrows
// the lent window while it runs goes back to the run's model (core/lent-model.ts), said the same way.
import type { OnePromptModel } from "../core/outcomes.ts";
import { errorText } from "../protocol/error-text.ts";
import { providerOfId } from "../providers/model-ids.ts";
import type { Runtime } from "../runtime/runtime.ts";
import type { ModelChoices } from "./model-choices.ts";

/** The model a prompt asks for, by name, and who asked (for the note when it cannot be had). */
export interface PromptModelRequest {
  /** an id, an alias or a snapshot, as the command wrote it */
  id: string;
  /** `/review` */
  command: string;
  /** the command's owner, whose name the note carries */
  owner: string;
}

/**
 * The model for the prompt (`text`), or undefined (the run's own) after `note` said why. Should the
 * prompt go back to the run's model before its end, `note` says that too.
 */
export async function resolvePromptModel(
  runtime: Runtime,
  models: ModelChoices,
  wanted: PromptModelRequest,
  text: string,
  note: (owner: string, message: string) => void,
): Promise<OnePromptModel | undefined> {
  const own = runtime.agent.model;
  const fallBack = (why: string) => {
    note(wanted.owner, `${wanted.command} asks for model "${wanted.id}": ${why}; it runs on ${own.id}`);
    return undefined;
  };
  // `haiku` on an ollama run would be taken as a local model's name (ollama takes any).
  const named = providerOfId(wanted.id);
  if (named && named !== own.provider) return fallBack(`it is one of ${named}'s models and this run speaks ${own.provider}`);
  const found = models.find(wanted.id);
  if ("error" in found) return fallBack(found.error);
  const info = found.model;
  if (info.id === own.id) return undefined;
  if (!runtime.agent.fitsIn(info, text)) return fallBack(`the conversation is too long for its ${Math.round(info.context_window / 1000)}K window`);
  const handedBack = (why: string) => note(wanted.owner, `${wanted.command} on ${info.id}: ${why}`);
  try {
    const provider = await runtime.clientFor(info);
    return provider ? { info, provider, handedBack } : { info, handedBack };
  } catch (error) {
    return fallBack(errorText(error));
  }
}
