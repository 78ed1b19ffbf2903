// How an extension's process is launched: a script the zot binary runs itself starts with the
// preload that takes BUN_BE_BUN out of its environment, in every form the manifest can ask for it.
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { prepareLaunch } from "../../src/extensions/ext-launch.ts";
import type { Manifest } from "../../src/extensions/manifest.ts";
import { tempDir } from "../support/zot.ts";

const manifest = (exec: string, args?: string[]): Manifest => ({ name: "m", exec, ...(args ? { args } : {}), enabled: true, priority: 0, protocol: "zot" });

test("index.ts, bun index.ts without bun, and zot run index.ts all take the preload; a plain program does not", () => {
  const dir = tempDir("zot-launch-");
  const home = tempDir("zot-launch-home-");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "index.ts"), "");
  const launch = (m: Manifest) => prepareLaunch({ manifest: m, dir, home, zotVersion: "0.0.0-test", zotBinary: "/opt/zot", env: { PATH: "/nonexistent" } });
  for (const m of [manifest("index.ts"), manifest("bun", ["index.ts"]), manifest("zot", ["run", "index.ts"])]) {
    const got = launch(m);
    if ("error" in got) throw new Error(got.error);
    const at = got.command.indexOf("--preload");
    expect(at).toBeGreaterThan(0);
    expect(readFileSync(got.command[at + 1]!, "utf8")).toContain("delete process.env.BUN_BE_BUN");
    expect(got.command.at(-1)).toEndWith("index.ts");
    expect(got.env.BUN_BE_BUN).toBe("1");
  }
  const plain = launch(manifest("/bin/sh", ["-c", "true"]));
  if ("error" in plain) throw new Error(plain.error);
  expect(plain.command).toEqual(["/bin/sh", "-c", "true"]);
  expect(plain.env.BUN_BE_BUN).toBeUndefined();
});
