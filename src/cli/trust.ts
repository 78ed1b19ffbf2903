// `zot trust [DIR]`, `zot trust --list [--json]`, `zot untrust [DIR]`: workspace trust from the
// command line. A trusted folder's executable configuration (.zot/extensions, .zot/hooks.json)
// runs in every mode; an untrusted one's runs nowhere (config/workspace-trust.ts).
// Rule: only these commands and the TUI's question change the store, and `zot trust` only when no
// running zot started it (process/zot-ancestor.ts: not from a model's tool call); a folder is named by its real
// path; a store that cannot be read is reported and never overwritten.
import { statSafe } from "../config/quiet-fs.ts";
import type { ArgsDef } from "citty";
import path from "node:path";
import { zotHome } from "../config/home.ts";
import { folderKey, forgetFolder, readTrustStore, rememberFolder, trustStoreFile } from "../config/trust-store.ts";
import { UsageError } from "../config/usage-error.ts";
import { describeFound, findProjectConfig } from "../config/workspace-trust.ts";
import { DEBUG_ARG } from "./ext.ts";
import { parseFlags } from "./parse-flags.ts";
import { EXIT } from "./router.ts";
import { printableName, printableVerbatim } from "../protocol/printable.ts";

const TRUST_ARGS = {
  dir: { type: "positional", required: false, description: "The folder to trust (default: the current one)" },
  list: { type: "boolean", description: "List the folders you trusted or refused, with when" },
  json: { type: "boolean", description: "With --list: a JSON array" },
  debug: DEBUG_ARG,
} satisfies ArgsDef;

const UNTRUST_ARGS = {
  dir: { type: "positional", required: false, description: "The folder to forget (default: the current one)" },
  debug: DEBUG_ARG,
} satisfies ArgsDef;

export async function runTrust(command: "trust" | "untrust", argv: string[]): Promise<number> {
  const args = command === "trust" ? TRUST_ARGS : UNTRUST_ARGS;
  if (argv.includes("--help") || argv.includes("-h")) {
    const { renderHelp, helpStyle } = await import("./help.ts");
    const title =
      command === "trust"
        ? "Trust a folder: its .zot/extensions, .zot/hooks.json and .mcp.json servers run in every mode from now on (--list shows your answers)"
        : "Forget a folder's trust: its extensions and hooks stop running, and the TUI asks again";
    const usage: [string, string][] = command === "trust" ? [["zot trust [DIR]", ""], ["zot trust --list [--json]", ""]] : [["zot untrust [DIR]", ""]];
    await Bun.write(Bun.stdout, renderHelp({ title, usage, args }, helpStyle()));
    return EXIT.ok;
  }
  const { values, positionals } = parseFlags(args, argv);
  const home = zotHome(process.env);
  if (positionals.length > 1) throw new UsageError(`zot ${command} takes one folder (got ${positionals.length}: ${positionals.join(" ")})`);
  if (values.list) {
    if (positionals.length > 0) throw new UsageError("zot trust --list takes no folder");
    return list(home, values.json === true);
  }
  if (values.json) throw new UsageError("--json goes with --list (zot trust --list --json)");
  // `zot trust "$DIR"` with DIR unset must not mean the folder it runs in.
  if (positionals[0] === "") throw new UsageError(`zot ${command} got an empty folder (an unset variable?); give a folder, or none for the current one`);
  const dir = path.resolve(positionals[0] ?? ".");
  const key = folderKey(dir);
  // A folder that is gone (deleted, moved) is still forgotten: its path stays in the store, and a
  // folder made there later would be trusted without a question.
  const remembered = command === "untrust" && Object.hasOwn(readTrustStore(home).folders, key);
  if (!remembered && !statSafe(dir)?.isDirectory()) {
    const listed = command === "untrust" ? " and not in your answers (zot trust --list shows them)" : "";
    throw new UsageError(`${dir} is not a folder${listed}; give the folder to ${command}`);
  }
  if (command === "untrust") {
    const had = forgetFolder(home, key);
    // A folder's name is the folder's (an archive's top folder may hold escapes, newlines): shown, never obeyed.
    const name = printableName(key);
    console.log(had ? `forgot ${name}: its extensions and hooks do not run until you trust it again (the TUI asks next time)` : `${name} was neither trusted nor refused; nothing changed`);
    return EXIT.ok;
  }
  const ancestor = (await import("../process/zot-ancestor.ts")).zotAncestor();
  if (ancestor !== undefined) {
    // A folder's CLAUDE.md could tell the model to run this; trust is the user's to give.
    throw new UsageError(
      `zot trust was started by a command of the zot running as process ${ancestor} (a tool call, a hook, an extension or a !command), so it does not trust ${key}: trust is yours to give, from your own terminal or in the TUI's question`,
    );
  }
  rememberFolder(home, key, true);
  const found = findProjectConfig(key, home);
  console.log(
    found.length > 0
      ? `trusted ${printableName(key)}: its ${printableVerbatim(describeFound(found))} run from now on`
      : `trusted ${printableName(key)} (it has no extensions or hooks yet; they will run when it has)`,
  );
  return EXIT.ok;
}

function list(home: string, json: boolean): number {
  const store = readTrustStore(home);
  if (store.problem) throw new UsageError(store.problem);
  const rows = Object.entries(store.folders).map(([dir, answer]) => ({ dir, trusted: answer.trusted, decided: answer.decided }));
  if (json) {
    console.log(JSON.stringify(rows, null, 2));
    return EXIT.ok;
  }
  if (rows.length === 0) {
    console.error(`no folder trusted or refused yet (${trustStoreFile(home)}); zot trust [DIR] trusts one`);
    return EXIT.ok;
  }
  for (const row of rows) console.log(`${(row.trusted ? "trusted" : "refused").padEnd(8)}  ${printableName(row.decided.slice(0, 10))}  ${printableName(row.dir)}`);
  return EXIT.ok;
}
