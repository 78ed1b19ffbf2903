// `zot rpc` (and `zot --rpc`): serve the RPC protocol on stdin/stdout; `--schema` prints the JSON
// Schemas of the protocol instead. Rule: flags and credentials are checked before stdin is read
// (a problem is one line on stderr and exit 2); stdin closing ends the server with 0 once the
// prompts already sent are done, SIGINT/SIGTERM/SIGHUP with 130 at once (a second one without
// waiting for the extensions), a missing or wrong ZOTCORE_RPC_TOKEN with 1. No session is recorded unless
// --continue or --session asks (the embedding program usually owns persistence).
import { fstatSafe } from "../config/quiet-fs.ts";
import { RPC_TOKEN_ENV } from "../config/credentials.ts";
import { LATE_JOIN_AFTER_MS } from "../extensions/late-join.ts";
import { UsageError } from "../config/usage-error.ts";
import { watchOutputClosed } from "../process/output-closed.ts";
import type { SessionChoice } from "../session/open.ts";
import { VERSION } from "../version.ts";
import { type ParsedFlags, parseFlags } from "./parse-flags.ts";
import { FOLLOWERS, REPEATABLE, RPC_ARGS, rpcHelp, UNSERVED_VALUES } from "./root-args.ts";
import { runtimeOptionsFromFlags, sessionChoiceFromFlags, str } from "./runtime-flags.ts";
import { EXIT } from "./router.ts";
import { ownChildProcesses, signalsUntilServing } from "./signals.ts";
import { startupOver } from "./startup-over.ts";
import { printable } from "../protocol/printable.ts";

const STDOUT_FD = 1;
/** How often rpc looks whether its client closed stdout (one poll(2) call that never waits). */
const STDOUT_WATCH_MS = 200;

export async function runRpc(argv: string[]): Promise<number> {
  const { values: flags, positionals } = parseFlags(RPC_ARGS, argv, REPEATABLE, "zot rpc", FOLLOWERS, UNSERVED_VALUES);
  if (flags.help) {
    const { renderHelp, helpStyle } = await import("./help.ts");
    await Bun.write(Bun.stdout, renderHelp(rpcHelp(VERSION), helpStyle()));
    return EXIT.ok;
  }
  if (flags.version) {
    console.log(`zot ${VERSION}`);
    return EXIT.ok;
  }
  if (flags.schema) {
    const { rpcSchemaDocument } = await import("../protocol/rpc-schema.ts");
    await Bun.write(Bun.stdout, `${JSON.stringify(rpcSchemaDocument(), null, 2)}\n`);
    return EXIT.ok;
  }
  if (positionals.length > 0) {
    throw new UsageError(
      `zot rpc takes no prompt (got "${positionals.join(" ")}"); send {"type":"prompt","message":"…"} on stdin`,
    );
  }
  const runtimeOptions = runtimeOptionsFromFlags(flags);
  const session = rpcSessionChoice(flags);
  // `zot rpc < folder`: a folder is no stream of commands; said now, not as the system's EISDIR later.
  if (fstatSafe(0)?.isDirectory()) throw new UsageError("zot rpc reads its commands from stdin, and stdin is a directory; pipe the commands in, or connect a client");

  // Before the server runs (extensions still loading) a signal exits at once.
  const signals = signalsUntilServing(EXIT.interrupted);
  try {
    // A note may carry names from a folder or an extension: written as plain text, never as escapes.
    const log = (message: string) => console.error(`zot: ${printable(message)}`);
    for (const note of ownChildProcesses()) log(note);
    const { openConversation } = await import("../conversation/conversation.ts");
    // rpc answers at once; an extension still starting after a second joins when it is up.
    const conversation = await openConversation(
      // A client may say in hello that it answers confirm_request events: the run keeps a gate for it.
      // The model's connection opens while the client makes up its first prompt.
      { ...runtimeOptions, session, log, extensionWait: LATE_JOIN_AFTER_MS, confirmerLater: true, warmConnection: true },
      // Prompts and compactions wait their turn; what a unit threw is said on stderr too.
      { busy: "queue", log: (message) => log(`rpc: ${message}`) },
    );
    startupOver();
    for (const note of conversation.startupNotes) log(note);
    const { runRpcMode } = await import("../modes/rpc.ts");
    signals.serving();
    // A client gone while zot writes nothing (a long tool, a confirmation) is seen within this, not at the next write.
    const stdoutWatch = watchOutputClosed(STDOUT_FD, STDOUT_WATCH_MS);
    try {
      const end = await runRpcMode(conversation, {
        token: process.env[RPC_TOKEN_ENV],
        interrupt: signals.signal,
        outputClosed: stdoutWatch.signal,
        log,
      });
      return end === "closed" ? EXIT.ok : end === "interrupted" ? EXIT.interrupted : EXIT.failed;
    } finally {
      stdoutWatch.stop();
    }
  } finally {
    signals.release();
  }
}

/** rpc records a session only when --continue, --session or -r <id> asks; -r alone would ask in a terminal rpc has not. */
function rpcSessionChoice(flags: ParsedFlags["values"]): SessionChoice | undefined {
  const choice = sessionChoiceFromFlags(flags);
  if (choice?.kind === "pick") {
    throw new UsageError(
      "zot rpc cannot ask which session to resume (--resume picks from a list in a terminal); pass --continue or --session <id> (zot sessions list shows them), or send resume_session",
    );
  }
  return flags.continue || str(flags, "session") !== undefined || typeof flags.resume === "string" ? choice : undefined;
}
