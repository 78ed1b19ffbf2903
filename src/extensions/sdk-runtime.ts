// Makes `import { extension } from "@zot/sdk"` work in TypeScript/JavaScript extensions with
// nothing installed: the SDK source is compiled into the zot binary as text, written out as a
// package under `$ZOT_HOME/runtime/<version>/node_modules/@zot/sdk/`, and the extension host puts
// that `node_modules` directory on the child's NODE_PATH (Bun resolves bare imports through it).
// Beside it, the preload every script zot runs itself starts with (bunPreload): it takes
// BUN_BE_BUN out of the script's environment, so what the script starts (`zot -p`, `zot rpc`) is
// zot again, not Bun running its argument as JavaScript.
// Rule: the files on disk are exactly the SDK of the running binary. They are written only when
// missing or different (so a dev build with a changed SDK and the same version still wins), and
// each through a temporary file and a rename, so an extension starting at the same moment (a
// second zot, a reload) never reads half a file.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { errorText } from "../protocol/error-text.ts";
// A text import: Bun embeds the file's source, not its module. tsc does not know import
// attributes and types this as the SDK module, hence the cast below.
import * as sdkText from "../sdk/extension.ts" with { type: "text" };

/** The SDK's source as compiled into this binary. */
export const SDK_SOURCE: string = (sdkText as unknown as { default: string }).default;

/** The package name extensions import. */
export const SDK_PACKAGE = "@zot/sdk";

/**
 * Ensures `<home>/runtime/<version>/node_modules/@zot/sdk/{index.ts,package.json}` hold this
 * binary's SDK, and returns that `node_modules` directory, for the extension's NODE_PATH (see
 * {@link withSdkNodePath}). Throws a sentence naming the directory when it cannot be written.
 */
export function ensureSdkRuntime(home: string, version: string): string {
  const nodeModules = path.join(home, "runtime", safeSegment(version), "node_modules");
  const packageDir = path.join(nodeModules, ...SDK_PACKAGE.split("/"));
  try {
    writeIfDifferent(path.join(packageDir, "index.ts"), SDK_SOURCE);
    writeIfDifferent(path.join(packageDir, "package.json"), packageJson(version));
  } catch (err) {
    throw new Error(`cannot write the extension SDK to ${packageDir} (${errorText(err)}); check that ZOT_HOME (${home}) is writable`);
  }
  return nodeModules;
}

/**
 * What the preload does: the script's own processes run this binary as zot; and `@zot/sdk` is this
 * binary's SDK, written beside the preload, whatever else the script's folder offers first (a
 * `node_modules/@zot/sdk` or a tsconfig `paths` entry in the project, which a jailed command could
 * plant for the next start to run).
 */
const PRELOAD_SOURCE = [
  "// Written by zot, which rewrites it: what this script starts is zot again, not Bun,",
  "// and @zot/sdk is the SDK of the zot that runs it, never a copy the script's folder offers first:",
  "// whatever file an import of it resolves to in some node_modules, its text is this SDK's.",
  "delete process.env.BUN_BE_BUN;",
  'const sdk = require("node:path").join(import.meta.dir, "node_modules", "@zot", "sdk", "index.ts");',
  'const { readFileSync } = require("node:fs");',
  'Bun.plugin({ name: "zot-sdk", setup(build) { build.onLoad({ filter: /[\\\\/]node_modules[\\\\/]@zot[\\\\/]sdk[\\\\/]/ }, () => ({ contents: readFileSync(sdk, "utf8"), loader: "ts" })); } });',
  "",
].join("\n");

/** An empty tsconfig, for a script whose folder has none of its own: no tsconfig above it (a project's `paths`) decides its imports. */
const EMPTY_TSCONFIG = "{}\n";

/**
 * The tsconfig a script zot runs itself is run with (`--tsconfig-override`): its own folder's, else
 * `<home>/runtime/<version>/tsconfig.json`, empty. Never one above its folder, which a jailed
 * command could write (`paths` pointing `@zot/sdk` at a file of its own).
 */
export function scriptTsconfig(home: string, version: string, scriptDir: string): string {
  const own = path.join(scriptDir, "tsconfig.json");
  try {
    readFileSync(own);
    return own;
  } catch {}
  const file = path.join(home, "runtime", safeSegment(version), "tsconfig.json");
  try {
    writeIfDifferent(file, EMPTY_TSCONFIG);
  } catch (err) {
    throw new Error(`cannot write ${file} (${errorText(err)}); check that ZOT_HOME (${home}) is writable`);
  }
  return file;
}

/**
 * Ensures `<home>/runtime/<version>/forget-bun-be-bun.js` (the preload of every script zot runs
 * itself, `zot run --preload <it> file`) and returns its path. Throws a sentence naming it when it
 * cannot be written.
 */
export function bunPreload(home: string, version: string): string {
  const file = path.join(home, "runtime", safeSegment(version), "forget-bun-be-bun.js");
  try {
    writeIfDifferent(file, PRELOAD_SOURCE);
  } catch (err) {
    throw new Error(`cannot write ${file} (${errorText(err)}); check that ZOT_HOME (${home}) is writable`);
  }
  return file;
}

/** `current` NODE_PATH with `nodeModules` in front (the SDK of this zot wins over any other copy). */
export function withSdkNodePath(nodeModules: string, current: string | undefined): string {
  const rest = (current ?? "").split(path.delimiter).filter((entry) => entry !== "" && entry !== nodeModules);
  return [nodeModules, ...rest].join(path.delimiter);
}

function packageJson(version: string): string {
  const pkg = {
    name: SDK_PACKAGE,
    version,
    description: "The zot extension SDK, written here by zot for the extensions it runs. Do not edit: zot rewrites it.",
    type: "module",
    main: "./index.ts",
    types: "./index.ts",
    // Editors and TypeScript resolve types through "types" first; Bun runs the source directly.
    exports: { ".": { types: "./index.ts", default: "./index.ts" } },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

function writeIfDifferent(file: string, content: string): void {
  let current: string | undefined;
  try {
    current = readFileSync(file, "utf8");
  } catch {
    current = undefined;
  }
  if (current === content) return;
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temp, content);
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

// The version names a directory; a build label with a slash in it must not climb out of runtime/.
function safeSegment(version: string): string {
  const cleaned = version.replace(/[^A-Za-z0-9._+-]/g, "_");
  return cleaned === "" || /^\.+$/.test(cleaned) ? "_" : cleaned;
}
