// ensureSdkRuntime: the @zot/sdk package zot writes under $ZOT_HOME/runtime/<version>/ so that TS/JS
// extensions import the SDK with nothing installed, and the NODE_PATH that makes the binary find it.
// Rule: the extension files here live in temp dirs outside the repository, because inside it
// tsconfig.json's "paths" would resolve @zot/sdk to the source and hide a broken runtime.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { prepareLaunch } from "../../src/extensions/ext-launch.ts";
import { loadManifest } from "../../src/extensions/manifest.ts";
import { ensureSdkRuntime, SDK_SOURCE, withSdkNodePath } from "../../src/extensions/sdk-runtime.ts";
import { cleanEnv, tempDir, ZOT } from "../support/zot.ts";
import { helloAck, WireChild } from "../support/wire-child.ts";

const SDK_FILE = join(import.meta.dir, "..", "..", "src", "sdk", "extension.ts");

function packageDir(nodeModules: string): string {
  return join(nodeModules, "@zot", "sdk");
}

describe("ensureSdkRuntime", () => {
  test("writes index.ts (the SDK source, byte for byte) and a package.json pointing at it", () => {
    const home = tempDir("zot-home-");
    const nodeModules = ensureSdkRuntime(home, "1.2.3");
    expect(nodeModules).toBe(join(home, "runtime", "1.2.3", "node_modules"));
    expect(SDK_SOURCE).toBe(readFileSync(SDK_FILE, "utf8"));
    expect(readFileSync(join(packageDir(nodeModules), "index.ts"), "utf8")).toBe(SDK_SOURCE);
    const pkg = JSON.parse(readFileSync(join(packageDir(nodeModules), "package.json"), "utf8"));
    expect(pkg).toMatchObject({
      name: "@zot/sdk",
      version: "1.2.3",
      type: "module",
      types: "./index.ts",
      exports: { ".": { types: "./index.ts", default: "./index.ts" } },
    });
  });

  test("is idempotent: a second call leaves the files untouched", () => {
    const home = tempDir("zot-home-");
    const nodeModules = ensureSdkRuntime(home, "1.0.0");
    const files = ["index.ts", "package.json"].map((name) => join(packageDir(nodeModules), name));
    const before = files.map((file) => statSync(file));
    Bun.sleepSync(20);
    expect(ensureSdkRuntime(home, "1.0.0")).toBe(nodeModules);
    const after = files.map((file) => statSync(file));
    for (const [i, stat] of after.entries()) {
      expect(stat.ino).toBe(before[i]!.ino);
      expect(stat.mtimeMs).toBe(before[i]!.mtimeMs);
    }
  });

  test("rewrites files that differ from the binary's SDK (an edited copy, a dev build)", () => {
    const home = tempDir("zot-home-");
    const nodeModules = ensureSdkRuntime(home, "1.0.0");
    const index = join(packageDir(nodeModules), "index.ts");
    const pkg = join(packageDir(nodeModules), "package.json");
    writeFileSync(index, "export const broken = true;\n");
    writeFileSync(pkg, "{}");
    ensureSdkRuntime(home, "1.0.0");
    expect(readFileSync(index, "utf8")).toBe(SDK_SOURCE);
    expect(JSON.parse(readFileSync(pkg, "utf8")).name).toBe("@zot/sdk");
  });

  test("keeps each version apart, and a version string cannot climb out of runtime/", () => {
    const home = tempDir("zot-home-");
    expect(ensureSdkRuntime(home, "0.1.0")).not.toBe(ensureSdkRuntime(home, "0.2.0"));
    const odd = ensureSdkRuntime(home, "../../escape");
    expect(odd.startsWith(join(home, "runtime") + "/")).toBe(true);
    expect(existsSync(join(home, "..", "escape"))).toBe(false);
  });

  test("withSdkNodePath puts the SDK first and keeps what was there", () => {
    expect(withSdkNodePath("/z/node_modules", undefined)).toBe("/z/node_modules");
    expect(withSdkNodePath("/z/node_modules", "")).toBe("/z/node_modules");
    expect(withSdkNodePath("/z/node_modules", `/a${delimiter}/z/node_modules${delimiter}/b`)).toBe(
      ["/z/node_modules", "/a", "/b"].join(delimiter),
    );
  });
});

/** The runtime-check extension's index.ts, the one the tests below run. */
const RUNTIME_CHECK = [
  'import { display, extension } from "@zot/sdk";',
  'const ext = extension({ name: "runtime-check", version: "1.0.0" });',
  'ext.command("where", "say where zot is", (_args, ctx) => display(`zot ${ctx.host?.zot_version} in ${ctx.host?.cwd}`));',
  "await ext.run();",
  "",
].join("\n");

describe("an extension importing @zot/sdk, run by the zot binary", () => {
  beforeAll(() => {
    if (!existsSync(ZOT)) throw new Error(`${ZOT} is missing: run \`bun run build\` first (\`bun run test\` does)`);
  });

  function extensionDir(): string {
    const dir = tempDir("zot-ext-");
    writeFileSync(join(dir, "index.ts"), RUNTIME_CHECK);
    return dir;
  }

  test("resolves the SDK through NODE_PATH with nothing installed", async () => {
    const home = tempDir("zot-home-");
    const dir = extensionDir();
    const nodeModules = ensureSdkRuntime(home, "0.0.0-test");
    const env = cleanEnv(home, { BUN_BE_BUN: "1", NODE_PATH: withSdkNodePath(nodeModules, process.env.NODE_PATH) });
    // --no-install: a missing package must fail here, not be fetched from the npm registry.
    const child = new WireChild([ZOT, "run", "--no-install", join(dir, "index.ts")], { cwd: dir, env });
    expect(await child.next()).toEqual({ type: "hello", name: "runtime-check", version: "1.0.0", capabilities: ["commands", "tool_cancel", "call_tool"] });
    expect(await child.next()).toEqual({ type: "register_command", name: "where", description: "say where zot is" });
    expect(await child.next()).toEqual({ type: "ready" });
    child.send(helloAck());
    child.send({ type: "command_invoked", id: 1, name: "where" });
    expect(await child.reply(1)).toEqual({ type: "command_response", id: 1, action: "display", display: "zot 9.9.9-test in /tmp/project" });
    child.send({ type: "shutdown" });
    expect(await child.next()).toEqual({ type: "shutdown_ack" });
    expect(await child.exited).toBe(0);
    expect(child.badLines).toEqual([]);
  });

  test("without the NODE_PATH the import fails (so the host must set it)", async () => {
    const home = tempDir("zot-home-");
    const dir = extensionDir();
    const child = new WireChild([ZOT, "run", "--no-install", join(dir, "index.ts")], { cwd: dir, env: cleanEnv(home, { BUN_BE_BUN: "1" }) });
    expect(await child.exited).not.toBe(0);
    await child.stderrContaining("@zot/sdk");
    expect(child.frames).toEqual([]);
  });
});

describe("an extension's @zot/sdk is this zot's, whatever its project offers first", () => {
  test("a node_modules/@zot/sdk or a tsconfig paths entry planted above the extension's folder is never loaded: the launch's preload and tsconfig pin the SDK", async () => {
    const home = tempDir("zot-home-");
    const project = tempDir("zot-project-");
    const dir = join(project, ".zot", "extensions", "guard");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "guard", exec: "index.ts" }));
    writeFileSync(join(dir, "index.ts"), RUNTIME_CHECK);
    const marker = join(project, "PLANTED-RAN");
    const planted = `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran"); export const extension = () => ({ run() {} }); export const display = () => ({});\n`;
    for (const at of [join(project, "node_modules", "@zot", "sdk"), join(project, ".zot", "node_modules", "@zot", "sdk")]) {
      mkdirSync(at, { recursive: true });
      writeFileSync(join(at, "index.ts"), planted);
      writeFileSync(join(at, "package.json"), JSON.stringify({ name: "@zot/sdk", main: "index.ts" }));
    }
    writeFileSync(join(project, "evil.ts"), planted);
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: { paths: { "@zot/sdk": ["./evil.ts"] } } }));
    const loaded = loadManifest(dir);
    if (!loaded.ok) throw new Error(loaded.error);
    const launch = prepareLaunch({ manifest: loaded.manifest, dir, home, zotVersion: "0.0.0-test", zotBinary: ZOT, env: cleanEnv(home) });
    if ("error" in launch) throw new Error(launch.error);
    const child = new WireChild(launch.command, { cwd: dir, env: launch.env as Record<string, string> });
    expect(await child.next()).toEqual({ type: "hello", name: "runtime-check", version: "1.0.0", capabilities: ["commands", "tool_cancel", "call_tool"] });
    child.send(helloAck());
    child.send({ type: "shutdown" });
    await child.exited;
    expect(existsSync(marker)).toBe(false);
  });
});
