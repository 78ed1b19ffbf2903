// Finds the one installed extension a command names (`zot ext remove|enable|disable <name>`).
// Rule: a name matches the manifest's name or the directory's name, in the project and the global
// directory; two matches are never guessed between: the user is told where both are and how to
// pick one.
import type { EnumArgDef } from "citty";
import path from "node:path";
import { UsageError } from "../config/usage-error.ts";
import { discoverExtensions, extensionSearchDirs } from "../extensions/discover.ts";
import { listHooksConfig } from "../extensions/hooks-config.ts";
import type { ExtContext } from "./ext.ts";

export type Scope = "project" | "global";
export type Found = Awaited<ReturnType<typeof discoverExtensions>>[number];

export const SCOPE_ARG = {
  type: "enum",
  options: ["project", "global"],
  description: "Only look in the project's .zot/extensions/ or only in $ZOT_HOME/extensions/",
} satisfies EnumArgDef;

export async function findInstalled(name: string, ctx: ExtContext, scope?: Scope): Promise<Found> {
  // Managing an extension (remove, enable, disable) runs nothing: untrusted folders' count too.
  const all = await discoverExtensions({ cwd: ctx.cwd, home: ctx.home, explicit: [], noDiscovery: false, projectTrusted: true });
  const matches = all.filter(
    (entry) =>
      (entry.source === "project" || entry.source === "global") &&
      (scope === undefined || entry.source === scope) &&
      (entry.manifest?.name === name || path.basename(entry.dir) === name),
  );
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) {
    // A hook of PicoClaw's hooks.json has no directory to enable, disable or remove.
    const hook = listHooksConfig({ ...ctx, projectTrusted: true }).entries.find((entry) => entry.name === name);
    if (hook) {
      throw new Error(
        `"${name}" is a hook configured in ${hook.file} (hooks.processes.${name}); edit its "enabled" there, or delete the entry — zot ext changes extension directories only`,
      );
    }
    const where =
      scope === "project" ? projectDir(ctx) : scope === "global" ? globalDir(ctx) : `${projectDir(ctx)} or ${globalDir(ctx)}`;
    throw new Error(`no extension named "${name}" in ${where}; zot ext list shows the installed ones`);
  }
  const places = matches.map((m) => `${m.dir} (${m.source})`).join(" and ");
  const scopes = new Set(matches.map((m) => m.source));
  if (scope === undefined && scopes.size > 1) {
    throw new UsageError(`"${name}" is installed twice: ${places}; add --scope project or --scope global to pick one`);
  }
  throw new UsageError(`"${name}" is the name of more than one extension: ${places}; rename or delete one of those directories`);
}

export function projectDir(ctx: ExtContext): string {
  return extensionSearchDirs(ctx).project;
}

export function globalDir(ctx: ExtContext): string {
  return extensionSearchDirs(ctx).global;
}

/** The name to show for an entry: the manifest's, else the directory's. */
export function displayName(entry: Found): string {
  return entry.manifest?.name ?? path.basename(entry.dir);
}
