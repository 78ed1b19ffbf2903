// A ModelInfo for tests and benchmarks: a free scripted model unless a test says otherwise.
// Rule: tests spell out only the fields they care about.
import type { ModelInfo } from "../../src/protocol/models.ts";

export function testModel(overrides: Partial<ModelInfo> = {}): ModelInfo {
  return {
    id: "test-model",
    provider: "scripted",
    name: "test",
    api: "scripted",
    context_window: 100_000,
    max_output: 100,
    reasoning: false,
    price_input: 0,
    price_output: 0,
    price_cache_read: 0,
    price_cache_write: 0,
    source: "catalog",
    ...overrides,
  };
}
