// `zot sessions show <id>`: a session read back for a person: where and when, the model it ended
// on, usage and cost, then its records in order, one line each (messages summed up, model
// changes, compactions, rewinds), with every interception decision and its before/after.
// Rule: shows what is in the file, damage included (reported first), and never writes to it.
import { base64ByteLength, type ContentBlock, type Message, type ToolResultContent, userTurns } from "../protocol/messages.ts";
import type { SessionEntry } from "../protocol/session-records.ts";
import { findSession } from "../session/find.ts";
import { oneLine } from "../protocol/text-of.ts";
import { lockOwner } from "../session/lock.ts";
import { readSessionFile } from "../session/reader.ts";
import { UNEXPLAINED_REWIND } from "../session/recorder.ts";
import { replay } from "../session/replay.ts";
import { EXIT } from "./router.ts";
import { formatCost, localTime } from "../modes/session-rows.ts";
import { onePositional, type SessionsCommand } from "./sessions.ts";
import { printable } from "../protocol/printable.ts";

export const SHOW: SessionsCommand = {
  usage: "show <id>",
  description: "Print a session: header, usage and cost, its transcript summed up, model changes, compactions and the audit trail",
  args: {},
  async run(_flags, positionals, ctx) {
    const ref = onePositional(positionals, "session's id (zot sessions list shows them)", "show <id>")!;
    const { file } = findSession(ctx.home, ctx.cwd, ref);
    const content = readSessionFile(file);
    const { header, entries } = content;
    const problems: { entry: number; message: string }[] = [];
    const state = replay(header, entries, problems);
    const owner = lockOwner(file);
    const audits = entries.filter((e) => e.type === "intercept").length;
    const c = state.cumulative;
    // The user turns a resume loads, numbered as `zot sessions fork --at` numbers them: the
    // prompts a compaction summed up are in the file (and shown) but in no turn any more.
    const turnOf = new Map(userTurns(state.messages).map((at, i) => [state.origins[at]!, i + 1]));
    const out: string[] = [
      `session   ${header.id}${owner ? `  (in use by pid ${owner.pid})` : ""}`,
      `file      ${file}`,
      `cwd       ${header.cwd}`,
      `created   ${localTime(header.created)} with ${header.provider}/${header.model} (zot ${header.zot_version})`,
      ...(header.parent ? [`forked    from ${header.parent} ${header.fork_point === 0 ? "whole (it had no numbered user turn)" : `after turn ${header.fork_point ?? "?"}`}`] : []),
      `model     ${state.provider}/${state.model}`,
      `usage     ${c.input} in, ${c.output} out, ${c.cache_read} cache read, ${c.cache_write} cache write: ${formatCost(c.cost_usd)}`,
      `messages  ${state.messages.length} in the transcript a resume loads; ${audits} interception decision${audits === 1 ? "" : "s"}`,
      ...content.problems.map((p) => `damage    ${p}`),
      ...problems.map((p) => `damage    record ${p.entry + 2}: ${p.message}`),
      "",
      ...entries.flatMap((entry, index) => describeEntry(entry, ctx.width ?? 120, turnOf.get(index))),
    ];
    // Prompts, answers and tool output as text: an escape in them is not written to the terminal.
    console.log(printable(out.join("\n")));
    return EXIT.ok;
  },
};

function describeEntry(entry: SessionEntry, width: number, turn: number | undefined): string[] {
  switch (entry.type) {
    case "message": {
      const who = turn === undefined ? entry.message.role : `${entry.message.role} #${turn}`;
      return [clipLine(`${clock(entry.message.time)} ${who.padEnd(9)} ${messageText(entry.message)}`, width)];
    }
    case "tool_result":
      return [clipLine(`${clock(entry.time)} ${"tool".padEnd(9)} ${blockText(entry.result)}`, width)];
    case "usage":
      return [];
    case "model_change":
      return [`${clock(entry.time)} ── model changed to ${entry.provider}/${entry.model}`];
    case "compaction":
      return [
        `${clock(entry.time)} ── compacted (${entry.reason}): ${entry.messages_before} messages became a summary and the last ${entry.kept}`,
      ];
    case "rewind":
      return [`${clock(entry.time)} ── transcript cut back to ${entry.to} messages${entry.reason === UNEXPLAINED_REWIND ? "" : `: ${entry.reason}`}`];
    case "intercept": {
      const lines = [`${clock(entry.time)} !! ${entry.participant} ${entry.action} at ${entry.stage}${entry.reason ? `: ${entry.reason}` : ""}`];
      if (entry.before !== undefined) lines.push(...indented("before", entry.before));
      if (entry.after !== undefined) lines.push(...indented("after ", entry.after));
      return lines;
    }
  }
}

function indented(label: string, text: string): string[] {
  return text.split("\n").map((line, i) => `${" ".repeat(12)}${i === 0 ? label : "      "}  ${line}`);
}

function clock(iso: string): string {
  return localTime(iso).slice(11) || iso;
}

function messageText(message: Message): string {
  return message.content.map(blockText).filter(Boolean).join(" ");
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return oneLine(block.text);
    case "thinking":
      return "[thinking]";
    case "image":
      return imageText(block);
    case "tool_call":
      return `[${block.name} ${JSON.stringify(block.args)}]`;
    case "tool_result":
      return `[${block.is_error ? "error" : "ok"}] ${block.content.map(partText).join(" ")}`;
  }
}

function partText(part: ToolResultContent): string {
  return part.type === "text" ? oneLine(part.text) : imageText(part);
}

function imageText(image: { mime_type: string; data: string }): string {
  return `[image ${image.mime_type}, ${base64ByteLength(image.data)} bytes]`;
}

function clipLine(line: string, width: number): string {
  return line.length <= width ? line : `${line.slice(0, Math.max(0, width - 1))}…`;
}
