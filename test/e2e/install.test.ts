// scripts/install.sh installs a release only when its checksum matches.
import { expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, tempDir, ZOT } from "../support/zot.ts";

const arch = process.arch === "arm64" ? "arm64" : "x64";
const name = `zot-${process.platform}-${arch}`;

function release(tamper: boolean): string {
  const dir = tempDir("zot-release-");
  copyFileSync(ZOT, join(dir, name));
  const sum = createHash("sha256").update(readFileSync(join(dir, name))).digest("hex");
  writeFileSync(join(dir, "SHA256SUMS"), `${tamper ? "0".repeat(64) : sum}  ${name}\n`);
  return dir;
}

async function install(dir: string, prefix: string) {
  const proc = Bun.spawn(["sh", join(ROOT, "scripts", "install.sh"), dir], {
    env: { ...process.env, PREFIX: prefix },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

test("a release whose checksum matches is installed and runs", async () => {
  const prefix = tempDir("zot-prefix-");
  const run = await install(release(false), prefix);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const installed = Bun.spawnSync([join(prefix, "bin", "zot"), "--version"]);
  expect(installed.stdout.toString()).toStartWith("zot ");
});

test("a release whose checksum does not match is refused and nothing is installed", async () => {
  const prefix = tempDir("zot-prefix-");
  const run = await install(release(true), prefix);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("checksum mismatch");
  expect(existsSync(join(prefix, "bin", "zot"))).toBe(false);
});
