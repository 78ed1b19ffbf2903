// The models a conversation can switch to, and the ones it cannot but the user could start zot on.
// Rule: one provider per process: a switch goes to another model of this run's provider (its
// catalog entries, models.json included, and the current model even when no catalog lists it);
// another provider's models are offered only as a way to restart on them, and only with a key.
// Each list is read again through the runtime (Runtime.readModels), whose keys come from that read.
import { resolveApiKey } from "../config/credentials.ts";
import { zotPaths } from "../config/home.ts";
import { type ModelInfo, PROVIDER_NAMES, type ProviderName } from "../protocol/models.ts";
import { claudeCodeModel, setupModelIds } from "../config/settings-model.ts";
import { resolveModel } from "../providers/catalog.ts";
import { MODEL_ALIASES } from "../providers/model-ids.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { ownEntry } from "../protocol/own-key.ts";

export class ModelChoices {
  /** the model the run started on: one no catalog lists (a proxy's) can be picked again after a switch */
  private readonly started: ModelInfo;

  constructor(private readonly runtime: Runtime) {
    this.started = runtime.agent.model;
  }

  get current(): ModelInfo {
    return this.runtime.agent.model;
  }

  /**
   * This provider's models: the current one and the one the run started on when the catalog does
   * not list them (an ollama model, a proxy's), the models a Claude Code setup names
   * (ANTHROPIC_MODEL, ANTHROPIC_DEFAULT_*_MODEL: a proxy's glm-4.6), then the catalog's.
   */
  own(): ModelInfo[] {
    const current = this.current;
    const models = this.catalog().filter((m) => m.provider === current.provider);
    const listed = new Set(models.map((m) => m.id));
    const extra: ModelInfo[] = [];
    const add = (model: ModelInfo) => {
      if (!listed.has(model.id) && model.provider === current.provider) {
        listed.add(model.id);
        extra.push(model);
      }
    };
    add(current);
    add(this.started);
    for (const id of this.setupModels()) {
      const found = this.readAsModelFlag(id);
      if ("model" in found) add(found.model);
    }
    return [...extra, ...models];
  }

  /** The ids a Claude Code setup names for the Anthropic provider (config/settings-model.ts), less a slip no id has. */
  private setupModels(): string[] {
    if (this.current.provider !== "anthropic") return [];
    return setupModelIds(this.runtime.env).filter((id) => !/[\s"'`]/.test(id));
  }

  /** Other providers' models the user has a key for (ollama needs none), never the scripted demo's. */
  others(env: Readonly<Record<string, string | undefined>> = this.runtime.env): ModelInfo[] {
    const current = this.current;
    const home = this.runtime.home;
    return this.catalog().filter((m) => m.provider !== current.provider && m.provider !== "scripted" && hasKey(m.provider, home, env));
  }

  /** The model of this provider `id` names (an id, an alias, a dated snapshot; any name for ollama), or why none. */
  find(id: string): { model: ModelInfo } | { error: string } {
    const written = id.trim();
    if (!written) return { error: "no model named" };
    const current = this.current;
    const wanted = this.claudeName(written);
    const catalog = this.catalog();
    const known = catalog.some((m) => m.provider === current.provider && m.id === current.id) ? catalog : [current, ...catalog];
    // An alias the setup points at a model of its own (ANTHROPIC_DEFAULT_HAIKU_MODEL=glm-4.5-air) is that model, known or not.
    const pointed = wanted.toLowerCase() !== written.toLowerCase() && !ownEntry(MODEL_ALIASES, wanted.toLowerCase());
    const resolved = resolveModel(known, current.provider, wanted, pointed ? { acceptUnknown: { modelsFile: zotPaths(this.runtime.home).modelsFile } } : {});
    return "error" in resolved ? { error: resolved.error } : { model: resolved.model };
  }

  /** On the Anthropic provider, Claude Code's names as its setup reads them (`best`, `opusplan`, an alias ANTHROPIC_DEFAULT_*_MODEL points); else as written. */
  private claudeName(written: string): string {
    if (this.current.provider !== "anthropic") return written;
    return claudeCodeModel(written, this.runtime.env) ?? written;
  }

  /**
   * `id` as --model reads it on this run's provider: what find() finds, else any other id (`o3-pro`,
   * a proxy's `vendor/model`) taken as asked with default limits, and the note --model gives for it.
   */
  readAsModelFlag(id: string): { model: ModelInfo; note?: string } | { error: string } {
    const wanted = id.trim();
    if (!wanted) return { error: "no model named" };
    // A typed slip (`/model claude opus`, `/model "x"`), never a model's id.
    if (/[\s"'`]/.test(wanted)) return { error: `unknown model "${wanted}" (a model's id has no spaces or quotes)` };
    const current = this.current;
    const catalog = this.catalog();
    const known = catalog.some((m) => m.provider === current.provider && m.id === current.id) ? catalog : [current, ...catalog];
    return resolveModel(known, current.provider, this.claudeName(wanted), { acceptUnknown: { modelsFile: zotPaths(this.runtime.home).modelsFile } });
  }

  /** Another provider's model `id` names (as --model would read it there), for saying how to start zot on it. */
  elsewhere(id: string): ModelInfo | undefined {
    const current = this.current;
    const catalog = this.catalog();
    for (const provider of PROVIDER_NAMES) {
      if (provider === current.provider || provider === "scripted" || provider === "ollama") continue;
      const resolved = resolveModel(catalog, provider, id.trim());
      if ("model" in resolved) return resolved.model;
    }
    return undefined;
  }

  // models.json as it is now, through the runtime: the keys a switch then gives are this read's.
  private catalog(): ModelInfo[] {
    return this.runtime.readModels();
  }
}

function hasKey(provider: ProviderName, home: string, env: Record<string, string | undefined>): boolean {
  if (provider === "ollama") return true;
  try {
    return resolveApiKey(provider, { env, home }) !== undefined;
  } catch {
    // A broken auth.json was reported when zot started; here it only means "no key".
    return false;
  }
}
