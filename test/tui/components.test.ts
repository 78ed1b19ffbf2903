import { describe, expect, test } from "bun:test";
import { Box } from "../../src/tui/box.ts";
import { Stack } from "../../src/tui/component.ts";
import { Dialog } from "../../src/tui/dialog.ts";
import { DIGIT_SETTLE_MS } from "../../src/tui/stray-typing.ts";
import { fuzzyFilter, fuzzyMatch } from "../../src/tui/fuzzy.ts";
import { decodeKey } from "../../src/tui/keys.ts";
import { SelectList } from "../../src/tui/select-list.ts";
import { Spinner } from "../../src/tui/spinner.ts";
import { Spacer, Text } from "../../src/tui/text.ts";
import { colorAllowed, createTheme, lightBackground } from "../../src/tui/theme.ts";
import { visibleWidth } from "../../src/tui/width.ts";

const theme = createTheme({ color: false });
const press = (component: { handleKey(key: NonNullable<ReturnType<typeof decodeKey>>): boolean }, ...sequences: string[]) =>
  sequences.map((sequence) => component.handleKey(decodeKey(sequence) as NonNullable<ReturnType<typeof decodeKey>>));
const plain = (rows: string[]) => rows.map((row) => Bun.stripANSI(row));

describe("fuzzy", () => {
  test("characters in order, case-insensitive; out of order does not match", () => {
    expect(fuzzyMatch("mdl", "Model")?.positions).toEqual([0, 2, 4]);
    expect(fuzzyMatch("lm", "model")).toBeUndefined();
    expect(fuzzyMatch("", "anything")?.score).toBe(0);
  });

  test("the best alignment wins over the leftmost one", () => {
    // Leftmost would take the "s" of "sessions" and the "t" of "list"; the word starts are better.
    expect(fuzzyMatch("st", "sessions-tree")?.positions).toEqual([0, 9]);
    expect(fuzzyMatch("tree", "the-tree")?.positions).toEqual([4, 5, 6, 7]);
  });

  test("ranks word starts, runs and prefixes first", () => {
    const names = ["my-dull-list", "model", "compact", "models-list", "clear", "my-old-data"];
    const best = (query: string) => fuzzyFilter(names, query, (name) => name)[0].item;
    expect(best("mod")).toBe("model");
    expect(best("mdl")).toBe("my-dull-list");
    expect(best("mydata")).toBe("my-old-data");
    expect(fuzzyFilter(names, "model", (name) => name).map((entry) => entry.item)).toEqual(["model", "models-list"]);
    expect(fuzzyFilter(["src/tui/editor.ts", "src/core/agent.ts", "test/tui/editor.test.ts"], "edts", (name) => name)[0].item).toBe("src/tui/editor.ts");
  });

  test("an empty query keeps every item in order", () => {
    expect(fuzzyFilter(["b", "a", "c"], "", (x) => x).map((entry) => entry.item)).toEqual(["b", "a", "c"]);
  });
});

describe("SelectList", () => {
  const items = ["help", "model", "clear", "compact", "sessions"].map((name) => ({ label: `/${name}`, value: name, description: `the ${name} command` }));

  test("typing filters, the best match is highlighted, Enter picks it", () => {
    const list = new SelectList(items, theme);
    let picked = "";
    list.onSelect = (item) => {
      picked = item.value;
    };
    press(list, "c", "m");
    expect(list.matches.map((item) => item.value)).toEqual(["compact"]);
    press(list, "\x7f", "\x7f", "c", "l");
    expect(list.selected?.value).toBe("clear");
    press(list, "\r");
    expect(picked).toBe("clear");
  });

  test("a label or description from a file draws no escape but styles: a command's description cannot set the clipboard", () => {
    const list = new SelectList([{ label: "/tidy\x1b[2J", value: "tidy", description: "tidy \x1b]52;c;Y3VybCBldmlsfHNo\x07up\x9b2J" }], theme);
    const rows = list.render(80).join("\n");
    expect(rows).toContain("/tidy");
    expect(rows).toContain("tidy up2J");
    expect(rows).not.toContain("]52;");
    expect(rows).not.toContain("\x1b[2J");
    expect(rows).not.toContain("\x9b");
  });

  test("arrows move and stop at the ends; Esc cancels; Tab is left to the application", () => {
    const list = new SelectList(items, theme);
    let cancelled = false;
    list.onCancel = () => {
      cancelled = true;
    };
    press(list, "\x1b[A");
    expect(list.selected?.value).toBe("help");
    press(list, "\x1b[B", "\x1b[B", "\x0e");
    expect(list.selected?.value).toBe("compact");
    press(list, "\x1b[6~");
    expect(list.selected?.value).toBe("sessions");
    expect(press(list, "\t")).toEqual([false]);
    press(list, "\x1b[27u");
    expect(cancelled).toBe(true);
  });

  test("renders a marker on the selection, descriptions, and nothing-matches text", () => {
    const list = new SelectList(items, theme);
    press(list, "\x1b[B");
    const rows = plain(list.render(40));
    expect(rows[0]).toBe("  /help  the help command");
    expect(rows[1]).toBe("› /model  the model command");
    list.setFilter("zzz");
    expect(plain(list.render(40))).toEqual(["  no matches"]);
  });

  test("groups under dividers, built-ins first, filtering inside each group", () => {
    const list = new SelectList(
      [
        { label: "/clear", value: "clear" },
        { label: "/deploy", value: "deploy", group: "extensions" },
        { label: "/compact", value: "compact" },
        { label: "/count", value: "count", group: "extensions" },
      ],
      theme,
    );
    expect(plain(list.render(30))).toEqual(["› /clear", "  /compact", `── extensions ${"─".repeat(16)}`, "  /deploy", "  /count"]);
    list.setFilter("co");
    expect(list.matches.map((item) => item.value)).toEqual(["compact", "count"]);
  });

  test("a long list scrolls with the selection and shows where it is", () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ label: `item ${i}`, value: i }));
    const list = new SelectList(many, theme, { maxVisible: 5 });
    press(list, ...Array(12).fill("\x1b[B"));
    const rows = plain(list.render(30));
    expect(rows).toHaveLength(6);
    expect(rows).toContain("› item 12");
    expect(rows.at(-1)).toBe("  13/30");
  });

  test("new items keep the highlighted item where it still is", () => {
    const list = new SelectList(items, theme, { typeToFilter: false });
    press(list, "\x1b[B", "\x1b[B");
    list.setItems([...items].reverse());
    expect(list.selected?.value).toBe("clear");
    expect(press(list, "x")).toEqual([false]);
  });
});

describe("Spinner", () => {
  test("ticks only while started and drawn; stops its timer once nobody draws it", async () => {
    let frames = 0;
    const spinner = new Spinner(() => frames++, { intervalMs: 5 });
    expect(spinner.render(20)).toEqual([]);
    expect(spinner.ticking).toBe(false);
    spinner.start("working");
    const first = spinner.render(20)[0];
    expect(first).toMatch(/^⠋ working$/);
    expect(spinner.ticking).toBe(true);
    // Drawn on every frame it asks for: it animates.
    for (let i = 0; i < 4; i++) {
      await Bun.sleep(12);
      spinner.render(20);
    }
    expect(frames).toBeGreaterThan(0);
    expect(spinner.render(20)[0]).not.toBe(first);
    // Not drawn any more (removed from the screen): the timer goes away by itself.
    await Bun.sleep(30);
    expect(spinner.ticking).toBe(false);
    const settled = frames;
    await Bun.sleep(20);
    expect(frames).toBe(settled);
    spinner.stop();
    expect(spinner.render(20)).toEqual([]);
  });

  test("animate: false never starts a timer", () => {
    const spinner = new Spinner(() => {}, { animate: false });
    spinner.start("still");
    spinner.render(20);
    expect(spinner.ticking).toBe(false);
  });
});

describe("Box and Dialog", () => {
  test("the right border lines up whatever the rows hold", () => {
    const box = new Box(new Text("日本語のテキスト 🚀 emoji and a long line that wraps"), { title: "tool 🚀" });
    const rows = box.render(24);
    for (const row of rows) expect(visibleWidth(row)).toBe(24);
    expect(rows[0]).toStartWith("╭─ tool 🚀 ─");
    expect(rows.at(-1)).toBe(`╰${"─".repeat(22)}╯`);
    for (const row of rows.slice(1, -1)) expect(row.endsWith("│")).toBe(true);
  });

  test("a dialog answers by Enter, by number, and cancels with Esc", async () => {
    const choices = ["yes", "always for this tool", "always", "no"].map((label, i) => ({ label: `${i + 1}. ${label}`, value: label }));
    const answers: string[] = [];
    const dialog = new Dialog(theme, { title: "Run bash?", body: "ls -la", choices });
    dialog.onChoose = (value) => answers.push(value);
    dialog.onCancel = () => answers.push("cancelled");
    const rows = plain(dialog.render(40));
    expect(rows[0]).toContain("Run bash?");
    expect(rows.some((row) => row.includes("ls -la"))).toBe(true);
    expect(rows.some((row) => row.includes("› 1. yes"))).toBe(true);
    press(dialog, "\x1b[B", "\r", "4");
    // A number answers once no key has followed it for a moment.
    expect(answers).toEqual(["always for this tool"]);
    await Bun.sleep(DIGIT_SETTLE_MS + 20);
    press(dialog, "\x1b[27u");
    expect(answers).toEqual(["always for this tool", "no", "cancelled"]);
    // Every key is the dialog's while it has focus.
    expect(press(dialog, "x", "\t")).toEqual([true, true]);
  });

  test("text typed into a dialog makes Enter wait for a choice by ↑/↓ or number; the hint says so", async () => {
    const choices = ["trust", "distrust"].map((label) => ({ label, value: label }));
    const answers: string[] = [];
    const dialog = new Dialog(theme, { title: "Trust this folder?", choices });
    dialog.onChoose = (value) => answers.push(value);
    press(dialog, "f", "i", "x", "\r");
    expect(answers).toEqual([]);
    expect(plain(dialog.render(120)).join("\n")).toContain("this is a question, not the prompt");
    press(dialog, "\x1b[B", "\r");
    expect(answers).toEqual(["distrust"]);
    expect(plain(dialog.render(120)).join("\n")).not.toContain("this is a question, not the prompt");
    // A number answers, unless stray text came first ("fix step 1"): then only after ↑/↓.
    press(dialog, "1");
    await Bun.sleep(DIGIT_SETTLE_MS + 20);
    expect(answers).toEqual(["distrust", "trust"]);
    press(dialog, "s", "t", "e", "p", " ", "2");
    await Bun.sleep(DIGIT_SETTLE_MS + 20);
    expect(answers).toEqual(["distrust", "trust"]);
    press(dialog, "\x1b[A", "2");
    await Bun.sleep(DIGIT_SETTLE_MS + 20);
    expect(answers).toEqual(["distrust", "trust", "distrust"]);
  });

  test("a number that starts a burst of typing ('1st fix' arriving at once) is no answer; nor is anything when text came in just before the question opened", async () => {
    const choices = ["trust", "distrust"].map((label) => ({ label, value: label }));
    const answers: string[] = [];
    const burst = new Dialog(theme, { title: "Trust this folder?", choices });
    burst.onChoose = (value) => answers.push(value);
    press(burst, "1", "s", "t", " ", "f", "i", "x", "\r");
    await Bun.sleep(DIGIT_SETTLE_MS + 20);
    expect(answers).toEqual([]);
    const ahead = new Dialog(theme, { title: "Trust this folder?", choices });
    ahead.onChoose = (value) => answers.push(value);
    ahead.typedAhead();
    press(ahead, "3", "\r");
    await Bun.sleep(DIGIT_SETTLE_MS + 20);
    press(ahead, "1");
    await Bun.sleep(DIGIT_SETTLE_MS + 20);
    expect(answers).toEqual([]);
    expect(plain(ahead.render(120)).join("\n")).toContain("this is a question, not the prompt");
    press(ahead, "\x1b[B", "\r");
    expect(answers).toEqual(["distrust"]);
  });
});

describe("Text, Spacer, Stack", () => {
  test("Text wraps, pads and caches per width", () => {
    const text = new Text("one two three", { paddingX: 1 });
    const rows = text.render(9);
    expect(rows).toEqual([" one two", " three"]);
    expect(text.render(9)).toBe(rows);
    text.append(" four");
    expect(text.render(9)).toEqual([" one two", " three", " four"]);
    expect(new Text("").render(10)).toEqual([]);
  });

  test("Stack stacks, inserts and removes", () => {
    const a = new Text("a");
    const b = new Text("b");
    const stack = new Stack(a, new Spacer(), b);
    expect(stack.render(10)).toEqual(["a", "", "b"]);
    stack.insertBefore(new Text("x"), b).remove(a);
    expect(stack.render(10)).toEqual(["", "x", "b"]);
  });
});

describe("theme", () => {
  test("NO_COLOR and TERM=dumb turn colour off, FORCE_COLOR on; a pipe gets none", () => {
    expect(colorAllowed({ NO_COLOR: "1" }, true)).toBe(false);
    expect(colorAllowed({ TERM: "dumb" }, true)).toBe(false);
    expect(colorAllowed({}, true)).toBe(true);
    expect(colorAllowed({}, false)).toBe(false);
    expect(colorAllowed({ FORCE_COLOR: "1" }, false)).toBe(true);
    expect(colorAllowed({ NO_COLOR: "1", FORCE_COLOR: "1" }, true)).toBe(false);
  });

  test("a light background is read from COLORFGBG", () => {
    expect(lightBackground({ COLORFGBG: "0;15" })).toBe(true);
    expect(lightBackground({ COLORFGBG: "15;default;0" })).toBe(false);
    expect(lightBackground({})).toBe(false);
  });

  test("without colour, colours are no-ops and attributes stay", () => {
    expect(theme.error("x")).toBe("x");
    expect(theme.bold("x")).toBe("\x1b[1mx\x1b[22m");
    expect(createTheme({ color: true }).error("x")).toBe("\x1b[31mx\x1b[39m");
  });
});
