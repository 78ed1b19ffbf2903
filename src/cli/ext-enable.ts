// `zot ext enable <name>` / `zot ext disable <name>`: flips the `enabled` field of an extension's
// manifest. Rule: only that field changes; the rest of the file (key order, indentation, other
// fields, comments in strings) stays byte for byte as its author wrote it.
import type { ArgsDef } from "citty";
import { UsageError } from "../config/usage-error.ts";
import { setManifestEnabled } from "../extensions/manifest.ts";
import { DEBUG_ARG, type ExtCommand, type ExtContext } from "./ext.ts";
import { displayName, findInstalled, SCOPE_ARG, type Scope } from "./ext-find.ts";
import { parseFlags } from "./parse-flags.ts";
import { EXIT } from "./router.ts";

const ARGS = {
  name: { type: "positional", required: true, description: "The extension's name (as in zot ext list) or its directory's name" },
  scope: SCOPE_ARG,
  debug: DEBUG_ARG,
} satisfies ArgsDef;

function toggle(enabled: boolean): ExtCommand {
  const verb = enabled ? "enable" : "disable";
  return {
    usage: `${verb} <name>`,
    description: enabled ? "Enable a disabled extension" : "Disable an extension without removing it",
    args: ARGS,
    async run(argv: string[], ctx: ExtContext): Promise<number> {
      const { values, positionals } = parseFlags(ARGS, argv, undefined, `zot ext ${verb}`);
      if (positionals.length !== 1) throw new UsageError(`zot ext ${verb} takes one extension name (zot ext list shows them)`);
      const found = await findInstalled(positionals[0], ctx, values.scope as Scope | undefined);
      const name = displayName(found);
      if (!found.manifest) {
        throw new Error(`${found.manifestFile} cannot be read (${found.error ?? "unknown error"}); fix it, then run zot ext ${verb} ${name} again`);
      }
      if ((found.manifest.enabled !== false) === enabled) {
        console.log(`${name} is already ${verb}d (${found.manifestFile})`);
        return EXIT.ok;
      }
      if (!setManifestEnabled(found.manifestFile, enabled)) {
        throw new Error(`${found.manifestFile}: zot could not ${verb} ${name} there (its "enabled" field was not changed); edit the file by hand`);
      }
      console.log(`${verb}d ${name} (${found.manifestFile})`);
      if (found.shadowedBy) console.error(`zot: note: ${name} here is shadowed by ${found.shadowedBy}, which is the copy zot loads`);
      return EXIT.ok;
    },
  };
}

export const ENABLE = toggle(true);
export const DISABLE = toggle(false);
