// The baselines of the jailed commands in flight: a snapshot starts from the oldest live one on its
// jail root; a record of a process that is gone, or of another process under the same pid, counts
// for nothing and is removed; a release takes the record away.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Baseline, inFlightBaseline } from "../../src/tools/jail-baselines.ts";

const base = mkdtempSync(join(tmpdir(), "zot-jail-baselines-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

let n = 0;
const folder = () => {
  const dir = join(base, `d${++n}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** The baseline of a root with `.mcp.json` present (a plant, say) and `.git/hooks` holding `pre-commit`. */
function now(root: string): Baseline {
  return {
    steps: new Map([[join(root, ".git"), "1:2:16384"]]),
    before: new Map([
      [join(root, ".mcp.json"), { identity: "1:9:32768", file: { bytes: Buffer.from("{}"), mode: 0o644 } }],
      [join(root, ".git", "hooks", "pre-commit"), { identity: "1:10:32768", file: { bytes: Buffer.from("#!/bin/sh\n"), mode: 0o755 } }],
    ]),
    covers: [
      { path: join(root, ".mcp.json"), entries: false },
      { path: join(root, ".git", "hooks"), entries: true },
    ],
  };
}

/** The same root before the plant: no .mcp.json, no hook. */
function earlier(root: string): Baseline {
  return { steps: new Map([[join(root, ".git"), "1:2:16384"]]), before: new Map([[join(root, ".mcp.json"), {}]]), covers: now(root).covers };
}

test("a snapshot while another command runs on the same root starts from that command's baseline; released, the record goes", () => {
  const dir = folder();
  const root = "/work/project";
  const first = inFlightBaseline(dir, root, earlier(root));
  expect(readdirSync(dir)).toHaveLength(1);
  const second = inFlightBaseline(dir, root, now(root));
  // .mcp.json was not there when the first began; the hook, under a folder kept entry by entry, was not either
  expect(second.baseline.before.get(join(root, ".mcp.json"))).toEqual({});
  expect(second.baseline.before.get(join(root, ".git", "hooks", "pre-commit"))).toEqual({});
  // another root is another matter
  const elsewhere = inFlightBaseline(dir, "/work/other", now("/work/other"));
  expect(elsewhere.baseline.before.get(join("/work/other", ".mcp.json"))?.file?.bytes.toString()).toBe("{}");
  for (const record of [first, second, elsewhere]) record.release();
  expect(readdirSync(dir)).toEqual([]);
  // with nothing in flight, the disk as it is
  const alone = inFlightBaseline(dir, root, now(root));
  expect(alone.baseline.before.get(join(root, ".mcp.json"))?.identity).toBe("1:9:32768");
  alone.release();
});

test("the record of a process that is gone, of another process under its pid, of a process that is no zot, or from the future counts for nothing and is removed", async () => {
  const dir = folder();
  const root = "/work/project";
  const held = inFlightBaseline(dir, root, earlier(root));
  const [name] = readdirSync(dir);
  const record = JSON.parse(readFileSync(join(dir, name!), "utf8"));
  held.release();
  const key = name!.split("-")[0];
  const done = Bun.spawn(["true"]);
  await done.exited;
  writeFileSync(join(dir, `${key}-${done.pid}-1.json`), JSON.stringify({ ...record, pid: done.pid }));
  // this process (a zot's program: the test runner's), started at another time than the record says
  writeFileSync(join(dir, `${key}-${process.pid}-901.json`), JSON.stringify({ ...record, start: 1 }));
  writeFileSync(join(dir, `${key}-${process.pid}-902.json`), JSON.stringify({ ...record, at: Date.now() + 60_000 }));
  const sleeper = Bun.spawn(["sleep", "30"]);
  try {
    // a live process that is not this zot's program (a command's own, named by a forged record)
    const { start: _, ...unstamped } = record;
    writeFileSync(join(dir, `${key}-${sleeper.pid}-1.json`), JSON.stringify({ ...unstamped, pid: sleeper.pid }));
    const after = inFlightBaseline(dir, root, now(root));
    expect(after.baseline.before.get(join(root, ".mcp.json"))?.identity).toBe("1:9:32768");
    after.release();
    expect(readdirSync(dir)).toEqual([]);
  } finally {
    sleeper.kill();
  }
  // a live zot's record counts
  writeFileSync(join(dir, `${key}-${process.pid}-903.json`), JSON.stringify(record));
  const adopted = inFlightBaseline(dir, root, now(root));
  expect(adopted.baseline.before.get(join(root, ".mcp.json"))).toEqual({});
  adopted.release();
  rmSync(join(dir, `${key}-${process.pid}-903.json`));
});

test("a folder for the records that is another's to write is not used", () => {
  const dir = folder();
  const root = "/work/project";
  const first = inFlightBaseline(dir, root, earlier(root));
  chmodSync(dir, 0o777);
  const second = inFlightBaseline(dir, root, now(root));
  expect(second.baseline.before.get(join(root, ".mcp.json"))?.identity).toBe("1:9:32768");
  first.release();
  second.release();
});
