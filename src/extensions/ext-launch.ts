// How one extension's process is launched: its command line, environment and data directory.
// Rule: the extension gets zot's environment without zot's credentials (config/child-env.ts) plus
// its own three ZOT_* variables, runs in its own directory, and never inherits zot's BUN_BE_BUN
// (only files zot runs itself get one, and those take it out of their own environment at once, so
// what they start is zot).
import { mkdirSync } from "node:fs";
import { childEnv } from "../config/child-env.ts";
import { extensionDataDir, extensionLogFile } from "../config/home.ts";
import { errorText } from "../protocol/error-text.ts";
import { appendLog } from "./child-log.ts";
import { type Manifest, resolveExec } from "./manifest.ts";
import { bunPreload, ensureSdkRuntime, scriptTsconfig, withSdkNodePath } from "./sdk-runtime.ts";

/** A TypeScript or JavaScript file, as the bun runtime would run it (`zot index.ts`). */
const SCRIPT_FILE = /\.(?:[cm]?[jt]sx?)$/;

export interface LaunchOptions {
  manifest: Manifest;
  dir: string;
  home: string;
  zotVersion: string;
  zotBinary: string;
  env: Record<string, string | undefined>;
}

export type Launch =
  | { command: string[]; env: Record<string, string | undefined>; dataDir: string }
  | { error: string };

/** Resolves the command and prepares the environment and data directory. Errors name no extension. */
export function prepareLaunch(options: LaunchOptions): Launch {
  const { manifest, home } = options;
  const resolved = resolveExec(manifest, options.dir, { zotBinary: options.zotBinary, env: options.env });
  if ("error" in resolved) return resolved;
  const dataDir = extensionDataDir(home, manifest.name);
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (err) {
    return { error: `cannot create its data directory ${dataDir} (${errorText(err)})` };
  }
  const env: Record<string, string | undefined> = {
    ...childEnv(options.env, home),
    // A relative ZOT_HOME means zot's working directory; the extension runs in its own.
    ...(options.env.ZOT_HOME?.trim() ? { ZOT_HOME: home } : {}),
    BUN_BE_BUN: undefined,
    ...resolved.env,
    ZOT_EXTENSION_NAME: manifest.name,
    ZOT_EXTENSION_DIR: options.dir,
    // A guard: the SDK refuses a call its interceptor could not judge (sdk/extension.ts).
    ZOT_EXTENSION_FAIL_CLOSED: manifest.fail_closed === true ? "1" : undefined,
    ZOT_DATA_DIR: dataDir,
  };
  let command = resolved.command;
  if (resolved.env?.BUN_BE_BUN === "1") {
    // A script zot runs itself may import @zot/sdk: the SDK of this very binary.
    try {
      env.NODE_PATH = withSdkNodePath(ensureSdkRuntime(home, options.zotVersion), env.NODE_PATH);
    } catch (err) {
      appendLog(extensionLogFile(home, manifest.name), `${errorText(err)}; @zot/sdk imports will fail`);
    }
    // ...and what it starts in turn (`zot -p`, `zot rpc`) must be zot, not Bun with BUN_BE_BUN
    // inherited: `zot run file` and `zot file` (`"exec": "bun"` with no bun installed) alike take the preload.
    const [binary, first, ...rest] = command;
    if (binary !== undefined && first !== undefined) {
      try {
        const preload = ["--preload", bunPreload(home, options.zotVersion), "--tsconfig-override", scriptTsconfig(home, options.zotVersion, options.dir)];
        command = first === "run" ? [binary, "run", ...preload, ...rest] : SCRIPT_FILE.test(first) ? [binary, ...preload, first, ...rest] : command;
      } catch (err) {
        return { error: errorText(err) };
      }
    }
  }
  return { command, env, dataDir };
}
