// Guards that fail closed (`"fail_closed": true` in extension.json), through the compiled binary:
// a tool call a guard cannot judge (it hangs, crashes, never started) is refused, not run, and one
// made while the guard is still starting waits for it. The control: without the field, a guard
// that hangs lets the call through after 5 s, as the original zot did.
import { afterEach, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { programExtension, scriptedExtension } from "../fixtures/extensions/make.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { rpcFixture } from "../support/rpc-process.ts";
import { tempDir, zot } from "../support/zot.ts";

const fixture = rpcFixture();
const mocks: MockLlm[] = [];
afterEach(async () => {
  for (const mock of mocks.splice(0)) await mock.stop();
});

/** A project with a directory the model will try to delete, and a mock that asks to. */
function victimRun(): { cwd: string; victim: string; mock: MockLlm } {
  const cwd = tempDir("zot-e2e-failclosed-");
  const victim = join(cwd, "victim");
  mkdirSync(victim);
  const mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: `rm -rf ${victim}` } }] }, { text: "done" }]);
  mocks.push(mock);
  return { cwd, victim, mock };
}

/** A guard that subscribes to tool_call and answers it as `reply` says (scripted.py). */
function guard(config: Record<string, unknown>, manifest: Record<string, unknown>): string {
  return scriptedExtension(tempDir("zot-e2e-guard-"), "guard", { after_hello: [{ type: "subscribe", intercept: ["tool_call"] }], ...config }, manifest);
}

/** A zot home with the extension in dir installed in it (as `zot ext install` leaves it). */
function installed(dir: string): string {
  const home = tempDir("zot-e2e-failclosed-home-");
  cpSync(dir, join(home, "extensions", "guard"), { recursive: true });
  return home;
}

const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];

/** The tool result the model got back for its call, as text. */
function toolResultText(mock: MockLlm): string {
  return JSON.stringify(mock.requests[1]?.body.messages.at(-1).content);
}

describe("a guard with fail_closed", () => {
  test("that never answers: the call is refused after 5 s; without fail_closed the same guard lets rm -rf run", async () => {
    const closed = victimRun();
    const open = victimRun();
    const never = { intercept: { tool_call: { never: true } } };
    const [closedRun, openRun] = await Promise.all([
      zot(["-p", "go", "--ext", guard(never, { fail_closed: true }), ...anthropic(closed.mock)], { cwd: closed.cwd }),
      zot(["-p", "go", "--ext", guard(never, {}), ...anthropic(open.mock)], { cwd: open.cwd }),
    ]);
    expect(closedRun.code).toBe(0);
    expect(existsSync(closed.victim)).toBe(true);
    expect(toolResultText(closed.mock)).toContain("guard failed at tool_call: timed out after 5 s");
    expect(closedRun.stderr).toContain("guard failed at tool_call: timed out after 5 s; denying");
    expect(existsSync(open.victim)).toBe(false);
    expect(openRun.stderr).toContain("allowed");
  }, 30_000);

  test("that exits when asked: the call is refused at once, naming the exit", async () => {
    const run = victimRun();
    const result = await zot(["-p", "go", "--ext", guard({ intercept: { tool_call: { exit: 9 } } }, { fail_closed: true }), ...anthropic(run.mock)], {
      cwd: run.cwd,
    });
    expect(existsSync(run.victim)).toBe(true);
    expect(toolResultText(run.mock)).toContain("exited (code 9)");
    expect(result.stderr).toContain("denying");
  });

  test("that rewrites the call with modified_args that are not an object (a JSON-encoded string): refused, not run as written", async () => {
    const closed = victimRun();
    const open = victimRun();
    const encoded = { intercept: { tool_call: { eval: "{'modified_args': __import__('json').dumps(f['tool_args'])}" } } };
    const [closedRun] = await Promise.all([
      zot(["-p", "go", "--ext", guard(encoded, { fail_closed: true }), ...anthropic(closed.mock)], { cwd: closed.cwd }),
      zot(["-p", "go", "--ext", guard(encoded, {}), ...anthropic(open.mock)], { cwd: open.cwd }),
    ]);
    expect(existsSync(closed.victim)).toBe(true);
    expect(toolResultText(closed.mock)).toContain("modified_args for bash that are not a JSON object");
    expect(closedRun.stderr).toContain("denying");
    // The control: an extension that is no guard is ignored, as before, and the call runs.
    expect(existsSync(open.victim)).toBe(false);
  }, 30_000);

  test("that answers bash with respond without allow_builtin_respond: refused, not run as written", async () => {
    const closed = victimRun();
    const open = victimRun();
    const respond = { intercept: { tool_call: { respond: { content: [{ type: "text", text: "not this one" }], is_error: true } } } };
    await Promise.all([
      zot(["-p", "go", "--ext", guard(respond, { fail_closed: true }), ...anthropic(closed.mock)], { cwd: closed.cwd }),
      zot(["-p", "go", "--ext", guard(respond, {}), ...anthropic(open.mock)], { cwd: open.cwd }),
    ]);
    expect(existsSync(closed.victim)).toBe(true);
    expect(toolResultText(closed.mock)).toContain('with respond, which it may do for zot\'s built-in tools only with \\"allow_builtin_respond\\": true');
    // The control: no guard, the answer is ignored (logged) and the call runs through confirmation and rules.
    expect(existsSync(open.victim)).toBe(false);
  }, 30_000);

  test("written with @zot/sdk, whose interceptor throws: refused (the SDK says so for a guard); without fail_closed the same one lets the call run", async () => {
    for (const failClosed of [true, false]) {
      const { cwd, victim, mock } = victimRun();
      const ext = programExtension(tempDir("zot-e2e-sdkguard-"), "sdkguard", {
        name: "index.ts",
        text: [
          'import { extension } from "@zot/sdk";',
          'const ext = extension({ name: "sdkguard" });',
          "const rules: string[] | undefined = undefined;",
          "ext.interceptToolCall((call) => (rules!.some((rule) => String(call.tool_args.command).includes(rule)) ? { block: true } : undefined));",
          "await ext.run();",
        ].join("\n"),
      }, failClosed ? { fail_closed: true } : {});
      const run = await zot([...anthropic(mock), "-p", "clean up", "--ext", ext], { cwd });
      expect(run.code).toBe(0);
      expect([failClosed, existsSync(victim)]).toEqual([failClosed, failClosed]);
      if (failClosed) expect(toolResultText(mock)).toContain("sdkguard could not judge the call (its interceptor failed");
    }
    // What fails past the interceptor refuses too: a thrown value that cannot be printed, an answer that cannot be sent.
    for (const [body, why] of [
      ["() => { throw Object.create(null); }", "its interceptor failed: a value that cannot be printed"],
      ['() => ({ args: { command: "echo rewritten", n: 10n } })', "its answer could not be sent"],
    ] as const) {
      const { cwd, victim, mock } = victimRun();
      const ext = programExtension(tempDir("zot-e2e-sdkguard-"), "sdkguard", {
        name: "index.ts",
        text: ['import { extension } from "@zot/sdk";', 'const ext = extension({ name: "sdkguard" });', `ext.interceptToolCall(${body});`, "await ext.run();"].join("\n"),
      }, { fail_closed: true });
      const run = await zot([...anthropic(mock), "-p", "clean up", "--ext", ext], { cwd });
      expect(run.code).toBe(0);
      expect([body, existsSync(victim)]).toEqual([body, true]);
      expect(toolResultText(mock)).toContain(`sdkguard could not judge the call (${why})`);
    }
  });

  test("that never started (no hello in time): every tool call is refused, saying why", async () => {
    const run = victimRun();
    const result = await zot(["-p", "go", "--ext", guard({ hello: false }, { fail_closed: true, timeouts: { hello: 300 } }), ...anthropic(run.mock)], {
      cwd: run.cwd,
    });
    expect(result.stderr).toContain("sent no hello frame");
    expect(existsSync(run.victim)).toBe(true);
    expect(toolResultText(run.mock)).toContain("it guards tool calls (fail_closed), so none runs until it does");
  });

  test("whose extension.json cannot be read (fail_closed written as a string): installed, every tool call is refused, with the warning; named with --ext, the run does not start", async () => {
    const run = victimRun();
    const home = installed(guard({}, { fail_closed: "true" }));
    const result = await zot(["-p", "go", ...anthropic(run.mock)], { cwd: run.cwd, home });
    expect(result.stderr).toContain("as it names fail_closed, tool calls are refused until it is fixed");
    expect(existsSync(run.victim)).toBe(true);
    // Written false, it is no guard: a broken manifest is only a warning then.
    const open = victimRun();
    const off = await zot(["-p", "go", ...anthropic(open.mock)], { cwd: open.cwd, home: installed(guard({}, { fail_closed: false, exec: 42 })) });
    expect(off.stderr).toContain('"exec" must be a string (got 42)');
    expect(off.stderr).not.toContain("tool calls are refused");
    expect(existsSync(open.victim)).toBe(false);
    // The user named it for this run: a run without it is not what they asked for, so none starts.
    const named = victimRun();
    const flagged = await zot(["-p", "go", "--ext", guard({}, { fail_closed: "true" }), ...anthropic(named.mock)], { cwd: named.cwd });
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toContain('"fail_closed" must be true or false (got "true"); fix it, or run without this --ext');
    expect(named.mock.requests).toHaveLength(0);
    expect(existsSync(named.victim)).toBe(true);
  });

  test("still starting in zot rpc: the first prompt's tool call waits for it and is blocked", async () => {
    const cwd = tempDir("zot-e2e-failclosed-rpc-");
    const victim = join(cwd, "victim");
    mkdirSync(victim);
    const ext = guard(
      { hello_delay: 2, intercept: { tool_call: { eval: "{'block': 'rm -rf' in f['tool_args'].get('command', ''), 'reason': 'no rm -rf'}" } } },
      { fail_closed: true },
    );
    const rpc = fixture.start([{ tool_calls: [{ name: "bash", args: { command: `rm -rf ${victim}` } }] }, { text: "done" }], ["--ext", ext], { cwd });
    const events = await rpc.prompt("go");
    expect(existsSync(victim)).toBe(true);
    const result = events.find((event) => event.type === "tool_result");
    expect(result?.is_error).toBe(true);
    expect(JSON.stringify(result)).toContain("no rm -rf");
    await rpc.close();
  }, 30_000);
});
