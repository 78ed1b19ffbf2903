// Ctrl+G: the prompt in the user's own editor, as Claude Code, Codex and git offer it. The editor
// is `$VISUAL`, else `$EDITOR`, else `vi`, run by `sh` so a value with arguments (`code --wait`,
// `emacs -nw`) works as it does for git. Rule: the editor has the terminal while it runs; what it
// saved becomes the prompt, cleaned as a paste is; an editor that cannot start or fails leaves the
// prompt as it was and says why; the file it edited is removed; what the editor leaves running (a
// window editor's instance) is the user's, not killed with zot.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorText } from "../../protocol/error-text.ts";
import { normalizePaste } from "../../tui/paste.ts";

export type EditorOutcome = { kind: "edited"; text: string } | { kind: "unchanged" } | { kind: "failed"; reason: string };

/** The command that edits a file, from the environment: `$VISUAL`, `$EDITOR`, else `vi`. */
export function editorCommand(env: Record<string, string | undefined>): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || "vi";
}

/**
 * Writes `text` to a file of its own, has `command` edit it (through `lend`, which gives it the
 * terminal) and reads it back before the terminal is taken back, so keys typed after the editor
 * exits land after the text: line ends made LF, escape sequences and control bytes dropped (as a
 * paste's), trailing newlines gone (an editor adds one). `signal` ends the editor (SIGTERM: zot is
 * exiting); `spare` runs it so that what it leaves running on its own (a window editor's first
 * instance) outlives zot.
 */
export async function editInEditor(
  text: string,
  options: {
    command: string;
    cwd: string;
    env: Record<string, string | undefined>;
    lend: <T>(run: () => Promise<T>) => Promise<T>;
    signal?: AbortSignal;
    /** runs the editor so that what it leaves running outlives zot (owned-processes.ts) */
    spare?: <T>(run: () => Promise<T>) => Promise<T>;
  },
): Promise<EditorOutcome> {
  const dir = mkdtempSync(join(tmpdir(), "zot-prompt-"));
  const file = join(dir, "prompt.md");
  const written = text === "" ? "" : `${text}\n`;
  try {
    writeFileSync(file, written);
    const spare = options.spare ?? (<T>(run: () => Promise<T>) => run());
    const exit = await options.lend(() =>
      spare(async () => {
        try {
          // `"$@"`: the file is an argument of the command, however the command is written.
          const child = Bun.spawn(["/bin/sh", "-c", `${options.command} "$@"`, "sh", file], {
            cwd: options.cwd,
            env: options.env,
            stdio: ["inherit", "inherit", "inherit"],
          });
          const stop = () => child.kill("SIGTERM");
          options.signal?.addEventListener("abort", stop, { once: true });
          const code = await child.exited;
          options.signal?.removeEventListener("abort", stop);
          return { code, signal: child.signalCode, saved: code === 0 && !child.signalCode ? readFileSync(file, "utf8") : undefined };
        } catch (error) {
          return { error: errorText(error) };
        }
      }),
    );
    if ("error" in exit) return { kind: "failed", reason: `could not start ${options.command} (${exit.error})` };
    if (exit.signal) return { kind: "failed", reason: `${options.command} ended by ${exit.signal}; the prompt is as it was` };
    if (exit.code === 127) return { kind: "failed", reason: `${options.command} was not found; set VISUAL or EDITOR to the editor you use` };
    if (exit.code !== 0 || exit.saved === undefined) return { kind: "failed", reason: `${options.command} exited with code ${exit.code}; the prompt is as it was` };
    // Nothing saved (`:q`, an editor that only looked): the prompt stays as it was, chips and all.
    if (exit.saved === written) return { kind: "unchanged" };
    const edited = normalizePaste(exit.saved).replace(/\n+$/, "");
    return edited === text ? { kind: "unchanged" } : { kind: "edited", text: edited };
  } catch (error) {
    return { kind: "failed", reason: `the prompt's file: ${errorText(error)}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
