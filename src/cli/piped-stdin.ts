// What `-p` and `--json` take from a piped stdin: the prompt itself (`echo "…" | zot -p`), or,
// with a prompt given too (`git diff | zot -p "review this change"`), context that goes to the
// model before the prompt, as Claude Code and Codex do.
// Rule: nothing piped is ever dropped; and a stdin that is open but silent (a parent process that
// never closes it) cannot hang a run that already has its prompt: zot waits a few seconds for the
// first byte, then goes on with a note.
import { fstatSync } from "node:fs";
import { isatty } from "node:tty";

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
  if (isatty(0)) return { text: "" };
  const kind = stdinKind();
  if (kind === "closed") return { text: "" };
  const reader = Bun.stdin.stream().getReader();
  const chunks: Uint8Array[] = [];
  try {
    // Files and devices (/dev/null) answer at once; only a pipe or socket can stay silent.
    if (havePrompt && kind === "stream") {
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
  const text = new TextDecoder().decode(Buffer.concat(chunks)).replace(/\s+$/, "");
  if (text.trim() === "") return kind === "stream" ? emptyPipe(havePrompt) : { text: "" };
  return { text };
}

/** A pipe that closed without a byte: `git diff | zot -p "review"` on a clean tree. */
function emptyPipe(havePrompt: boolean): PipedStdin {
  return havePrompt ? { text: "", note: "stdin was piped but empty; sending the prompt alone" } : { text: "" };
}

/** "stream": a pipe or socket (may stay open and silent); "file": a file or device (answers at once). */
function stdinKind(): "stream" | "file" | "closed" {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket() ? "stream" : "file";
  } catch {
    // No fd 0 at all (a parent that closed it).
    return "closed";
  }
}
