// What `-p` and `--json` take from a piped stdin: the prompt itself (`echo "…" | zot -p`), or,
// with a prompt given too (`git diff | zot -p "review this change"`), context that goes to the
// model before the prompt, as Claude Code and Codex do.
// Rule: nothing piped is ever dropped; and a stdin that is open but silent (a parent process that
// never closes it) cannot hang a run that already has its prompt: zot waits a few seconds for the
// first byte, then goes on with a note.
import { fstatSync, readFileSync } from "node:fs";
import { UsageError } from "../config/usage-error.ts";

/** How long a run that has its prompt waits for a silent stdin's first byte. */
export const FIRST_BYTE_WAIT_MS = 3_000;

export interface PipedStdin {
  /** what was read; "" when nothing was (a terminal, /dev/null, an empty pipe) */
  text: string;
  /** one line for the user (stdin was silent, or a pipe sent nothing) */
  note?: string;
}

/**
 * Reads stdin when it is not a terminal. `havePrompt`: a prompt came on the command line, so a
 * pipe that sends nothing for FIRST_BYTE_WAIT_MS is not waited for.
 */
export async function readPipedStdin(havePrompt: boolean, waitMs = FIRST_BYTE_WAIT_MS): Promise<PipedStdin> {
  const kind = await stdinKind();
  if (kind === "terminal" || kind === "closed") return { text: "" };
  // Files and devices (/dev/null) answer at once: read in one call, without a stream.
  if (kind === "file") return trimmedText(readFileSync(0));
  const reader = Bun.stdin.stream().getReader();
  const chunks: Uint8Array[] = [];
  try {
    // A pipe or socket can stay silent.
    if (havePrompt) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const silence = new Promise<"silent">((resolve) => (timer = setTimeout(() => resolve("silent"), waitMs)));
      // The timer is cleared once stdin answers: a pending one would keep the process alive after the run.
      const first = await Promise.race([reader.read(), silence]).finally(() => clearTimeout(timer));
      if (first === "silent") {
        await reader.cancel().catch(() => {});
        return {
          text: "",
          note: `stdin is a pipe that sent nothing in ${waitMs / 1000} s; going on with the prompt alone (run with </dev/null to skip the wait)`,
        };
      }
      if (first.done) return emptyPipe(havePrompt);
      chunks.push(first.value);
    }
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const read = trimmedText(Buffer.concat(chunks));
  return read.text === "" ? emptyPipe(havePrompt) : read;
}

/**
 * The text of what was read, trailing whitespace dropped; "" when it is only whitespace. Binary
 * data is a usage error; text that is not UTF-8 (Latin-1, cp1252) goes on with a note saying how
 * much of it could not be read, since the model gets U+FFFD in those places.
 */
function trimmedText(bytes: Uint8Array): PipedStdin {
  // A NUL byte is no text (`cat image.png | zot -p …`): sent on, it would be a request of garbage many times its size.
  if (bytes.subarray(0, 8192).includes(0)) {
    throw new UsageError(
      `stdin holds binary data (${bytes.length.toLocaleString("en-US")} bytes), not text; zot sends piped text to the model: name the file in the prompt for the model to read, or pipe text`,
    );
  }
  const decoded = new TextDecoder().decode(bytes);
  const text = decoded.replace(/\s+$/, "");
  if (text.trim() === "") return { text: "" };
  const unreadable = notUtf8Bytes(bytes, decoded);
  if (unreadable === 0) return { text };
  return {
    text,
    note: `stdin is not UTF-8: ${unreadable.toLocaleString("en-US")} byte sequence(s) could not be read as text and reach the model as \uFFFD; convert it first (iconv -f latin1 -t utf-8, or the encoding it is in)`,
  };
}

/** How many places the lenient decoding replaced (its U+FFFD less those the bytes spelled themselves). */
function notUtf8Bytes(bytes: Uint8Array, decoded: string): number {
  if (!decoded.includes("\uFFFD")) return 0;
  const replaced = decoded.split("\uFFFD").length - 1;
  const spelled = Buffer.from(bytes).toString("latin1").split("\xEF\xBF\xBD").length - 1;
  return replaced - spelled;
}

/** A pipe that closed without a byte: `git diff | zot -p "review"` on a clean tree. */
function emptyPipe(havePrompt: boolean): PipedStdin {
  return havePrompt ? { text: "", note: "stdin was piped but empty; sending the prompt alone" } : { text: "" };
}

/**
 * "stream": a pipe or socket (may stay open and silent); "file": a file or device (answers at once);
 * "terminal": the user's keyboard, never read here.
 */
async function stdinKind(): Promise<"stream" | "file" | "terminal" | "closed"> {
  let stat: ReturnType<typeof fstatSync>;
  try {
    stat = fstatSync(0);
  } catch {
    // No fd 0 at all (a parent that closed it).
    return "closed";
  }
  if (stat.isFIFO() || stat.isSocket()) return "stream";
  // `zot -p … < some-folder`: a folder is nothing to read; say so rather than the system's EISDIR.
  if (stat.isDirectory()) throw new UsageError("stdin is a directory, not text; pipe a file's text (zot -p \"…\" < file), or name the folder in the prompt");
  if (!stat.isCharacterDevice() || isLinuxMemoryDevice(stat.rdev)) return "file";
  // Only a character device can be a terminal; node:tty is loaded for it alone (its streams cost
  // about 2.5 ms and 6 MB of a one-shot run that reads a pipe, a file or /dev/null).
  const { isatty } = await import("node:tty");
  return isatty(0) ? "terminal" : "file";
}

/** /dev/null, /dev/zero and the other memory devices of Linux (major 1): never a terminal. */
function isLinuxMemoryDevice(rdev: number): boolean {
  return process.platform === "linux" && ((rdev >> 8) & 0xfff) === 1;
}
