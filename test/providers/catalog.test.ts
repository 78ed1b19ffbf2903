// The built-in catalog, models.json merging and its warnings, model resolution, the table.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as v from "valibot";
import { ModelInfo } from "../../src/protocol/models.ts";
import { familyOf, providerOfId } from "../../src/providers/model-ids.ts";
import {
  baseUrlProblem,
  BUILTIN_MODELS,
  defaultModelId,
  formatModelTable,
  headersFor,
  keyFor,
  loadCatalog,
  resolveModel,
} from "../../src/providers/catalog.ts";

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "zot-cat-"));
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

const writeModels = (data: unknown) =>
  fs.writeFileSync(path.join(home, "models.json"), typeof data === "string" ? data : JSON.stringify(data));
const find = (models: ModelInfo[], provider: string, id: string) =>
  models.find((m) => m.provider === provider && m.id === id);

describe("BUILTIN_MODELS", () => {
  test("every entry satisfies the ModelInfo schema and (provider, id) is unique", () => {
    const keys = new Set<string>();
    for (const m of BUILTIN_MODELS) {
      expect(v.safeParse(ModelInfo, m).success).toBe(true);
      const key = `${m.provider}/${m.id}`;
      expect(keys.has(key)).toBe(false);
      keys.add(key);
    }
  });

  test("numbers and wire APIs from the reference table", () => {
    const all = [...BUILTIN_MODELS];
    expect(find(all, "anthropic", "claude-sonnet-5-5")).toMatchObject({
      api: "anthropic-messages",
      context_window: 1_000_000,
      max_output: 128_000,
      reasoning: true,
      price_input: 2,
      price_output: 10,
      price_cache_read: 0.1,
      price_cache_write: 2.5,
    });
    expect(find(all, "anthropic", "claude-sonnet-4-5")).toMatchObject({ context_window: 200_000, max_output: 64_000, price_input: 3, price_cache_write: 3.75 });
    expect(find(all, "anthropic", "claude-opus-5-5")).toMatchObject({ context_window: 1_000_000, max_output: 128_000, price_input: 4, price_output: 20 });
    expect(find(all, "anthropic", "claude-opus-4-7")).toMatchObject({ context_window: 1_000_000, max_output: 128_000, price_input: 5 });
    expect(find(all, "anthropic", "claude-sonnet-4-6")).toMatchObject({ max_output: 128_000 });
    // Retired models are not listed (Opus 4.1, Opus 4 and Sonnet 4, the 3.x models).
    for (const id of ["claude-opus-4-1", "claude-opus-4-0", "claude-sonnet-4-0", "claude-3-7-sonnet-20250219", "claude-3-5-haiku-latest"]) expect(find(all, "anthropic", id)).toBeUndefined();
    expect(find(all, "openai", "gpt-6.1-sol")).toMatchObject({ api: "openai-responses", context_window: 922_000, max_output: 128_000, price_input: 2, price_output: 10 });
    expect(find(all, "openai", "gpt-5")).toMatchObject({ api: "openai-responses", context_window: 272_000, price_input: 1.25 });
    expect(find(all, "openai", "gpt-5.5")).toMatchObject({ context_window: 922_000 });
    // Shut down by OpenAI on 2026-10-23.
    for (const id of ["o1", "o3-mini", "o4-mini", "gpt-4.1-nano"]) expect(find(all, "openai", id)).toBeUndefined();
    expect(find(all, "openai", "gpt-5.2")?.api).toBe("openai-responses");
    expect(find(all, "openai", "o3")?.api).toBe("openai-responses");
    expect(find(all, "openai", "gpt-4.1")).toMatchObject({ api: "openai-chat", context_window: 1_047_576, reasoning: false });
    expect(find(all, "openai", "gpt-4o-mini")?.api).toBe("openai-chat");
    // Codex CLI's own models: the Responses API and their full output, not the 8,192 of an unknown model.
    for (const id of ["gpt-5-codex", "gpt-5.1-codex-max", "gpt-5.2-codex"]) expect(find(all, "openai", id)).toMatchObject({ api: "openai-responses", max_output: 128_000, reasoning: true });
    // Their window is the input they accept (272K), not input and output together (400K):
    // auto-compaction at 85% of it must come before the API refuses the request.
    for (const m of all.filter((m) => m.id.includes("codex"))) expect(m.context_window).toBe(272_000);
    expect(find(all, "scripted", "scripted")).toMatchObject({ api: "scripted", price_input: 0, context_window: 200_000 });
    expect(all.some((m) => m.provider === "ollama")).toBe(false);
  });

  test("defaults", () => {
    expect(defaultModelId("anthropic")).toBe("claude-sonnet-5-5");
    expect(defaultModelId("openai")).toBe("gpt-6.1-sol");
    expect(defaultModelId("scripted")).toBe("scripted");
    expect(defaultModelId("ollama")).toBeUndefined();
  });
});

describe("loadCatalog", () => {
  test("no models.json → the built-ins, no warnings", () => {
    const { models, warnings } = loadCatalog(home);
    expect(warnings).toEqual([]);
    expect(models.length).toBe(BUILTIN_MODELS.length);
  });

  test("a byte order mark before the JSON (Windows editors write one) is read past, as in every other file", () => {
    writeModels(`\uFEFF${JSON.stringify({ providers: { openai: { models: [{ id: "bom-model" }] } } })}`);
    const { models, warnings } = loadCatalog(home);
    expect(warnings).toEqual([]);
    expect(find(models, "openai", "bom-model")).toBeDefined();
  });

  test("an existing model is overridden field by field; a new one is appended as user", () => {
    writeModels({
      providers: {
        anthropic: { models: [{ id: "claude-sonnet-4-5", priceInput: 2, contextWindow: 500_000 }] },
        openai: {
          models: [{ id: "my-proxy-model", name: "Proxy", baseUrl: "http://proxy/v1", contextWindow: 64_000, reasoning: true }],
        },
        ollama: { models: [{ id: "qwen3:8b", maxTokens: 4096 }] },
      },
    });
    const { models, warnings } = loadCatalog(home);
    expect(warnings).toEqual([]);
    const sonnet = find(models, "anthropic", "claude-sonnet-4-5");
    expect(sonnet).toMatchObject({ price_input: 2, context_window: 500_000, source: "user" });
    // untouched fields keep the catalog values
    expect(sonnet).toMatchObject({ price_output: 15, max_output: 64_000, api: "anthropic-messages", name: "Claude Sonnet 4.5" });
    // overriding does not duplicate or move the entry
    expect(models.filter((m) => m.id === "claude-sonnet-4-5").length).toBe(1);
    expect(models.findIndex((m) => m.id === "claude-sonnet-4-5")).toBe(BUILTIN_MODELS.findIndex((m) => m.id === "claude-sonnet-4-5"));

    expect(models.at(-2)).toMatchObject({
      provider: "openai",
      id: "my-proxy-model",
      name: "Proxy",
      base_url: "http://proxy/v1",
      context_window: 64_000,
      reasoning: true,
      api: "openai-chat",
      source: "user",
    });
    expect(models.at(-1)).toMatchObject({ provider: "ollama", id: "qwen3:8b", max_output: 4096, context_window: 32_768 });
  });

  test("provider aliases are normalised", () => {
    writeModels({ providers: { "openai-codex": { models: [{ id: "gpt-5", priceInput: 0 }] } } });
    expect(find(loadCatalog(home).models, "openai", "gpt-5")?.price_input).toBe(0);
  });

  test("pi's input field: a model whose input has no \"image\" takes no images; one that says image does; none said: as before", () => {
    writeModels({ providers: { ollama: { models: [{ id: "llama3.1:8b", input: ["text"] }, { id: "llava", input: ["text", "image", "audio"] }, { id: "plain" }] } } });
    const { models, warnings } = loadCatalog(home);
    expect(warnings).toEqual([]);
    expect([find(models, "ollama", "llama3.1:8b")?.images, find(models, "ollama", "llava")?.images, find(models, "ollama", "plain")?.images]).toEqual([false, true, undefined]);
  });

  test("pi's api names are read as zot's (openai-completions is openai-chat), for a provider and a model; an unknown one is named", () => {
    writeModels({
      providers: {
        ollama: { baseUrl: "http://localhost:1234/v1", api: "openai-completions", models: [{ id: "m1" }, { id: "m2", api: "openai-responses" }] },
        openai: { models: [{ id: "routed", api: "openai-completions" }] },
      },
    });
    const { models, warnings } = loadCatalog(home);
    expect(warnings).toEqual([]);
    expect(find(models, "ollama", "m1")).toMatchObject({ api: "openai-chat", base_url: "http://localhost:1234/v1" });
    expect(find(models, "ollama", "m2")?.api).toBe("openai-responses");
    expect(find(models, "openai", "routed")?.api).toBe("openai-chat");
    writeModels({ providers: { ollama: { api: "google-generative-ai", models: [{ id: "g" }] } } });
    expect(loadCatalog(home).warnings).toEqual([
      `${path.join(home, "models.json")}: field "providers.ollama.api": "google-generative-ai" is no API zot speaks: anthropic-messages, openai-chat, openai-responses, scripted (or pi's openai-completions, which is openai-chat); provider "ollama" was skipped.`,
    ]);
  });

  test("a baseUrl that is no http(s) URL is a warning naming the file and the field, as --base-url's is a usage error; a blank one is none", () => {
    writeModels({
      providers: {
        openai: { models: [{ id: "typo", baseUrl: "localhost:8080/v1" }, { id: "ftp", baseUrl: "ftp://models.example/v1" }, { id: "blank", baseUrl: " " }, { id: "fine", baseUrl: "http://127.0.0.1:8080/v1" }] },
        ollama: { baseUrl: "nota url", models: [{ id: "m" }] },
      },
    });
    const { models, warnings } = loadCatalog(home);
    const file = path.join(home, "models.json");
    const said = "takes the server's URL, http:// or https:// (as http://localhost:11434/v1)";
    expect(warnings).toEqual([
      expect.stringContaining(`${file}: field "providers.openai.models[0].baseUrl": ${said}`),
      expect.stringContaining(`${file}: field "providers.openai.models[1].baseUrl": ${said}`),
      expect.stringContaining(`${file}: field "providers.ollama.baseUrl": ${said}`),
    ]);
    expect(find(models, "openai", "typo")).toBeUndefined();
    expect(find(models, "openai", "fine")?.base_url).toBe("http://127.0.0.1:8080/v1");
    expect(find(models, "openai", "blank")?.base_url).toBeUndefined();
  });

  test("a model skipped for its baseUrl (its own, or its provider entry's) cannot be used: a run that asks for it gets the usage sentence, not the provider's own server", () => {
    writeModels({
      providers: {
        openai: { models: [{ id: "typo", baseUrl: "localhost:8080/v1" }, { id: "fine", baseUrl: "http://127.0.0.1:8080/v1" }] },
        ollama: { baseUrl: "nota url", models: [{ id: "m" }, { id: "own", baseUrl: "http://127.0.0.1:1/v1" }] },
      },
    });
    const catalog = loadCatalog(home);
    const file = path.join(home, "models.json");
    expect(baseUrlProblem(catalog, { provider: "openai", id: "typo" })).toBe(
      `${file}: field "providers.openai.models[0].baseUrl" takes the server's URL, http:// or https:// (as https://api.anthropic.com or http://localhost:11434); got "localhost:8080/v1"`,
    );
    expect(baseUrlProblem(catalog, { provider: "ollama", id: "m" })).toStartWith(`${file}: field "providers.ollama.baseUrl" takes the server's URL`);
    expect(baseUrlProblem(catalog, { provider: "ollama", id: "own" })).toBeUndefined();
    expect(baseUrlProblem(catalog, { provider: "openai", id: "fine" })).toBeUndefined();
    expect(baseUrlProblem(catalog, { provider: "openai", id: "gpt-4.1" })).toBeUndefined();
  });

  test("a bad entry is a warning naming the file and the field; other entries still load", () => {
    writeModels({
      providers: {
        openai: {
          models: [
            { id: "good-one" },
            { id: "bad-one", contextWindow: "big" },
            { id: "also-good", priceOutput: 1 },
          ],
        },
      },
    });
    const { models, warnings } = loadCatalog(home);
    expect(warnings.length).toBe(1);
    expect(warnings[0]).toContain(path.join(home, "models.json"));
    expect(warnings[0]).toContain("providers.openai.models[1].contextWindow");
    expect(find(models, "openai", "good-one")).toBeDefined();
    expect(find(models, "openai", "also-good")).toBeDefined();
    expect(find(models, "openai", "bad-one")).toBeUndefined();
    expect(find(models, "anthropic", "claude-sonnet-4-5")).toBeDefined();
  });

  test("invalid JSON is a warning naming the file; the built-ins still load", () => {
    writeModels("{ nope");
    const { models, warnings } = loadCatalog(home);
    expect(warnings.length).toBe(1);
    expect(warnings[0]).toContain(path.join(home, "models.json"));
    expect(warnings[0]).toContain("not valid JSON");
    expect(models.length).toBe(BUILTIN_MODELS.length);
  });

  test("a wrong shape and an unknown provider are named", () => {
    writeModels({ models: [] });
    expect(loadCatalog(home).warnings[0]).toContain('"providers"');
    writeModels({ providers: { kimi: { models: [{ id: "k" }] }, openai: { models: "x" } } });
    const { warnings } = loadCatalog(home);
    expect(warnings.some((w) => w.includes('provider "kimi"') && w.includes('go under "openai" or "ollama", with its baseUrl and apiKey'))).toBe(true);
    expect(warnings.some((w) => w.includes("providers.openai.models"))).toBe(true);
  });

  test("a bad provider-level apiKey or baseUrl is named as that field, not as the models array", () => {
    writeModels({ providers: { openai: { apiKey: 42, models: [{ id: "a" }] }, anthropic: { baseUrl: ["x"], models: [] } } });
    const { warnings } = loadCatalog(home);
    expect(warnings.some((w) => w.includes('field "providers.openai.apiKey"') && w.includes('provider "openai" was skipped'))).toBe(true);
    expect(warnings.some((w) => w.includes('field "providers.anthropic.baseUrl"'))).toBe(true);
    expect(warnings.some((w) => w.includes("must be an array"))).toBe(false);
  });

  test("the built-in list is never mutated by a merge", () => {
    writeModels({ providers: { anthropic: { models: [{ id: "claude-sonnet-5-5", priceInput: 99 }] } } });
    loadCatalog(home);
    expect(BUILTIN_MODELS[0]).toMatchObject({ id: "claude-sonnet-5-5", price_input: 2 });
  });
});

describe("resolveModel", () => {
  const catalog = [...BUILTIN_MODELS];

  test("no id → the provider default", () => {
    expect(resolveModel(catalog, "anthropic")).toEqual({ model: find(catalog, "anthropic", "claude-sonnet-5-5")! });
    expect("model" in resolveModel(catalog, "openai") && resolveModel(catalog, "openai")).toMatchObject({ model: { id: "gpt-6.1-sol" } });
    expect(resolveModel(catalog, "scripted")).toMatchObject({ model: { id: "scripted", api: "scripted" } });
  });

  test("unknown id → an error listing the provider's valid ids", () => {
    const result = resolveModel(catalog, "anthropic", "claude-nope");
    expect("error" in result).toBe(true);
    const error = (result as { error: string }).error;
    expect(error).toStartWith('unknown model "claude-nope" for anthropic; valid: claude-sonnet-5-5, ');
    expect(error).toContain("claude-haiku-4-5");
    expect(error).not.toContain("gpt-5");
  });

  test("an id of another provider says which", () => {
    const error = (resolveModel(catalog, "anthropic", "gpt-5") as { error: string }).error;
    expect(error).toContain("--provider openai");
  });

  test("the README states the windows an undescribed model gets: 128K, and an ollama model 32K", () => {
    const readme = fs.readFileSync(path.join(import.meta.dir, "..", "..", "README.md"), "utf8");
    const ollama = readme.slice(readme.indexOf("- **ollama**"), readme.indexOf("- **scripted**"));
    expect(resolveModel(catalog, "ollama", "llama3.2")).toMatchObject({ model: { context_window: 32_768, max_output: 8_192 } });
    expect(ollama).toContain("32K context window (32,768 tokens) and 8,192 output tokens");
    expect(ollama).toContain('"contextWindow":131072');
    const unknown = resolveModel(catalog, "openai", "my-proxy-model", { acceptUnknown: { modelsFile: "models.json" } });
    expect(unknown).toMatchObject({ model: { context_window: 128_000, max_output: 8_192 } });
    // DeepSeek's reasoner, a Kimi thinking model and an R1 distill think too: their output holds the thinking
    for (const id of ["deepseek-reasoner", "moonshotai/kimi-k2-thinking", "deepseek-r1-distill-qwen-32b"]) {
      expect([id, resolveModel(catalog, "openai", id, { acceptUnknown: { modelsFile: "models.json" } })]).toMatchObject([id, { model: { max_output: 32_000 } }]);
    }
    const reasons = resolveModel(catalog, "openai", "o3-pro", { acceptUnknown: { modelsFile: "models.json" } });
    expect(reasons).toMatchObject({ model: { context_window: 128_000, max_output: 32_000, reasoning: true } });
    expect(readme).toContain("is sent as asked with a 128K context, 8,192 output tokens (32,000 for one zot knows to reason");
  });

  test("ollama: any id gets a synthetic entry; no id is an error", () => {
    expect(resolveModel(catalog, "ollama", "llama3.2")).toEqual({
      model: {
        id: "llama3.2",
        provider: "ollama",
        name: "llama3.2",
        api: "openai-chat",
        context_window: 32_768,
        max_output: 8_192,
        reasoning: false,
        price_input: 0,
        price_output: 0,
        price_cache_read: 0,
        price_cache_write: 0,
        source: "synthetic",
      },
    });
    expect((resolveModel(catalog, "ollama") as { error: string }).error).toContain("--model");
  });
});

describe("ids the catalog does not list", () => {
  const catalog = [...BUILTIN_MODELS];
  const open = { acceptUnknown: { modelsFile: "/h/models.json" } };

  test("aliases resolve to the newest model of the family", () => {
    // As Claude Code's aliases point in November 2026; `fable` names the newest Fable.
    expect(resolveModel(catalog, "anthropic", "sonnet")).toMatchObject({ model: { id: "claude-sonnet-5-5" } });
    expect(resolveModel(catalog, "anthropic", "opus")).toMatchObject({ model: { id: "claude-opus-5-5" } });
    expect(resolveModel(catalog, "anthropic", "haiku")).toMatchObject({ model: { id: "claude-haiku-5-5" } });
    expect(resolveModel(catalog, "anthropic", "fable")).toMatchObject({ model: { id: "claude-fable-5-2" } });
  });

  test("a dated snapshot keeps its id and takes its family's limits and prices, with no note", () => {
    const sonnet = resolveModel(catalog, "anthropic", "claude-sonnet-4-5-20250929");
    expect(sonnet).toMatchObject({ model: { id: "claude-sonnet-4-5-20250929", context_window: 200_000, price_input: 3 } });
    expect("note" in sonnet).toBe(false);
    expect(resolveModel(catalog, "anthropic", "claude-opus-4-5-20251101")).toMatchObject({ model: { context_window: 200_000, price_output: 25 } });
    expect(resolveModel(catalog, "anthropic", "claude-haiku-4-5-latest")).toMatchObject({ model: { id: "claude-haiku-4-5-latest", max_output: 64_000 } });
    expect(resolveModel(catalog, "openai", "gpt-4.1-2025-04-14")).toMatchObject({ model: { api: "openai-chat", price_input: 2 } });
  });

  test("acceptUnknown: any other id is the provider's, with default limits, no price and a note naming models.json", () => {
    const pro = resolveModel(catalog, "openai", "o3-pro", open) as { model: ModelInfo; note: string };
    expect(pro.model).toMatchObject({ id: "o3-pro", provider: "openai", api: "openai-responses", price_input: 0, source: "synthetic" });
    expect(pro.note).toContain('"o3-pro" is not in zot\'s catalog');
    expect(pro.note).toContain("/h/models.json");
    // A catalog model in a gateway's spelling takes that model's limits (not its price: the gateway's may differ).
    const sonnet = catalog.find((m) => m.id === "claude-sonnet-4-5")!;
    const routed = resolveModel(catalog, "openai", "anthropic/claude-sonnet-4.5", open) as { model: ModelInfo; note: string };
    expect(routed.model).toMatchObject({ api: "openai-chat", context_window: sonnet.context_window, max_output: sonnet.max_output, price_input: 0 });
    expect(routed.note).toContain("with claude-sonnet-4-5's limits");
    const opus = catalog.find((m) => m.id === "claude-opus-4-7")!;
    expect(resolveModel(catalog, "anthropic", "us.anthropic.claude-opus-4-7-v1:0", open)).toMatchObject({ model: { max_output: opus.max_output } });
    expect(resolveModel(catalog, "openai", "openai/gpt-4.1", open)).toMatchObject({ model: { max_output: catalog.find((m) => m.id === "gpt-4.1")!.max_output } });
    // the scripted demo is no model a gateway serves
    expect(resolveModel(catalog, "openai", "acme/scripted", open)).toMatchObject({ model: { context_window: 128_000, max_output: 8_192 } });
    expect(resolveModel(catalog, "anthropic", "claude-future-9", open)).toMatchObject({ model: { api: "anthropic-messages", reasoning: false } });
    // A Claude id whose family zot reads (a proxy's, Bedrock's) thinks as its family does.
    expect(resolveModel(catalog, "anthropic", "anthropic/claude-sonnet-5-5", open)).toMatchObject({ model: { reasoning: true, source: "synthetic" } });
    expect(resolveModel(catalog, "anthropic", "us.anthropic.claude-opus-4-7-v1:0", open)).toMatchObject({ model: { reasoning: true } });
    // the scripted provider plays a file; it has no other models
    expect("error" in resolveModel(catalog, "scripted", "gpt-5", open)).toBe(true);
  });

  test("an id's shape names its provider", () => {
    expect(providerOfId("claude-whatever")).toBe("anthropic");
    expect(providerOfId("sonnet")).toBe("anthropic");
    for (const id of ["gpt-4.1-2025-04-14", "o3-pro", "o1", "o4-mini-high", "chatgpt-4o-latest"]) expect(providerOfId(id)).toBe("openai");
    for (const id of ["llama3.2", "openrouter/auto", "omni", "qwen3:32b"]) expect(providerOfId(id)).toBeUndefined();
    expect(familyOf("claude-opus-4-1-20250805")).toBe("claude-opus-4-1");
    expect(familyOf("gpt-5")).toBe("gpt-5");
  });
});

test("formatModelTable aligns columns", () => {
  const table = formatModelTable([...BUILTIN_MODELS]);
  const lines = table.trimEnd().split("\n");
  expect(lines[0]).toMatch(/^provider\s+model id\s+context\s+max out\s+reasoning\s+\$in\/M\s+\$out\/M\s+source/);
  expect(lines.length).toBe(BUILTIN_MODELS.length + 1);
  const sonnet = lines.find((l) => l.includes("claude-sonnet-4-5"))!;
  expect(sonnet).toMatch(/anthropic\s+claude-sonnet-4-5\s+200K\s+64K\s+✓\s+3\.00\s+15\.00\s+catalog\s+Claude Sonnet 4\.5/);
  // the context column is right-aligned: every value ends at the same column
  const ctxEnd = lines[0].indexOf("context") + "context".length;
  expect(sonnet.slice(0, ctxEnd).endsWith("200K")).toBe(true);
  const gpt41 = lines.find((l) => / gpt-4\.1 /.test(l))!;
  expect(gpt41.slice(0, ctxEnd).endsWith("1.05M")).toBe(true);
  // the source column starts at the same offset in every row
  const sourceCol = lines[0].indexOf("source");
  for (const line of lines.slice(1)) expect(line.slice(sourceCol)).toMatch(/^(catalog|user|synthetic)/);
});

describe("keyFor", () => {
  const own = { provider: "openai" as const, id: "tog" };

  test('a "$VAR" key whose variable is unset is an error naming the variable and the field, never no key (which would be the provider\'s)', () => {
    writeModels({ providers: { openai: { models: [{ id: "tog", baseUrl: "http://tog.example/v1", apiKey: "$TOGETHER_KEY" }] } } });
    const catalog = loadCatalog(home);
    const unset = keyFor(catalog, own, {});
    expect(unset && "error" in unset && unset.error).toContain("TOGETHER_KEY");
    expect(unset && "error" in unset && unset.error).toContain('"providers.openai.models[0].apiKey"');
    expect(unset && "error" in unset && unset.error).toContain(path.join(home, "models.json"));
    expect(keyFor(catalog, own, { TOGETHER_KEY: "tk-real" })).toEqual({ key: "tk-real", from: "TOGETHER_KEY (models.json)" });
  });

  test("a provider-level ${VAR} unset is an error naming the provider's field; a model with no key named gets none from models.json", () => {
    writeModels({ providers: { openai: { apiKey: "${SHARED}", models: [{ id: "tog" }] } } });
    const catalog = loadCatalog(home);
    const unset = keyFor(catalog, own, {});
    expect(unset && "error" in unset && unset.error).toContain('"providers.openai.apiKey"');
    expect(keyFor(catalog, { provider: "openai", id: "gpt-5" }, {})).toBeUndefined();
  });

  test("pi's \"!command\" key or header is refused naming the field: zot runs no command from models.json, and never sends the command's text", () => {
    writeModels({ providers: { openai: { apiKey: "!op read 'op://vault/key'", headers: { "X-Team": "!pass show team" }, models: [{ id: "tog" }] } } });
    const catalog = loadCatalog(home);
    const key = keyFor(catalog, own, {});
    expect(key && "error" in key && key.error).toContain('"providers.openai.apiKey" gives model "tog"\'s apiKey as pi\'s "!command", which zot does not run');
    const headers = headersFor(catalog, own, {});
    expect(headers && "error" in headers && headers.error).toContain('header X-Team of model "tog" as pi\'s "!command"');
  });

  test("pi's bare name is the variable when set, else the text itself; a literal key is itself", () => {
    writeModels({ providers: { openai: { models: [{ id: "tog", apiKey: "TOGETHER_API_KEY" }, { id: "lit", apiKey: "tk-literal" }] } } });
    const catalog = loadCatalog(home);
    expect(keyFor(catalog, own, { TOGETHER_API_KEY: "tk" })).toEqual({ key: "tk", from: "TOGETHER_API_KEY (models.json)" });
    expect(keyFor(catalog, own, {})).toEqual({ key: "TOGETHER_API_KEY", from: "models.json" });
    expect(keyFor(catalog, { provider: "openai", id: "lit" }, {})).toEqual({ key: "tk-literal", from: "models.json" });
  });

  test("a dated snapshot of a models.json model gets that model's key, as it gets its baseUrl", () => {
    writeModels({ providers: { openai: { models: [{ id: "tog", baseUrl: "http://tog.example/v1", apiKey: "tk-own" }] } } });
    const catalog = loadCatalog(home);
    const snapshot = resolveModel(catalog.models, "openai", "tog-2025-01-01");
    expect("model" in snapshot && snapshot.model.base_url).toBe("http://tog.example/v1");
    expect(keyFor(catalog, { provider: "openai", id: "tog-2025-01-01" }, {})).toEqual({ key: "tk-own", from: "models.json" });
  });
});
