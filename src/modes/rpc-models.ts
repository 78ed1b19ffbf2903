// `get_models` and `set_model` (and the `/model` command over rpc): the models of the provider
// this process speaks. Rule: one provider per process; another provider needs another `zot rpc`.
import { UnknownModelError } from "../conversation/conversation.ts";
import type { Answer, Handler, RpcSession } from "./rpc-session.ts";

export const getModels: Handler<"get_models"> = (_command, session) => ({
  data: {
    models: session.conversation.models.own().map((m) => ({
      id: m.id,
      provider: m.provider,
      context_window: m.context_window,
      max_output: m.max_output,
      reasoning: m.reasoning,
    })),
  },
});

export const setModel: Handler<"set_model"> = (command, session) => switchModel(session, command.model);

/**
 * Switches the model, or says why not (busy, another provider's model). The switch is queued
 * work, so a prompt sent right after this command runs on the new model, never on the old one.
 */
export async function switchModel(session: RpcSession, wanted: string): Promise<Answer<"set_model">> {
  const { conversation } = session;
  try {
    // Read as --model reads it: a known id, alias or snapshot, or any other id sent as asked, with
    // default limits and a note. Another provider's model stays an error (setModel says why): this
    // process speaks one provider.
    const { models } = conversation;
    const asked = models.elsewhere(wanted) ? undefined : models.readAsModelFlag(wanted);
    const model = await conversation.setModel(asked && "model" in asked ? asked.model : wanted);
    return { data: { model: model.id, ...(asked && "note" in asked && asked.note ? { note: asked.note } : {}) } };
  } catch (error) {
    if (!(error instanceof UnknownModelError)) throw error;
    const provider = conversation.model.provider;
    return {
      error: `unknown model "${wanted.trim()}" for ${provider}; get_models lists the models this process can switch to (another provider needs a new zot rpc --provider …)`,
    };
  }
}
