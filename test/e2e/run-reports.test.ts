// What a run tells the script or person waiting on it: the session it recorded (the `session`
// event of --json, --verbose on stderr, then --session <id> continues it), and a provider's retry
// while it waits (stderr for -p, a `retry` event for --json and rpc, the status bar in the TUI).
import { describe, expect, test } from "bun:test";
import { rpcFixture } from "../support/rpc-process.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";
import { ready, startZot } from "../support/zot-pty.ts";

const fixture = rpcFixture();

const anthropic = (m: { url: string }) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];
const RATE_LIMITED = { error: { message: "slow down", status: 429, retry_after: 1 } };

describe("the session a run recorded", () => {
  test("--json says it first; --session <id> continues exactly that one", async () => {
    const mock = fixture.llm([{ text: "first answer" }, { text: "second answer" }]);
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-cwd-");
    const first = await zot(["--json", "remember 42", ...anthropic(mock)], { home, cwd });
    expect(first.code).toBe(0);
    const events = ndjson(first.stdout);
    expect(events[0]).toMatchObject({ type: "session", resumed: false });
    const { id, file } = events[0];
    expect(file).toContain(id);
    expect(await Bun.file(file).exists()).toBe(true);

    const second = await zot(["--json", "what number?", "--session", id, ...anthropic(mock)], { home, cwd });
    expect(second.code).toBe(0);
    expect(ndjson(second.stdout)[0]).toEqual({ type: "session", id, file, resumed: true });
    const texts = mock.requests[1].body.messages.map((m: any) => m.content.map((b: any) => b.text).join(""));
    expect(texts).toEqual(["remember 42", "first answer", "what number?"]);
  });

  test("-p --verbose names it on stderr; stdout keeps only the answer", async () => {
    const mock = fixture.llm([{ text: "ok" }]);
    const run = await zot(["-p", "hi", "--verbose", ...anthropic(mock)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("ok\n");
    expect(run.stderr).toMatch(/^zot: session \S+ \(new, \S+\.jsonl\); anthropic\/claude-sonnet-5-5$/m);
    const quiet = await zot(["-p", "hi", "--no-session", "--verbose", "--provider", "scripted"]);
    expect(quiet.stderr).toContain("no session (--no-session)");
  });
});

describe("a provider's retry is said while zot waits", () => {
  test("-p: on stderr, with the wait", async () => {
    const mock = fixture.llm([RATE_LIMITED, { text: "made it" }]);
    const run = await zot(["-p", "hi", ...anthropic(mock)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("made it\n");
    expect(run.stderr).toContain("zot: anthropic: HTTP 429: slow down; retrying in 1 s (retry 1 of 10)");
  });

  test("--json: a retry event before the answer", async () => {
    const mock = fixture.llm([RATE_LIMITED, { text: "made it" }]);
    const run = await zot(["--json", "hi", ...anthropic(mock)]);
    const events = ndjson(run.stdout);
    const retry = events.findIndex((e) => e.type === "retry");
    expect(events[retry]).toEqual({ type: "retry", attempt: 1, max_attempts: 10, wait_ms: 1000, status: 429, code: "rate_limit", message: "anthropic: HTTP 429: slow down" });
    expect(retry).toBeLessThan(events.findIndex((e) => e.type === "assistant_start"));
    expect(run.stderr).toBe("");
  });

  test("rpc: the same event in the stream", async () => {
    const rpc = fixture.start([RATE_LIMITED, { text: "made it" }], [], { provider: (url) => anthropic({ url }) });
    const events = await rpc.prompt("hi");
    const retry = events.findIndex((e) => e.type === "retry");
    expect(events[retry]).toMatchObject({ type: "retry", attempt: 1, wait_ms: 1000, status: 429 });
    expect(retry).toBeLessThan(events.findIndex((e) => e.type === "assistant_message"));
    expect(await rpc.close()).toBe(0);
  });

  test("the TUI: the status bar says it is retrying, counting down, then the answer comes", async () => {
    const mock = fixture.llm([{ error: { message: "slow down", status: 429, retry_after: 3 } }, { text: "made it" }]);
    const { session } = startZot(mock);
    try {
      await ready(session);
      session.type("hi\r");
      await session.waitForText("retrying in 3 s (HTTP 429)");
      await session.waitForText("retrying in 1 s (HTTP 429)");
      await session.waitForText("made it");
      expect(session.screen.text()).not.toContain("retrying in");
    } finally {
      session.close();
    }
  });
});
