// /session export [file] | import <file> | fork [turn] | tree: the `zot sessions` operations on the
// session this conversation is recorded in, from inside the chat. Rule: the same functions as the
// command line (src/session/), the same files; a fork becomes the conversation (as a branch checked
// out: the parent stays as it was), the others leave the conversation alone. Relative paths are
// taken from the working directory; an export with no file named goes to $ZOT_HOME/exports, never
// into the project zot works on.
import { mkdirSync } from "node:fs";
import { errorText } from "../../../protocol/error-text.ts";
import { forestRows } from "../../session-rows.ts";
import type { AppContext, SlashCommand } from "../app-context.ts";
import { enteredSession } from "./sessions.ts";
import { commandWords } from "../../../protocol/slash-command.ts";

const USAGE = "/session export [file] [--force] (default: $ZOT_HOME/exports) · /session import <file> · /session fork [turn] · /session tree";

/** The file this conversation is recorded in; throws a sentence saying why there is none yet. */
function recordedFile(app: AppContext): string {
  const { sessions } = app.conversation;
  const session = sessions.current;
  if (!session) throw new Error("this zot records no session (--no-session), so there is nothing to export or fork");
  if (!sessions.recorded) throw new Error(`session ${session.id} has nothing recorded yet; send a prompt first`);
  return session.file;
}

/** A file name typed after the subcommand: the rest of the line (it may hold spaces), quotes taken off. */
function fileArgument(words: string[]): string | undefined {
  const text = words.join(" ").trim();
  return text.replace(/^(["'])(.*)\1$/, "$2") || undefined;
}

async function exportCurrent(app: AppContext, words: string[]): Promise<void> {
  const force = words.includes("--force");
  const dest = fileArgument(words.filter((w) => w !== "--force"));
  const { sessions } = app.conversation;
  const source = recordedFile(app);
  if (!dest) mkdirSync(sessions.exportsDir, { recursive: true });
  const { file, problems } = await sessions.export(source, dest ?? sessions.exportsDir, { force });
  app.showNote(`exported session ${sessions.current?.id} to ${file} (this machine's paths replaced by placeholders)`, "success");
  for (const problem of problems) app.showNote(problem, "warn");
}

async function importFile(app: AppContext, words: string[]): Promise<void> {
  const source = fileArgument(words);
  if (!source) throw new Error(`/session import needs the file to import; ${USAGE}`);
  const { id, file, problems } = await app.conversation.sessions.import(source);
  app.showNote(`imported as session ${id} (${file}); /sessions resumes it`, "success");
  for (const problem of problems) app.showNote(problem, "warn");
}

async function forkCurrent(app: AppContext, words: string[]): Promise<void> {
  if (words.length > 1) throw new Error(`/session fork takes at most a turn number; ${USAGE}`);
  const atTurn = words[0] === undefined ? undefined : Number(words[0]);
  if (atTurn !== undefined && !Number.isInteger(atTurn)) throw new Error(`"${words[0]}" is not a turn number; /jump lists the turns`);
  // The records are complete once no turn runs.
  if (app.busy) await app.cancelTurn();
  const source = recordedFile(app);
  let forked: Awaited<ReturnType<AppContext["conversation"]["sessions"]["fork"]>>;
  try {
    // A recorded conversation's fork becomes the conversation, as a branch checked out.
    forked = await app.conversation.sessions.fork(source, atTurn);
  } catch (error) {
    // fork.ts speaks the command line's --at flag.
    throw new Error(errorText(error).replace(/^--at must be/, "the turn must be"));
  }
  const { fork, notes } = forked;
  const where = fork.turns === 0 ? "whole (it has no numbered user turn)" : `after turn ${fork.turn} of ${fork.turns}`;
  enteredSession(app, `forked session ${fork.parent} ${where}; now in ${fork.id}`, notes);
}

async function showTree(app: AppContext): Promise<void> {
  const { conversation } = app;
  const { roots, problems } = await conversation.sessions.tree();
  for (const problem of problems) app.showNote(`${problem}; skipped`, "warn");
  if (roots.length === 0) {
    app.showNote(`no sessions in ${conversation.cwd} yet`);
    return;
  }
  const width = process.stdout.columns ? process.stdout.columns - 4 : undefined;
  const rows = forestRows(roots, conversation.session?.id, width);
  app.showMarkdown(["```text", ...rows, "```", "`*` this conversation · forks sit under the session they were forked from"].join("\n"));
}

export const SESSION_COMMAND: SlashCommand = {
  name: "session",
  description: "This conversation's session: export it, import one, fork it at a turn, show the tree of forks",
  argsHint: "export [file] | import <file> | fork [turn] | tree",
  async run(app, args) {
    // Quotes keep a file name's spaces as written ("report  v2.zotsession").
    const [sub, ...words] = commandWords(args.trim());
    try {
      switch (sub) {
        case "export":
          return await exportCurrent(app, words);
        case "import":
          return await importFile(app, words);
        case "fork":
          return await forkCurrent(app, words);
        case "tree":
          return await showTree(app);
        case undefined: {
          const session = app.conversation.session;
          app.showNote(session ? `session ${session.id}: ${session.file}` : "this zot records no session (--no-session)");
          app.showNote(USAGE);
          return;
        }
        default:
          app.showNote(`unknown /session command "${sub}"; ${USAGE}`, "error");
      }
    } catch (error) {
      app.showNote(errorText(error), "error");
    }
  },
};
