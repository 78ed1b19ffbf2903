// Where hooks.json files are (the project's .zot/hooks.json, then $ZOT_HOME/hooks.json). Rule: paths,
// and whether a file is there, only: a run sees there are none without loading the hook protocol's schemas.
import { existsSync } from "node:fs";
import path from "node:path";
import { zotPaths } from "../config/home.ts";
import type { HookSource } from "./hook-spec.ts";

export const HOOKS_FILE = "hooks.json";

/** The two hooks.json files, in precedence order. */
export function hooksConfigFiles(options: { cwd: string; home: string }): { source: HookSource; file: string }[] {
  return [
    { source: "project hooks.json", file: path.resolve(options.cwd, ".zot", HOOKS_FILE) },
    { source: "global hooks.json", file: path.resolve(options.cwd, zotPaths(options.home).home, HOOKS_FILE) },
  ];
}

/** Whether either hooks.json is there (read or not, it has hooks to start or to report on). */
export function hooksConfigPresent(options: { cwd: string; home: string }): boolean {
  return hooksConfigFiles(options).some(({ file }) => existsSync(file));
}
