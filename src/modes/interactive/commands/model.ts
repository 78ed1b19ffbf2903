// /model: a picker of the models the user has credentials for (fuzzy filter; the current one
// marked), `/model <id>` (or a name --model takes, `sonnet`) to switch at once, `/model <part of a
// name>` to open the picker filtered; an id that names nothing known is read as --model reads it
// (sent as asked, with default limits and the same note).
// Rule: a switch happens only between models the conversation can reach in this process (one provider
// per run); a model of another provider is listed when its key is there, and picking it says how
// to start zot on it instead of failing later. A running turn is cancelled only when the model
// actually changes, not when the picker opens.
import { article } from "../../../protocol/article.ts";
import { errorText } from "../../../protocol/error-text.ts";
import { formatPrice, formatTokens } from "../../../protocol/model-figures.ts";
import type { ModelInfo } from "../../../protocol/models.ts";
import { fuzzyFilter } from "../../../tui/fuzzy.ts";
import type { SelectItem } from "../../../tui/select-list.ts";
import type { AppContext, SlashCommand } from "../app-context.ts";
import { pick } from "./pick.ts";

/** The models to offer: the current provider's (current model first), then other providers' with a key. */
export function modelChoices(app: AppContext, env?: Readonly<Record<string, string | undefined>>): ModelInfo[] {
  const { models } = app.conversation;
  const current = models.current;
  const own = models.own().filter((m) => m.id !== current.id);
  return [current, ...own, ...models.others(env)];
}

function describe(model: ModelInfo, current: ModelInfo): string {
  const price = model.price_input === 0 && model.price_output === 0 ? "free" : `$${formatPrice(model.price_input)}/$${formatPrice(model.price_output)} per M`;
  const parts = [model.name === model.id ? undefined : model.name, `${formatTokens(model.context_window)} context`, price];
  if (model.provider !== current.provider) parts.push(`needs zot --provider ${model.provider}`);
  if (model === current) parts.push("current");
  return parts.filter(Boolean).join(" · ");
}

function items(models: ModelInfo[]): SelectItem<ModelInfo>[] {
  const current = models[0]!;
  return models.map((m) => ({ label: m.id, value: m, description: describe(m, current), group: m.provider }));
}

/** Switches to `model`, or says why not; cancels a running turn first. `note` is said once the switch is made. */
export async function switchModel(app: AppContext, model: ModelInfo, note?: string): Promise<void> {
  const current = app.conversation.model;
  if (model.provider === current.provider && model.id === current.id) {
    app.showNote(`already using ${model.id}`);
    return;
  }
  if (model.provider !== current.provider) {
    app.showNote(
      `${model.id} is ${article(model.provider)} ${model.provider} model and this zot talks to ${current.provider}; one process speaks one provider, so quit and run zot --provider ${model.provider} --model ${model.id} (-c continues this conversation)`,
      "warn",
    );
    return;
  }
  if (app.busy) await app.cancelTurn();
  try {
    await app.conversation.setModel(model);
  } catch (error) {
    app.showNote(`could not switch to ${model.id}: ${errorText(error)}`, "error");
    return;
  }
  app.showNote(`model: ${model.id}${model.name !== model.id ? ` (${model.name})` : ""}`, "success");
  if (note) app.showNote(note, "warn");
}

/** The model `wanted` names exactly: an id, or `provider/id`. */
function exactModel(app: AppContext, choices: ModelInfo[], wanted: string): ModelInfo | undefined {
  const slash = wanted.indexOf("/");
  const [provider, id] = slash > 0 ? [wanted.slice(0, slash), wanted.slice(slash + 1)] : [undefined, wanted];
  const found = choices.find((m) => m.id === id && (provider === undefined || m.provider === provider));
  if (found) return found;
  // Ollama serves whatever the user pulled, listed in models.json or not.
  const current = app.conversation.model;
  if (current.provider === "ollama" && (provider === undefined || provider === "ollama")) {
    const resolved = app.conversation.models.find(id);
    if ("model" in resolved) return resolved.model;
  }
  return undefined;
}

async function pickModel(app: AppContext, choices: ModelInfo[], filter = ""): Promise<void> {
  const picked = await pick(app, items(choices), { title: "Switch model", emptyText: "no model matches", filter });
  if (picked) await switchModel(app, picked.value);
}

export const MODEL_COMMAND: SlashCommand = {
  name: "model",
  description: "Switch the model: a picker of the models you have a key for, or /model <id>",
  argsHint: "[id]",
  async run(app, args) {
    const wanted = args.trim();
    const choices = modelChoices(app);
    if (!wanted) return pickModel(app, choices);
    const exact = exactModel(app, choices, wanted);
    if (exact) return switchModel(app, exact);
    // As --model reads it: an alias (sonnet, opus, haiku) or a dated snapshot of this provider's.
    const named = app.conversation.models.find(wanted);
    if ("model" in named) return switchModel(app, named.model);
    const matches = fuzzyFilter(choices, wanted, (m) => m.id);
    if (matches.length === 1) return switchModel(app, matches[0]!.item);
    if (matches.length > 1) return pickModel(app, choices, wanted);
    // Another provider's, with no key for it here: say how to start zot on it.
    const elsewhere = app.conversation.models.elsewhere(wanted);
    if (elsewhere) return switchModel(app, elsewhere);
    // Any other id, as --model takes it: sent as asked, with default limits and the note saying so.
    const asked = app.conversation.models.readAsModelFlag(wanted);
    if ("error" in asked) return app.showNote(`${asked.error}; /model lists the models you can switch to`, "error");
    return switchModel(app, asked.model, asked.note);
  },
};
