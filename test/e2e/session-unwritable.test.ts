// Resuming a session zot cannot write, and one named through a link: the conversation goes on
// (unsaved, and said so) instead of refusing to start, and a link to a session in use is refused
// as the session itself is. The unwritable cases run as a user who is not root (as root, through
// setpriv as nobody), since root writes through any mode and would never see the failure.
import { expect, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionDir } from "../../src/session/paths.ts";
import { cleanEnv, tempDir, ZOT, zot } from "../support/zot.ts";

const root = process.getuid?.() === 0;
const asUser = root ? ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] : [];
const canSwitch = !root || Bun.which("setpriv") !== null;

test("a session named through a link is the same session: a second zot is refused while the first runs", async () => {
  const home = tempDir("zot-link-home-");
  const cwd = tempDir("zot-link-cwd-");
  const links = tempDir("zot-link-");
  const script = join(links, "s.json");
  writeFileSync(script, JSON.stringify([{ text: "first" }, { text: "slow answer", delay_ms: 3000 }, { text: "never" }]));
  const scripted = ["--provider", "scripted", "--script", script];
  expect((await zot(["-p", "start", ...scripted], { home, cwd })).code).toBe(0);
  const dir = sessionDir(home, cwd);
  const [name] = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  const file = join(dir, name!);
  const link = join(links, "link.jsonl");
  symlinkSync(file, link);

  // The script is read per run: the slow run plays turn 2, and a run that got through would play turn 1.
  writeFileSync(script, JSON.stringify([{ text: "slow answer", delay_ms: 3000 }]));
  const slow = Bun.spawn([ZOT, "-p", "-c", "PROMPT-A", ...scripted], { cwd, env: cleanEnv(home), stdout: "pipe", stderr: "pipe" });
  for (let i = 0; i < 100 && !existsSync(`${file}.lock`); i++) await Bun.sleep(50);
  expect(existsSync(`${file}.lock`)).toBe(true);
  const second = await zot(["-p", "--session", link, "PROMPT-B", ...scripted], { home, cwd });
  expect(second.code).not.toBe(0);
  expect(second.stderr).toContain("is in use by another zot");
  expect(await slow.exited).toBe(0);
  const text = readFileSync(file, "utf8");
  expect(text).toContain("PROMPT-A");
  expect(text).not.toContain("PROMPT-B");
});

test.skipIf(!canSwitch)("a session in a folder or a file zot may not write goes on unsaved, and says so", () => {
  const base = tempDir("zot-unwritable-");
  chmodSync(base, 0o777);
  const home = join(base, "home");
  const cwd = join(base, "project");
  mkdirSync(home);
  mkdirSync(cwd);
  writeFileSync(join(base, "s.json"), JSON.stringify([{ text: "first answer" }]));
  const binary = join(base, "zot");
  copyFileSync(ZOT, binary);
  chmodSync(binary, 0o755);
  for (const path of [base, home, cwd]) chmodSync(path, 0o777);
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ZOT_HOME: join(home, ".zot"), NO_COLOR: "1" };
  const run = (...args: string[]) => {
    const done = Bun.spawnSync([...asUser, binary, "-p", ...args, "--provider", "scripted", "--script", join(base, "s.json")], { cwd, env, stdout: "pipe", stderr: "pipe" });
    return { code: done.exitCode, stdout: done.stdout.toString(), stderr: done.stderr.toString() };
  };
  expect(run("first").code).toBe(0);
  const dir = sessionDir(join(home, ".zot"), cwd);
  const [name] = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  const file = join(dir, name!);
  const before = readFileSync(file, "utf8");

  // The folder is read-only: no lock can be made there.
  chmodSync(dir, 0o555);
  const folder = run("-c", "second");
  expect(folder.stderr).toContain("could not create the session lock");
  expect(folder.stderr).toContain("this run goes on from it without saving anything");
  expect(folder.code).toBe(0);
  expect(folder.stdout).toBe("first answer\n");
  expect(readFileSync(file, "utf8")).toBe(before);

  // The folder is writable, the file is not.
  chmodSync(dir, 0o777);
  chmodSync(file, 0o444);
  const own = run("-c", "third");
  expect(own.stderr).toContain(`cannot write to ${file}`);
  expect(own.stderr).toContain("without saving anything");
  expect(own.code).toBe(0);
  expect(readFileSync(file, "utf8")).toBe(before);
  // The lock was taken and let go: the next writable resume is not refused.
  chmodSync(file, 0o666);
  expect(run("-c", "fourth").code).toBe(0);
  expect(readFileSync(file, "utf8")).toContain("fourth");
});
