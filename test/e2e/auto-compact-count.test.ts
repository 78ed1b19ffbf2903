// Automatic compaction through the compiled binary and the mock LLM, where the character estimate
// alone misjudges the context: dense text (CJK) the provider counts at four times the estimate, and
// a big tool result added since the last call's count. Both compact ("auto") before the call that
// would not fit, and the run succeeds.
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

const SUMMARY = "## Goal\nSummarise the files";
const SUMMARISER = "You summarise a conversation";
const read = (path: string) => ({ tool_calls: [{ name: "read", args: { path } }] });

/** 300 lines of 41 CJK characters: about 3,100 tokens by four characters a token, about 12,300 as a tokenizer counts them. */
function denseText(seed: number): string {
  let line = "";
  for (let i = 0; i < 41; i++) line += String.fromCodePoint(0x4e00 + ((seed * 7919 + i * 104_729) % 2_000));
  return `${line}\n`.repeat(300);
}

describe("automatic compaction counts what the provider counts", () => {
  test("dense text: at 87% of a local model's 32K window, the older step is compacted (auto) and the run succeeds", async () => {
    const cwd = tempDir("zot-dense-");
    writeFileSync(join(cwd, "a.txt"), `A-FILE\n${denseText(1)}`);
    writeFileSync(join(cwd, "b.txt"), `B-FILE\n${denseText(2)}`);
    // As a server counts them: the system prompt and tools, then a.txt (12,300 tokens), then b.txt would make 41,000.
    mock = startMockLlm([
      { ...read("a.txt"), usage: { input: 4_000, output: 20 } },
      { ...read("b.txt"), usage: { input: 28_500, output: 20 } },
      { text: SUMMARY, usage: { input: 14_000, output: 50 } },
      { text: "final answer", usage: { input: 17_000, output: 20 } },
    ]);
    const run = await zot(["--json", "summarise a.txt and b.txt", "--provider", "ollama", "--model", "qwen3:8b", "--base-url", `${mock.url}/v1`], { cwd });
    const events = ndjson(run.stdout);
    expect(run.code).toBe(0);
    expect(events.find((e) => e.type === "compact_start")).toEqual({ type: "compact_start", reason: "auto" });
    expect(events.find((e) => e.type === "compact_done")).toMatchObject({ reason: "auto", messages_before: 5, messages_after: 3 });
    expect(events.some((e) => e.type === "error")).toBe(false);
    expect(mock.requests).toHaveLength(4);
    expect(mock.requests[2]!.body.messages[0].content).toStartWith(SUMMARISER);
    // The step that read b.txt is kept verbatim; a.txt's is in the summary.
    const last = JSON.stringify(mock.requests[3]!.body.messages);
    expect([last.includes("B-FILE"), last.includes("A-FILE")]).toEqual([true, false]);
    expect(events.find((e) => e.type === "assistant_message" && JSON.stringify(e.content).includes("final answer"))).toBeDefined();
  });

  test("a server that reports 0 input tokens (a whole cache hit, or no count of the prompt): the estimate stands in, and the context still compacts (auto) before it overflows", async () => {
    const home = tempDir("zot-zero-home-");
    const cwd = tempDir("zot-zero-");
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { anthropic: { models: [{ id: "claude-tiny", contextWindow: 16_000, maxTokens: 4_096 }] } } }));
    writeFileSync(join(cwd, "notes.txt"), "a short note\n");
    writeFileSync(join(cwd, "big.log"), Array.from({ length: 1_500 }, (_, i) => `log line ${String(i).padStart(5, "0")}: all is well here\n`).join(""));
    mock = startMockLlm([
      { ...read("notes.txt"), usage: { input: 0, output: 20 } },
      { ...read("big.log"), usage: { input: 0, output: 20 } },
      { text: SUMMARY, usage: { input: 0, output: 50 } },
      { text: "final answer", usage: { input: 0, output: 20 } },
    ]);
    const run = await zot(["--json", "read the notes, then the log", "--model", "claude-tiny", "--api-key", "k", "--base-url", mock.url], { cwd, home });
    const events = ndjson(run.stdout);
    expect(run.code).toBe(0);
    expect(events.find((e) => e.type === "compact_start")).toEqual({ type: "compact_start", reason: "auto" });
    expect(mock.requests[2]!.body.system[0].text).toStartWith(SUMMARISER);
  });

  test("a big tool result added since the last call's count: compacted (auto) before the call, which never overflows", async () => {
    const home = tempDir("zot-big-home-");
    const cwd = tempDir("zot-big-");
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { anthropic: { models: [{ id: "claude-tiny", contextWindow: 16_000, maxTokens: 4_096 }] } } }));
    writeFileSync(join(cwd, "notes.txt"), "a short note\n");
    // About 15,000 tokens, of which the read gives 50 KB (12,500): with the 3,200 the last call
    // counted, past 85% of 16,000, which the last call's count alone (20%) is far from.
    writeFileSync(join(cwd, "big.log"), Array.from({ length: 1_500 }, (_, i) => `log line ${String(i).padStart(5, "0")}: all is well here\n`).join(""));
    mock = startMockLlm([
      { ...read("notes.txt"), usage: { input: 3_000, output: 20 } },
      { ...read("big.log"), usage: { input: 3_200, output: 20 } },
      { text: SUMMARY, usage: { input: 15_000, output: 50 } },
      { text: "final answer", usage: { input: 16_000, output: 20 } },
    ]);
    const run = await zot(["--json", "read the notes, then the log", "--model", "claude-tiny", "--api-key", "k", "--base-url", mock.url], { cwd, home });
    const events = ndjson(run.stdout);
    expect(run.code).toBe(0);
    // The third step compacts before its call; nothing overflowed.
    const starts = events.filter((e) => e.type === "turn_start" || e.type === "compact_start" || e.type === "assistant_start").map((e) => e.type === "turn_start" ? `turn ${e.step}` : e.type === "compact_start" ? `compact ${e.reason}` : "call");
    expect(starts).toEqual(["turn 1", "call", "turn 2", "call", "turn 3", "compact auto", "call"]);
    expect(mock.requests).toHaveLength(4);
    expect(mock.requests[2]!.body.system[0].text).toStartWith(SUMMARISER);
    // The step that read the log is kept verbatim (the read gives 50 KB of it at most).
    expect(JSON.stringify(mock.requests[3]!.body.messages).includes("log line 01000")).toBe(true);
  });
});
