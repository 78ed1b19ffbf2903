// `zot ext logs <name> [-f]`: print an extension's log, $ZOT_HOME/logs/ext-<name>.log (its stderr
// plus the host's `[zot]` notes about it); `-f` keeps printing what is appended.
// Rule: following is plain polling of the file's size, in TypeScript, so it behaves the same on
// every platform (no `tail`); a truncated or replaced file is read again from its start.
import type { ArgsDef } from "citty";
import { closeSync, openSync, readSync, statSync, type Stats } from "node:fs";
import { extensionLogFile } from "../config/home.ts";
import { UsageError } from "../config/usage-error.ts";
import { DEBUG_ARG, type ExtCommand, type ExtContext } from "./ext.ts";
import { findInstalled } from "./ext-find.ts";
import { parseFlags } from "./parse-flags.ts";
import { EXIT } from "./router.ts";

const ARGS = {
  name: { type: "positional", required: true, description: "The extension's name (as in its extension.json)" },
  follow: { type: "boolean", alias: "f", description: "Keep printing lines as they are appended (Ctrl+C stops)" },
  debug: DEBUG_ARG,
} satisfies ArgsDef;

const POLL_MS = 200;

export const LOGS: ExtCommand = {
  usage: "logs <name> [-f]",
  description: "Print an extension's log: its stderr and zot's notes about it",
  args: ARGS,
  async run(argv: string[], ctx: ExtContext): Promise<number> {
    const { values, positionals } = parseFlags(ARGS, argv, undefined, "zot ext logs");
    if (positionals.length !== 1) throw new UsageError("zot ext logs takes one extension name (zot ext list shows them)");
    const name = positionals[0];
    // The name becomes part of a file name; a separator would read some other file.
    if (!/^[^/\\]+$/.test(name) || name === "." || name === "..") {
      throw new UsageError(`"${name}" is not an extension name; zot ext list shows the names`);
    }
    const file = extensionLogFile(ctx.home, name);
    const stats = statOrUndefined(file);
    if (!values.follow) {
      if (!stats) {
        console.error(`zot: ${(await isKnown(name, ctx)) ? `no log for "${name}" yet; zot writes one to ${file} when it starts the extension` : `no log for "${name}": no installed extension or hook has that name (zot ext list shows them; one run with --ext DIR logs under its manifest's name)`}`);
        return EXIT.failed;
      }
      await Bun.write(Bun.stdout, Bun.file(file));
      return EXIT.ok;
    }
    if (!stats) console.error(`zot: no log for "${name}" yet; waiting for ${file} (Ctrl+C stops)`);
    return await follow(file);
  },
};

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** Prints the file, then whatever is appended, until Ctrl+C or SIGTERM. */
async function follow(file: string): Promise<number> {
  let offset = 0;
  let identity: string | undefined;
  const out = Bun.stdout.writer();
  const pump = () => {
    const stats = statOrUndefined(file);
    if (!stats) return;
    const id = `${stats.dev}:${stats.ino}`;
    // A new file under the same name (log rotated, extension reinstalled) or one cut shorter is
    // read from the start, as `tail -F` does.
    if (id !== identity || stats.size < offset) {
      identity = id;
      offset = 0;
    }
    if (stats.size === offset) return;
    let fd: number;
    try {
      fd = openSync(file, "r");
    } catch {
      return;
    }
    try {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      for (;;) {
        const n = readSync(fd, buffer, 0, buffer.length, offset);
        if (n <= 0) break;
        out.write(buffer.subarray(0, n));
        offset += n;
      }
    } finally {
      closeSync(fd);
    }
    out.flush();
  };
  return await new Promise<number>((resolve) => {
    pump();
    const timer = setInterval(pump, POLL_MS);
    const stop = (code: number) => () => {
      clearInterval(timer);
      pump();
      out.flush();
      resolve(code);
    };
    // Ctrl+C is how a follow ends; it reports as an interrupt, like any other interrupted command.
    process.once("SIGINT", stop(EXIT.interrupted));
    process.once("SIGTERM", stop(EXIT.interrupted));
  });
}

/** Whether an installed extension, or a hook of hooks.json, has this name (a typo has none). */
async function isKnown(name: string, ctx: ExtContext): Promise<boolean> {
  try {
    await findInstalled(name, ctx);
    return true;
  } catch (error) {
    // A hook entry, or a name two extensions share, is known all the same.
    return !/^no extension named/.test(error instanceof Error ? error.message : "");
  }
}
