// The root command's flags, and `zot rpc`'s (the same agent flags without the one-prompt ones):
// one definition that both --help and the parser read; and the help pages built from them.
import type { ArgsDef } from "citty";
import { REASONING_WORDS } from "../protocol/reasoning-words.ts";
import { SESSION_ID_SHAPE } from "../session/paths.ts";
import type { HelpPage } from "./help.ts";
import { continuesRuleList } from "./permission-flags.ts";
import { SUBCOMMANDS } from "./subcommands.ts";

export const ROOT_ARGS = {
  prompt: { type: "positional", required: false, description: "What to ask; text piped on stdin goes to the model before it" },
  print: { type: "boolean", alias: "p", description: "Print the final answer and exit" },
  json: { type: "boolean", description: "Stream every agent event as one JSON object per line" },
  rpc: { type: "boolean", description: "Serve the RPC protocol on stdin/stdout (same as zot rpc; zot rpc --help)" },
  "output-format": {
    type: "enum",
    options: ["text", "json", "stream-json"],
    description: "With -p, Claude Code's: text (the answer), json (its result object), stream-json (its messages, one per line)",
    valueHint: "format",
  },
  "input-format": {
    type: "enum",
    options: ["text", "stream-json"],
    description: "Claude Code's: stream-json reads user messages and control requests on stdin, one per line, with --output-format stream-json (as the Claude Agent SDK runs claude)",
    valueHint: "format",
  },
  "include-partial-messages": {
    type: "boolean",
    description: "Claude Code's, with --output-format stream-json: the answer as it streams, as stream_event lines",
  },
  "await-initialize": { type: "boolean", description: "Claude Code's, with --input-format stream-json: accepted (zot reads the program's initialize before it starts)" },
  "permission-prompt-tool": {
    type: "string",
    description: "Claude Code's, with --input-format stream-json: stdio asks the program driving zot (the Agent SDK's canUseTool) before each tool call",
    valueHint: "stdio",
  },
  provider: {
    type: "enum",
    options: ["anthropic", "openai", "ollama", "scripted"],
    description: "anthropic, openai, ollama or scripted (default: the one --model names, else the first with a key, else the demo)",
    valueHint: "name",
  },
  model: {
    type: "string",
    alias: "m",
    description: "Model id or alias (sonnet, opus, haiku); any id the provider serves (zot --list-models)",
    valueHint: "id",
  },
  "api-key": { type: "string", description: "API key for the provider", valueHint: "key" },
  "base-url": { type: "string", description: "Provider base URL (proxies, OpenAI-compatible servers)", valueHint: "url" },
  "system-prompt": { type: "string", description: "Replace the system prompt", valueHint: "text" },
  "append-system-prompt": { type: "string", description: "Append to the system prompt (repeatable)", valueHint: "text" },
  reasoning: {
    type: "enum",
    options: [...REASONING_WORDS],
    description: "Reasoning effort for models that think (OpenAI's take xhigh and max as high; off asks for no level, the model's own default; minimum is low, maximum max, as the original zot's clients write them)",
    valueHint: "level",
  },
  effort: { type: "enum", options: [...REASONING_WORDS], description: "Claude Code's name for --reasoning (the same words)", valueHint: "level" },
  thinking: { type: "string", description: "pi's level (off, minimal, low, medium, high, xhigh), as --reasoning; or Claude Code's mode (adaptive, enabled, disabled): accepted", valueHint: "level" },
  "max-thinking-tokens": { type: "string", description: "Claude Code's: accepted; --reasoning sets how much a model thinks", valueHint: "n" },
  cwd: { type: "string", description: "Working directory for tools and context files", valueHint: "dir" },
  "no-tools": { type: "boolean", description: "Give the model no built-in tools" },
  tools: {
    type: "string",
    description: "Only these built-in tools, comma-separated (read,write,edit,bash,skill; Claude Code's names too: Bash,Read,Edit,Write,Skill; default: all; empty: none)",
    valueHint: "list",
  },
  jail: { type: "boolean", description: "Confine the built-in tools to the working directory (/unjail lifts it)" },
  "no-yolo": {
    type: "boolean",
    description: "Ask before each tool call but reads inside the working directory (-p and --json refuse those calls; over rpc, a client that answers confirm_request is asked)",
  },
  "allowed-tools": {
    type: "string",
    description: 'Claude Code\'s: these run without a question, the rest are asked (-p, --json: refused): "Bash(git diff *)" Read (permission rules; repeatable)',
    valueHint: "rules",
  },
  allowedTools: { type: "string", description: "Same as --allowed-tools", valueHint: "rules" },
  "disallowed-tools": {
    type: "string",
    description: 'Claude Code\'s: these never run; a tool named alone is not offered to the model: Bash "Read(./.env)" (repeatable)',
    valueHint: "rules",
  },
  disallowedTools: { type: "string", description: "Same as --disallowed-tools", valueHint: "rules" },
  "permission-mode": {
    type: "string",
    description: "Claude Code's: default (ask before tool calls), acceptEdits (but edits in the working directory), dontAsk (refuse what no rule allows), bypassPermissions (ask nothing: zot's default)",
    valueHint: "mode",
  },
  "dangerously-skip-permissions": { type: "boolean", description: "Claude Code's: ask before no tool call (zot's default; deny rules still hold)" },
  "allow-dangerously-skip-permissions": { type: "boolean", description: "Claude Code's: lets bypassPermissions be chosen; zot needs no such leave (accepted)" },
  "setting-sources": {
    type: "string",
    description:
      'Claude Code\'s: which of its settings files to read (hooks, permission rules, model, env): user, project, local, comma-separated, or "" for none (default: all, a folder\'s once trusted; $ZOT_HOME/settings.json always)',
    valueHint: "list",
  },
  "max-steps": { type: "string", description: "Stop after N model calls in one prompt (default: unlimited)", valueHint: "n" },
  "max-turns": { type: "string", description: "Same as --max-steps (Claude Code's name)", valueHint: "n" },
  "auto-compact": {
    type: "string",
    description: "Compact the transcript when the context reaches this percent of the model's window, or off (default 85)",
    valueHint: "percent",
  },
  script: { type: "string", description: "Turns for the scripted provider (JSON or JSONL)", valueHint: "file" },
  ext: { type: "string", alias: "e", description: "Load the extension in this directory for this run (repeatable)", valueHint: "dir" },
  "no-ext": { type: "boolean", description: "Load no installed extensions (--ext ones still load)" },
  "no-extensions": { type: "boolean", description: "Same as --no-ext" },
  "mcp-config": {
    type: "string",
    description: 'MCP servers for this run from a JSON file or JSON text, shaped as .mcp.json ({"mcpServers": {…}}; repeatable)',
    valueHint: "file|json",
  },
  "strict-mcp-config": { type: "boolean", description: "Start only the --mcp-config servers, none from the MCP files" },
  trust: {
    type: "boolean",
    description: "Run this folder's executable configuration for this run even if it is not trusted: .zot/extensions, .zot/hooks.json, .mcp.json servers, .claude/settings hooks, commands' ! lines (zot trust remembers it)",
  },
  "with-skills": { type: "boolean", description: "Also load the project's skills (./.zot/skills, .claude/skills, .agents/skills) in a folder you have not trusted" },
  "with-skill": { type: "boolean", description: "Same as --with-skills" },
  "no-skill": { type: "boolean", description: "Load no skills: no skill tool, none listed in the system prompt" },
  "no-skills": { type: "boolean", description: "Same as --no-skill" },
  continue: { type: "boolean", alias: "c", description: "Resume the newest session of this directory" },
  resume: { type: "boolean", alias: "r", description: "Pick a session of this directory to resume from a numbered list; -r <id> resumes that one (as --session)" },
  session: {
    type: "string",
    description: "Resume this session: an id (zot sessions list) or a file; `new` starts a new one",
    valueHint: "id|path|new",
  },
  "no-session": { type: "boolean", description: "Neither read nor write a session" },
  "no-session-persistence": { type: "boolean", description: "Same as --no-session (Claude Code's name)" },
  "list-models": { type: "boolean", description: "List known models and exit" },
  verbose: { type: "boolean", description: "Say on stderr which session and model the run uses" },
  debug: { type: "boolean", description: "Show stack traces on errors" },
  version: { type: "boolean", alias: "v", description: "Print the version" },
  help: { type: "boolean", alias: "h", description: "Show this help" },
} as const satisfies ArgsDef;

export const REPEATABLE: ReadonlySet<string> = new Set(["append-system-prompt", "ext", "mcp-config", "allowed-tools", "allowedTools", "disallowed-tools", "disallowedTools"]);

/**
 * The arguments after a flag that are its own, as Claude Code reads them: more rules after a rule
 * list's value, and a session after -r (`zot -r 20261123-032914-9f3c2a1b "go on"`).
 */
/**
 * The original zot's providers that zot does not have (its rpc clients start `zot rpc --provider
 * kimi`), and what to use instead: subscription sign-ins zot cannot make, and APIs zot speaks as
 * OpenAI-compatible servers.
 */
export const UNSERVED_VALUES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  provider: {
    "openai-codex": "zot has no ChatGPT subscription sign-in; use --provider openai with an API key (OPENAI_API_KEY)",
    "github-copilot": "zot has no GitHub Copilot sign-in; use --provider anthropic or openai with an API key",
    kimi: "zot speaks to Kimi as an OpenAI-compatible server: --provider openai --base-url https://api.moonshot.ai/v1 --api-key $MOONSHOT_API_KEY --model <a Kimi model>",
    deepseek: "zot speaks to DeepSeek as an OpenAI-compatible server: --provider openai --base-url https://api.deepseek.com/v1 --model <a DeepSeek model>, with its key in OPENAI_API_KEY or a models.json apiKey (README's Models)",
    google: "zot speaks to Gemini as an OpenAI-compatible server: --provider openai --base-url https://generativelanguage.googleapis.com/v1beta/openai --api-key $GEMINI_API_KEY --model <a Gemini model>",
  },
};

export const FOLLOWERS: ReadonlyMap<string, (arg: string) => boolean> = new Map([
  ...["allowed-tools", "allowedTools", "disallowed-tools", "disallowedTools"].map((name) => [name, continuesRuleList] as const),
  ["resume", looksLikeSessionRef] as const,
]);

// -p, --json, a prompt and --verbose (about that run) make one run; --rpc and --list-models are other commands.
const {
  prompt: _prompt,
  print: _print,
  json: _json,
  rpc: _rpc,
  "output-format": _outputFormat,
  "input-format": _inputFormat,
  "permission-prompt-tool": _permissionPromptTool,
  "include-partial-messages": _includePartialMessages,
  "await-initialize": _awaitInitialize,
  "list-models": _listModels,
  verbose: _verbose,
  ...AGENT_ARGS
} = ROOT_ARGS;

/** `zot rpc` (and `zot --rpc`): the agent flags, plus --schema; it records a session only when asked. */
export const RPC_ARGS = {
  ...AGENT_ARGS,
  continue: { ...ROOT_ARGS.continue, description: "Record into the newest session of this directory, resumed (a new one if there is none)" },
  resume: { ...ROOT_ARGS.resume, description: "-r <id>: record into that session, resumed (as --session); -r alone asks in a terminal, so not over rpc" },
  session: {
    ...ROOT_ARGS.session,
    description: "Record into this session, resumed: an id (zot sessions list) or a file; `new` starts a new one",
  },
  "no-session": { ...ROOT_ARGS["no-session"], description: "Record no session (the default for rpc)" },
  schema: {
    type: "boolean",
    description: "Print JSON Schemas of every command, response and event, and exit",
  },
} as const satisfies ArgsDef;

/** Claude Code's `claude -p` flags zot does not take, and what to use instead (a better word than "unknown flag"). */
export const CLAUDE_FLAGS_ZOT_LACKS: Readonly<Record<string, string>> = {
  "session-id": "zot names its sessions itself; -r <id> or --session <id> resumes one",
  "add-dir": "zot's tools reach any path unless --jail confines them to the working directory",
  "fallback-model": "zot retries a failed call on the same model; pick another with --model",
  "json-schema": "zot's answer is the model's text; ask for JSON in the prompt, or check it with a Stop hook",
  "max-budget-usd": "zot does not stop at a cost; the result's total_cost_usd says what a run cost, and --max-turns bounds it",
  "fork-session": "zot forks a session with zot sessions fork <id> [--at N], /session fork in the TUI, or fork_session over rpc; -r <new id> goes on with it",
  "resume-session-at": "zot forks a session at a turn with zot sessions fork <id> --at N, /session fork N in the TUI, or fork_session over rpc; -r <new id> goes on with it",
  agent: "zot has no subagents; --system-prompt and --append-system-prompt set what the model is told",
  agents: "zot has no subagents; --system-prompt and --append-system-prompt set what the model is told",
  betas: "zot sends no beta headers",
  "plugin-dir": "zot's extensions (zot ext install) and skills take the place of Claude Code's plugins",
  settings:
    "zot reads Claude Code's settings files where they live (~/.claude/settings.json, .claude/settings.json, .claude/settings.local.json); settings passed on the command line (the Agent SDK's settings and sandbox options) are not taken, and --jail confines zot's tools to the working directory",
};

const UNASKED = "zot runs tool calls unasked by default; --jail confines them to the working directory, --no-yolo asks before each";

/**
 * Codex's and pi's flags zot does not take, as typed, each with zot's way: a bare "unknown flag",
 * or the nearest flag of zot's (`--mode` is not `--model`), would leave their users guessing.
 */
export const OTHER_AGENTS_FLAGS: Readonly<Record<string, { whose: string; instead: string }>> = {
  "--full-auto": { whose: "Codex's", instead: UNASKED },
  "--yolo": { whose: "Codex's", instead: UNASKED },
  "--dangerously-bypass-approvals-and-sandbox": { whose: "Codex's", instead: UNASKED },
  "--sandbox": { whose: "Codex's", instead: "--jail confines zot's tools to the working directory; --tools read gives the model only the read tool" },
  "-s": { whose: "Codex's (--sandbox)", instead: "--jail confines zot's tools to the working directory; --tools read gives the model only the read tool" },
  "--ask-for-approval": { whose: "Codex's", instead: "--no-yolo asks before each tool call (zot asks nothing by default)" },
  "-a": { whose: "Codex's (--ask-for-approval)", instead: "--no-yolo asks before each tool call (zot asks nothing by default)" },
  "--output-last-message": { whose: "Codex's", instead: 'zot -p prints the final answer on stdout: zot -p "…" > FILE' },
  "-o": { whose: "Codex's (--output-last-message)", instead: 'zot -p prints the final answer on stdout: zot -p "…" > FILE' },
  "--config": { whose: "Codex's (-c key=value)", instead: "zot's -c continues the newest session; --model and --reasoning set the model and how much it thinks, --provider and --base-url the server" },
  "--profile": { whose: "Codex's", instead: "zot has no profiles; --model, --provider and --base-url say it for the run" },
  "--oss": { whose: "Codex's", instead: "--provider ollama talks to a local ollama" },
  "--search": { whose: "Codex's", instead: "zot has no web search tool; an MCP server can add one (zot mcp add)" },
  "--image": { whose: "Codex's", instead: "ask for the image by its path: the read tool gives the model PNG, JPEG, GIF and WebP files as images" },
  "-i": { whose: "Codex's (--image)", instead: "ask for the image by its path: the read tool gives the model PNG, JPEG, GIF and WebP files as images" },
  "-C": { whose: "Codex's (--cd)", instead: "--cwd DIR runs zot in another directory" },
  "--cd": { whose: "Codex's", instead: "--cwd DIR runs zot in another directory" },
  "--ephemeral": { whose: "Codex's", instead: "--no-session records nothing" },
  "--skip-git-repo-check": { whose: "Codex's", instead: "zot runs in any directory, a git repository or not" },
  "--last": { whose: "Codex's (resume --last)", instead: "zot -c continues the newest session of this directory" },
  "--mode": { whose: "pi's", instead: "--json streams zot's events (not pi's; README: Events), and zot rpc serves commands over NDJSON (docs/rpc.md)" },
  "--export": { whose: "pi's", instead: "zot sessions export <id> [file] writes a session as a file" },
  "--models": { whose: "pi's", instead: "--model takes one id; /model in the TUI picks from every model you have a key for" },
  "-ns": { whose: "pi's (--no-skills)", instead: "--no-skills (or --no-skill) turns skills off" },
  "-ne": { whose: "pi's (--no-extensions)", instead: "--no-ext loads no installed extensions" },
  "-np": { whose: "pi's (--no-prompt-templates)", instead: "zot has no prompt templates of its own: Markdown commands in ~/.claude/commands are its /names" },
};

/**
 * What -r takes as its session: one word shaped as a session's id (SESSION_ID_SHAPE: a zot id,
 * its start, or a mistyped one), a Claude Code session's id (refused with a sentence:
 * sessionChoiceFromFlags), or a path to a session file (a `.jsonl` or `.zotsession` name, a path
 * starting `./`, `../` or `~/`, an absolute one of two parts or more). One that names no session is
 * an error naming it (session/find.ts), never the prompt; a prompt has spaces, and a slash command
 * one slash.
 */
function looksLikeSessionRef(arg: string): boolean {
  if (/\s/.test(arg)) return false;
  const path = /\.(jsonl|zotsession)$/.test(arg) || /^(\.{1,2}|~)\/./.test(arg) || /^\/[^/]+\/./.test(arg);
  return SESSION_ID_SHAPE.test(arg) || CLAUDE_SESSION_ID.test(arg) || path;
}

export const CLAUDE_SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ENVIRONMENT =
  "Keys and endpoints come from --api-key and --base-url, else ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, ANTHROPIC_BASE_URL, OPENAI_API_KEY, OPENAI_BASE_URL, OLLAMA_HOST, OLLAMA_API_KEY, else $ZOT_HOME/auth.json (README: Environment variables).";

export function rootHelp(version: string): HelpPage {
  return {
    title: `zot ${version}: a coding agent for the terminal`,
    usage: [
      ["zot [options] [prompt]", "the interactive TUI in a terminal, with the prompt sent first"],
      ["zot -p [options] <prompt>", "one prompt; print the final answer"],
      ["zot --json <prompt>", "as -p (the same options), but every agent event as NDJSON on stdout; in place of -p, not with it"],
      ["cmd | zot -p <prompt>", "the piped text goes to the model before the prompt (also without -p)"],
      ["zot <command> ...", "a command below"],
    ],
    commands: SUBCOMMANDS.map((c) => [c.name, c.summary]),
    args: ROOT_ARGS,
    notes: [
      ENVIRONMENT,
      "A prompt that is only a command's name goes after --: zot -- help, or quote it with more words. So does one that starts with -: zot -p -- \"-v is broken\".",
    ],
  };
}

export function rpcHelp(version: string): HelpPage {
  return {
    title: `zot rpc (zot ${version}): drive the agent with NDJSON commands on stdin; responses and events come on stdout`,
    usage: [["zot rpc [options]", ""]],
    args: RPC_ARGS,
    notes: [ENVIRONMENT, "The protocol: docs/rpc.md; zot rpc --schema prints it as JSON Schemas."],
  };
}
