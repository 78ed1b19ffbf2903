// A long answer's per-event path stays below JavaScriptCore's FTL tier (providers/stream-driver.ts
// says why): through the compiled binary, with JavaScriptCore reporting every FTL compile on stderr,
// a 20,000-delta answer compiles nothing with FTL, in -p, in --json on each wire API, in rpc and
// in the TUI (a pseudo-terminal).
// Before the path was marked, the same --json run made 4–6 FTL compiles. A new function on the
// path that is not marked fails here. And a short -p answer compiles nothing at any tier: the
// thresholds the start leaves (cli/startup-over.ts) keep what the start ran from being compiled.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { anthropicMock, rpcFixture } from "../support/rpc-process.ts";
import { ready, startZot } from "../support/zot-pty.ts";
import { ndjson, tempDir, ZOT, zot } from "../support/zot.ts";

let mock: MockLlm;
afterEach(() => mock?.stop());
const rpc = rpcFixture();

const REPORT_FTL = { BUN_JSC_reportFTLCompileTimes: "1" };
const DELTAS = 20_000;
const TEXT = Array.from({ length: DELTAS }, (_, i) => String.fromCharCode(97 + (i % 26))).join("");

const ftlCompiles = (stderr: string) => stderr.split("\n").filter((line) => line.includes("using FTL"));
const REPORT_EVERY_TIER = { BUN_JSC_reportBaselineCompileTimes: "1", BUN_JSC_reportDFGCompileTimes: "1", ...REPORT_FTL };
const compiles = (stderr: string) => stderr.split("\n").filter((line) => / using (Baseline|DFG|FTL)/.test(line));

const wires: [string, (m: MockLlm) => string[]][] = [
  ["anthropic", (m) => anthropicMock(m.url)],
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
    expect(ftlCompiles(stderr).length).toBeGreaterThan(0);
  });

  test.each(wires)("--json (%s): 20,000 deltas, every one delivered, and no FTL compile", async (_wire, provider) => {
    mock = startMockLlm([{ text: TEXT, chunk_size: 1 }]);
    const run = await zot(["--json", "go", ...provider(mock)], { env: REPORT_FTL });
    expect(run.code).toBe(0);
    const deltas = ndjson(run.stdout).filter((e) => e.type === "text_delta");
    expect(deltas.length).toBe(DELTAS);
    expect(deltas.map((e) => e.delta).join("")).toBe(TEXT);
    expect(ftlCompiles(run.stderr)).toEqual([]);
  });

  test("-p: the answer printed whole, and no FTL compile", async () => {
    mock = startMockLlm([{ text: TEXT, chunk_size: 1 }]);
    const run = await zot(["-p", "go", ...anthropicMock(mock.url)], { env: REPORT_FTL });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${TEXT}\n`);
    expect(ftlCompiles(run.stderr)).toEqual([]);
  });

  test("-p: a short answer compiles nothing at all, with the thresholds the start leaves", async () => {
    // The start runs some code a few hundred times (Array.prototype.filter among it); set back to the
    // normal thresholds when the answer starts, it was compiled with Baseline on its next call: a
    // compile a one-shot run never earns back (~0.7 MB of peak RSS). cli/startup-over.ts.
    mock = startMockLlm([{ text: "Hello! How can I help you today?" }]);
    const run = await zot(["-p", "hello", ...anthropicMock(mock.url)], { env: REPORT_EVERY_TIER });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello! How can I help you today?\n");
    expect(compiles(run.stderr)).toEqual([]);
  });

  test("the TUI: a 20,000-delta answer to its end on screen, and no FTL compile", async () => {
    mock = startMockLlm([{ text: `${TEXT} END-OF-ANSWER`, chunk_size: 1 }]);
    const stderr = join(tempDir("zot-jit-tui-"), "stderr.log");
    const { session } = startZot(mock, { args: ["go"], env: REPORT_FTL, stderrTo: stderr, rows: 40 });
    try {
      await ready(session);
      await session.waitForText("END-OF-ANSWER");
      session.type("\x04");
      await session.exited();
    } finally {
      session.close();
    }
    expect(ftlCompiles(readFileSync(stderr, "utf8"))).toEqual([]);
  });

  test("rpc: 20,000 deltas in the event stream, and no FTL compile", async () => {
    const r = rpc.start([{ text: TEXT, chunk_size: 1 }], [], { env: REPORT_FTL });
    const deltas = (await r.prompt("go")).filter((e) => e.type === "text_delta");
    expect(deltas.map((e) => e.delta).join("")).toBe(TEXT);
    expect(await r.close()).toBe(0);
    expect(ftlCompiles(r.stderr)).toEqual([]);
  });
});
