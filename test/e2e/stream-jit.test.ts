// A long answer's per-event path stays below JavaScriptCore's FTL tier (providers/stream-driver.ts
// says why): through the compiled binary, with JavaScriptCore reporting every FTL compile on stderr,
// a 20,000-delta answer on each wire API compiles nothing with FTL. Before the path was marked, the
// same run made 4–6 FTL compiles, 25–36 ms of a compiler thread on a 50,000-delta answer
// (scripts/bench floor). A new function on the path that is not marked fails here.
import { afterEach, describe, expect, test } from "bun:test";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { ndjson, ZOT, zot } from "../support/zot.ts";

let mock: MockLlm;
afterEach(() => mock?.stop());

const REPORT_FTL = { BUN_JSC_reportFTLCompileTimes: "1" };
const DELTAS = 20_000;

const wires: [string, (m: MockLlm) => string[]][] = [
  ["anthropic", (m) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url]],
  ["openai chat", (m) => ["--provider", "openai", "--model", "gpt-4.1", "--api-key", "k", "--base-url", `${m.url}/v1`]],
  ["openai responses", (m) => ["--provider", "openai", "--model", "gpt-5", "--api-key", "k", "--base-url", `${m.url}/v1`]],
];

describe("the stream's per-event path and the JIT", () => {
  test("the binary reports FTL compiles when asked (else the tests below could not fail)", async () => {
    // The binary run as Bun, on a loop hot enough for FTL.
    const hot = "let s = 0; function step(i) { return (s + i * 31) % 1000003; } for (let i = 0; i < 3e6; i++) s = step(i); console.log(s > -1);";
    const proc = Bun.spawn([ZOT, "-e", hot], { env: { ...process.env, BUN_BE_BUN: "1", ...REPORT_FTL }, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect(stdout).toBe("true\n");
    expect(stderr).toContain("using FTL");
  });

  test.each(wires)("--json (%s): 20,000 deltas, every one delivered, and no FTL compile", async (_wire, provider) => {
    const text = Array.from({ length: DELTAS }, (_, i) => String.fromCharCode(97 + (i % 26))).join("");
    mock = startMockLlm([{ text, chunk_size: 1 }]);
    const run = await zot(["--json", "go", ...provider(mock)], { env: REPORT_FTL });
    expect(run.code).toBe(0);
    const deltas = ndjson(run.stdout).filter((e) => e.type === "text_delta");
    expect(deltas.length).toBe(DELTAS);
    expect(deltas.map((e) => e.delta).join("")).toBe(text);
    expect(run.stderr.split("\n").filter((line) => line.includes("using FTL"))).toEqual([]);
  });
});
