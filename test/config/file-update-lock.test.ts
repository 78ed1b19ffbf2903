// The lock around one read-change-write of a file several zots share: a lock left by a zot that is
// gone, or one older than any change takes, is taken over; a live holder is waited for, then named
// in an error that changes nothing.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { underUpdateLock } from "../../src/config/file-update-lock.ts";

const dir = mkdtempSync(join(tmpdir(), "zot-update-lock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the change runs under the lock, which is gone after it, even when the change throws", () => {
  const file = join(dir, "a.json");
  expect(underUpdateLock(file, () => existsSync(`${file}.update-lock`))).toBe(true);
  expect(existsSync(`${file}.update-lock`)).toBe(false);
  expect(() => underUpdateLock(file, () => { throw new Error("broken"); })).toThrow("broken");
  expect(existsSync(`${file}.update-lock`)).toBe(false);
});

test("a lock of a process that is gone, or one older than any change takes, is taken over", async () => {
  const file = join(dir, "b.json");
  const done = Bun.spawn(["true"]);
  await done.exited;
  writeFileSync(`${file}.update-lock`, String(done.pid));
  expect(underUpdateLock(file, () => "changed")).toBe("changed");
  writeFileSync(`${file}.update-lock`, String(process.ppid));
  const old = new Date(Date.now() - 60_000);
  utimesSync(`${file}.update-lock`, old, old);
  expect(underUpdateLock(file, () => "changed again")).toBe("changed again");
});

test("a live holder is waited for, then named in an error; nothing is changed", () => {
  const file = join(dir, "c.json");
  writeFileSync(`${file}.update-lock`, String(process.ppid));
  let ran = false;
  expect(() => underUpdateLock(file, () => (ran = true))).toThrow(`is being changed by another zot (pid ${process.ppid}); nothing was changed`);
  expect(ran).toBe(false);
  rmSync(`${file}.update-lock`);
});

test("twelve processes each adding 40 to one counter under the lock lose none: a lock released while another looked is never removed from under its next holder", async () => {
  const file = join(dir, "counter");
  writeFileSync(file, "0");
  const worker = join(dir, "worker.ts");
  writeFileSync(
    worker,
    `import { readFileSync, writeFileSync } from "node:fs";
import { underUpdateLock } from ${JSON.stringify(join(import.meta.dir, "../../src/config/file-update-lock.ts"))};
for (let i = 0; i < 40; i++) underUpdateLock(${JSON.stringify(file)}, () => writeFileSync(${JSON.stringify(file)}, String(Number(readFileSync(${JSON.stringify(file)}, "utf8")) + 1)));
`,
  );
  const workers = Array.from({ length: 12 }, () => Bun.spawn([process.execPath, worker], { stderr: "inherit" }));
  expect(await Promise.all(workers.map((w) => w.exited))).toEqual(Array(12).fill(0));
  expect(await Bun.file(file).text()).toBe("480");
});
