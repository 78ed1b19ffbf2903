// The program's side of `--input-format stream-json`, read: stdin's lines as the protocol's
// (protocol/claude-control.ts), or what is wrong with each; and the pump that reads them from the
// start, so the program's answers to zot's own requests (a hosted MCP server's replies while the
// run starts) are settled at once while everything else waits its turn in order.
// Rule: bounded: an over-long line is skipped and said; the pump stops reading while MAX_WAITING
// lines wait to be served.
import * as v from "valibot";
import { ClaudeInputLine } from "../protocol/claude-control.ts";
import { errorText } from "../protocol/error-text.ts";
import { LineSplitter } from "../protocol/line-splitter.ts";
import type { ClaudeControlChannel } from "./claude-control-channel.ts";

/** A line of stdin, read: JSON the protocol knows, or what is wrong with it. */
export type ClaudeInputRead =
  | { ok: true; line: ClaudeInputLine }
  /** `prompt`: the line was a user message, which still gets its (error) result */
  | { ok: false; problem: string; prompt?: boolean };

/** The lines the protocol has, by their type. */
const INPUT_TYPES: readonly string[] = ClaudeInputLine.options.map((option) => option.entries.type.literal);

/** A line that starts as a user message does (`{"type":"user"`), whatever follows. */
const STARTS_AS_USER = /^\s*\{\s*"type"\s*:\s*"user"/;

/** A line longer than this is skipped (a prompt with images fits many times over). */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * The lines of `input`, one at a time, read as the protocol's, until it ends or `stop` aborts (a
 * pending read is cancelled then, so nothing keeps zot waiting on a stdin the program holds open).
 */
export async function* readClaudeInput(input: ReadableStream<Uint8Array>, stop?: AbortSignal): AsyncGenerator<ClaudeInputRead> {
  const lines: ClaudeInputRead[] = [];
  let number = 0;
  const splitter = new LineSplitter(
    MAX_LINE_BYTES,
    (text) => {
      number++;
      if (text.trim() !== "") lines.push(readLine(text, number));
    },
    (bytes, head) => {
      number++;
      const prompt = STARTS_AS_USER.test(head);
      lines.push({ ok: false, problem: `line ${number} is ${bytes} bytes, over the ${MAX_LINE_BYTES} zot reads; skipped`, prompt });
    },
  );
  const reader = input.getReader();
  const cancel = () => reader.cancel().catch(() => {});
  stop?.addEventListener("abort", cancel, { once: true });
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      splitter.push(chunk.value);
      while (lines.length > 0) yield lines.shift() as ClaudeInputRead;
    }
    splitter.end();
    while (lines.length > 0) yield lines.shift() as ClaudeInputRead;
  } finally {
    stop?.removeEventListener("abort", cancel);
    cancel();
  }
}

function readLine(text: string, number: number): ClaudeInputRead {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    // A user message cut short still gets its result.
    return { ok: false, problem: `line ${number} is not JSON (${errorText(error)}); skipped`, prompt: STARTS_AS_USER.test(text) };
  }
  const read = v.safeParse(ClaudeInputLine, data);
  if (read.success) return { ok: true, line: read.output };
  const type = typeof data === "object" && data !== null && "type" in data ? JSON.stringify((data as { type: unknown }).type) : undefined;
  const issue = read.issues[0];
  const where = issue.path?.map((step) => String(step.key)).join(".");
  return {
    ok: false,
    prompt: type === '"user"',
    problem:
      type === undefined || !INPUT_TYPES.includes(JSON.parse(type))
        ? `line ${number} has type ${type ?? "(none)"}; zot reads ${INPUT_TYPES.slice(0, -1).join(", ")} and ${INPUT_TYPES.at(-1)} lines; skipped`
        : `line ${number} (${JSON.parse(type)}) is not as Claude Code's protocol says${where ? ` at ${where}` : ""}: ${issue.message}; skipped`,
  };
}


/**
 * Lines read ahead of the server at most; past it the pump waits (the program's writes block). Many,
 * so that a program that sends all its prompts at once still has its answers to zot's requests
 * read while the run starts (a hosted MCP server's handshake comes behind them).
 */
const MAX_WAITING = 4096;

/**
 * Reads `lines` from now on: a control_response settles its request at once (the run may be
 * waiting on one to start); every other line is handed out in order by the iterator returned.
 */
export function pumpClaudeInput(lines: AsyncIterator<ClaudeInputRead>, channel: ClaudeControlChannel): AsyncIterator<ClaudeInputRead> {
  const waiting: ClaudeInputRead[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  let room: (() => void) | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  void (async () => {
    try {
      for (;;) {
        if (waiting.length >= MAX_WAITING) await new Promise<void>((resolve) => (room = resolve));
        const next = await lines.next();
        if (next.done) break;
        const read = next.value;
        if (read.ok && read.line.type === "control_response") channel.settle(read.line);
        else waiting.push(read);
        poke();
      }
    } catch (error) {
      waiting.push({ ok: false, problem: `stdin could not be read: ${errorText(error)}` });
    } finally {
      ended = true;
      // Nobody can answer zot's requests any more, those of a run still starting included.
      channel.close("the program closed stdin");
      poke();
    }
  })();
  return {
    async next(): Promise<IteratorResult<ClaudeInputRead>> {
      for (;;) {
        const read = waiting.shift();
        if (read) {
          room?.();
          room = undefined;
          return { done: false, value: read };
        }
        if (ended) return { done: true, value: undefined };
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}
