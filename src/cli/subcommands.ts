// zot's subcommands as the root command sees them: the one-line summaries `zot --help` lists, and
// the guard that keeps a mistyped command (`zot session list`, `zot extension list`) from going
// to the model as a prompt, where it costs money and the model has tools.
// Rule: only a first word close to a command, followed by nothing or by that command's own verbs,
// is taken for a command; anything else is a prompt, and `--` (or quoting more words) always is.
// The verbs are spelt out here so the root command loads none of the commands; a test holds them
// equal to the commands' own tables.
import { UsageError } from "../config/usage-error.ts";
import { editDistance } from "../protocol/edit-distance.ts";
import { ownEntry } from "../protocol/own-key.ts";

export interface Subcommand {
  name: string;
  summary: string;
  /** the words that may follow it (its own subcommands) */
  verbs: readonly string[];
}

const COMMANDS: readonly Subcommand[] = [
  {
    name: "sessions",
    summary: "list, show, fork, export and import this directory's sessions",
    verbs: ["list", "ls", "tree", "show", "export", "import", "fork"],
  },
  {
    name: "ext",
    summary: "list, install, remove, enable, disable, create and check extensions",
    verbs: ["list", "ls", "install", "remove", "rm", "enable", "disable", "logs", "new", "check", "doctor"],
  },
  { name: "rpc", summary: "serve the agent as NDJSON on stdin/stdout, for programs that embed zot", verbs: [] },
  // After rpc: a slip like `rcp` is one step from both, and rpc is the older command.
  {
    name: "mcp",
    summary: "list, add and remove MCP servers (.mcp.json and Claude Code's ~/.claude.json are read too)",
    verbs: ["list", "ls", "get", "add", "add-json", "remove", "rm"],
  },
  { name: "trust", summary: "trust a folder, so its .zot extensions, hooks and .mcp.json servers run (--list: your answers)", verbs: [] },
  { name: "untrust", summary: "forget whether a folder is trusted (the TUI asks again)", verbs: [] },
];

/** The commands, then `help`, which any of them may follow. */
export const SUBCOMMANDS: readonly Subcommand[] = [
  ...COMMANDS,
  { name: "help", summary: "this help; `zot help <command>` shows a command's", verbs: COMMANDS.map((c) => c.name) },
];

/** Words people type for a command that is spelt otherwise. */
const SYNONYMS: Record<string, string> = {
  session: "sessions",
  extension: "ext",
  extensions: "ext",
  exts: "ext",
  plugin: "ext",
  plugins: "ext",
  "--rpc": "rpc",
};

/** A word that names a session after Codex's `resume`: a zot id or its start (`20261128-…`), or a UUID as Codex's and Claude Code's ids are. */
const SESSION_REF = /^(\d{8}(-[\w-]*)?|[0-9a-f]{8}-[0-9a-f-]{4,})$/i;

/**
 * Codex's and pi's commands, in the shapes those tools give them, with zot's way: sent to the
 * model as a prompt, `exec …` or `install npm:…` would run with every tool unasked.
 */
function otherAgentsCommand(positionals: readonly string[]): { whose: string; instead: string } | undefined {
  const [first, ...rest] = positionals;
  const word = first!.toLowerCase();
  const alone = rest.length === 0;
  const onePackage = rest.length === 1 && /^(npm:|git:|https?:\/\/|\.{0,2}\/|~\/)/.test(rest[0]!);
  if (word === "exec" || word === "e") {
    return {
      whose: "Codex's",
      instead: 'zot -p "…" prints the answer (--json streams zot\'s events, not Codex\'s; stdout takes the place of -o); zot runs tool calls unasked, where codex exec starts read-only, so add --jail to confine them',
    };
  }
  // Only with a package: `zot -p install < README.md` or `git diff | zot review` are prompts.
  if (["install", "remove", "uninstall", "update"].includes(word) && onePackage) {
    const verb = word === "uninstall" ? "remove" : word === "update" ? "install <source> (again, to update one)" : word;
    return { whose: "pi's", instead: `zot's extensions are zot ext ${verb} (zot ext --help)` };
  }
  if ((word === "login" || word === "logout") && alone) {
    return { whose: "Codex's and pi's", instead: "zot takes keys from ANTHROPIC_API_KEY, OPENAI_API_KEY (and the other variables zot --help names) or $ZOT_HOME/auth.json" };
  }
  if (["apply", "cloud", "mcp-server"].includes(word) && alone) {
    return { whose: "Codex's", instead: "zot has no such command (zot --help lists zot's)" };
  }
  return undefined;
}

/** What the root command makes of its positionals. */
export type FirstWord =
  | { kind: "prompt" }
  /** `zot help [command]` */
  | { kind: "help"; command?: string };

/**
 * `zot help`, `zot help sessions`: the help. A mistyped or misplaced command: a UsageError with
 * the command meant. Anything else: a prompt.
 */
export function readFirstWord(positionals: readonly string[], terminated: boolean): FirstWord {
  if (terminated || positionals.length === 0) return { kind: "prompt" };
  // `/rust`, `/pc`: a slash command (a Markdown command's, a skill's), never a mistyped subcommand.
  if (positionals[0]!.startsWith("/")) return { kind: "prompt" };
  const foreign = otherAgentsCommand(positionals);
  if (foreign) {
    const typed = positionals.join(" ");
    throw new UsageError(`\`${positionals[0]}\` is ${foreign.whose} command; ${foreign.instead} (to send "${typed}" to the model as a prompt, write zot -- ${typed})`);
  }
  // A quoted phrase ("session list is broken") is one argument with spaces: a prompt.
  if (positionals.some((word) => /\s/.test(word))) return { kind: "prompt" };
  const [first, ...rest] = positionals;
  if (first.toLowerCase() === "resume" && (rest.length === 0 || (rest.length === 1 && SESSION_REF.test(rest[0]!)))) {
    const typed = positionals.join(" ");
    throw new UsageError(
      `\`resume\` is Codex's command; zot resumes a session with \`zot -r ${rest[0] ?? "<id>"}\` (\`zot -r\` alone lists the sessions to pick from, \`zot -c\` continues the newest; to send "${typed}" to the model as a prompt, write zot -- ${typed})`,
    );
  }
  const meant = nearestCommand(first.toLowerCase(), rest[0]?.toLowerCase());
  if (!meant) return { kind: "prompt" };
  const verbs = SUBCOMMANDS.find((c) => c.name === meant)?.verbs ?? [];
  // `zot help sesions`: help asked about one word that is no command; `zot help me fix it` stays a prompt.
  if (meant === "help" && rest.length === 1 && !verbs.includes(rest[0].toLowerCase())) {
    const near = nearestCommand(rest[0].toLowerCase());
    const closest = near && near !== "help" ? `; did you mean \`zot help ${near}\`?` : "";
    throw new UsageError(`no command "${rest[0]}"${closest} (the commands: ${verbs.join(", ")}; to send "${positionals.join(" ")}" to the model as a prompt, write zot -- ${positionals.join(" ")})`);
  }
  // `zot session handling is broken`: the words after it are no verbs of the command, so a prompt.
  if (rest.length > 0 && !verbs.includes(rest[0].toLowerCase())) return { kind: "prompt" };
  if (first === "help") return { kind: "help", ...(rest[0] ? { command: rest[0].toLowerCase() } : {}) };
  const typed = positionals.join(" ");
  const suggestion = ["zot", meant, ...rest].join(" ");
  const why = first === meant ? "a command goes before the flags" : `"${first}" is not a zot command`;
  throw new UsageError(
    `did you mean \`${suggestion}\`? (${why}; to send "${typed}" to the model as a prompt, write zot -- ${typed})`,
  );
}

/**
 * The command a word is close to: itself, a synonym, or one slip of the hand away (two for longer
 * names). A three-letter name only matches a slip of the same length (`rcp`, `ecx`), so that
 * words like `next`, `text` and `exit` stay prompts, or the name with one letter added at its end
 * when one of its verbs follows (`mcps list`, `extt install`): `next check the tests` stays a prompt.
 */
function nearestCommand(word: string, next?: string): string | undefined {
  if (SUBCOMMANDS.some((c) => c.name === word)) return word;
  const synonym = ownEntry(SYNONYMS, word);
  if (synonym) return synonym;
  if (word.length < 3) return undefined;
  for (const { name, verbs } of SUBCOMMANDS) {
    if (name.length <= 3 && word.length !== name.length) {
      if (word.length === name.length + 1 && word.startsWith(name) && next !== undefined && verbs.includes(next)) return name;
      continue;
    }
    // Lengths further apart than the distance allowed are never near: a prompt of one long word
    // (100 KB: 0.1 s and 45 MB) no longer fills a table of its length for every command.
    if (Math.abs(word.length - name.length) > 2) continue;
    if (editDistance(word, name) <= (name.length <= 4 ? 1 : 2)) return name;
  }
  return undefined;
}
