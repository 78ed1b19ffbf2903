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
 * Switches the model, or says why not (busy, not a model of this provider). The switch is queued
 * work, so a prompt sent right after this command runs on the new model, never on the old one.
 */
export async function switchModel(session: RpcSession, wanted: string): Promise<Answer<"set_model">> {
  const { conversation } = session;
  try {
    const model = await conversation.setModel(wanted);
    return { data: { model: model.id } };
  } catch (error) {
    if (!(error instanceof UnknownModelError)) throw error;
    const provider = conversation.model.provider;
    return {
      error: `unknown model "${wanted.trim()}" for ${provider}; get_models lists the models this process can switch to (another provider needs a new zot rpc --provider …)`,
    };
  }
}
