// Ctrl+G: the prompt in the user's own editor, as Claude Code, Codex and git offer it. The editor
// is `$VISUAL`, else `$EDITOR`, else `vi`, run by `sh` so a value with arguments (`code --wait`,
// `emacs -nw`) works as it does for git. Rule: the editor has the terminal while it runs; what it
// saved becomes the prompt; an editor that cannot start or fails leaves the prompt as it was and
// says why; the file it edited is removed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorText } from "../../protocol/error-text.ts";

export type EditorOutcome = { kind: "edited"; text: string } | { kind: "unchanged" } | { kind: "failed"; reason: string };

/** The command that edits a file, from the environment: `$VISUAL`, `$EDITOR`, else `vi`. */
export function editorCommand(env: Record<string, string | undefined>): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || "vi";
}

/**
 * Writes `text` to a file of its own, has `command` edit it (through `lend`, which gives it the
 * terminal) and reads it back: trailing newlines go, as an editor adds one.
 */
export async function editInEditor(
  text: string,
  options: { command: string; cwd: string; env: Record<string, string | undefined>; lend: <T>(run: () => Promise<T>) => Promise<T> },
): Promise<EditorOutcome> {
  const dir = mkdtempSync(join(tmpdir(), "zot-prompt-"));
  const file = join(dir, "prompt.md");
  try {
    writeFileSync(file, text === "" ? "" : `${text}\n`);
    const exit = await options.lend(async () => {
      try {
        // `"$@"`: the file is an argument of the command, however the command is written.
        const child = Bun.spawn(["/bin/sh", "-c", `${options.command} "$@"`, "sh", file], {
          cwd: options.cwd,
          env: options.env,
          stdio: ["inherit", "inherit", "inherit"],
        });
        return { code: await child.exited, signal: child.signalCode };
      } catch (error) {
        return { error: errorText(error) };
      }
    });
    if ("error" in exit) return { kind: "failed", reason: `could not start ${options.command} (${exit.error})` };
    if (exit.signal) return { kind: "failed", reason: `${options.command} ended by ${exit.signal}; the prompt is as it was` };
    if (exit.code === 127) return { kind: "failed", reason: `${options.command} was not found; set VISUAL or EDITOR to the editor you use` };
    if (exit.code !== 0) return { kind: "failed", reason: `${options.command} exited with code ${exit.code}; the prompt is as it was` };
    const edited = readFileSync(file, "utf8").replace(/(\r?\n)+$/, "");
    return edited === text ? { kind: "unchanged" } : { kind: "edited", text: edited };
  } catch (error) {
    return { kind: "failed", reason: `the prompt's file: ${errorText(error)}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
