// The interactive app through a real pseudo-terminal (dist/zot against the mock LLM, the screen read
// back by xterm headless): answers streaming in, tool boxes, the queue, Esc and Ctrl+C, resize,
// wide characters.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm } from "../support/mock-llm.ts";
import { ptyRuns } from "../support/pty-runs.ts";
import { tempDir } from "../support/zot.ts";
import { lastUserText, ready, startZot } from "../support/zot-pty.ts";

const runs = ptyRuns();

function zot(turns: Parameters<typeof startMockLlm>[0], options: Parameters<typeof startZot>[1] = {}) {
  return runs.start(startMockLlm(turns), options);
}

const ANSWER = Array.from({ length: 12 }, (_, i) => `line ${i + 1} of the answer`).join("\n");

describe("zot in a terminal", () => {
  test("a streamed answer appears under the prompt, row by row; the status bar shows the model and the tokens", async () => {
    const { session, mock } = zot([{ text: ANSWER, chunk_size: 6, chunk_delay_ms: 25 }]);
    await ready(session);
    session.type("hello zot\r");
    await session.waitForText("line 3 of the answer");
    // Streaming: the start is on screen before the end has arrived.
    expect(session.screen.text()).not.toContain("line 12 of the answer");
    await session.waitForText("line 12 of the answer");
    const rows = session.screen.lines();
    const prompt = rows.findIndex((row) => row === "› hello zot");
    expect(prompt).toBeGreaterThanOrEqual(0);
    expect(rows.findIndex((row) => row.includes("line 1 of the answer"))).toBeGreaterThan(prompt);
    await session.waitFor((screen) => /\(anthropic\) claude-\S+ ↑\d/.test(screen.text()), "the model and tokens in the status bar");
    expect(lastUserText(mock.requests[0].body)).toBe("hello zot");
  });

  test('`zot "prompt"` starts with that prompt', async () => {
    const { session, mock } = zot([{ text: "answered at once" }], { args: ["what is 2+2?"] });
    await session.waitForText("answered at once");
    expect(session.screen.text()).toContain("› what is 2+2?");
    expect(lastUserText(mock.requests[0].body)).toBe("what is 2+2?");
  });

  test("a tool box shows the tool and its arguments; a long result is collapsed to 10 rows, Ctrl+O expands and collapses it", async () => {
    const { session } = zot([{ tool_calls: [{ name: "bash", args: { command: "seq 1 30" } }] }, { text: "counted" }], { rows: 50 });
    await ready(session);
    session.type("count\r");
    await session.waitForText("counted");
    const text = () => session.screen.text();
    expect(text()).toContain("╭─ bash ");
    expect(text()).toContain("│ $ seq 1 30");
    expect(text()).toMatch(/│ 10 +│/);
    expect(text()).not.toMatch(/│ 11 +│/);
    expect(text()).toMatch(/… \d+ more rows · ctrl\+o to expand/);
    session.type("\x0f");
    await session.waitFor((screen) => /│ 30 +│/.test(screen.text()), "the whole result");
    expect(text()).not.toContain("ctrl+o to expand");
    session.type("\x0f");
    await session.waitFor((screen) => screen.text().includes("ctrl+o to expand"), "the result collapsed again");
    expect(text()).not.toMatch(/│ 30 +│/);
  });

  test("an edit's result is a coloured diff, a failed tool's result is red", async () => {
    const { session, cwd } = zot(
      [
        { tool_calls: [{ name: "edit", args: { path: "notes.txt", edits: [{ old_text: "old line", new_text: "new line" }] } }] },
        { tool_calls: [{ name: "read", args: { path: "missing.txt" } }] },
        { text: "all done" },
      ],
      { env: { NO_COLOR: "" } },
    );
    writeFileSync(join(cwd, "notes.txt"), "first\nold line\nlast\n");
    await ready(session);
    session.type("fix it\r");
    await session.waitForText("all done");
    expect(session.output).toContain("\x1b[31m-old line");
    expect(session.output).toContain("\x1b[32m+new line");
    expect(session.output).toMatch(/\x1b\[31mread: [^\x1b]*missing\.txt/);
    expect(session.screen.text()).toContain("╭─ edit ");
  });

  test("Enter while a turn runs queues the message above the status bar; it is sent when the turn ends", async () => {
    const { session, mock } = zot([{ text: ANSWER, chunk_size: 4, chunk_delay_ms: 40 }, { text: "second answer" }]);
    await ready(session);
    session.type("first question\r");
    await session.waitForText("line 1 of the answer");
    session.type("second question\r");
    await session.waitForText("↳ queued: second question");
    expect(mock.requests).toHaveLength(1);
    await session.waitForText("second answer", 20_000);
    expect(mock.requests).toHaveLength(2);
    expect(lastUserText(mock.requests[1].body)).toBe("second question");
    expect(session.screen.text()).not.toContain("queued:");
    const rows = session.screen.allLines();
    expect(rows.indexOf("› second question")).toBeGreaterThan(rows.findIndex((row) => row.includes("line 12 of the answer")));
  }, 30_000);

  test("Esc cancels the running turn (the request is aborted); the queued prompt comes back into the editor, and Enter sends it", async () => {
    const long = Array.from({ length: 200 }, (_, i) => `slow line ${i}`).join("\n");
    const { session, mock } = zot([{ text: long, chunk_size: 4, chunk_delay_ms: 30 }, { text: "after the cancel" }]);
    await ready(session);
    session.type("go slowly\r");
    await session.waitForText("slow line 1");
    session.type("never sent\r");
    await session.waitForText("queued: never sent");
    session.type("\x1b");
    await session.waitFor((screen) => screen.lines().some((row) => row.trim() === "cancelled"), "the cancelled note");
    expect(session.screen.text()).not.toContain("queued:");
    await session.waitFor((screen) => screen.lines().some((row) => row.startsWith("> never sent")), "the queued prompt back in the editor");
    await session.waitFor(() => mock.requests[0].aborted === true, "the mock to see the client go away");
    expect(session.screen.text()).not.toContain("slow line 199");
    await Bun.sleep(300);
    expect(mock.requests).toHaveLength(1);
    session.type(" and now\r");
    await session.waitForText("after the cancel");
    expect(lastUserText(mock.requests[1].body)).toBe("never sent and now");
    expect(mock.requests[1].aborted).toBeFalsy();
  }, 30_000);

  test("a command that never stops writing (yes) keeps the app live: its box shows the newest rows, memory stays flat, Esc stops it", async () => {
    const { session, pid } = zot([{ tool_calls: [{ id: "toolu_yes", name: "bash", args: { command: "yes" } }] }, { text: "never asked" }]);
    await ready(session);
    session.type("flood\r");
    // The box keeps drawing while the output pours in (a frozen app drew it once, or never).
    await session.waitFor((screen) => /… [\d,]+ lines? above/.test(screen.text()), "the live tail of yes");
    const first = session.bytes;
    await session.waitFor(() => session.bytes > first + 2000, "the app to keep drawing");
    // Kept output is bounded: a box that kept all of it grew by hundreds of MB a second.
    const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid()}/status`, "utf8"))?.[1]) / 1024;
    expect(rssMb()).toBeLessThan(400);
    session.type("\x1b");
    await session.waitForText("turn cancelled");
    const children = () => readFileSync(`/proc/${pid()}/task/${pid()}/children`, "utf8").trim();
    await session.waitFor(() => children() === "", "yes to be gone");
  }, 30_000);

  test("--no-yolo: a question that opens while the next prompt is being typed is not answered by it ('fix step 3' would pick Yes to everything)", async () => {
    const cwd = tempDir("zot-cwd-");
    const { session } = zot([{ tool_calls: [{ id: "toolu_t", name: "bash", args: { command: "touch ran" } }], delay_ms: 1500 }, { text: "over" }], { cwd, args: ["--no-yolo"] });
    await ready(session);
    session.type("go\r");
    await Bun.sleep(900);
    // The next prompt, typed while the model thinks; the question opens under the fingers.
    session.type("fix step ");
    await session.waitForText("Allow bash?");
    session.type("3");
    await session.waitForText("this is a question, not the prompt");
    await Bun.sleep(400);
    expect(existsSync(join(cwd, "ran"))).toBe(false);
    expect(session.screen.text()).toContain("Allow bash?");
    // Looking at the answers, then 1: that one counts.
    session.type("\x1b[A");
    session.type("1");
    await session.waitForText("over");
    expect(existsSync(join(cwd, "ran"))).toBe(true);
  }, 30_000);

  test("a tool's output reaches the terminal as text: a file's OSC 52 (clipboard), title and clear-scrollback escapes are dropped, its colours kept", async () => {
    const cwd = tempDir("zot-cwd-");
    writeFileSync(join(cwd, "esc.txt"), "line1\n\x1b]52;c;ZXZpbA==\x07\x1b]0;PWNED\x07\x1b[3Jhidden \x1b[31mred\x1b[0m\n");
    const { session } = zot([{ tool_calls: [{ id: "toolu_read", name: "read", args: { path: "esc.txt" } }] }, { text: "read it" }], { cwd });
    await ready(session);
    session.type("show me\r");
    await session.waitForText("read it");
    expect(session.screen.text()).toContain("hidden red");
    expect(session.output).not.toContain("]52;");
    expect(session.output).not.toContain("PWNED");
    expect(session.output).not.toContain("\x1b[3J");
    expect(session.output).toContain("\x1b[31mred");
  }, 30_000);

  test("the model's escapes never reach the terminal: not in a fenced code block, not in its thinking, not in a tool name it made up", async () => {
    const fence = "```\ncode \x1b]52;c;Q09ERQ==\x07\x1b]0;PWNED\x07\x1b[2J\x1b[3J here\n```\n\n```js\nconst s = \"\x1b]52;c;SlM=\x07\";\n```\nend of answer";
    // …nor in the working directory's name the status bar shows (an archive's folder).
    const cwd = join(tempDir("zot-cwd-"), "evil\x1b]0;DIRTITLE\x07dir");
    mkdirSync(cwd);
    const { session } = zot([
      { thinking: "think \x1b]52;c;VEhJTks=\x07 hard", text: fence },
      { tool_calls: [{ id: "toolu_odd", name: "x\x1b]52;c;TkFNRQ==\x07\x1b]0;NAMED\x07", args: {} }] },
      { text: "after the odd tool" },
    ], { cwd });
    await ready(session);
    session.type("quote it\r");
    await session.waitForText("end of answer");
    session.type("and a tool\r");
    await session.waitForText("after the odd tool");
    expect(session.screen.text()).toContain("code  here");
    expect(session.output).not.toContain("]52;");
    expect(session.output).not.toContain("PWNED");
    expect(session.output).not.toContain("NAMED");
    expect(session.output).not.toContain("DIRTITLE");
    expect(session.screen.text()).toContain("evildir");
    expect(session.output).not.toContain("\x1b[3J");
  }, 30_000);

  test("a lone ESC ] (an OSC never ended) hides nothing after it: not in the answer, its thinking or a !command's output", async () => {
    const { session } = zot([{ thinking: "step one \x1b] step two\nstep three", text: "answer start \x1b] answer middle\n\nanswer end" }]);
    await ready(session);
    session.type("go\r");
    await session.waitForText("answer end");
    session.type("!printf 'out1 \\033]x\\nout2\\nout3\\n'\r");
    await session.waitForText("[exit 0]");
    const shown = session.screen.text();
    for (const part of ["step three", "answer middle", "out2", "out3"]) expect(shown).toContain(part);
  });

  test("a tab in the answer's prose or in a table cell cuts nothing off the row", async () => {
    const para = "Columns:\tname\tsize\tmodified\towner\tgroup\tmode\tlinks\tinode\tEND_OF_ROW";
    const table = "| key | value |\n|---|---|\n| a\tb\tc\td | a value long enough to bring this table close to the width TABLE_CELL_END |";
    const { session } = zot([{ text: `${para}\n\n${table}\n\nFIN` }], { cols: 80, rows: 24 });
    await ready(session);
    session.type("tell me\r");
    await session.waitForText("FIN");
    expect(session.screen.text()).toContain("END_OF_ROW");
    expect(session.screen.text()).toContain("TABLE_CELL_END");
    for (const row of session.screen.lines().filter((row) => row.startsWith(" │"))) expect(row.trimEnd()).toEndWith("│");
  });

  test("a table with more columns than fit is stacked as key/value rows, streamed or whole: no row is split in two", async () => {
    const head = `| ${Array.from({ length: 10 }, (_, i) => `col${i + 1}`).join(" | ")} |`;
    const row = (n: number) => `| ${Array.from({ length: 10 }, (_, i) => `v${i + 1}.${n}`).join(" | ")} |`;
    const answer = `${head}\n|${"---|".repeat(10)}\n${row(1)}\n${row(2)}\n\nFIN`;
    const { session } = zot([{ text: answer, chunk_size: 7, chunk_delay_ms: 5 }], { cols: 40, rows: 40 });
    // at 40 columns the status bar has no room for the provider's name ready() looks for
    await session.waitFor((screen) => screen.text().includes("ask anything") && screen.text().includes("claude-"), "the app ready");
    session.type("table please\r");
    await session.waitForText("FIN");
    const rows = session.screen.allLines().map((line) => line.trim());
    for (let i = 1; i <= 10; i++) for (const n of [1, 2]) expect(rows).toContain(`col${i}: v${i}.${n}`);
    expect(rows.filter((line) => line.includes("┌") || line.includes("│"))).toEqual([]);
  });

  test("a provider's error with a hyperlink in it: the note shows the text, no link (the text names one site, the link another)", async () => {
    const message = "credit too low, see \x1b]8;;https://evil.example/phish\x1b\\https://console.anthropic.com/billing\x1b]8;;\x1b\\ for more";
    const { session } = zot([{ error: { status: 400, message } }]);
    await ready(session);
    session.type("go\r");
    await session.waitForText("https://console.anthropic.com/billing for more");
    expect(session.output).not.toContain("evil.example");
    expect(session.output).not.toContain("\x1b]8;;https");
  });

  test("↑ in a new run walks back through what was typed in this folder before; a --no-session run keeps nothing", async () => {
    const first = zot([{ text: "one answer" }]);
    await ready(first.session);
    first.session.type("what did we decide about the cache?\r");
    await first.session.waitForText("one answer");
    first.session.type("\x04");
    await first.session.exited();
    const again = zot([{ text: "unused" }], { cwd: first.cwd, home: first.home });
    await ready(again.session);
    again.session.type("\x1b[A");
    await again.session.waitFor((screen) => screen.lines().includes("> what did we decide about the cache?"), "the earlier run's prompt");

    const quiet = zot([{ text: "quiet answer" }], { cwd: first.cwd, home: first.home, args: ["--no-session"] });
    await ready(quiet.session);
    quiet.session.type("a private question\r");
    await quiet.session.waitForText("quiet answer");
    quiet.session.type("\x04");
    await quiet.session.exited();
    const later = zot([{ text: "unused" }], { cwd: first.cwd, home: first.home });
    await ready(later.session);
    later.session.type("\x1b[A");
    await later.session.waitFor((screen) => screen.lines().includes("> what did we decide about the cache?"), "the recorded prompt, not the private one");
  }, 30_000);

  test("a draft Esc clears when idle is not lost: ↑ brings it back", async () => {
    const { session } = zot([{ text: "unused" }]);
    await ready(session);
    session.type("a long draft I did not mean to lose");
    await session.waitFor((screen) => screen.lines().includes("> a long draft I did not mean to lose"), "the draft");
    session.type("\x1b");
    await session.waitFor((screen) => !screen.text().includes("a long draft"), "the draft cleared");
    session.type("\x1b[A");
    await session.waitFor((screen) => screen.lines().includes("> a long draft I did not mean to lose"), "the draft back");
  }, 30_000);

  test("Ctrl+C while the model streams cancels the turn as Esc does (the draft stays); once idle it takes two more to quit", async () => {
    const long = Array.from({ length: 200 }, (_, i) => `slow line ${i}`).join("\n");
    const { session, mock } = zot([{ text: long, chunk_size: 4, chunk_delay_ms: 30 }, { text: "after the cancel" }]);
    await ready(session);
    session.type("go slowly\r");
    await session.waitForText("slow line 1");
    session.type("a draft");
    await session.waitFor((screen) => screen.lines().includes("> a draft"), "the draft");
    session.type("\x03");
    await session.waitFor((screen) => screen.lines().some((row) => row.trim() === "cancelled"), "the cancelled note");
    await session.waitFor(() => mock.requests[0].aborted === true, "the mock to see the client go away");
    expect(session.screen.text()).toContain("turn cancelled");
    expect(session.screen.lines()).toContain("> a draft");
    // Pressed twice to stop the model (the Codex habit): the second one, now idle, clears the draft and only warns.
    session.type("\x03");
    await session.waitForText("input cleared · ctrl+c again to exit");
    expect(session.proc.exitCode).toBeNull();
    session.type("and now\r");
    await session.waitForText("after the cancel");
    expect(lastUserText(mock.requests[1].body)).toBe("and now");
    session.type("\x03");
    await session.waitForText("ctrl+c again to exit");
    session.type("\x03");
    expect(await session.exited()).toBe(0);
  }, 30_000);

  test("Ctrl+C while a bash tool runs stops the command and ends the turn", async () => {
    const { session, mock } = zot([{ tool_calls: [{ name: "bash", args: { command: "sleep 30; echo never" } }] }, { text: "not asked" }]);
    await ready(session);
    session.type("run it\r");
    await session.waitForText("sleep 30");
    await Bun.sleep(300);
    const started = Date.now();
    session.type("\x03");
    await session.waitFor((screen) => screen.text().includes("[aborted]") && !/working · /.test(screen.text()), "the command stopped and the turn over");
    expect(Date.now() - started).toBeLessThan(5000);
    expect(session.screen.text()).toContain("turn cancelled");
    expect(session.screen.text()).toContain("(no output)");
    expect(mock.requests).toHaveLength(1);
    expect(session.proc.exitCode).toBeNull();
  }, 30_000);

  test("a resize keeps the content: the answer is still on screen, rows fit the new width, the scrollback is not cleared", async () => {
    const { session } = zot([{ text: `${ANSWER}\n\nA final paragraph that is long enough to wrap when the terminal gets narrower than it is now.` }], { cols: 100, rows: 30 });
    await ready(session);
    session.type("tell me\r");
    await session.waitForText("narrower than it is now.");
    const start = session.output.length;
    await session.resize(60, 20);
    await session.waitFor((screen) => screen.lines().some((row) => row.includes("ask anything")) && screen.text().includes("final paragraph"), "the app redrawn at 60 columns");
    for (const row of session.screen.lines()) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(60);
    expect(session.screen.text()).toContain("narrower than it is");
    await session.resize(100, 30);
    await session.waitFor((screen) => screen.text().includes("line 12 of the answer"), "the app redrawn at 100 columns");
    expect(session.output.slice(start)).not.toContain("\x1b[3J");
    expect(session.screen.allLines().filter((row) => row.includes("line 1 of the answer")).length).toBeGreaterThanOrEqual(1);
  });

  test("CJK and emoji align: a tool box's right border stays in one column, the cursor follows wide characters", async () => {
    const { session } = zot([{ tool_calls: [{ name: "bash", args: { command: "printf '日本語のテキスト\\n🚀 rocket 🚀\\nplain ascii\\n混合 mixed 한국어\\n'" } }] }, { text: "shown" }]);
    await ready(session);
    session.type("wide\r");
    await session.waitForText("shown");
    const rows = session.screen.lines();
    const top = rows.findIndex((row) => row.startsWith("╭─ bash"));
    const bottom = rows.findIndex((row, i) => i > top && row.startsWith("╰"));
    const right = session.screen.columnOf(top, "╮");
    expect(right).toBe(99);
    for (let row = top + 1; row < bottom; row++) expect(session.screen.columnOf(row, "│", )).toBe(0);
    for (const needle of ["日本語のテキスト", "🚀 rocket 🚀", "混合 mixed 한국어"]) {
      const row = rows.findIndex((line) => line.includes(needle));
      expect(row).toBeGreaterThan(top);
      expect(rows[row].endsWith("│")).toBe(true);
      expect(session.screen.columnOf(row, " │") + 1).toBe(right);
    }
    expect(session.screen.columnOf(bottom, "╯")).toBe(right);
    session.type("日本🚀x");
    await session.waitForText("> 日本🚀x");
    expect(session.screen.cursor().x).toBe(2 + 7);
  });
});
