// Workspace trust for tests: a project folder whose .zot/extensions or .zot/hooks.json a test runs
// must be trusted in that test's ZOT_HOME, as a user would with `zot trust`.
import { rememberFolder } from "../../src/config/trust-store.ts";
import { tempDir } from "./zot.ts";

/** Trusts `dir` in the store of ZOT_HOME `home` (created if needed); returns `dir`. */
export function trustDir(home: string, dir: string): string {
  rememberFolder(home, dir, true);
  return dir;
}

/** A fresh working directory and ZOT_HOME in which it is trusted. */
export function trustedProject(prefix = "zot-cwd-"): { cwd: string; home: string } {
  const cwd = tempDir(prefix);
  const home = tempDir("zot-home-");
  trustDir(home, cwd);
  return { cwd, home };
}
