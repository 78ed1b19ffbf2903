// `zot [prompt]`: the interactive TUI in a terminal, or one prompt in print (-p) or JSON (--json)
// mode (`--rpc` hands over to cli/rpc.ts). Rule: flags are checked before anything starts, and
// every failure maps to one exit code (0 ok, 1 failed, 2 usage, 130 interrupted: SIGINT, SIGTERM or
// SIGHUP; see signals.ts).
import { UsageError } from "../config/usage-error.ts";
import type { Conversation, ConversationPrompt } from "../conversation/conversation.ts";
import { VERSION } from "../version.ts";
import { type ParsedFlags, parseFlags } from "./parse-flags.ts";
import { readPipedStdin } from "./piped-stdin.ts";
import { CLAUDE_FLAGS_ZOT_LACKS, FOLLOWERS, OTHER_AGENTS_FLAGS, REPEATABLE, ROOT_ARGS, rootHelp, UNSERVED_VALUES } from "./root-args.ts";
import { readFirstWord } from "./subcommands.ts";
import { runtimeOptionsFromFlags, sessionChoiceFromFlags, str } from "./runtime-flags.ts";
import { EXIT, runCli } from "./router.ts";
import { handleTerminationSignals, ownChildProcesses } from "./signals.ts";
import { startupOver } from "./startup-over.ts";
import { printable } from "../protocol/printable.ts";
import { ownEntry } from "../protocol/own-key.ts";


export async function runRoot(argv: string[]): Promise<number> {
  // `zot --rpc …` is `zot rpc …`; its flags (--schema) are parsed there.
  if (argv.includes("--rpc")) return (await import("./rpc.ts")).runRpc(argv.filter((arg) => arg !== "--rpc"));
  const output = asksForMachineOutput(argv);
  if (!output) return await runRootCommand(argv);
  // A script reading Claude Code's output finds a result line on stdout whatever went wrong, a flag
  // zot cannot read included; one reading zot's events finds `error` (not_started) and `done`.
  return await runRootCommand(argv).catch(async (error: unknown) => {
    const { errorText } = await import("../protocol/error-text.ts");
    const lines =
      output === "claude"
        ? [(await import("../modes/claude-messages.ts")).failedBeforeRun(errorText(error))]
        : [{ type: "error", message: errorText(error), code: "not_started" }, { type: "done" }];
    await Bun.write(Bun.stdout, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
    throw error;
  });
}

/**
 * Which machine-read stream the flags (before any `--`) ask for, read before they are parsed:
 * Claude Code's (`--output-format json|stream-json`) or zot's events (`--json`).
 */
function asksForMachineOutput(argv: string[]): "claude" | "events" | undefined {
  const flags = argv.includes("--") ? argv.slice(0, argv.indexOf("--")) : argv;
  if (flags.some((arg, i) => /^--output-format=(json|stream-json)$/.test(arg) || (arg === "--output-format" && /^(json|stream-json)$/.test(flags[i + 1] ?? "")))) {
    return "claude";
  }
  return flags.includes("--json") ? "events" : undefined;
}

async function runRootCommand(argv: string[]): Promise<number> {
  for (const [at, arg] of argv.entries()) {
    if (arg === "--") break;
    // The value of a flag of zot's (`--append-system-prompt -a`) is no flag.
    if (at > 0 && takesValue(argv[at - 1]!)) continue;
    const name = /^--([a-z-]+)(=|$)/.exec(arg)?.[1];
    const instead = name === undefined ? undefined : ownEntry(CLAUDE_FLAGS_ZOT_LACKS, name);
    if (instead) throw new UsageError(`--${name} is Claude Code's, and zot does not take it: ${instead}`);
    const flag = arg.startsWith("--") ? arg.split("=")[0]! : arg;
    const other = ownEntry(OTHER_AGENTS_FLAGS, flag);
    if (other) throw new UsageError(`${flag} is ${other.whose}, and zot does not take it: ${other.instead}`);
  }
  const { values: flags, positionals, terminated } = parseFlags(ROOT_ARGS, argv, REPEATABLE, "zot", FOLLOWERS, UNSERVED_VALUES);
  if (flags.help) return await printRootHelp();
  // Codex's `-c model=o3` (a config override): zot's -c takes no value, and would go on with an unrelated session.
  if (flags.continue && !terminated && /^[A-Za-z_][\w.-]*=\S*$/.test(positionals[0] ?? "")) {
    throw new UsageError(
      `-c ${positionals[0]} reads as Codex's config override, which zot does not take; zot's -c continues the newest session. --model and --reasoning set the model and how much it thinks, --provider and --base-url the server (to send "${positionals[0]}" as the prompt: zot -c -- ${positionals.join(" ")})`,
    );
  }
  // `zot help`, and a mistyped command (`zot session list`): never a prompt for the model.
  const first = readFirstWord(positionals, terminated);
  if (first.kind === "help") {
    // `zot help <command>` is `zot <command> --help`, routed as the command itself is.
    return first.command ? await runCli([first.command, "--help"]) : await printRootHelp();
  }
  if (flags.version) {
    console.log(`zot ${VERSION}`);
    return EXIT.ok;
  }
  if (flags["list-models"]) {
    const { listModels } = await import("../providers/provider-choice.ts");
    // A terminal gets the table with prices; a program (a pipe) the original zot's lines, which it may parse.
    const { table, warnings } = listModels(str(flags, "provider"), (await import("node:tty")).isatty(1));
    for (const warning of warnings) console.error(`zot: ${warning}`);
    if (table) await Bun.write(Bun.stdout, table);
    return EXIT.ok;
  }
  // Help, the version and the model list need no home; a run does (inside the machine-output
  // wrapper: a --json run without a home still ends with error and done).
  if (!process.env.HOME) (await import("./need-home.ts")).needHome();

  // What the Claude Agent SDK runs: prompts and control requests on stdin, Claude Code's messages out.
  if (str(flags, "input-format") === "stream-json") {
    const { checkClaudeStreamFlags, runClaudeStreamCommand } = await import("./claude-stream-mode.ts");
    checkClaudeStreamFlags(flags, positionals);
    return await runClaudeStreamCommand(flags);
  }
  if (str(flags, "permission-prompt-tool") !== undefined) {
    throw new UsageError("--permission-prompt-tool goes with --input-format stream-json (the program driving zot answers); in the TUI zot asks you, and over rpc a client that sends hello with confirm: true answers");
  }
  const outputFormat = str(flags, "output-format");
  if (flags["include-partial-messages"] && outputFormat !== "stream-json") {
    throw new UsageError("--include-partial-messages goes with --output-format stream-json, as in Claude Code; --json streams zot's own events, every delta included");
  }
  if (outputFormat !== undefined && !flags.print) {
    throw new UsageError(`--output-format goes with -p, as in Claude Code (zot -p --output-format ${outputFormat} "…"); --json streams zot's own events`);
  }
  return await runPrompt(flags, positionals);
}

/** Whether `arg` is a flag of zot's whose value is the next word (`--model`, `-m`; not `--model=x`). */
function takesValue(arg: string): boolean {
  const long = /^--([a-z-]+)$/.exec(arg)?.[1];
  if (long !== undefined) return ownEntry(ROOT_ARGS, long)?.type === "string";
  const short = /^-([a-zA-Z])$/.exec(arg)?.[1];
  return short !== undefined && Object.values(ROOT_ARGS).some((def) => "alias" in def && def.alias === short && def.type === "string");
}

/** The TUI, or one prompt (-p, --json, --output-format), from the flags. */
async function runPrompt(flags: ParsedFlags["values"], positionals: string[]): Promise<number> {
  const runtimeOptions = runtimeOptionsFromFlags(flags);
  const sessionChoice = sessionChoiceFromFlags(flags);
  const outputFormat = str(flags, "output-format");

  // The TUI when neither -p nor --json asks otherwise and stdin is a terminal (node:tty is loaded
  // only to ask: a one-shot run does without its streams).
  if (!flags.print && !flags.json && (await import("node:tty")).isatty(0)) {
    return (await import("./interactive.ts")).runInteractiveCommand(runtimeOptions, sessionChoice, positionals.join(" ").trim());
  }
  if (flags.print && flags.json) throw new UsageError("-p and --json cannot be used together; pick one");

  // Piped text and a prompt both reach the model: the text as context, then the prompt.
  const argPrompt = positionals.join(" ").trim();
  const piped = await readPipedStdin(argPrompt !== "");
  if (piped.note) console.error(`zot: ${piped.note}`);
  // A prompt on the command line is what the user typed (and may be a /command); the piped text
  // goes with it as context. Without one, what was piped is the prompt.
  const prompt = argPrompt || piped.text;
  const context = argPrompt ? piped.text : "";
  if (!prompt) {
    // `zot -p -r <id>`: a session that is not there is the first thing wrong, and said first.
    if (sessionChoice?.kind === "open") await sessionThere(sessionChoice.ref, runtimeOptions);
    const listed = ["allowedTools", "allowed-tools", "disallowedTools", "disallowed-tools"].find((name) => flags[name] !== undefined);
    const hint = listed ? `; the words after --${listed} that name tools are its rules, so put the prompt before it or after --` : "";
    throw new UsageError(`no prompt; pass one as an argument (zot -p "…") or on stdin (echo "…" | zot -p)${hint}`);
  }
  const session =
    sessionChoice?.kind === "pick" ? await (await import("./session-picker.ts")).pickSession(runtimeOptions.cwd) : sessionChoice;

  const controller = new AbortController();
  let interrupted = false;
  let running = false;
  const releaseSignals = handleTerminationSignals({
    // Before the turn starts (extensions still loading) nothing is worth waiting for: exit now;
    // the exit hook kills every process zot started. A second signal exits at once too.
    onFirst: () => {
      if (!running) process.exit(EXIT.interrupted);
      interrupted = true;
      controller.abort(new Error("interrupted"));
    },
    exitCode: () => EXIT.interrupted,
  });

  try {
    for (const note of ownChildProcesses()) console.error(`zot: ${note}`);
    const { openConversation } = await import("../conversation/conversation.ts");
    // A note may carry names from a folder or an extension: written as plain text, never as escapes.
    const log = (message: string) => console.error(`zot: ${printable(message)}`);
    const conversation = await openConversation(
      {
        ...runtimeOptions,
        // A script reading Claude Code's output takes the demo's answer for the model's (and
        // `claude -p` fails without a key): no demo there; plain -p and --json keep it.
        ...(outputFormat === "json" || outputFormat === "stream-json"
          ? { noDemo: { run: `a script reading --output-format ${outputFormat}`, remedy: (await import("../providers/provider-choice.ts")).FLAGS_REMEDY } }
          : {}),
        session,
        log,
        // One prompt that names no /command uses none: the command files (hundreds, for some users)
        // are not read. The skills still are: the model may start one.
        ...(prompt.trimStart().startsWith("/") ? {} : { noCommands: true }),
        // One prompt: the start is over once the model's answer opens. The request is built and
        // sent at the start-up policy; the body is read at the normal one from its first byte
        // (measured on a 50,000-delta --json stream: ~5 ms less CPU than from the first batch
        // on, which a long answer's first read made thousands of events long; ~0.5 MB less peak
        // RSS on a one-shot run and ~7 MB less on the stream than never ending the start).
        onAnswerOpen: startupOver,
        onExtensionsWaiting: (names) =>
          log(
            `waiting for ${names.length === 1 ? "an extension" : "extensions"} still starting: ${names.join(", ")} (up to 30 s, or the "timeouts": {"hello": ms} of its extension.json)`,
          ),
      },
      { busy: "queue", log },
    );
    for (const note of conversation.startupNotes) log(note);
    if (flags.verbose) log(runDescription(conversation));

    running = true;
    // A stream of events (--json, --output-format stream-json) whose reader went away (`| head -n1`)
    // stops at once, as rpc does, instead of running tools and model calls nobody reads.
    const streaming = flags.json === true || outputFormat === "stream-json";
    const stdoutWatch = streaming ? (await import("../process/output-closed.ts")).watchOutputClosed(1, 200) : undefined;
    let readerGone = false as boolean;
    stdoutWatch?.signal.addEventListener("abort", () => {
      readerGone = true;
      controller.abort(new Error("stdout's reader went away"));
    });
    try {
      // Piped text is data (a web page, an issue, a log): its @words attach nothing.
      const input = { text: prompt, ...(context ? { context } : {}), ...(argPrompt ? {} : { mentions: false as const }) };
      const runMode =
        outputFormat === "json" || outputFormat === "stream-json"
          ? await (await import("./claude-output-mode.ts")).claudeOutputMode(conversation, outputFormat, flags)
          : flags.json
            ? (await import("../modes/json.ts")).runJsonMode
            : (await import("../modes/print.ts")).runPrintMode;
      const outcome = await runMode(conversation, input, controller.signal);
      if (readerGone) return EXIT.ok;
      switch (outcome.status) {
        case "ok":
          return EXIT.ok;
        case "aborted":
        case "dropped":
          return EXIT.interrupted;
        // Outside text (a hook's reason, a provider's error) as plain text: no escape of theirs reaches the terminal.
        case "blocked":
          console.error(`zot: ${printable(outcome.reason)}`);
          return EXIT.failed;
        case "error":
          console.error(`zot: ${printable(outcome.message)}`);
          return interrupted ? EXIT.interrupted : EXIT.failed;
        case "command_error":
          console.error(`zot: ${printable(outcome.message)}`);
          return interrupted ? EXIT.interrupted : EXIT.failed;
      }
    } finally {
      // Every extension gets its shutdown frame and grace before zot exits.
      await conversation.dispose();
    }
  } finally {
    releaseSignals();
  }
}

async function printRootHelp(): Promise<number> {
  const { renderHelp, helpStyle } = await import("./help.ts");
  await Bun.write(Bun.stdout, renderHelp(rootHelp(VERSION), helpStyle()));
  return EXIT.ok;
}

/** --verbose: `session 20261123-101500-ab12 (new, /…/x.jsonl); anthropic/claude-sonnet-5-5`. */
function runDescription(conversation: Conversation): string {
  const { session, model } = conversation;
  const where = session ? `session ${session.id} (${session.resumed ? "resumed" : "new"}, ${session.file})` : "no session (--no-session)";
  return `${where}; ${model.provider}/${model.id}`;
}

/** Throws the resume's own error (a UsageError) when `ref` names no session of this directory or another. */
async function sessionThere(ref: string, options: { home?: string; cwd?: string }): Promise<void> {
  const [{ resolve }, { findSession }, { SessionFileError }, { zotHome }, { realOrSame }] = await Promise.all([
    import("node:path"),
    import("../session/find.ts"),
    import("../session/reader.ts"),
    import("../config/home.ts"),
    import("../config/quiet-fs.ts"),
  ]);
  try {
    findSession(options.home ?? zotHome(), realOrSame(resolve(options.cwd ?? process.cwd())), ref);
  } catch (error) {
    if (error instanceof SessionFileError) throw new UsageError(error.message);
    throw error;
  }
}
