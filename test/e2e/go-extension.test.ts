// A real Go extension (test/fixtures/extensions/go-guard), started as the original's extensions
// are, `go run .`, so its first start compiles: frames decoded into typed structs with string ids
// (a numeric id fails to decode, as with the original's Go SDK), registration after hello_ack, a
// guard interceptor. Through the compiled binary: its command, its tool called by the model, and
// its interceptor blocking `rm -rf`. Runs where Go is installed (.ci/run installs Debian's golang-go).
import { afterEach, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURES } from "../fixtures/extensions/make.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { trustDir } from "../support/trust.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";

const go = Bun.which("go");
let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];
// One build cache for every run, so only the first test compiles from scratch.
const goEnv = { GOCACHE: join(tmpdir(), "zot-test-gocache"), GOFLAGS: "-mod=mod" };

function project(): { cwd: string; home: string; record: string; log: () => string } {
  const cwd = tempDir("zot-go-");
  const home = tempDir("zot-go-home-");
  // A project's extensions run only in a folder the user trusts.
  trustDir(home, cwd);
  const record = join(cwd, "received.ndjson");
  const dir = join(cwd, ".zot", "extensions", "go-guard");
  mkdirSync(dir, { recursive: true });
  cpSync(join(FIXTURES, "go-guard"), dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "go-guard", exec: "go", args: ["run", ".", record], language: "go" }));
  const logFile = join(home, "logs", "ext-go-guard.log");
  return { cwd, home, record, log: () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "") };
}

describe.skipIf(!go)("an extension written in Go, run with go run .", () => {
  test("its command answers in -p; every frame it received decoded (string ids)", async () => {
    const p = project();
    const run = await zot(["-p", "/go-status", "--provider", "scripted"], { cwd: p.cwd, home: p.home, env: goEnv });
    expect(run.stderr).not.toContain("go-guard");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`go-guard in ${p.cwd}: blocked 0, turn ends \n`);
    expect(p.log()).not.toContain("cannot decode");
  }, 60_000);

  test("the model calls its tool, and its interceptor blocks rm -rf with its own reason", async () => {
    const p = project();
    writeFileSync(join(p.cwd, "precious"), "keep");
    mock = startMockLlm([
      { tool_calls: [{ name: "bash", args: { command: "rm -rf precious" } }] },
      { tool_calls: [{ name: "go_echo", args: { word: "hi" } }] },
      { text: "Result: {{last_tool_result}}" },
    ]);
    const run = await zot(["--json", "tidy up", ...anthropic(mock)], { cwd: p.cwd, home: p.home, env: goEnv });
    expect(run.code).toBe(0);
    const events = ndjson(run.stdout);
    const results = events.filter((e) => e.type === "tool_result");
    expect(results.map((r) => [r.name, r.is_error, r.content[0].text])).toEqual([
      ["bash", true, "go-guard: rm -rf refused"],
      ["go_echo", false, "go says hi"],
    ]);
    expect(existsSync(join(p.cwd, "precious"))).toBe(true);
    expect(p.log()).not.toContain("cannot decode");
    expect(p.log()).not.toContain("timed out");
    // It saw each turn end, a finished answer as "end".
    const turnEnds = ndjson(readFileSync(p.record, "utf8")).filter((f) => f.type === "event" && f.event === "turn_end");
    expect(turnEnds.map((f) => f.stop)).toEqual(["tool_use", "tool_use", "end"]);
  }, 60_000);
});
