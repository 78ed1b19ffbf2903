// Extension processes over zot's whole life, through the compiled binary: an extension that never
// says hello or never answers cannot hold zot up, and none outlives zot, however zot ends.
// The two 5-second tests are the real timeouts a user would meet; they are kept to these two.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { alive, eventually, scriptedExtension } from "../fixtures/extensions/make.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { trustDir, trustedProject } from "../support/trust.ts";
import { cleanEnv, tempDir, ZOT, zot } from "../support/zot.ts";

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

function script(dir: string, turns: unknown[]): string {
  const file = join(dir, "turns.json");
  writeFileSync(file, JSON.stringify(turns));
  return file;
}

const pidOf = (file: string) => Number(readFileSync(file, "utf8"));

describe("deadlines", () => {
  test("an extension that never says hello is given up at its deadline, killed, and zot still answers", async () => {
    const { cwd, home } = trustedProject("zot-life-");
    const pidfile = join(cwd, "silent.pid");
    // The manifest sets its own start-up deadline (the default is 30 s).
    scriptedExtension(join(cwd, ".zot", "extensions"), "silent", { hello: false, pidfile }, { timeouts: { hello: 2500 } });
    const run = await zot(["-p", "hi", "--script", script(cwd, [{ text: "Still here." }])], { cwd, home });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Still here.\n");
    // -p says which extension it is waiting for, then gives it up.
    expect(run.stderr).toContain("zot: waiting for an extension still starting: silent");
    expect(run.stderr).toContain(`zot: extension "silent" sent no hello frame within 2.5 s (a program whose output is buffered sends nothing until it exits: flush after each frame, e.g. Python's print(..., flush=True)); it was stopped`);
    expect(alive(pidOf(pidfile))).toBe(false);
  }, 20_000);

  test("an extension that says hello after 8 s serves its command in the same -p run", async () => {
    const { cwd, home } = trustedProject("zot-life-");
    scriptedExtension(join(cwd, ".zot", "extensions"), "coldstart", {
      hello_delay: 8,
      on_ack: [{ type: "register_command", name: "warm" }],
      commands: { warm: { eval: "{'action': 'display', 'display': 'warmed up'}" } },
    });
    const run = await zot(["-p", "/warm", "--script", script(cwd, [{ text: "unused" }])], { cwd, home });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("warmed up\n");
    expect(run.stderr).toContain("zot: waiting for an extension still starting: coldstart");
  }, 25_000);

  test("an interceptor that never answers is allowed after 5 s", async () => {
    const cwd = tempDir("zot-life-");
    const home = tempDir("zot-life-home-");
    trustDir(home, cwd);
    scriptedExtension(join(cwd, ".zot", "extensions"), "sleepy", {
      after_hello: [{ type: "subscribe", intercept: ["tool_call"] }],
      intercept: { tool_call: { never: true } },
    });
    const turns = [{ tool_calls: [{ name: "bash", args: { command: "touch ran" } }] }, { text: "Ran it." }];
    const run = await zot(["-p", "go", "--script", script(cwd, turns)], { cwd, home });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Ran it.\n");
    expect(existsSync(join(cwd, "ran"))).toBe(true);
    expect(readFileSync(join(home, "logs", "ext-sleepy.log"), "utf8")).toContain("intercept tool_call: timed out after 5 s; allowing");
  }, 20_000);
});

describe("no extension outlives zot", () => {
  test("after a normal exit", async () => {
    const { cwd, home } = trustedProject("zot-life-");
    const pidfile = join(cwd, "ext.pid");
    const record = join(cwd, "received.ndjson");
    scriptedExtension(join(cwd, ".zot", "extensions"), "plain", { pidfile, record });
    const run = await zot(["-p", "hi", "--script", script(cwd, [{ text: "Bye." }])], { cwd, home });
    expect(run.code).toBe(0);
    expect(alive(pidOf(pidfile))).toBe(false);
    expect(readFileSync(record, "utf8")).toContain('{"type": "shutdown"}');
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    test(`after ${signal} in the middle of a turn, even one that ignores shutdown`, async () => {
      const { cwd, home } = trustedProject("zot-life-");
      const dirs = join(cwd, ".zot", "extensions");
      scriptedExtension(dirs, "polite", { pidfile: join(cwd, "polite.pid") });
      scriptedExtension(dirs, "stubborn", { pidfile: join(cwd, "stubborn.pid"), ignore_shutdown: true });
      mock = startMockLlm([{ text: "too late", delay_ms: 60_000 }]);
      const proc = Bun.spawn([ZOT, "-p", "hi", "--provider", "anthropic", "--api-key", "k", "--base-url", mock.url], {
        cwd,
        env: cleanEnv(home),
        stdout: "pipe",
        stderr: "pipe",
      });
      const m = mock;
      await eventually(() => m.requests.length === 1, "the model request");
      const pids = [pidOf(join(cwd, "polite.pid")), pidOf(join(cwd, "stubborn.pid"))];
      expect(pids.every(alive)).toBe(true);
      proc.kill(signal);
      expect(await proc.exited).toBe(130);
      expect(pids.filter(alive)).toEqual([]);
    }, 15_000);
  }

  test("after SIGTERM while an extension is still starting", async () => {
    const { cwd, home } = trustedProject("zot-life-");
    const pidfile = join(cwd, "slow.pid");
    scriptedExtension(join(cwd, ".zot", "extensions"), "slow", { hello: false, pidfile });
    const proc = Bun.spawn([ZOT, "-p", "hi", "--provider", "scripted"], {
      cwd,
      env: cleanEnv(home),
      stdout: "pipe",
      stderr: "pipe",
    });
    await eventually(() => existsSync(pidfile) && readFileSync(pidfile, "utf8") !== "", "the extension to start");
    const pid = pidOf(pidfile);
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(130);
    await eventually(() => !alive(pid), "the starting extension to be gone", 2000);
  });
});
