// `zot ext remove <name> [--yes]` (alias rm): deletes an installed extension's directory.
// Rule: nothing is deleted without a yes: a person at a terminal is asked, a script must say
// --yes (without it the command refuses, exit 2, rather than wait on a question nobody sees).
import type { ArgsDef } from "citty";
import { existsSync, rmSync } from "node:fs";
import { UsageError } from "../config/usage-error.ts";
import { errorText } from "../protocol/error-text.ts";
import { DEBUG_ARG, type ExtCommand, type ExtContext } from "./ext.ts";
import { displayName, findInstalled, SCOPE_ARG, type Scope } from "./ext-find.ts";
import { parseFlags } from "./parse-flags.ts";
import { EXIT } from "./router.ts";

const ARGS = {
  name: { type: "positional", required: true, description: "The extension's name (as in zot ext list) or its directory's name" },
  yes: { type: "boolean", alias: "y", description: "Do not ask; needed when stdin is not a terminal" },
  scope: SCOPE_ARG,
  debug: DEBUG_ARG,
} satisfies ArgsDef;

export const REMOVE: ExtCommand = {
  usage: "remove <name> [--yes]",
  description: "Delete an installed extension's directory (alias: rm)",
  args: ARGS,
  async run(argv: string[], ctx: ExtContext): Promise<number> {
    const { values, positionals } = parseFlags(ARGS, argv, undefined, "zot ext remove");
    if (positionals.length !== 1) throw new UsageError("zot ext remove takes one extension name (zot ext list shows them)");
    const found = await findInstalled(positionals[0], ctx, values.scope as Scope | undefined);
    const name = displayName(found);
    // Only an extension is removed: a folder without extension.json is not one (delete it yourself).
    if (!existsSync(found.manifestFile)) {
      throw new Error(`${found.dir} has no extension.json, so it is not an extension zot ext manages; delete it yourself if you mean to`);
    }
    if (!values.yes) {
      if (!ctx.interactive) {
        throw new UsageError(`not removing ${found.dir} without confirmation; stdin is not a terminal, so pass --yes`);
      }
      const answer = await ask(`remove ${name} (${found.dir})? [y/N] `);
      if (!/^y(es)?$/i.test(answer.trim())) {
        console.error("not removed");
        return EXIT.ok;
      }
    }
    try {
      rmSync(found.dir, { recursive: true, force: true });
    } catch (error) {
      throw new Error(`could not remove ${found.dir}: ${errorText(error)}`);
    }
    console.log(`removed ${name} (${found.dir})`);
    return EXIT.ok;
  },
};

/** Asks on stderr (stdout may be piped) and reads one line from the terminal. */
async function ask(question: string): Promise<string> {
  process.stderr.write(question);
  const { createInterface } = await import("node:readline");
  const rl = createInterface({ input: process.stdin });
  try {
    return await new Promise<string>((resolve) => {
      rl.once("line", resolve);
      rl.once("close", () => resolve(""));
    });
  } finally {
    rl.close();
  }
}
