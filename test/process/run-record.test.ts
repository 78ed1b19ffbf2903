// The run record and what the next start reads from it: a dead zot's survivors named once, a
// live zot's record left alone, an unreadable record dropped. Real processes, read through /proc.
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { descendantsOf, readProcess, readProcessTable, treeOf } from "../../src/process/process-table.ts";
import { leftoversOfDeadRuns, runRecord } from "../../src/process/run-record.ts";

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // gone
    }
  }
});

/** A detached `sh` that leaves a child, as a dead zot's bash command would. */
function leftover(marker: string): number {
  const proc = Bun.spawn(["sh", "-c", `sleep ${marker} & sleep ${marker}`], { detached: true, stdout: "ignore", stderr: "ignore" });
  started.push(proc.pid);
  return proc.pid;
}

async function waitForTree(pgid: number, count: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const table = readProcessTable();
    if (table && treeOf(table, pgid).filter((e) => e.comm === "sleep").length >= count) return;
    await Bun.sleep(10);
  }
  throw new Error("the tree did not start");
}

test("a dead zot's record names the processes still running from it, once, with the command to end them", async () => {
  const dir = mkdtempSync(join(tmpdir(), "zot-run-"));
  const pgid = leftover("811111");
  await waitForTree(pgid, 2);
  // A pid no process has (far above pid_max's default) stands for the zot that was killed.
  writeFileSync(join(dir, "4000001.json"), JSON.stringify({ pid: 4_000_001, since: "then", cwd: "/", groups: [{ pgid, start: readProcess(pgid)?.start, label: "bash: sleep 811111" }] }));
  const [note, ...rest] = leftoversOfDeadRuns(dir);
  expect(rest).toEqual([]);
  expect(note).toContain("zot (pid 4000001) was killed before it could stop what it started");
  expect(note).toContain(`${pgid} `);
  expect(note).toContain("sleep 811111 (bash: sleep 811111)");
  expect(note).toMatch(/End them with: kill \d+( \d+)+$/);
  expect(existsSync(join(dir, "4000001.json"))).toBe(false);
  expect(leftoversOfDeadRuns(dir)).toEqual([]);
});

test("a live zot's record is left alone; an unreadable one is dropped without a word", () => {
  const dir = mkdtempSync(join(tmpdir(), "zot-run-"));
  const mine = runRecord(dir);
  mine.update([{ pgid: process.pid, label: "me" }]);
  writeFileSync(join(dir, "4000002.json"), "{not json");
  expect(leftoversOfDeadRuns(dir)).toEqual([]);
  expect(existsSync(join(dir, `${process.pid}.json`))).toBe(true);
  expect(JSON.parse(readFileSync(join(dir, `${process.pid}.json`), "utf8")).groups).toEqual([{ pgid: process.pid, label: "me" }]);
  expect(existsSync(join(dir, "4000002.json"))).toBe(false);
  mine.remove();
  expect(existsSync(join(dir, `${process.pid}.json`))).toBe(false);
});

test("the process table: a command name with spaces and parentheses, and descendants through a setsid", async () => {
  const pgid = leftover("822222");
  await waitForTree(pgid, 2);
  const table = readProcessTable()!;
  const me = table.get(process.pid)!;
  expect(me.ppid).toBe(process.ppid);
  const below = descendantsOf(table, [process.pid]).map((e) => e.pid);
  expect(below).toContain(pgid);
  expect(treeOf(table, pgid).filter((e) => e.comm === "sleep")).toHaveLength(2);
  const odd = join(mkdtempSync(join(tmpdir(), "zot-comm-")), "a) (b");
  writeFileSync(odd, "#!/bin/sh\nsleep 833333\n", { mode: 0o755 });
  const proc = Bun.spawn([odd], { stdout: "ignore", stderr: "ignore", detached: true });
  started.push(proc.pid);
  for (let i = 0; i < 100 && readProcess(proc.pid)?.comm !== "a) (b"; i++) await Bun.sleep(10);
  expect(readProcess(proc.pid)).toMatchObject({ comm: "a) (b", ppid: process.pid });
});

test("a run that started nothing writes no record; one that did writes it, and keeps it current when its groups end", () => {
  const dir = mkdtempSync(join(tmpdir(), "zot-run-"));
  const file = join(dir, `${process.pid}.json`);
  const record = runRecord(dir);
  record.update([]);
  expect(existsSync(file)).toBe(false);
  record.update([{ pgid: 4242, label: "bash: sleep 1" }]);
  const written = JSON.parse(readFileSync(file, "utf8"));
  expect(written.pid).toBe(process.pid);
  expect(written.start).toBe(readProcess(process.pid)?.start);
  expect(written.groups).toEqual([{ pgid: 4242, label: "bash: sleep 1" }]);
  record.update([]);
  expect(JSON.parse(readFileSync(file, "utf8")).groups).toEqual([]);
  record.remove();
  expect(existsSync(file)).toBe(false);
});
