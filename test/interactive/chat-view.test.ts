// The chat view fed agent events in process: what each kind of event draws, and how it changes.
import { describe, expect, test } from "bun:test";
import type { AgentEvent } from "../../src/protocol/events.ts";
import type { Message } from "../../src/protocol/messages.ts";
import { createTheme } from "../../src/tui/theme.ts";
import { ChatView } from "../../src/modes/interactive/chat-view.ts";
import { shellContextText } from "../../src/modes/interactive/shell-context.ts";
import { QueuedPrompts } from "../../src/modes/interactive/queued-prompts.ts";
import { ATTACHED_MARK } from "../../src/protocol/attached-prompt.ts";

const theme = createTheme({ color: false });
const time = "2026-11-23T10:00:00.000Z";

function view(events: AgentEvent[], options: ConstructorParameters<typeof ChatView>[1] = {}): ChatView {
  const chat = new ChatView(theme, options);
  for (const event of events) chat.handleEvent(event);
  return chat;
}
const text = (chat: ChatView, width = 60) => Bun.stripANSI(chat.render(width).join("\n"));
const deltas = (s: string, size = 5): AgentEvent[] =>
  Array.from({ length: Math.ceil(s.length / size) }, (_, i) => ({ type: "text_delta", delta: s.slice(i * size, i * size + size) }));

describe("the chat view", () => {
  test("a prompt, then an answer that grows with each delta", () => {
    const chat = view([{ type: "user_message", content: [{ type: "text", text: "hi" }], time }, { type: "turn_start", step: 1 }, ...deltas("Hello **wor")]);
    expect(text(chat)).toContain("› hi");
    expect(text(chat)).toContain("Hello");
    chat.handleEvent({ type: "text_delta", delta: "ld**!" });
    expect(text(chat)).toContain("Hello world!");
    expect(text(chat)).not.toContain("**");
  });

  test("an answer the output limit cut, and one that said nothing, each get a note; a whole answer and a blocked one do not", () => {
    const cut = view([{ type: "turn_start", step: 1 }, ...deltas("half an ans"), { type: "assistant_message", content: [{ type: "text", text: "half an ans" }], time }, { type: "turn_end", stop: "length" }]);
    expect(text(cut, 200)).toContain("the answer was cut off at the model's output limit");
    const silent = view([{ type: "turn_start", step: 1 }, { type: "turn_end", stop: "end_turn" }]);
    expect(text(silent, 200)).toContain("the model returned an empty answer");
    const whole = view([{ type: "turn_start", step: 1 }, ...deltas("all of it"), { type: "assistant_message", content: [{ type: "text", text: "all of it" }], time }, { type: "turn_end", stop: "end_turn" }]);
    expect(text(whole, 200)).not.toContain("empty answer");
    expect(text(whole, 200)).not.toContain("cut off");
    const blocked = view([{ type: "turn_start", step: 1 }, { type: "intercept", participant: "guard", stage: "assistant_message", action: "block", reason: "no" }, { type: "turn_end", stop: "end_turn" }]);
    expect(text(blocked, 200)).not.toContain("empty answer");
  });

  test("a prompt and a !command's output are drawn as text: their escapes (OSC 52, a title) never reach the terminal", () => {
    const chat = new ChatView(theme);
    chat.addUserMessage("look \x1b]52;c;ZXZpbA==\x07here");
    chat.addUserMessage(shellContextText({ command: "printf x", output: "\x1b]0;TITLE\x07out\n[exit 0]\n" }));
    const drawn = chat.render(80).join("\n");
    expect(drawn).not.toContain("]52;");
    expect(drawn).not.toContain("]0;TITLE");
    expect(Bun.stripANSI(drawn)).toContain("look here");
  });

  test("a running command's box shows its newest rows and counts the lines above it, however much it wrote", () => {
    const chat = view([{ type: "turn_start", step: 1 }, { type: "tool_use_start", id: "b", name: "bash" }, { type: "tool_call", id: "b", name: "bash", args: { command: "flood" } }]);
    const line = (i: number) => `${String(i).padStart(4, "0")}-${"x".repeat(95)}\n`;
    for (let i = 1; i <= 2000; i += 50) chat.handleEvent({ type: "tool_progress", id: "b", text: Array.from({ length: 50 }, (_, k) => line(i + k)).join("") });
    const rows = text(chat, 64).split("\n");
    // 100-character lines take two rows each at this width: ten rows are the last five lines.
    expect(rows.some((row) => row.includes("… 1,995 lines above") || row.includes("… 1995 lines above"))).toBe(true);
    expect(rows.some((row) => row.includes("1996-xxx"))).toBe(true);
    expect(rows.some((row) => row.includes("1995-xxx"))).toBe(false);
    // One long line, no newline: its top rows are counted as rows, not as "0 lines".
    const long = view([{ type: "turn_start", step: 1 }, { type: "tool_use_start", id: "c", name: "bash" }, { type: "tool_call", id: "c", name: "bash", args: { command: "long" } }]);
    long.handleEvent({ type: "tool_progress", id: "c", text: "y".repeat(60 * 15) });
    const longRows = text(long, 64).split("\n");
    expect(longRows.some((row) => row.includes("… 5 rows above"))).toBe(true);
    expect(longRows.filter((row) => row.includes("yyyy"))).toHaveLength(10);
  });

  test("the complete message replaces the streamed text when an interceptor rewrote it; a blocked one disappears", () => {
    const chat = view([{ type: "turn_start", step: 1 }, ...deltas("the secret is 42")]);
    chat.handleEvent({ type: "intercept", participant: "redact", stage: "assistant_message", action: "modify", reason: "secrets" });
    chat.handleEvent({ type: "assistant_message", content: [{ type: "text", text: "the secret is [redacted]" }], time });
    expect(text(chat)).toContain("the secret is [redacted]");
    expect(text(chat)).not.toContain("42");
    expect(text(chat)).toContain("redact rewrote assistant_message: secrets");

    const blocked = view([{ type: "turn_start", step: 1 }, ...deltas("forbidden words")]);
    blocked.handleEvent({ type: "intercept", participant: "guard", stage: "assistant_message", action: "block", reason: "no" });
    expect(text(blocked)).not.toContain("forbidden words");
    expect(text(blocked)).toContain("guard blocked assistant_message: no");
  });

  test("text around a tool call: the answer is not drawn twice when the complete message arrives", () => {
    const chat = view([
      { type: "turn_start", step: 1 },
      ...deltas("Let me look."),
      { type: "tool_use_start", id: "t1", name: "read" },
      { type: "tool_use_args", id: "t1", delta: '{"path": "src/ma' },
    ]);
    expect(text(chat)).toContain("│ src/ma");
    chat.handleEvent({ type: "tool_use_args", id: "t1", delta: 'in.ts"}' });
    chat.handleEvent({ type: "tool_use_end", id: "t1" });
    chat.handleEvent({ type: "assistant_message", content: [{ type: "text", text: "Let me look." }, { type: "tool_call", id: "t1", name: "read", args: { path: "src/main.ts" } }], time });
    chat.handleEvent({ type: "tool_call", id: "t1", name: "read", args: { path: "src/main.ts" } });
    expect(text(chat).split("Let me look.")).toHaveLength(2);
    expect(text(chat)).toContain("│ src/main.ts");
    expect(text(chat)).toContain("running…");
    chat.handleEvent({ type: "tool_result", id: "t1", name: "read", is_error: false, content: [{ type: "text", text: "contents" }] });
    expect(text(chat)).not.toContain("running…");
    expect(text(chat)).toContain("│ contents");
  });

  test("an extension's tool is attributed in the box title; bash output streams into its box", () => {
    const chat = view([{ type: "tool_call", id: "w", name: "weather", args: { city: "Oslo" } }], { toolExtension: (name) => (name === "weather" ? "weather-ext" : undefined) });
    expect(text(chat)).toContain("╭─ weather · weather-ext ");
    expect(text(chat)).toContain('{"city":"Oslo"}');
    chat.handleEvent({ type: "tool_call", id: "b", name: "bash", args: { command: "make" } });
    chat.handleEvent({ type: "tool_progress", id: "b", text: "compiling…\n" });
    expect(text(chat)).toContain("│ $ make");
    expect(text(chat)).toContain("│ compiling…");
  });

  test("a prompt's attached file and a queued prompt are drawn without the escapes in their names (a clipboard write, a title)", () => {
    const name = "READ\x1b]52;c;ZWNobyBQV05FRA==\x07\x1b]0;PWNED-title\x07ME.md";
    const chat = view([{ type: "user_message", content: [{ type: "text", text: `see @${name}\n\n${ATTACHED_MARK}\n<file path="${name}">\nhello\n</file>` }], time }]);
    const drawn = chat.render(80).join("\n");
    expect(drawn).not.toMatch(/\x1b\]|\x07/);
    expect(Bun.stripANSI(drawn)).toContain("⎿ attached README.md (1 line)");
    const queue = new QueuedPrompts(theme, () => [{ text: `look at @${name}` }, { text: "from an extension", from: "ext\x1b]0;T\x07" }]).render(80).join("\n");
    expect(queue).not.toMatch(/\x1b\]|\x07/);
    expect(Bun.stripANSI(queue)).toContain("↳ queued: look at @README.md");
  });

  test("a tool box shows the command as it ran: a lone ESC ] and a BEL are marks, the text between them stays", () => {
    const command = "ls \x1b]; touch PWNED #\x07-la";
    const streaming = view([{ type: "turn_start", step: 1 }, { type: "tool_use_start", id: "b", name: "bash" }, { type: "tool_use_args", id: "b", delta: JSON.stringify({ command }).slice(0, -2) }]);
    expect(text(streaming, 80)).toContain("│ $ ls ␛]; touch PWNED #␇-l");
    const done = view([{ type: "tool_call", id: "b", name: "bash", args: { command } }]);
    expect(text(done, 80)).toContain("│ $ ls ␛]; touch PWNED #␇-la");
    expect(done.render(80).join("\n")).not.toMatch(/\x1b\]|\x07/);
  });

  test("a lone ESC ] hides nothing after it: not in the answer, the thinking or a !command's output", () => {
    const chat = view([
      { type: "user_message", content: [{ type: "text", text: shellContextText({ command: "printf x", output: "out1 \x1b]x\nout2\nout3\n[exit 0]" }) }], time },
      { type: "turn_start", step: 1 },
      { type: "thinking_delta", delta: "step one \x1b] step two\nstep three" },
      ...deltas("answer start \x1b] answer middle\n\nanswer end"),
    ]);
    chat.toggleExpanded();
    const shown = text(chat, 80);
    for (const part of ["out2", "out3", "[exit 0]", "step two", "step three", "answer middle", "answer end"]) expect(shown).toContain(part);
    expect(chat.render(80).join("\n")).not.toContain("\x1b]");
  });

  test("thinking is dim and collapsed to its last rows while streaming, to its first rows when done; Ctrl+O shows it all", () => {
    const thought = Array.from({ length: 8 }, (_, i) => `thought ${i}`).join("\n");
    const chat = view([{ type: "turn_start", step: 1 }, { type: "thinking_delta", delta: thought }]);
    expect(text(chat)).toContain("✻ thinking");
    expect(text(chat)).toContain("thought 7");
    expect(text(chat)).not.toContain("thought 0");
    chat.handleEvent({ type: "text_delta", delta: "answer" });
    expect(text(chat)).toContain("thought 0");
    expect(text(chat)).not.toContain("thought 7");
    expect(text(chat)).toContain("… 5 more rows · ctrl+o to expand");
    chat.toggleExpanded();
    expect(text(chat)).toContain("thought 7");
    expect(chat.render(60).join("\n")).toContain("\x1b[2m\x1b[3mthought 0");
  });

  test("Ctrl+O with tool boxes above the screen: only the blocks on screen and later ones change, no row above the screen moves", () => {
    const chat = new ChatView(theme);
    for (let i = 0; i < 3; i++) {
      chat.handleEvent({ type: "tool_call", id: `t${i}`, name: "bash", args: { command: `seq ${i}` } });
      const output = Array.from({ length: 30 }, (_, k) => `T${i}-${k + 1}`).join("\n");
      chat.handleEvent({ type: "tool_result", id: `t${i}`, name: "bash", content: [{ type: "text", text: output }], is_error: false });
      chat.addMarkdown(Array.from({ length: 8 }, (_, k) => `para ${i}.${k}`).join("\n\n"));
    }
    chat.handleEvent({ type: "tool_call", id: "last", name: "bash", args: { command: "seq last" } });
    chat.handleEvent({ type: "tool_result", id: "last", name: "bash", content: [{ type: "text", text: Array.from({ length: 30 }, (_, k) => `L-${k + 1}`).join("\n") }], is_error: false });
    const room = 20;
    const before = chat.renderWithin(80, room);
    const above = before.length - room;
    chat.toggleExpanded();
    const after = chat.renderWithin(80, room);
    expect(after.slice(0, above)).toEqual(before.slice(0, above));
    const shown = Bun.stripANSI(after.join("\n"));
    expect(shown).toContain("L-30");
    expect(shown).not.toContain("T2-30");
    // Collapsed again: still nothing above the screen moves.
    const expanded = chat.renderWithin(80, room);
    chat.toggleExpanded();
    const collapsed = chat.renderWithin(80, room);
    expect(collapsed.slice(0, expanded.length - room)).toEqual(expanded.slice(0, expanded.length - room));
  });

  test("Ctrl+O when blank rows left under a shrunk frame are on screen: the frame says how many chat rows show, and a block above them keeps its rows", () => {
    const chat = new ChatView(theme);
    chat.handleEvent({ type: "tool_call", id: "t0", name: "bash", args: { command: "seq 30" } });
    chat.handleEvent({ type: "tool_result", id: "t0", name: "bash", content: [{ type: "text", text: Array.from({ length: 30 }, (_, k) => `T-${k + 1}`).join("\n") }], is_error: false });
    chat.addMarkdown(Array.from({ length: 6 }, (_, k) => `para ${k}`).join("\n\n"));
    const room = 20;
    const before = chat.renderWithin(80, room);
    // the box is in the room's rows, but 8 blank rows under the frame take the bottom of the screen
    chat.shownRows(room - 8);
    const above = before.length - (room - 8);
    chat.toggleExpanded();
    const after = chat.renderWithin(80, room);
    expect(after.slice(0, above)).toEqual(before.slice(0, above));
    expect(Bun.stripANSI(after.join("\n"))).not.toContain("T-30");
  });

  test("errors, cancellation, interceptors' denials and compaction are lines of their own", () => {
    const chat = view([
      { type: "intercept", participant: "guard", stage: "tool_call", action: "deny", reason: "rm -rf is not allowed" },
      { type: "turn_end", stop: "aborted" },
      { type: "error", message: "provider said no", code: "bad_request" },
      { type: "compact_start", reason: "auto" },
      { type: "compact_done", reason: "auto", summary: "s", messages_before: 40, messages_after: 5, tokens_before: 150_000 },
    ]);
    const rows = chat.render(80).map((row) => Bun.stripANSI(row).trim());
    expect(rows).toContain("guard denied tool_call: rm -rf is not allowed");
    expect(rows).toContain("cancelled");
    expect(rows).toContain("provider said no");
    expect(rows).toContain("compacted: 40 messages → 5");
  });

  test("a provider error's hyperlink is not kept: its text names one site, the link would lead to another", () => {
    const message = "credit too low: \x1b]8;;https://evil.example/phish\x1b\\https://console.anthropic.com/billing\x1b]8;;\x1b\\ \x1b[1mnow\x1b[22m";
    const rows = view([{ type: "error", message, code: "bad_request" }]).render(80);
    expect(rows.join("\n")).not.toContain("\x1b]8");
    expect(rows.join("\n")).not.toContain("evil.example");
    expect(rows.map((row) => Bun.stripANSI(row).trim())).toContain("credit too low: https://console.anthropic.com/billing now");
  });

  test("a compaction that fails says so, beside the provider's words; the next error is only its own", () => {
    const chat = view([
      { type: "compact_start", reason: "manual" },
      { type: "error", message: "anthropic: HTTP 529: overloaded", code: "server_error" },
      { type: "error", message: "later trouble", code: "server_error" },
    ]);
    const rows = chat.render(80).map((row) => Bun.stripANSI(row).trim());
    expect(rows).toContain("compaction failed: anthropic: HTTP 529: overloaded");
    expect(rows).toContain("later trouble");
  });

  test("a compaction cancelled mid-way (Esc) says so when its unit ends; one that finished or failed does not", () => {
    const rows = (events: AgentEvent[]) => view(events).render(80).map((row) => Bun.stripANSI(row).trim());
    const cancelled = "compaction cancelled: the transcript is as it was";
    expect(rows([{ type: "compact_start", reason: "manual" }, { type: "done" }])).toContain(cancelled);
    expect(rows([{ type: "compact_start", reason: "manual" }, { type: "compact_done", reason: "manual", summary: "s", messages_before: 6, messages_after: 3, tokens_before: 100 }, { type: "done" }])).not.toContain(cancelled);
    expect(rows([{ type: "compact_start", reason: "manual" }, { type: "error", message: "boom", code: "server_error" }, { type: "done" }])).not.toContain(cancelled);
  });

  test("an automatic compaction's failure comes worded and is not prefixed again; an aborted compaction leaves no mark on the next error", () => {
    const chat = view([
      { type: "compact_start", reason: "auto" },
      { type: "error", message: "automatic compaction failed: boom; going on with the whole transcript", code: "compaction" },
      { type: "compact_start", reason: "manual" },
      { type: "turn_end", stop: "aborted" },
      { type: "done" },
      { type: "error", message: "an unrelated failure", code: "server_error" },
    ]);
    const rows = chat.render(80).map((row) => Bun.stripANSI(row).trim());
    expect(rows).toContain("automatic compaction failed: boom; going on with the whole transcript");
    expect(rows).not.toContain("compaction failed: automatic compaction failed: boom; going on with the whole transcript");
    expect(rows).toContain("an unrelated failure");
    expect(rows).not.toContain("compaction failed: an unrelated failure");
  });

  test("a write's box counts its lines and an edit's its edits, singular for one", () => {
    const chat = view([
      { type: "tool_call", id: "w1", name: "write", args: { path: "notes.md", content: "one line\n" } },
      { type: "tool_call", id: "w2", name: "write", args: { path: "two.md", content: "a\nb" } },
      { type: "tool_call", id: "e1", name: "edit", args: { path: "x.ts", edits: [{ old_text: "a", new_text: "b" }] } },
    ]);
    expect(text(chat, 80)).toContain("notes.md (1 line)");
    expect(text(chat, 80)).toContain("two.md (2 lines)");
    expect(text(chat, 80)).toContain("x.ts (1 edit)");
  });

  test("calls run one at a time: those behind the first say they wait, each runs once the calls above it are answered", () => {
    const chat = view([
      { type: "tool_call", id: "c1", name: "bash", args: { command: "echo one" } },
      { type: "tool_call", id: "c2", name: "write", args: { path: "new.txt", content: "line1\n" } },
      { type: "tool_call", id: "c3", name: "bash", args: { command: "echo three" } },
      { type: "turn_end", stop: "tool_use" },
    ]);
    const states = () => [...text(chat, 80).matchAll(/(running…|waiting for [^│]*…)/g)].map((match) => match[1]);
    expect(states()).toEqual(["running…", "waiting for the call above…", "waiting for the 2 calls above…"]);
    chat.handleEvent({ type: "tool_result", id: "c1", name: "bash", is_error: false, content: [{ type: "text", text: "one" }] });
    expect(states()).toEqual(["running…", "waiting for the call above…"]);
    chat.handleEvent({ type: "tool_result", id: "c2", name: "write", is_error: false, content: [{ type: "text", text: "wrote" }] });
    expect(states()).toEqual(["running…"]);
    // A prompt that ended with a call never answered leaves nothing waiting.
    const ended = view([
      { type: "tool_call", id: "d1", name: "bash", args: { command: "a" } },
      { type: "tool_call", id: "d2", name: "bash", args: { command: "b" } },
      { type: "done" },
    ]);
    expect(text(ended, 80)).not.toContain("waiting for");
    // A call an extension asks for while another runs (call_tool) runs at once.
    const nested = view([
      { type: "tool_call", id: "e1", name: "deep_tool", args: {} },
      { type: "tool_call", id: "e2", name: "read", args: { path: "a.txt" }, origin_extension: "deep" },
    ]);
    expect(text(nested, 80)).not.toContain("waiting for");
  });

  test("the person's own no to a --no-yolo question is said in their words; a call waiting for that answer does not say it runs", () => {
    const chat = view([
      { type: "tool_call", id: "c1", name: "bash", args: { command: "rm -rf build" } },
      { type: "tool_call", id: "c2", name: "bash", args: { command: "ls" } },
    ]);
    chat.setAwaitingAnswer("c1", true);
    expect(text(chat)).toContain("waiting for your answer…");
    // The second call has not run either: it waits behind the first (and will be asked about in its turn).
    expect(text(chat)).toContain("waiting for the call above…");
    expect(text(chat)).not.toContain("running…");
    chat.setAwaitingAnswer("c1", false);
    expect(text(chat)).not.toContain("waiting for your answer");
    chat.handleEvent({ type: "intercept", participant: "confirm", stage: "approve_tool", action: "deny", reason: "the user declined: use make clean" });
    chat.handleEvent({ type: "intercept", participant: "confirm", stage: "approve_tool", action: "deny", reason: "the user declined" });
    const rows = chat.render(80).map((row) => Bun.stripANSI(row).trim());
    expect(rows).toContain("you declined: use make clean");
    expect(rows).toContain("you declined");
    expect(rows.join("\n")).not.toContain("confirm denied");
  });

  test("a transcript loads whole: prompts, answers, tool boxes with their results; /jump finds each prompt's row", () => {
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "first" }], time },
      { role: "assistant", content: [{ type: "text", text: "one" }, { type: "tool_call", id: "a", name: "bash", args: { command: "ls" } }], time },
      { role: "tool", content: [{ type: "tool_result", call_id: "a", is_error: true, content: [{ type: "text", text: "no such dir" }] }], time },
      { role: "assistant", content: [{ type: "text", text: "two" }], time },
      { role: "user", content: [{ type: "text", text: "second" }], time },
    ];
    const chat = new ChatView(theme);
    chat.load(messages);
    const { rows: styled, turns } = chat.rowsWithTurns(50);
    const rows = styled.map((row) => Bun.stripANSI(row));
    expect(turns).toHaveLength(2);
    expect(rows[turns[0] + 1]).toBe("› first");
    expect(rows[turns[1] + 1]).toBe("› second");
    const all = rows.join("\n");
    expect(all).toContain("│ $ ls");
    expect(all).toContain("│ no such dir");
    expect(all.indexOf("one")).toBeLessThan(all.indexOf("$ ls"));
    expect(all.indexOf("$ ls")).toBeLessThan(all.indexOf(" two"));
  });

  test("extension notes sit under the transcript with the extension's name; clear(name) takes back one extension's", () => {
    const chat = view([{ type: "user_message", content: [{ type: "text", text: "q" }], time }]);
    chat.notes.add({ extension: "audit", level: "warn", message: "logged" });
    chat.notes.add({ extension: "clock", level: "info", message: "it is noon" });
    const rows = chat.render(60);
    expect(rows.at(-2)).toBe(" [audit] logged");
    expect(rows.at(-1)).toBe(" [clock] it is noon");
    chat.notes.clear("audit");
    expect(chat.render(60).join("\n")).not.toContain("logged");
    expect(chat.render(60).at(-1)).toBe(" [clock] it is noon");
  });

  test("an extension note's escapes are not written, its styles and its lines are kept", () => {
    const chat = view([]);
    chat.notes.add({ extension: "relay\x1b]0;N\x07", level: "info", message: "a \x1b]52;c;UFdORUQ=\x07b\x1b]0;TITLE\x07 \x1b[1mbold\x1b[22m\r\nnext\tline" });
    const rows = chat.render(60);
    expect(rows.join("\n")).not.toMatch(/\x1b\]|\x07|\r/);
    expect(rows.map((row) => Bun.stripANSI(row)).slice(-2)).toEqual([" [relay] a b bold", " [relay] next    line"]);
    expect(rows.join("\n")).toContain("\x1b[1mbold");
  });

  test("a block that did not change hands back the same rows (the transcript costs nothing per frame)", () => {
    const chat = view([{ type: "user_message", content: [{ type: "text", text: "q" }], time }, ...deltas("an answer")]);
    const [user, answer] = chat.transcript.children;
    expect(user.render(40)).toBe(user.render(40));
    const before = answer.render(40);
    chat.handleEvent({ type: "text_delta", delta: " more" });
    expect(answer.render(40)).not.toBe(before);
  });

  test("what is added under a block still changing waits while it would push that block's end off the screen, then comes where it belongs", () => {
    const help = Array.from({ length: 30 }, (_, i) => `- help row ${i}`).join("\n");
    for (const live of ["answer", "tool", "thinking"] as const) {
      const chat = view([{ type: "user_message", content: [{ type: "text", text: "q" }], time }, { type: "turn_start", step: 1 }]);
      if (live === "answer") for (const event of deltas("first part")) chat.handleEvent(event);
      if (live === "tool") chat.handleEvent({ type: "tool_call", id: "t1", name: "bash", args: { command: "sleep 9" } });
      if (live === "thinking") chat.handleEvent({ type: "thinking_delta", delta: "hmm" });
      chat.addNote("yolo: a short note");
      chat.addMarkdown(help);
      chat.addNote("after the help");
      // 20 rows of screen: the short note fits under the live block, the help (and what follows it) waits.
      const waiting = Bun.stripANSI(chat.renderWithin(60, 20).join("\n"));
      expect(waiting).toContain("yolo: a short note");
      expect(waiting).not.toContain("help row");
      expect(waiting).not.toContain("after the help");
      expect(waiting).toMatch(/… \d+ more rows? to come once the output above is complete/);
      // With room for it all, nothing waits; the plain render() has all the room there is.
      expect(Bun.stripANSI(chat.renderWithin(60, 100).join("\n"))).toContain("after the help");
      expect(text(chat)).toContain("help row 29");
      if (live === "answer") {
        chat.handleEvent({ type: "text_delta", delta: " and the rest" });
        chat.handleEvent({ type: "assistant_message", content: [{ type: "text", text: "first part and the rest" }], time });
      }
      if (live === "tool") chat.handleEvent({ type: "tool_result", id: "t1", name: "bash", is_error: false, content: [{ type: "text", text: "slept" }] });
      if (live === "thinking") chat.handleEvent({ type: "text_delta", delta: "the answer" });
      const done = Bun.stripANSI(chat.renderWithin(60, 20).join("\n"));
      expect(done).not.toContain("more rows to come");
      const order = ["yolo: a short note", "help row 0", "help row 29", "after the help"].map((needle) => done.indexOf(needle));
      expect(order.every((at, i) => at > (order[i - 1] ?? 0))).toBe(true);
    }
  });

  test("a loaded transcript has nothing live: a tool call whose result never came holds nothing back", () => {
    const chat = new ChatView(theme);
    chat.load([
      { role: "user", content: [{ type: "text", text: "q" }] },
      { role: "assistant", content: [{ type: "tool_call", id: "t1", name: "bash", args: { command: "ls" } }] },
    ] as Message[]);
    chat.addMarkdown(Array.from({ length: 30 }, (_, i) => `- row ${i}`).join("\n"));
    expect(Bun.stripANSI(chat.renderWithin(60, 10).join("\n"))).toContain("row 29");
  });
});

test("renderWithin hands out a new array each frame (the frame adds the band's rows to it), so changing one never changes the next", () => {
  const chat = view([
    { type: "user_message", content: [{ type: "text", text: "hello" }], time: "2026-11-27T10:00:00.000Z" },
    { type: "assistant_message", content: [{ type: "text", text: "the answer" }], time: "2026-11-27T10:00:00.000Z" },
  ] as AgentEvent[]);
  const first = chat.renderWithin(60, 20);
  const again = chat.renderWithin(60, 20);
  expect(again).not.toBe(first);
  expect(again).toEqual(first);
  first.push("> editor", "status");
  expect(chat.renderWithin(60, 20)).toEqual(again);
});
