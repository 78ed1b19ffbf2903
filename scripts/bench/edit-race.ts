// The edit race the hardening issue names: another process appends lines to a file while zot's edit
// tool changes the top of it again and again; how many appended lines are still in the file at
// the end. Two appenders: one that opens the file for each line (`echo >> f`), one that keeps it
// open (a log writer); the edits alternately lengthen and shorten the file. Rule: printed, never
// asserted (test/tools/other-writers.test.ts asserts that none are lost by edits that do not shorten it).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TextBlock } from "../../src/protocol/messages.ts";
import { editTool } from "../../src/tools/edit.ts";

const LINES = 61;

/** Appends LINES lines, one every few milliseconds; `held` keeps one descriptor open throughout. */
function appender(file: string, held: boolean) {
  const line = (i: string) => `echo "appended ${i}" ${held ? ">&3" : `>> '${file}'`}; sleep 0.004`;
  const script = `${held ? `exec 3>>'${file}'; ` : ""}for i in $(seq 1 ${LINES}); do ${line("$i")}; done`;
  return Bun.spawn(["bash", "-c", script], { stdout: "ignore", stderr: "inherit" });
}

/** The top of the file an edit swaps with the other: every edit makes the file longer or shorter. */
const STATES = ["head: short\n", "head: a much longer first line\nand a second one\n"];

async function race(held: boolean): Promise<{ lost: number; edits: number; failed: number }> {
  const dir = mkdtempSync(join(tmpdir(), "zot-edit-race-"));
  const file = join(dir, "log.txt");
  writeFileSync(file, STATES[0]!);
  const ctx = { cwd: dir, signal: new AbortController().signal, onProgress() {} };
  const child = appender(file, held);
  let done = false;
  void child.exited.then(() => (done = true));
  let edits = 0;
  let failed = 0;
  let state = 0;
  while (!done) {
    const result = await editTool.execute({ path: "log.txt", edits: [{ old_text: STATES[state]!, new_text: STATES[1 - state]! }] }, ctx);
    if (result.is_error) {
      failed++;
      // Resynchronise with what is in the file, as a model told to re-read would.
      state = readFileSync(file, "utf8").startsWith(STATES[1]!) ? 1 : 0;
      if (failed > 1000) throw new Error(`edit keeps failing: ${(result.content[0] as TextBlock).text}`);
    } else {
      edits++;
      state = 1 - state;
    }
  }
  await child.exited;
  const text = readFileSync(file, "utf8");
  const present = new Set(text.split("\n").filter((l) => l.startsWith("appended ")));
  return { lost: LINES - present.size, edits, failed };
}

export async function editRaceBench(runs = 10): Promise<void> {
  for (const held of [false, true]) {
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await race(held));
    const lost = results.map((r) => r.lost);
    console.log(
      `edit-race appender ${held ? "holding the file open" : "reopening per line (>>)"}: appended lines lost ${lost.join(", ")} of ${LINES} per run ` +
        `(${runs} runs; edits per run ${results.map((r) => r.edits).join(", ")}; refused edits ${results.map((r) => r.failed).join(", ")})`,
    );
  }
}
