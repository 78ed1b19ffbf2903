// LineChild against real processes (bash, python3, node, bun): line splitting at every awkward
// boundary, call/settle correlation, timeouts, aborts, death failing calls at once, the log file,
// the bounded backlog for a child that is not reading, diagnostics, stop() escalating to SIGKILL,
// and no child outliving a parent that is killed.
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LOG_BURST_BYTES, LOG_BYTES_PER_SECOND, LOG_FILE_MAX_BYTES, RunLog } from "../../src/extensions/child-log.ts";
import { ChildCallError, type ChildDiagnostic, type ChildExitInfo, LineChild } from "../../src/extensions/child.ts";
import { LineSplitter } from "../../src/protocol/line-splitter.ts";
import { running } from "../support/process-state.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "children");
const dir = mkdtempSync(join(tmpdir(), "zot-child-test-"));
const started: LineChild[] = [];
afterAll(async () => {
  await Promise.all(started.map((child) => child.stop({ graceMs: 100, termMs: 100 })));
  rmSync(dir, { recursive: true, force: true });
});

function which(program: string): string {
  const found = Bun.which(program);
  if (!found) throw new Error(`${program} is needed for these tests`);
  return found;
}

let logCount = 0;
function spawn(command: string[], extra: { maxLineBytes?: number; maxBacklogBytes?: number; name?: string } = {}) {
  const logFile = join(dir, "logs", `ext-${extra.name ?? "t"}-${++logCount}.log`);
  const diagnostics: ChildDiagnostic[] = [];
  const child = LineChild.spawn({
    name: extra.name ?? "t",
    command,
    cwd: dir,
    logFile,
    maxLineBytes: extra.maxLineBytes,
    maxBacklogBytes: extra.maxBacklogBytes,
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
  });
  started.push(child);
  const messages: unknown[] = [];
  child.onMessage((value) => messages.push(value));
  const exited = new Promise<ChildExitInfo>((resolve) => child.onExit(resolve));
  return { child, messages, diagnostics, exited, logFile, log: () => readFileSync(logFile, "utf8") };
}

const responder = () => spawn([which("python3"), join(FIXTURES, "responder.py")]);
const echo = () => spawn([which("bash"), join(FIXTURES, "echo.sh")]);

async function until(condition: () => boolean, what: string): Promise<void> {
  // Under the test's own 5 s limit, so a failure names what never happened.
  for (let i = 0; i < 160; i++) {
    if (condition()) return;
    await Bun.sleep(25);
  }
  throw new Error(`gave up waiting for ${what}`);
}


/** The ChildCallError a call rejected with (fails the test if it resolved or threw something else). */
async function failure(call: Promise<unknown>): Promise<ChildCallError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ChildCallError)) throw new Error(`expected a ChildCallError, got ${String(error)}`);
  return error;
}

const hex = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("hex");

describe("LineSplitter", () => {
  function split(chunks: (string | Uint8Array)[], maxBytes = 1024) {
    const lines: string[] = [];
    const drops: number[] = [];
    const splitter = new LineSplitter(maxBytes, (line) => lines.push(line), (bytes) => drops.push(bytes));
    for (const chunk of chunks) splitter.push(typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk);
    splitter.end();
    return { lines, drops };
  }

  test("lines split across chunks, several lines in one chunk, CRLF, a last line without a newline", () => {
    expect(split(['{"a":', '1}\n{"b":2}\r\n{"c"', ":3}\n\n", '{"d":4}']).lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}', "", '{"d":4}']);
  });

  test("a UTF-8 character cut between chunks is decoded whole", () => {
    const bytes = new TextEncoder().encode('{"s":"é🌍"}\n');
    // Cut inside é (2 bytes) and inside 🌍 (4 bytes): one byte per chunk.
    const chunks = [...bytes].map((byte) => Uint8Array.of(byte));
    expect(split(chunks).lines).toEqual(['{"s":"é🌍"}']);
  });

  test("an over-long line is dropped once, whatever its chunks, and the next line survives", () => {
    const { lines, drops } = split(["x".repeat(6), "x".repeat(6), "xx\nok\n", "y".repeat(11)], 10);
    expect(lines).toEqual(["ok"]);
    expect(drops).toEqual([14, 11]);
    expect(split(["x".repeat(10), "\n"], 10).lines).toEqual(["x".repeat(10)]);
  });
});

describe("reading lines from a real child", () => {
  test("chunk boundaries, split UTF-8, CRLF, garbage and blank lines", async () => {
    const { child, messages, diagnostics, log } = responder();
    const first = new TextEncoder().encode('{"a":"hé🌍"}\r\n');
    // Split inside 🌍 and inside the next frame; the pauses make separate pipe reads likely.
    child.send({
      op: "raw",
      hex: [hex(first.subarray(0, 9)), hex(first.subarray(9)) + hex('{"b":'), hex('2}\nnot json at all\n\n{"c":3}\n')],
    });
    await until(() => messages.length === 3, "three frames");
    expect(messages).toEqual([{ a: "hé🌍" }, { b: 2 }, { c: 3 }]);
    expect(log()).toContain("[zot] not JSON: not json at all");
    // The same words reach the host, for `zot ext check`.
    expect(diagnostics).toEqual([{ kind: "not_json", message: "not JSON: not json at all" }]);
  });

  test("node child: CRLF and a last line without a newline arrive; messages wait for a late handler", async () => {
    const logFile = join(dir, "logs", "ext-node.log");
    const child = LineChild.spawn({ name: "node", command: [which("node"), join(FIXTURES, "crlf.js")], cwd: dir, logFile });
    const info = await new Promise<ChildExitInfo>((resolve) => child.onExit(resolve));
    expect(info).toMatchObject({ code: 0, signal: null, reason: "exited with code 0", stopped: false });
    const messages: unknown[] = [];
    child.onMessage((value) => messages.push(value));
    expect(messages).toEqual([{ n: 1 }, { n: 2 }, { n: "ü🌍" }]);
    expect(readFileSync(logFile, "utf8")).toContain("[zot] not JSON: this is not json");
  });

  test("a 10 MB line is dropped and logged, and the next good line still arrives", async () => {
    const { child, messages, diagnostics, log } = responder();
    child.send({ op: "huge", bytes: 10 * 1024 * 1024 });
    await until(() => messages.length === 1, "the line after the huge one");
    expect(messages).toEqual([{ after: "huge" }]);
    const note = `dropped a line of ${10 * 1024 * 1024} bytes (limit ${4 * 1024 * 1024})`;
    expect(log()).toContain(`[zot] ${note}`);
    expect(diagnostics).toEqual([
      { kind: "line_too_long", message: note, dropped: { bytes: 10 * 1024 * 1024, limit: 4 * 1024 * 1024, head: "x".repeat(512) } },
    ]);
    expect(child.alive).toBe(true);
  });

  test("the line limit is an option", async () => {
    const { child, messages, log } = spawn([which("python3"), join(FIXTURES, "responder.py")], { maxLineBytes: 100 });
    child.send({ op: "huge", bytes: 101 });
    await until(() => messages.length === 1, "the line after the long one");
    expect(log()).toContain("[zot] dropped a line of 101 bytes (limit 100)");
  });
});

describe("call and settle", () => {
  test("concurrent calls get numeric ids from 1 and each resolves with its own answer", async () => {
    const { child } = responder();
    child.onMessage((value) => {
      const frame = value as { id: number };
      child.settle(frame.id, value);
    });
    const calls = [1, 2, 3].map((n) =>
      child.call((id) => ({ op: "echo", id, n }), { timeoutMs: 10_000, what: `echo ${n}` }),
    );
    const answers = (await Promise.all(calls)) as { id: number; echo: { n: number } }[];
    expect(answers.map((a) => [a.id, a.echo.n])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(child.settle(2, "again")).toBe(false);
  });

  test("a string id settles the numeric call", async () => {
    const { child } = responder();
    child.onMessage((value) => child.settle((value as { id: string }).id, value));
    const answer = await child.call((id) => ({ op: "echo-string-id", id }), { timeoutMs: 10_000, what: "a string echo" });
    expect(answer).toEqual({ id: "1" });
    expect(child.settle("99", null)).toBe(false);
  });

  test("timeout: rejects with kind timeout, naming the child and the request; a late settle is refused", async () => {
    const { child } = responder();
    const error = await failure(child.call((id) => ({ op: "silent", id }), { timeoutMs: 50, what: "the silent request" }));
    expect(error.kind).toBe("timeout");
    expect(error.message).toBe('extension "t" did not answer the silent request within 0.05 s');
    expect(child.settle(1, "late")).toBe(false);
  });

  test("abort: a signal cancels the call; an already aborted signal never sends", async () => {
    const { child } = responder();
    const controller = new AbortController();
    const pending = child.call((id) => ({ op: "silent", id }), { timeoutMs: 30_000, signal: controller.signal, what: "a slow thing" });
    controller.abort();
    const error = await failure(pending);
    expect(error.kind).toBe("aborted");
    expect(error.message).toContain("a slow thing");

    let built = false;
    const early = await failure(
      child.call(() => ((built = true), {}), { timeoutMs: 30_000, signal: AbortSignal.abort(), what: "x" }),
    );
    expect(early.kind).toBe("aborted");
    expect(built).toBe(false);
  });

  test("a child that dies fails its pending calls at once, not at the timeout", async () => {
    const { child, exited } = responder();
    const before = performance.now();
    const silent = child.call((id) => ({ op: "silent", id }), { timeoutMs: 30_000, what: "the first request" });
    const fatal = child.call(() => ({ op: "exit", code: 3 }), { timeoutMs: 30_000, what: "the fatal request" });
    const errors = await Promise.all([failure(silent), failure(fatal)]);
    // Long before the 30 s timeout (and within this test's own 5 s limit).
    expect(performance.now() - before).toBeLessThan(10_000);
    expect(errors.map((error) => error.kind)).toEqual(["dead", "dead"]);
    expect(errors[0].message).toBe('extension "t" exited with code 3 before answering the first request');
    expect(await exited).toMatchObject({ code: 3, signal: null, reason: "exited with code 3", stopped: false });
    expect(child.alive).toBe(false);

    // After death: calls reject at once, sends are refused and logged.
    const after = await failure(child.call((id) => ({ id }), { timeoutMs: 30_000, what: "a late request" }));
    expect(after.kind).toBe("dead");
    expect(after.message).toContain("a late request was not sent");
    expect(child.send({ hello: 1 })).toBe(false);
  });

  test("send refuses what is not JSON", () => {
    const { child } = echo();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(child.send(circular)).toBe(false);
    expect(child.send(undefined)).toBe(false);
    expect(child.send({ fine: true })).toBe(true);
  });
});

describe("a child that is not reading", () => {
  const BOUND = 256 * 1024;
  const event = (n: number) => ({ type: "event", n, pad: "x".repeat(1000) });

  test("droppable frames over the bound are dropped and counted; calls still go through once it reads", async () => {
    // It reads nothing for a second, then everything.
    const { child, diagnostics, log } = spawn([which("python3"), join(FIXTURES, "responder.py"), "--sleep-first", "1"], {
      maxBacklogBytes: BOUND,
    });
    child.onMessage((value) => child.settle((value as { id: number }).id, value));
    let sent = 0;
    let dropped = 0;
    // About 2 MB, far more than the pipe and the bound together hold.
    for (let n = 0; n < 2000; n++) {
      if (child.send(event(n), { droppable: true })) sent++;
      else dropped++;
    }
    // What waits in zot's memory stopped at the bound; the rest was dropped, not queued.
    expect(child.backlogBytes).toBeGreaterThan(0);
    expect(child.backlogBytes).toBeLessThanOrEqual(BOUND);
    expect(dropped).toBeGreaterThan(0);
    expect(sent + dropped).toBe(2000);

    // A frame somebody waits for is never dropped, even now.
    const answer = child.call((id) => ({ op: "echo", id }), { timeoutMs: 30_000, what: "the echo after the flood" });
    expect(child.backlogBytes).toBeGreaterThan(0);
    expect(await answer).toMatchObject({ echo: { op: "echo" } });

    const note = `dropped ${dropped} event frames: the extension is not reading its stdin`;
    await until(() => log().includes(note), "the dropped-frames line");
    expect(log().split(note).length - 1).toBe(1);
    expect(diagnostics).toEqual([{ kind: "frames_dropped", message: note }]);
    await until(() => child.backlogBytes === 0, "the backlog to drain");
    // Caught up: droppable frames go through again.
    expect(child.send(event(2000), { droppable: true })).toBe(true);
  });

  test("a child that keeps up gets every frame, even one bigger than the bound", async () => {
    const { child, messages } = spawn([which("bash"), join(FIXTURES, "echo.sh")], { maxBacklogBytes: 100 });
    expect(child.send({ big: "y".repeat(1000) }, { droppable: true })).toBe(true);
    await until(() => messages.length === 1, "the big frame echoed");
    expect(child.backlogBytes).toBe(0);
  });

  test("drops not yet reported when the child goes away are reported at its exit", async () => {
    const { child, diagnostics, log } = spawn([which("sleep"), "30"], { maxBacklogBytes: BOUND });
    let dropped = 0;
    for (let n = 0; n < 2000; n++) if (!child.send(event(n), { droppable: true })) dropped++;
    expect(dropped).toBeGreaterThan(0);
    // Said at the first drop, while it still runs: the log is where one looks for a stuck extension.
    await until(() => log().includes("is not reading its stdin: event frames are dropped until it does"), "the first drop said");
    await child.stop({ graceMs: 0, termMs: 1000 });
    expect(log()).toContain(`[zot] dropped ${dropped} event frames: the extension is not reading its stdin`);
    expect(diagnostics.map((d) => d.kind)).toContain("frames_dropped");
    expect(child.backlogBytes).toBe(0);
  });
});

describe("log file", () => {
  test("starting line, the child's stderr, host diagnostics and the exit all land in it", async () => {
    const { child, messages, logFile, log } = responder();
    child.send({ op: "stderr", text: "a warning from the child" });
    await until(() => messages.length === 1, "the stderr reply");
    child.log("a note from the host\nsecond line");
    await child.stop();
    const text = log();
    expect(text).toMatch(new RegExp(`^\\n\\[zot\\] starting t at \\d{4}-\\d\\d-\\d\\dT\\S+ \\(zot pid ${process.pid}\\)\\n`));
    expect(text).toContain("a warning from the child\n");
    expect(text).toContain("[zot] a note from the host\n[zot] second line\n");
    expect(text).toContain(`[zot] exited with code 0 (zot pid ${process.pid})\n`);
    expect(existsSync(logFile)).toBe(true);
  });

  test("the log directory is created and a second run appends", async () => {
    const logFile = join(dir, "deep", "er", "ext-twice.log");
    for (let run = 0; run < 2; run++) {
      const child = LineChild.spawn({ name: "twice", command: [which("true")], cwd: dir, logFile });
      await new Promise((resolve) => child.onExit(resolve));
    }
    expect(readFileSync(logFile, "utf8").match(/\[zot\] starting twice/g)?.length).toBe(2);
  });
});

describe("the log is private and bounded", () => {
  test("the log is 0600 in a 0700 directory; an older log and directory open to others are made so", async () => {
    const fresh = join(dir, "private-fresh", "logs", "ext-p.log");
    const child = LineChild.spawn({ name: "p", command: [which("true")], cwd: dir, logFile: fresh });
    await new Promise((resolve) => child.onExit(resolve));
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    expect(statSync(join(fresh, "..")).mode & 0o777).toBe(0o700);

    const older = join(dir, "private-older", "logs");
    mkdirSync(older, { recursive: true, mode: 0o755 });
    chmodSync(older, 0o755);
    writeFileSync(join(older, "ext-q.log"), "an old run\n", { mode: 0o644 });
    chmodSync(join(older, "ext-q.log"), 0o644);
    const again = LineChild.spawn({ name: "q", command: [which("true")], cwd: dir, logFile: join(older, "ext-q.log") });
    await new Promise((resolve) => again.onExit(resolve));
    expect(statSync(join(older, "ext-q.log")).mode & 0o777).toBe(0o600);
    expect(statSync(older).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(older, "ext-q.log"), "utf8")).toStartWith("an old run\n");
  });

  test("500,000 two-byte lines on stderr and stdout: the log takes a burst, then its rate, and says what it dropped", async () => {
    const started = performance.now();
    // stdout lines that are not JSON each become a `[zot] not JSON` line: 9 MB from 1 MB of output
    const { exited, log } = spawn([which("python3"), "-c", "import sys\nfor _ in range(500000):\n    sys.stderr.write('e\\n'); sys.stdout.write('o\\n')\n"]);
    await exited;
    const seconds = (performance.now() - started) / 1000;
    const text = log();
    // the limiter's own bound for this run's length, notes aside (they are a few short lines)
    const allowed = LOG_BURST_BYTES + LOG_BYTES_PER_SECOND * (seconds + 1) + 16 * 1024;
    expect(Buffer.byteLength(text)).toBeLessThan(allowed);
    expect(Buffer.byteLength(text)).toBeLessThan(1_000_000);
    expect(text).toMatch(/\[zot\] dropped \d+ bytes \(\d+ writes?\) here: the extension wrote faster than its log takes/);
    expect(text).toMatch(/\[zot\] this run dropped \d+ bytes of log in all/);
    // what got in is the child's own output and zot's lines about it, in order
    expect(text).toContain("e\ne\n");
    expect(text).toContain("[zot] not JSON: o\n");
    expect(text).toContain(`[zot] exited with code 0 (zot pid ${process.pid})\n`);
  });

  test("a run stops at its total: one note, then nothing of the child's, and the exit still lands", async () => {
    const logFile = join(dir, "logs", "ext-capped.log");
    const child = LineChild.spawn({
      name: "capped",
      command: [which("python3"), "-c", "import sys\nfor i in range(2000):\n    sys.stderr.write('line %d\\n' % i)\n"],
      cwd: dir,
      logFile,
      logLimits: { bytesPerSecond: 1e9, burstBytes: 1e9, bytesPerRun: 1000 },
    });
    await new Promise((resolve) => child.onExit(resolve));
    const text = readFileSync(logFile, "utf8");
    expect(text.match(/the most one run may/g)?.length).toBe(1);
    expect(text).not.toContain("line 1999");
    expect(text).toContain(`[zot] exited with code 0 (zot pid ${process.pid})\n`);
    expect(Buffer.byteLength(text)).toBeLessThan(1000 + 1024);
  });
});

describe("stop", () => {
  test("a well-behaved child gets the goodbye frame, sees its input close, and exits", async () => {
    const { child, messages, exited } = echo();
    await child.stop({ goodbye: { type: "shutdown" } });
    expect(messages).toEqual([{ type: "shutdown" }]);
    expect(await exited).toMatchObject({ code: 0, stopped: true });
    expect(child.alive).toBe(false);
    await child.stop(); // idempotent
  });

  test("a child that ignores its input closing and SIGTERM is SIGKILLed", async () => {
    const { child, messages, diagnostics, exited, log } = spawn([which("python3"), join(FIXTURES, "stubborn.py")], { name: "stubborn" });
    await until(() => messages.length === 1, "the stubborn child to be ready");
    const pending = failure(child.call((id) => ({ id }), { timeoutMs: 30_000, what: "a request it ignores" }));
    const first = child.stop({ goodbye: { type: "shutdown" }, graceMs: 200, termMs: 300 });
    expect(child.stop()).toBe(first);
    await first;
    const info = await exited;
    expect(info).toMatchObject({ code: null, signal: "SIGKILL", reason: "killed by SIGKILL", stopped: true });
    expect((await pending).kind).toBe("dead");
    const text = log();
    expect(text).toContain("sending SIGTERM");
    expect(text).toContain("got SIGTERM, staying");
    expect(text).toContain("sending SIGKILL");
    expect(text).toContain("[zot] killed by SIGKILL");
    expect(running(child.pid!)).toBe(false);
    expect(diagnostics.map((d) => d.kind)).toEqual(["no_exit_after_stop", "no_exit_after_sigterm"]);
  });
});

describe("spawn failures are sentences", () => {
  const attempt = (command: string[], cwd = dir) => {
    try {
      LineChild.spawn({ name: "x", command, cwd, logFile: join(dir, "logs", "ext-x.log") });
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error("spawn should have failed");
  };

  test("missing file, not executable, bad #! line, missing working directory, not on PATH", () => {
    const missing = join(dir, "ext.sh");
    expect(attempt([missing])).toBe(`extension "x": cannot run ${missing}: no such file`);

    const plain = join(dir, "plain.sh");
    writeFileSync(plain, "#!/bin/sh\necho hi\n");
    chmodSync(plain, 0o644);
    expect(attempt([plain])).toBe(`extension "x": cannot run ${plain}: not executable (chmod +x ${plain})`);

    const badShebang = join(dir, "bad.sh");
    writeFileSync(badShebang, "#!/no/such/interpreter\n");
    chmodSync(badShebang, 0o755);
    expect(attempt([badShebang])).toBe(
      `extension "x": cannot run ${badShebang}: its interpreter /no/such/interpreter (the #! line) was not found`,
    );

    expect(attempt([which("true")], join(dir, "nowhere"))).toBe(
      `extension "x": cannot run ${which("true")}: its working directory ${join(dir, "nowhere")} does not exist`,
    );
    expect(attempt(["zot-no-such-program-anywhere"])).toBe(
      'extension "x": cannot run zot-no-such-program-anywhere: not found on PATH',
    );
    expect(readFileSync(join(dir, "logs", "ext-x.log"), "utf8")).toContain("[zot] cannot run");
  });
});

describe("no child outlives its parent", () => {
  // The parent is a bun script using LineChild, like zot; its child is `sleep 300`.
  for (const [signal, mode] of [
    ["SIGTERM", "plain"],
    ["SIGINT", "plain"],
    ["SIGTERM", "handler"],
    ["SIGINT", "handler"],
  ] as const) {
    test(`${signal} to a parent with ${mode === "plain" ? "no signal handlers" : "its own handler that exits"}`, async () => {
      const pidFile = join(dir, `grandchild-${signal}-${mode}.pid`);
      const parent = Bun.spawn([process.execPath, join(FIXTURES, "parent.ts"), pidFile, mode], {
        cwd: dir,
        stdout: "pipe",
        stderr: "pipe",
      });
      const reader = parent.stdout.getReader();
      const { value } = await reader.read();
      expect(new TextDecoder().decode(value)).toContain("ready");
      const grandchild = Number(readFileSync(pidFile, "utf8"));
      expect(running(grandchild)).toBe(true);

      parent.kill(signal);
      await parent.exited;
      if (mode === "plain") expect(parent.signalCode).toBe(signal);
      else expect(parent.exitCode).toBe(3);
      await until(() => !running(grandchild), `the grandchild ${grandchild} to be gone`);
      expect(running(grandchild)).toBe(false);
    });
  }
});

describe("the run log's own lines", () => {
  test("start on a line of their own, also after a child's line cut short (a dropped rest, a crash)", () => {
    const file = join(mkdtempSync(join(tmpdir(), "zot-runlog-")), "ext-cut.log");
    const log = new RunLog(file, { limits: { burstBytes: 10, bytesPerSecond: 1 } });
    log.output(Buffer.from("EEEEEE"));
    log.output(Buffer.from("EEEEEEEEEEEE"));
    log.always("exited with code 1");
    log.close();
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines[0]).toBe("EEEEEE");
    expect(lines[1]).toStartWith("[zot] dropped 12 bytes (1 write) here");
    expect(lines[2]).toBe("[zot] exited with code 1");
    expect(lines[3]).toStartWith("[zot] this run dropped 12 bytes of log in all");
  });
});

describe("the log across runs", () => {
  test("a log past its cap when a run opens it is moved to .log.1 (the older one dropped), and the run starts a new one", () => {
    const file = join(mkdtempSync(join(tmpdir(), "zot-runlog-")), "mcp-chatty.log");
    writeFileSync(`${file}.1`, "the oldest runs\n");
    writeFileSync(file, "x".repeat(LOG_FILE_MAX_BYTES + 1));
    const log = new RunLog(file);
    log.always("started");
    log.close();
    expect(readFileSync(file, "utf8")).toBe("[zot] started\n");
    expect(statSync(`${file}.1`).size).toBe(LOG_FILE_MAX_BYTES + 1);
    // under the cap, runs append as before
    const again = new RunLog(file);
    again.always("started again");
    again.close();
    expect(readFileSync(file, "utf8")).toBe("[zot] started\n[zot] started again\n");
  });
});
