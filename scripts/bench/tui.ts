// What the TUI issue names for the renderer: bytes written to the terminal per text_delta with
// 10,000 lines already in the transcript (≤ 2 KB, independent of the transcript's length), shown
// for 1,000 / 10,000 / 50,000 lines side by side, with the time a frame takes (render + diff) and
// what an unchanged frame writes. In process, into a byte-counting target (no terminal). Rule:
// printed, never asserted.
import { Stack } from "../../src/tui/component.ts";
import { Editor } from "../../src/tui/editor.ts";
import { Markdown } from "../../src/tui/markdown.ts";
import { Renderer } from "../../src/tui/renderer.ts";
import { Text } from "../../src/tui/text.ts";
import { createTheme } from "../../src/tui/theme.ts";

const DELTAS = 400;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

/** A chat-shaped screen: `lines` of transcript in 10-line messages, a streaming answer, status, editor. */
function chatScreen(lines: number) {
  const theme = createTheme({ color: true });
  const transcript = new Stack();
  for (let i = 0; i < lines / 10; i++) {
    transcript.add(new Text(Array.from({ length: 10 }, (_, j) => `message ${i} line ${j}: some earlier output of a tool or an answer`).join("\n")));
  }
  const answer = new Markdown("", theme);
  const editor = new Editor(theme);
  editor.setText("a prompt being typed");
  const root = new Stack(transcript, answer, new Text("⠋ thinking · anthropic claude · ↑12k ↓3k $0.042 · 14%"), editor);
  return { root, answer };
}

async function measure(lines: number): Promise<{ perDelta: number[]; perLine: number[]; frameMs: number[]; idleBytes: number }> {
  const { root, answer } = chatScreen(lines);
  let bytes = 0;
  const target = { columns: 100, rows: 40, write: (data: string) => void (bytes += Buffer.byteLength(data)) };
  const renderer = new Renderer(target, root);
  renderer.renderNow();
  const perDelta: number[] = [];
  const perLine: number[] = [];
  const frameMs: number[] = [];
  for (let i = 0; i < DELTAS; i++) {
    // Deltas as a provider streams them: a few words, a newline every eighth.
    const delta = i % 8 === 7 ? `word${i}.\n` : `word${i} and more `;
    answer.append(delta);
    const before = bytes;
    const started = performance.now();
    renderer.renderNow();
    frameMs.push(performance.now() - started);
    perDelta.push(bytes - before);
    if (delta.endsWith("\n")) perLine.push(bytes - before);
  }
  const before = bytes;
  renderer.renderNow();
  return { perDelta, perLine, frameMs, idleBytes: bytes - before };
}

export async function tuiBench(): Promise<void> {
  for (const lines of [1_000, 10_000, 50_000]) {
    const { perDelta, perLine, frameMs, idleBytes } = await measure(lines);
    const mean = perDelta.reduce((sum, x) => sum + x, 0) / perDelta.length;
    const max = Math.max(...perDelta);
    const verdict = lines === 10_000 ? ` (target ≤ 2048 B: ${max <= 2048 ? "met" : "MISSED"})` : "";
    console.log(
      `tui-bytes ${lines.toLocaleString("en-US")} transcript lines, 100x40: per text_delta mean ${mean.toFixed(0)} B, max ${max} B${verdict}; ` +
        `per delta ending a line mean ${(perLine.reduce((s, x) => s + x, 0) / perLine.length).toFixed(0)} B; ` +
        `frame (render + diff) p50 ${pct(frameMs, 0.5).toFixed(2)} ms, p99 ${pct(frameMs, 0.99).toFixed(2)} ms; unchanged frame ${idleBytes} B (${DELTAS} deltas)`,
    );
  }
}
