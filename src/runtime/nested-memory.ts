// Gives the model a subfolder's memory files (packages/api/CLAUDE.md) when it first works in that
// folder, as Claude Code does: with the result of a read of a file there (an after_tool participant
// of the chain, last, so what any other participant made of the result still carries them), and
// with a prompt whose @file is there (blocksFor, which the conversation asks). Which files and how
// they are read is config/nested-memory-files.ts; the block the model gets is
// protocol/nested-memory-block.ts.
// Rule: each file once while the transcript holds it. The transcript is the record (the blocks in
// it, and the system prompt's files from the start), so the rule needs no state of its own that
// could drift from what the model has: a resumed session has the blocks as they were sent (the
// session records a result as the chain left it), and a compaction that summarised a block away,
// /clear or a new session lets the next read in the folder give the file again, which is what the
// model then lacks. The one thing not yet in the transcript is a step's own results, which join it
// when the step ends: what this step's reads gave is kept until then.
import type { Agent } from "../core/agent.ts";
import type { Decision, Participant, StagePayloads } from "../core/intercept.ts";
import type { InterceptStage } from "../protocol/events.ts";
import { findNestedMemory, type NestedMemoryOptions as NestedMemoryFileOptions } from "../config/nested-memory-files.ts";
import { realOrSame } from "../config/quiet-fs.ts";
import { givenMemoryFiles, memoryBlock } from "../protocol/nested-memory-block.ts";
import { renameKeys, resolveToolPath } from "../tools/args.ts";
import { OWN_PARTICIPANTS } from "../protocol/own-participants.ts";

export const NESTED_MEMORY_PARTICIPANT = OWN_PARTICIPANTS.nestedMemory;

/** What finding the files takes (config/nested-memory-files.ts), and what this participant needs besides. */
export interface NestedMemoryOptions extends Pick<NestedMemoryFileOptions, "userHome" | "projectTrusted" | "claudeSources"> {
  /** the memory files the system prompt holds (they are never given again) */
  atStart: readonly string[];
  /** where what a read left out is said (a withheld import) */
  log: (message: string) => void;
}

export interface GivenMemory {
  /** the text blocks for the model, one per file */
  blocks: string[];
  /** the files given, by absolute path */
  paths: string[];
  /** the files given, as shown to the user (relative to the working directory) */
  files: string[];
  /** sentences for the user: files and imports left out, and why */
  notes: string[];
}

export class NestedMemory {
  private readonly atStart: ReadonlySet<string>;
  /** given by this step's reads, whose results are not in the transcript yet */
  private readonly pending = new Set<string>();

  constructor(
    private readonly agent: Agent,
    private readonly options: NestedMemoryOptions,
  ) {
    this.atStart = new Set(options.atStart.map(realOrSame));
    agent.onMessage(() => this.pending.clear());
    agent.onClear(() => this.pending.clear());
    agent.chain.add(this.participant());
  }

  /** The memory files the model lacks for working on `files` (absolute paths), once each, outermost first. */
  blocksFor(files: readonly string[]): GivenMemory {
    const cwd = realOrSame(this.agent.cwd);
    const given = new Set([...this.atStart, ...this.pending, ...[...givenMemoryFiles(this.agent.messages)].map(realOrSame)]);
    const out: GivenMemory = { blocks: [], paths: [], files: [], notes: [] };
    for (const file of files) {
      const found = findNestedMemory(file, cwd, { ...this.options, given });
      out.notes.push(...found.notes);
      for (const memory of found.files) {
        given.add(realOrSame(memory.path));
        out.blocks.push(memoryBlock(memory, cwd));
        out.paths.push(memory.path);
        out.files.push(memory.path.startsWith(`${cwd}/`) ? memory.path.slice(cwd.length + 1) : memory.path);
      }
    }
    return out;
  }

  private participant(): Participant {
    return {
      name: NESTED_MEMORY_PARTICIPANT,
      builtin: true,
      // Last: the model gets the files whatever an earlier participant made of the result, and
      // hooks see the result as the tool gave it (Claude Code's PostToolUse sees the file alone).
      priority: Number.MAX_SAFE_INTEGER,
      stages: ["after_tool"],
      timeoutMs: 5000,
      onFailure: "skip",
      decide: async <S extends InterceptStage>(stage: S, payload: StagePayloads[S]): Promise<Decision<S>> => {
        if (stage !== "after_tool") return { action: "continue" };
        return this.afterRead(payload as StagePayloads["after_tool"]) as Decision<S>;
      },
    };
  }

  /** A read of the model's that succeeded: its result, with the blocks of the memory files the model lacks for the file. */
  private afterRead(call: StagePayloads["after_tool"]): Decision<"after_tool"> {
    // An extension's call_tool result goes to the extension, not to the model.
    if (call.name !== "read" || call.origin !== undefined || call.result.is_error) return { action: "continue" };
    const path = renameKeys(call.args, { file_path: "path" }).path;
    if (typeof path !== "string" || path === "") return { action: "continue" };
    const given = this.blocksFor([resolveToolPath(this.agent.cwd, path)]);
    for (const note of given.notes) this.options.log(note);
    if (given.blocks.length === 0) return { action: "continue" };
    for (const file of given.paths) this.pending.add(realOrSame(file));
    return {
      action: "modify",
      value: { ...call.result, content: [...call.result.content, ...given.blocks.map((text) => ({ type: "text" as const, text }))] },
      reason: `gave the model ${given.files.join(", ")}, the instructions for the files in ${given.files.length === 1 ? "its folder" : "their folders"}`,
    };
  }
}
