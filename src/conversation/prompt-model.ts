// A prompt that names the model it runs on: a Markdown command's `model:` front matter, as Claude
// Code's custom commands have it (`model: haiku` for a cheap command). The run switches to that
// model for the one prompt, then back, each switch an ordinary model switch (the status bar, the
// session and the extensions see both).
// Rule: the run's model is back once the prompt ends, however it ends; a model the run cannot
// switch to (an unknown id, another provider's) is a note, and the prompt runs on the run's model.
import type { PromptOutcome } from "../core/outcomes.ts";
import type { Runtime } from "../runtime/runtime.ts";
import type { ModelChoices } from "./model-choices.ts";

/** The model a prompt asks for, and who asked (for the note when it cannot be had). */
export interface PromptModel {
  /** an id, an alias or a snapshot, as the command wrote it */
  id: string;
  /** `/review` */
  command: string;
  /** the command's owner, whose name the note carries */
  owner: string;
}

export async function onPromptModel(
  runtime: Runtime,
  models: ModelChoices,
  wanted: PromptModel,
  run: () => Promise<PromptOutcome>,
  note: (owner: string, message: string) => void,
): Promise<PromptOutcome> {
  const previous = runtime.agent.model;
  const found = models.find(wanted.id);
  if ("error" in found) {
    note(wanted.owner, `${wanted.command} asks for model "${wanted.id}", which this run cannot switch to (${found.error}); it runs on ${previous.id}`);
    return run();
  }
  if (found.model.id === previous.id) return run();
  await runtime.setModel(found.model);
  try {
    return await run();
  } finally {
    await runtime.setModel(previous).catch((error: unknown) => note(wanted.owner, `could not switch back to ${previous.id} after ${wanted.command}: ${(error as Error).message}`));
  }
}
