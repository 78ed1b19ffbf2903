// Nothing zot starts outlives it: the bash tool's whole tree and every descendant of an extension
// (wrapper scripts, `&` children, setsid, double-forked daemons) are gone once zot is, whether it
// ended normally, on SIGTERM, SIGINT or SIGHUP (the terminal closed), or on a second signal while
// the first was still being handled. After kill -9 nothing can run in zot: the next start names
// what survived. Each test counts its processes through /proc after zot is gone.
import type { FileSink } from "bun";
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { programExtension, SCRIPTED } from "../fixtures/extensions/make.ts";
import { killPids, runningWith, sleepMarker, survivors, waitForRunning } from "../support/process-census.ts";
import { PtySession } from "../support/pty.ts";
import { cleanEnv, tempDir, ZOT } from "../support/zot.ts";

let markers: string[] = [];
let sessions: PtySession[] = [];
afterEach(() => {
  // A failed test must not leave its sleepers to the next one.
  for (const marker of markers) killPids(runningWith(marker));
  for (const session of sessions) session.close();
  markers = [];
  sessions = [];
});

function marker(): string {
  const m = sleepMarker();
  markers.push(m);
  return m;
}

/**
 * A bash command that leaves a tree behind: a background child, a setsid'd one, and a foreground
 * sleep that ignores SIGTERM (the shell execs it, so three processes carry the marker).
 */
function stubbornTree(m: string): string {
  return `sleep ${m} & setsid sleep ${m} & trap '' TERM; sleep ${m}`;
}

/** A scripted model that calls bash with `command`, then answers "done". */
function scriptFile(dir: string, command: string): string {
  const file = join(dir, "script.json");
  writeFileSync(file, JSON.stringify([{ tool_calls: [{ name: "bash", args: { command } }] }, { text: "done" }]));
  return file;
}

function prompt(stdin: FileSink, message: string): void {
  stdin.write(`${JSON.stringify({ type: "prompt", message })}\n`);
  stdin.flush();
}

function start(args: string[], options: { home?: string; cwd?: string; stdin?: "pipe" | "ignore" } = {}) {
  const cwd = options.cwd ?? tempDir("zot-cwd-");
  return Bun.spawn([ZOT, ...args], {
    cwd,
    env: cleanEnv(options.home ?? tempDir("zot-home-")),
    stdin: options.stdin ?? "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
}

describe("the bash tool's tree is gone with zot", () => {
  for (const signal of ["SIGHUP", "SIGTERM", "SIGINT"] as const) {
    test(`-p, ${signal} while the command runs`, async () => {
      const m = marker();
      const cwd = tempDir("zot-cwd-");
      const proc = start(["-p", "go", "--script", scriptFile(cwd, stubbornTree(m))], { cwd });
      await waitForRunning(m, 3);
      proc.kill(signal);
      expect(await proc.exited).toBe(130);
      expect(await survivors(m)).toEqual([]);
    });
  }

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    test(`-p, a second ${signal} before the group's SIGKILL: the command that ignores SIGTERM is still killed`, async () => {
      const m = marker();
      const cwd = tempDir("zot-cwd-");
      const proc = start(["-p", "go", "--script", scriptFile(cwd, stubbornTree(m))], { cwd });
      await waitForRunning(m, 3);
      proc.kill(signal);
      await Bun.sleep(100);
      proc.kill(signal);
      expect(await proc.exited).toBe(130);
      expect(await survivors(m)).toEqual([]);
    });
  }

  test("rpc, SIGHUP while a prompt's command runs", async () => {
    const m = marker();
    const cwd = tempDir("zot-cwd-");
    const proc = start(["rpc", "--script", scriptFile(cwd, stubbornTree(m))], { cwd, stdin: "pipe" });
    prompt(proc.stdin as FileSink, "go");
    await waitForRunning(m, 3);
    proc.kill("SIGHUP");
    expect(await proc.exited).toBe(130);
    expect(await survivors(m)).toEqual([]);
  });

  test("rpc, a second SIGTERM before the group's SIGKILL", async () => {
    const m = marker();
    const cwd = tempDir("zot-cwd-");
    const proc = start(["rpc", "--script", scriptFile(cwd, stubbornTree(m))], { cwd, stdin: "pipe" });
    prompt(proc.stdin as FileSink, "go");
    await waitForRunning(m, 3);
    proc.kill("SIGTERM");
    await Bun.sleep(100);
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(130);
    expect(await survivors(m)).toEqual([]);
  });

  for (const signal of ["SIGHUP", "SIGTERM"] as const) {
    test(`the TUI, ${signal} while the command runs: the tree is gone and the terminal given back`, async () => {
      const m = marker();
      const cwd = tempDir("zot-cwd-");
      const args = [ZOT, "--script", scriptFile(cwd, stubbornTree(m)), "--no-session"];
      const session = new PtySession(args, { cols: 100, rows: 30, env: cleanEnv(tempDir("zot-home-"), { TERM: "xterm-256color" }), cwd });
      sessions.push(session);
      await session.waitForText("ask anything");
      session.type("go\r");
      await waitForRunning(m, 3);
      process.kill(session.proc.pid, signal);
      expect(await session.exited()).toBe(signal === "SIGHUP" ? 129 : 143);
      expect(session.screen.cursorHidden).toBe(false);
      expect(await survivors(m)).toEqual([]);
    });
  }

  test("the TUI, its terminal closed while the command runs (the kernel's SIGHUP, writes failing): an orderly end, nothing left", async () => {
    const m = marker();
    const cwd = tempDir("zot-cwd-");
    const args = [ZOT, "--script", scriptFile(cwd, stubbornTree(m)), "--no-session"];
    const session = new PtySession(args, { cols: 100, rows: 30, env: cleanEnv(tempDir("zot-home-"), { TERM: "xterm-256color" }), cwd });
    sessions.push(session);
    await session.waitForText("ask anything");
    session.type("go\r");
    await waitForRunning(m, 3);
    session.proc.terminal?.close();
    // 129: ended in order on SIGHUP, not crashed by a write to the dead terminal.
    expect(await session.proc.exited).toBe(129);
    expect(await survivors(m)).toEqual([]);
  });

  test("a background server the command left running is gone when zot ends normally", async () => {
    const m = marker();
    const cwd = tempDir("zot-cwd-");
    const proc = start(["-p", "go", "--script", scriptFile(cwd, `(setsid sleep ${m} > /dev/null 2>&1 &); sleep ${m} > /dev/null 2>&1 & echo started`)], { cwd });
    expect(await proc.exited).toBe(0);
    expect(await new Response(proc.stdout).text()).toBe("done\n");
    expect(await survivors(m)).toEqual([]);
  });
});

describe("every descendant of an extension is gone with zot", () => {
  /**
   * An extension started through a wrapper script that does not exec, and leaves a background
   * child, a setsid'd child and a double-forked daemon behind: four sleeps carry the marker.
   */
  function leakyExtension(home: string, m: string): void {
    const dir = programExtension(join(home, "extensions"), "leaky", {
      name: "run.sh",
      executable: true,
      text: [
        "#!/bin/sh",
        `sleep ${m} > /dev/null 2>&1 &`,
        `setsid sleep ${m} > /dev/null 2>&1 &`,
        `(sh -c 'sleep ${m} > /dev/null 2>&1 &' &)`,
        `(setsid sh -c 'sleep ${m} > /dev/null 2>&1 &' &)`,
        `python3 ${SCRIPTED} config.json`,
      ].join("\n"),
    });
    writeFileSync(join(dir, "config.json"), "{}");
  }

  test("zot -p ending normally", async () => {
    const m = marker();
    const home = tempDir("zot-home-");
    leakyExtension(home, m);
    const cwd = tempDir("zot-cwd-");
    writeFileSync(join(cwd, "script.json"), JSON.stringify([{ text: "done" }]));
    const proc = start(["-p", "go", "--script", join(cwd, "script.json")], { home, cwd });
    expect(await proc.exited).toBe(0);
    expect(await new Response(proc.stdout).text()).toBe("done\n");
    expect(await survivors(m)).toEqual([]);
  });

  for (const signal of ["SIGTERM", "SIGHUP"] as const) {
    test(`zot -p on ${signal} during a turn`, async () => {
      const m = marker();
      const t = marker();
      const home = tempDir("zot-home-");
      leakyExtension(home, m);
      const cwd = tempDir("zot-cwd-");
      const proc = start(["-p", "go", "--script", scriptFile(cwd, `sleep ${t}`)], { home, cwd });
      await waitForRunning(m, 4);
      await waitForRunning(t, 1);
      proc.kill(signal);
      expect(await proc.exited).toBe(130);
      expect(await survivors(m)).toEqual([]);
      expect(await survivors(t)).toEqual([]);
    });
  }
});

describe("after kill -9", () => {
  test("the next start names the processes the killed zot left running, once", async () => {
    const m = marker();
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-cwd-");
    const proc = start(["-p", "go", "--script", scriptFile(cwd, `sleep ${m}`)], { home, cwd });
    const [sleeper] = await waitForRunning(m, 1);
    // zot records the group right after the spawn returns: the sleeper can be seen a moment before.
    const record = join(home, "run", `${proc.pid}.json`);
    for (let waited = 0; !existsSync(record) && waited < 5000; waited += 10) await Bun.sleep(10);
    proc.kill("SIGKILL");
    await proc.exited;
    const left = runningWith(m);
    expect(left.length).toBeGreaterThan(0);
    writeFileSync(join(cwd, "again.json"), JSON.stringify([{ text: "ok" }, { text: "ok" }]));
    const next = start(["-p", "hi", "--script", join(cwd, "again.json")], { home, cwd });
    const stderr = await new Response(next.stderr).text();
    expect(await next.exited).toBe(0);
    expect(stderr).toContain(`zot (pid ${proc.pid}) was killed`);
    expect(stderr).toContain(String(sleeper));
    expect(stderr).toContain(`sleep ${m}`);
    const third = start(["-p", "hi", "--script", join(cwd, "again.json")], { home, cwd });
    expect(await new Response(third.stderr).text()).not.toContain(`pid ${proc.pid}`);
    await third.exited;
  });

  test("the session it had open says it was taken over from a zot that did not close it", async () => {
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-cwd-");
    const m = marker();
    const proc = start(["-p", "go", "--script", scriptFile(cwd, `sleep ${m}`)], { home, cwd });
    await waitForRunning(m, 1);
    proc.kill("SIGKILL");
    await proc.exited;
    writeFileSync(join(cwd, "again.json"), JSON.stringify([{ text: "ok" }]));
    const next = start(["-p", "hi", "-c", "--script", join(cwd, "again.json")], { home, cwd });
    const stderr = await new Response(next.stderr).text();
    expect(await next.exited).toBe(0);
    expect(stderr).toContain(`was still open in zot pid ${proc.pid} (since `);
    expect(stderr).toContain("which ended without closing it");
  });
});
