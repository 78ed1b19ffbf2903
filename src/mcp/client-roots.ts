// The roots zot offers a server (`roots/list`): the folders it may work in. A stdio server whose
// arguments name folders (`server-filesystem ~/notes /srv/data`) gets those folders; any other
// server gets the folder zot works in, as Claude Code gives it. Rule: offering roots never changes
// what a server was configured to reach. The filesystem server replaces its command line's folders
// with the client's roots, so answering with the working folder alone (Claude Code's answer) would
// take ~/notes away from the entry in zot's own quick start; the folder zot works in never changes
// during a run, so no roots/list_changed is ever sent.
import { statSync } from "node:fs";
import { basename, isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerTransport } from "./server-entry.ts";

export interface Root {
  uri: string;
  name: string;
}

/**
 * The roots of a server configured as `spec`, run in `cwd` (`home`: what a leading ~ stands for, as
 * the servers read it). Only a positional argument counts: one after a flag is taken as the flag's
 * value (`uv --directory ./server run`, `--cache-dir /tmp`, `--allow /` name no folder to work in).
 */
export function clientRoots(spec: ServerTransport, cwd: string, home: string | undefined): Root[] {
  const positional = spec.type === "stdio" ? spec.args.filter((arg, at) => !flagValue(spec.args[at - 1])) : [];
  const named = positional.flatMap((arg) => folderNamed(arg, cwd, home));
  const folders = named.length > 0 ? [...new Set(named)] : [cwd];
  return folders.map((folder) => ({ uri: pathToFileURL(folder).href, name: basename(folder) || folder }));
}

/** Whether the argument after `previous` is its value: `previous` is a flag with no `=value` of its own. */
function flagValue(previous: string | undefined): boolean {
  return previous !== undefined && previous.startsWith("-") && previous !== "-" && previous !== "--" && !previous.includes("=");
}

/** The folder an argument names, when it is one that exists (`.`, `~/notes`, `/srv/data`); [] otherwise. */
function folderNamed(arg: string, cwd: string, home: string | undefined): string[] {
  if (arg === "" || arg.startsWith("-")) return [];
  const path = home && (arg === "~" || arg.startsWith("~/")) ? `${home}${arg.slice(1)}` : arg;
  const abs = isAbsolute(path) ? path : resolve(cwd, path);
  try {
    return statSync(abs).isDirectory() ? [abs] : [];
  } catch {
    return [];
  }
}
