// What a run counts of each call's tokens and cost when the server says them its own way (a count
// left out or sent as a string), through the compiled binary against the mock LLM: the usage
// events, the running total, and the session a resume reads back.
import { afterEach, describe, expect, test } from "bun:test";
import { type MockLlm, type MockTurn, startMockLlm } from "../support/mock-llm.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

/** The two OpenAI wires: the model that speaks each, its prices per million tokens, and its usage fields' names. */
const WIRES = [
  { wire: "chat", model: "gpt-4o", price: { input: 2.5, output: 10 }, input: "prompt_tokens", output: "completion_tokens" },
  { wire: "responses", model: "gpt-5", price: { input: 1.25, output: 10 }, input: "input_tokens", output: "output_tokens" },
] as const;

/** One folder and ZOT_HOME for a run, the ones that resume it, and the commands that read its sessions. */
function place(mock: MockLlm, model: string) {
  const home = tempDir("zot-usage-home-");
  const cwd = tempDir("zot-usage-cwd-");
  const flags = ["--provider", "openai", "--model", model, "--api-key", "k", "--base-url", `${mock.url}/v1`];
  return { run: (args: string[]) => zot([...args, ...flags], { home, cwd }), sessions: (args: string[]) => zot(["sessions", ...args], { home, cwd }) };
}

describe("usage counts", () => {
  test.each(WIRES)("$wire: a count left out is 0 and a count sent as a string is its number; costs and totals stay numbers, and a resume keeps every call's cost", async ({ model, price, input, output }) => {
    const turns: MockTurn[] = [
      { text: "first", wire_usage: { [input]: 1000 } },
      { text: "second", wire_usage: { [input]: "1200", [output]: "5" } },
    ];
    mock = startMockLlm(turns);
    const { run, sessions } = place(mock, model);
    const first = await run(["--json", "hi"]);
    expect(first.code).toBe(0);
    const firstCost = (1000 * price.input) / 1e6;
    expect(ndjson(first.stdout).find((e) => e.type === "usage")).toMatchObject({ input: 1000, output: 0, cost_usd: firstCost, cumulative: { input: 1000, output: 0, cost_usd: firstCost } });

    const second = await run(["--json", "-c", "again"]);
    expect(second.code).toBe(0);
    // Before, the first call's record (output: null) was skipped here, and its cost forgotten.
    expect(second.stderr).not.toContain("skipped");
    const secondCost = (1200 * price.input + 5 * price.output) / 1e6;
    const usage = ndjson(second.stdout).find((e) => e.type === "usage");
    expect(usage).toMatchObject({ input: 1200, output: 5, cost_usd: secondCost, cumulative: { input: 2200, output: 5 } });
    expect(usage.cumulative.cost_usd).toBeCloseTo(firstCost + secondCost, 12);

    const listed = await sessions(["list"]);
    expect(listed.stdout).toContain(`$${(firstCost + secondCost).toFixed(4)}`);
  });
});
