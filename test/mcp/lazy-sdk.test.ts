// The MCP SDK loads only when a server is configured: no chain of static imports leads from the
// entry point, the runtime or the MCP loader to it (only the manager, behind import(), does).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ROOT } from "../support/zot.ts";

const transpiler = new Bun.Transpiler({ loader: "ts" });

/** Every module reached from `entry` through static imports (type-only imports are erased). */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    // Packages are leaves here (the SDK is one); so are non-code files (a skill's SKILL.md).
    if (!file.startsWith("/") || !/\.[cm]?[jt]s$/.test(file)) return;
    for (const item of transpiler.scanImports(readFileSync(file, "utf8"))) {
      if (item.kind !== "import-statement") continue;
      visit(item.path.startsWith(".") ? resolve(dirname(file), item.path) : item.path);
    }
  };
  visit(entry);
  return seen;
}

test("no static import chain reaches @modelcontextprotocol/sdk from main, the runtime or the MCP loader", () => {
  for (const entry of ["src/main.ts", "src/runtime/runtime.ts", "src/mcp/load.ts", "src/cli/mcp.ts"]) {
    const reached = [...staticClosure(join(ROOT, entry))];
    expect({ entry, sdk: reached.filter((path) => path.includes("@modelcontextprotocol")) }).toEqual({ entry, sdk: [] });
  }
  // The guard can see the SDK at all: the manager does import it.
  expect([...staticClosure(join(ROOT, "src/mcp/manager.ts"))].some((path) => path.startsWith("@modelcontextprotocol/sdk"))).toBe(true);
});
