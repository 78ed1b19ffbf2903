// `get_models` and `set_model` (and the `/model` command over rpc): the models of the provider
// this process speaks. Rule: one provider per process; another provider needs another `zot rpc`.
import { loadCatalog, resolveModel } from "../providers/catalog.ts";
import type { ModelInfo } from "../protocol/models.ts";
import { type Answer, busyError, type Handler, type RpcSession, runQueued } from "./rpc-session.ts";

export const getModels: Handler<"get_models"> = (_command, session) => ({
  data: {
    models: providerModels(session).map((m) => ({
      id: m.id,
      provider: m.provider,
      context_window: m.context_window,
      max_output: m.max_output,
      reasoning: m.reasoning,
    })),
  },
});

export const setModel: Handler<"set_model"> = (command, session) => switchModel(session, command.model);

/** Switches the model, or says why not (busy, not a model of this provider). */
export async function switchModel(session: RpcSession, wanted: string): Promise<Answer<"set_model">> {
  const busy = busyError(session, "switch the model");
  if (busy) return { error: busy };
  const { agent } = session.runtime;
  const provider = agent.model.provider;
  const id = wanted.trim();
  const resolved = id ? resolveModel(providerModels(session), provider, id) : undefined;
  if (!resolved || "error" in resolved) {
    return {
      error: `unknown model "${id}" for ${provider}; get_models lists the models this process can switch to (another provider needs a new zot rpc --provider …)`,
    };
  }
  // Queued, so a prompt sent right after this command runs on the new model, never on the old one.
  await runQueued(session, "a model switch", () => session.runtime.setModel(resolved.model));
  return { data: { model: resolved.model.id } };
}

/** The current provider's models from the catalog (models.json included), the current one always among them. */
function providerModels(session: RpcSession): ModelInfo[] {
  const current = session.runtime.agent.model;
  const models = loadCatalog(session.runtime.home).models.filter((m) => m.provider === current.provider);
  return models.some((m) => m.id === current.id) ? models : [current, ...models];
}
