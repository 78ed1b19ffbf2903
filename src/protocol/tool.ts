// The contract between the agent loop and a tool. Pure types: built-in tools, extension tools and
// SDK tools all satisfy it. Rule: execute never throws for a failure the model should see; it
// returns is_error with a sentence the model can act on.
import type { ToolResultContent } from "./messages.ts";

export interface ToolResult {
  content: ToolResultContent[];
  is_error: boolean;
  /** local detail for the UI and logs, never sent to the model */
  details?: Record<string, unknown>;
}

/** What the model last saw of a file: its read, or its own write or edit through zot. */
export interface FileView {
  size: number;
  mtimeMs: number;
  /** hex SHA-256 of the whole content */
  sha256: string;
}

/**
 * What the model last saw of each file, by real path: one per agent, so edit and write can tell a
 * file that changed since the model looked (the user, a formatter, another program).
 */
export type FileViews = Map<string, FileView>;

/** Who asked for a call that is not the model's: an extension's call_tool, or a command's tool_prompt. */
export interface ToolOrigin {
  /** the extension that asked */
  extension: string;
  /**
   * the tool names of the call chain, outermost first, ending with this call's tool: an extension
   * tool that calls call_tool while handling this call extends it (no name twice, at most 4)
   */
  chain: readonly string[];
}

export interface ToolContext {
  cwd: string;
  signal: AbortSignal;
  /**
   * streams a chunk of progress (bash output) as a tool_progress event; a promise back means the
   * reader of the events is behind: make no more output until it settles (it settles on abort too)
   */
  onProgress(text: string): void | Promise<void>;
  /**
   * the jail (`--jail`, `/jail`): the built-in tools refuse paths outside `cwd` and bash is
   * confined to it (src/tools/sandbox.ts); extension tools receive it and may honour it
   */
  jailed?: boolean;
  /** the agent's record of what the model last saw of each file; the file tools keep it */
  views?: FileViews;
  /**
   * what the built-in tools must not write (src/tools/protected-paths.ts enforces it): the files
   * that grant workspace trust, always; and, while jailed, the executable configuration a later
   * run would start outside the jail (src/config/workspace-trust.ts lists them)
   */
  protectedPaths?: readonly ProtectedPath[];
  /**
   * the environment of the processes a tool starts: zot's, with what Claude Code's settings `env`
   * adds for this run (config/settings-choices.ts); undefined = zot's own (process.env)
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** set when an extension asked for this call (call_tool, tool_prompt), not the model */
  origin?: ToolOrigin;
}

/** A path the built-in tools must not write. */
export interface ProtectedPath {
  /** absolute; a directory protects everything under it */
  path: string;
  /** when set, `path` is zot's home ($ZOT_HOME), where the jail keeps the baselines of the jailed commands in flight (tools/jail-baselines.ts) */
  zotHome?: boolean;
  /** when set, `path` is a directory and only its entries with a matching name (and what is under them) are protected */
  names?: RegExp;
  /**
   * when set, `path` is a directory that must stay itself (not be moved away or replaced) while
   * what is in it stays writable: a repository's .git, whose config and hooks have entries of their own
   */
  identityOnly?: boolean;
  /**
   * when set, the file may go with the folder that holds it (a linked worktree's admin folder that
   * `git worktree remove` deletes), but is never changed in place: not bound read-only under
   * bubblewrap, and put back after a command only while that folder is still there
   */
  removable?: boolean;
  /**
   * when set, `path` is a linked worktree's `.git` file, which a command may make anew (`git
   * worktree remove`, then `add`) only as git writes it: a file, not a link, naming this worktree's
   * own git directory `admin`, itself git's own (its commondir `../..` to `common`); any other is undone
   */
  gitLinkTo?: { admin: string; common: string };
  /**
   * when set, a path here that a command made anew or swapped in stays while `gitDir` is a folder
   * whose `commondir` leads to `common`: a linked worktree's git directory as `git worktree add`
   * makes it, whose configuration and hooks git reads from the repository's (protected); any other
   * goes (a folder whole)
   */
  linkedWorktree?: { gitDir: string; common: string };
  /**
   * when set, the static check does not refuse a command for naming it (a word as common as `HEAD`:
   * `git diff HEAD`); what a command makes there is still undone after it, and the file tools refuse it
   */
  undoneOnly?: boolean;
  /** what it is, for the refusal ("the project's hooks (.zot/hooks.json)") */
  what: string;
  /** protected only while jailed; otherwise always */
  whileJailed: boolean;
}

export interface Tool {
  name: string;
  description: string;
  /** JSON Schema of the arguments object */
  parameters: Record<string, unknown>;
  /** set when an extension provides the tool */
  extension?: string;
  /**
   * Whether the model is offered the tool in the next request (absent: always). A deferred
   * extension tool is not, until a tool result activates it; it can still be run by name.
   */
  offered?(): boolean;
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
  /**
   * What the call would change, shown to a person asked to allow it (the --no-yolo confirmation):
   * a unified diff for edit and write; undefined when there is nothing to show or the call would
   * fail anyway. Never changes anything.
   */
  preview?(args: Record<string, unknown>, cwd: string): Promise<string | undefined>;
  /** Whether the call only reads inside `cwd` (after symlinks), so a confirmation need not ask about it. */
  readsOnlyInside?(args: Record<string, unknown>, cwd: string): boolean;
}

export function textResult(text: string, isError = false, details?: Record<string, unknown>): ToolResult {
  return { content: [{ type: "text", text }], is_error: isError, ...(details ? { details } : {}) };
}
