// bash: real processes. Exit codes, one merged stream in order, progress while running, the whole
// process group killed on timeout and abort, and huge output cut to head + tail with a full file.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TextBlock } from "../../src/protocol/messages.ts";
import type { ToolContext } from "../../src/protocol/tool.ts";
import { waitForTool } from "../../src/core/tool-wait.ts";
import { bashTool } from "../../src/tools/bash.ts";
import { sweepOutputFiles } from "../../src/tools/bash-output-files.ts";
import { running } from "../support/process-state.ts";

const dir = mkdtempSync(join(tmpdir(), "zot-bash-test-"));
const savedOutputs: string[] = [];
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const path of savedOutputs) rmSync(path, { force: true });
});

function context(overrides: Partial<ToolContext> = {}): ToolContext {
  return { cwd: dir, signal: new AbortController().signal, onProgress() {}, ...overrides };
}

async function run(args: Record<string, unknown>, ctx = context()) {
  const result = await bashTool.execute(args, ctx);
  const details = result.details as Record<string, unknown>;
  if (typeof details?.full_output_path === "string") savedOutputs.push(details.full_output_path);
  return { ...result, text: (result.content[0] as TextBlock).text, details };
}


async function waitForFile(path: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    if (existsSync(path)) {
      const text = readFileSync(path, "utf8").trim();
      if (text) return text;
    }
    await Bun.sleep(25);
  }
  throw new Error(`${path} never appeared`);
}

test("exit code 0 is success, anything else is an error; the result ends with [exit N] and the duration", async () => {
  const ok = await run({ command: "true" });
  expect(ok.is_error).toBe(false);
  expect(ok.text).toMatch(/^\(no output\)\n\[exit 0\] \d+\.\ds$/);
  expect(ok.details.exit_code).toBe(0);

  const bad = await run({ command: "echo failing; exit 3" });
  expect(bad.is_error).toBe(true);
  expect(bad.text).toMatch(/^failing\n\[exit 3\] \d+\.\ds$/);
  expect(bad.details.exit_code).toBe(3);
  expect(typeof bad.details.duration_ms).toBe("number");
});

test("stdout and stderr are one stream, in the order written", async () => {
  const r = await run({ command: "echo out1; echo err1 >&2; echo out2; echo err2 >&2; ls /nonexistent-zot-path" });
  expect(r.text).toStartWith("out1\nerr1\nout2\nerr2\nls: ");
  expect(r.details.exit_code).not.toBe(0);
});

test("runs in ctx.cwd with an empty stdin", async () => {
  const r = await run({ command: "pwd; cat; echo after-cat" });
  expect(r.text).toStartWith(`${dir}\nafter-cat\n`);
});

test("progress chunks arrive while the command is still running", async () => {
  let finished = false;
  const chunks: { text: string; finishedYet: boolean }[] = [];
  const pending = bashTool
    .execute(
      { command: "echo first; sleep 0.5; echo second" },
      context({ onProgress: (text) => void chunks.push({ text, finishedYet: finished }) }),
    )
    .then((r) => {
      finished = true;
      return r;
    });
  const r = await pending;
  expect(chunks.length).toBeGreaterThanOrEqual(2);
  expect(chunks[0]).toEqual({ text: "first\n", finishedYet: false });
  expect(chunks.map((c) => c.text).join("")).toBe("first\nsecond\n");
  expect((r.content[0] as TextBlock).text).toStartWith("first\nsecond\n");
});

test("timeout kills the command and its grandchildren", async () => {
  const pids = join(dir, "timeout-pids");
  const r = await run({
    command: `sleep 30 & echo $! >> ${pids}; bash -c 'sleep 30 & echo $! >> ${pids}; wait' & sleep 30`,
    timeout: 0.5,
  });
  expect(r.is_error).toBe(true);
  expect(r.text).toMatch(/\[timed out after 0\.5s\] \d+\.\ds$/);
  expect(r.details.timed_out).toBe(true);
  const children = readFileSync(pids, "utf8").trim().split("\n").map(Number);
  expect(children).toHaveLength(2);
  for (const pid of children) expect(running(pid)).toBe(false);
});

test("a group that ignores SIGTERM gets SIGKILL", async () => {
  const pidFile = join(dir, "stubborn-pid");
  const started = Date.now();
  const r = await run({ command: `trap '' TERM; sleep 30 & echo $! > ${pidFile}; wait`, timeout: 0.3 });
  expect(r.details.timed_out).toBe(true);
  expect(running(Number(readFileSync(pidFile, "utf8")))).toBe(false);
  expect(Date.now() - started).toBeLessThan(10_000); // far below the 30 s sleep
});

test("abort through the AbortController kills the process group and returns", async () => {
  const pidFile = join(dir, "abort-pid");
  const controller = new AbortController();
  const started = Date.now();
  const pending = run({ command: `sleep 30 & echo $! > ${pidFile}; sleep 30` }, context({ signal: controller.signal }));
  const grandchild = Number(await waitForFile(pidFile));
  expect(running(grandchild)).toBe(true);
  controller.abort();
  const r = await pending;
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(r.is_error).toBe(true);
  expect(r.text).toMatch(/\[aborted\] \d+\.\ds$/);
  expect(r.details.aborted).toBe(true);
  expect(running(grandchild)).toBe(false);
});

test("aborted, a command that ignores SIGTERM still gives what it printed, within the turn's grace for an aborted tool; it is killed after", async () => {
  const pidFile = join(dir, "deaf-pid");
  const controller = new AbortController();
  const running_ = bashTool.execute({ command: `trap '' TERM; echo printed-before-the-abort; echo $$ > ${pidFile}; sleep 30` }, context({ signal: controller.signal }));
  const shell = Number(await waitForFile(pidFile));
  controller.abort();
  // As the agent waits for it (core/tool-wait.ts): its own result, not "left behind".
  const r = await waitForTool("bash", running_, controller.signal);
  const text = (r.content[0] as TextBlock).text;
  expect(text).toContain("printed-before-the-abort");
  expect(text).toMatch(/\[aborted\] \d+\.\ds$/);
  expect(r.details?.aborted).toBe(true);
  // SIGKILL follows the grace, in the background.
  for (let i = 0; i < 200 && running(shell); i++) await Bun.sleep(25);
  expect(running(shell)).toBe(false);
});

test("abort kills what left the group too (setsid), not only the group", async () => {
  const pidFile = join(dir, "setsid-pid");
  const controller = new AbortController();
  const pending = run({ command: `setsid sleep 30 & echo $! > ${pidFile}; sleep 30` }, context({ signal: controller.signal }));
  const escaped = Number(await waitForFile(pidFile));
  expect(running(escaped)).toBe(true);
  controller.abort();
  const r = await pending;
  expect(r.details.aborted).toBe(true);
  expect(running(escaped)).toBe(false);
});

test("a timeout beyond setTimeout's limit (24.8 days) waits, instead of firing at once", async () => {
  const r = await run({ command: "sleep 0.2; echo finished", timeout: 3_000_000 });
  expect(r.details.timed_out).toBe(false);
  expect(r.is_error).toBe(false);
  expect(r.text).toStartWith("finished\n");
});

test("saved outputs cannot pile up: a new one removes those older than a week", async () => {
  const old = join(tmpdir(), "zot-bash-0123456789ab.log");
  const recent = join(tmpdir(), "zot-bash-ba9876543210.log");
  writeFileSync(old, "old output\n");
  writeFileSync(recent, "recent output\n");
  const eightDaysAgo = (Date.now() - 8 * 24 * 3600 * 1000) / 1000;
  utimesSync(old, eightDaysAgo, eightDaysAgo);
  try {
    const r = await run({ command: "seq 1 100000" });
    expect(r.details.truncated).toBe(true);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
  } finally {
    rmSync(old, { force: true });
    rmSync(recent, { force: true });
  }
});

test("saved outputs stay within the budget: the oldest go first, files in use and other names never", () => {
  const sweepDir = mkdtempSync(join(tmpdir(), "zot-bash-sweep-"));
  const now = Date.now();
  const files = [
    { name: "zot-bash-000000000001.log", bytes: 400, ageMs: 3_600_000 },
    { name: "zot-bash-000000000002.log", bytes: 400, ageMs: 1_800_000 },
    { name: "zot-bash-000000000003.log", bytes: 400, ageMs: 600_000 },
    { name: "zot-bash-000000000004.log", bytes: 400, ageMs: 1_000 }, // still being written, maybe
    { name: "notes.log", bytes: 5000, ageMs: 3 * 24 * 3_600_000 },
  ];
  for (const file of files) {
    const path = join(sweepDir, file.name);
    writeFileSync(path, "x".repeat(file.bytes));
    const at = (now - file.ageMs) / 1000;
    utimesSync(path, at, at);
  }
  const removed = sweepOutputFiles({ dir: sweepDir, maxAgeMs: 24 * 3_600_000, budgetBytes: 500, roomBytes: 200, now });
  expect(removed.map((path) => path.slice(sweepDir.length + 1))).toEqual(["zot-bash-000000000001.log", "zot-bash-000000000002.log", "zot-bash-000000000003.log"]);
  expect(existsSync(join(sweepDir, "zot-bash-000000000004.log"))).toBe(true);
  expect(existsSync(join(sweepDir, "notes.log"))).toBe(true);
  rmSync(sweepDir, { recursive: true, force: true });
});

test("an already aborted signal starts nothing", async () => {
  const marker = join(dir, "never");
  const controller = new AbortController();
  controller.abort();
  const r = await run({ command: `touch ${marker}` }, context({ signal: controller.signal }));
  expect(r.is_error).toBe(true);
  expect(r.text).toContain("[aborted]");
  expect(existsSync(marker)).toBe(false);
});

test("death by signal is reported as such", async () => {
  const r = await run({ command: "kill -9 $$" });
  expect(r.is_error).toBe(true);
  expect(r.text).toMatch(/\[killed by SIGKILL\] \d+\.\ds$/);
});

test("huge output keeps head and tail; the saved file holds every line", async () => {
  const r = await run({ command: "seq 1 200000" });
  expect(r.is_error).toBe(false);
  expect(r.details.truncated).toBe(true);
  expect(r.text).toStartWith("1\n2\n3\n");
  expect(r.text).toContain("\n1000\n… [198000 lines omitted] …\n199001\n");
  expect(r.text).toMatch(/\n200000\n\[output was 200000 lines \(1288895 bytes\)[^\n]*\]\n\[exit 0\] \d+\.\ds$/);
  expect(Buffer.byteLength(r.text)).toBeLessThan(60_000);

  const path = r.details.full_output_path as string;
  expect(r.text).toContain(path);
  expect(statSync(path).mode & 0o777).toBe(0o600);
  const lines = readFileSync(path, "utf8").split("\n");
  expect(lines).toHaveLength(200_001); // trailing newline
  expect(lines[0]).toBe("1");
  expect(lines[123_456]).toBe("123457");
  expect(lines[199_999]).toBe("200000");
});

test("a single enormous line is cut by bytes, and saved whole", async () => {
  const r = await run({ command: "head -c 5000000 /dev/zero | tr '\\0' a; echo; echo end" });
  expect(r.details.truncated).toBe(true);
  // Compare pieces, not the whole text: a failure should not print 50 KB of "a".
  const [head, marker, ...rest] = r.text.split("\n");
  expect(head).toHaveLength(25_600);
  expect(head).toMatch(/^a+$/);
  expect(marker).toBe(`… [${5_000_005 - 25_600 - 4} bytes omitted] …`);
  expect(rest[0]).toBe("end");
  expect(Buffer.byteLength(r.text)).toBeLessThan(60_000);
  expect(statSync(r.details.full_output_path as string).size).toBe(5_000_000 + 1 + 4);
});

test("output under the limits is returned whole, with no file", async () => {
  const r = await run({ command: "seq 1 1500" });
  expect(r.details.truncated).toBe(false);
  expect(r.details.full_output_path).toBeNull();
  expect(r.text.split("\n")).toHaveLength(1501);
});

test("a background process holding the output does not hang the call", async () => {
  const started = Date.now();
  const r = await run({ command: "(sleep 3; echo late) & echo now" });
  expect(Date.now() - started).toBeLessThan(2500);
  expect(r.is_error).toBe(false);
  expect(r.text).toStartWith("now\n");
  expect(r.text).toContain("background process kept the output open");
});

test("argument errors name the field", async () => {
  const r = await run({});
  expect(r.is_error).toBe(true);
  expect(r.text).toStartWith('bash: "command" is required');
  const t = await run({ command: "true", timeout: -1 });
  expect(t.text).toStartWith('bash: "timeout" must be a number > 0');
});

test("nothing waits for a person who is not there: git commit without -m ends at once, with git's own words", async () => {
  const repo = mkdtempSync(join(dir, "repo-"));
  const r = await run({
    command: `cd ${repo} && git init -q && git config user.email a@b && git config user.name a && echo x > f && git add f && git -c core.editor=vi commit; echo "editor=$GIT_EDITOR pager=$PAGER"`,
    timeout: 20,
  });
  expect(r.details.timed_out).toBe(false);
  expect(r.text).toContain("editor=true pager=cat");
});

test("a command that opens the user's editor gets one that fails at once, not a vi waiting for keys", async () => {
  const file = join(dir, "note.txt");
  writeFileSync(file, "x\n");
  const r = await run({ command: `sh -c '\${VISUAL:-\${EDITOR:-vi}} "$1"; echo "editor exit=$?"' _ ${file}`, timeout: 20 });
  expect(r.details.timed_out).toBe(false);
  expect(r.text).toContain("editor exit=1");
  // VISUAL is left out, not set: an editor given for one command (EDITOR=… cmd) is the one it runs.
  const given = await run({ command: `echo "visual=\${VISUAL-unset}"; EDITOR=true sh -c '\${VISUAL:-$EDITOR} "$1"; echo "given exit=$?"' _ ${file}`, timeout: 20 }, context({ env: { ...process.env, VISUAL: "vi" } }));
  expect(given.text).toContain("visual=unset");
  expect(given.text).toContain("given exit=0");
});

test("jailed, the hint for a long output's saved file names the read tool: the jailed shell cannot see the file", async () => {
  const jailed = await run({ command: "seq 1 200000" }, context({ jailed: true }));
  expect(jailed.text).toMatch(/the full output is in \S+ \(read it with the read tool's offset\/limit\)/);
  const free = await run({ command: "seq 1 200000" });
  expect(free.text).toContain("(search it with grep, or read it with offset/limit)");
});
