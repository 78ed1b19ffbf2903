// Routes argv to a command: `zot ext …` to the extension commands, `zot rpc …` to the RPC server,
// `zot sessions …` to the session commands, `zot trust|untrust …` to workspace trust, `zot mcp …` to
// the MCP server commands, anything else to the root command.
// Rule: every command returns an exit code; only this file turns thrown errors into one.
import { UsageError } from "../config/usage-error.ts";
import { errorText } from "../protocol/error-text.ts";
import { printable } from "../protocol/printable.ts";

export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

export async function runCli(argv: string[]): Promise<number> {
  const debug = argv.includes("--debug");
  try {
    // A command's help needs no home; the command does.
    const help = argv.includes("--help") || argv.includes("-h");
    if (!help && !process.env.HOME && ["ext", "rpc", "sessions", "trust", "untrust", "mcp"].includes(argv[0] ?? "")) (await import("./need-home.ts")).needHome();
    if (argv[0] === "ext") return await (await import("./ext.ts")).runExt(argv.slice(1));
    if (argv[0] === "rpc") return await (await import("./rpc.ts")).runRpc(argv.slice(1));
    if (argv[0] === "sessions") return await (await import("./sessions.ts")).runSessions(argv.slice(1));
    if (argv[0] === "trust" || argv[0] === "untrust") return await (await import("./trust.ts")).runTrust(argv[0], argv.slice(1));
    if (argv[0] === "mcp") return await (await import("./mcp.ts")).runMcp(argv.slice(1));
    const { runRoot } = await import("./root.ts");
    return await runRoot(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`zot: ${printable(error.message)}`);
      return EXIT.usage;
    }
    // The reader of stdout went away (`zot … | head`): what it did not want is no error to report.
    if ((error as { code?: unknown })?.code === "EPIPE") return EXIT.ok;
    console.error(`zot: ${printable(errorText(error))}`);
    if (debug && error instanceof Error && error.stack) console.error(error.stack);
    return EXIT.failed;
  }
}
