// What the user puts into the conversation besides a prompt, through a real pseudo-terminal (dist/zot
// against the mock LLM): `!command` runs the command and adds its output as context with no model
// turn; `@file` sends the file's content with the prompt (the picker's Enter keeps the @).
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm } from "../support/mock-llm.ts";
import { ptyRuns } from "../support/pty-runs.ts";
import { lastUserText, ready, startZot } from "../support/zot-pty.ts";
import { tempDir } from "../support/zot.ts";

const runs = ptyRuns();

function zot(turns: Parameters<typeof startMockLlm>[0], options: Parameters<typeof startZot>[1] = {}) {
  return runs.start(startMockLlm(turns), { ...options, args: ["--no-ext", ...(options.args ?? [])] });
}

/** The text of every user message a request carried, in order. */
function userTexts(body: any): string[] {
  return (body.messages as any[])
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : m.content.filter((b: any) => b.type === "text").map((b: any) => b.text).join("\n")))
    .filter((text) => text !== "");
}

describe("!command", () => {
  test("runs in the working directory; the command and its output join the conversation with no model call, and go with the next prompt", async () => {
    const { session, mock, cwd } = zot([{ text: "it printed 42" }]);
    writeFileSync(join(cwd, "here.txt"), "");
    await ready(session);
    expect(session.screen.text()).toContain("! for shell");
    session.type("!echo shell-$((40+2)); ls\r");
    await session.waitForText("⎿ shell-42");
    const screen = session.screen.text();
    expect(screen).toContain("› !echo shell-$((40+2)); ls");
    expect(screen).toContain("here.txt");
    expect(screen).toContain("[exit 0]");
    expect(mock.requests).toHaveLength(0);

    session.type("what did it print?\r");
    await session.waitForText("it printed 42");
    const [context, prompt] = userTexts(mock.requests[0]!.body);
    expect(context).toContain("I ran this shell command myself");
    expect(context).toContain("echo shell-$((40+2)); ls");
    expect(context).toContain("shell-42\nhere.txt\n[exit 0]");
    expect(prompt).toBe("what did it print?");
  });

  test("Esc cancels a command that runs long: nothing is added", async () => {
    const { session, mock } = zot([{ text: "nothing before" }]);
    await ready(session);
    session.type("!sleep 30; echo never\r");
    await session.waitForText("running sleep 30");
    session.type("\x1b");
    await session.waitForText("was cancelled; nothing was added to the conversation");
    session.type("next\r");
    await session.waitForText("nothing before");
    expect(userTexts(mock.requests[0]!.body)).toEqual(["next"]);
  });

  test("typed while a turn runs, it waits in the queue and runs after the turn; a bare ! says what to type", async () => {
    const { session, mock } = zot([{ text: "slow answer", chunk_size: 4, chunk_delay_ms: 60 }, { text: "second" }]);
    await ready(session);
    session.type("!\r");
    await session.waitForText("type a command after !");
    session.type("\x15first\r");
    await session.waitForText("slow");
    session.type("!echo after-the-turn\r");
    await session.waitForText("↳ queued: !echo after-the-turn");
    await session.waitForText("⎿ after-the-turn");
    session.type("go on\r");
    await session.waitForText("second");
    const texts = userTexts(mock.requests[1]!.body);
    expect(texts[0]).toBe("first");
    expect(texts[1]).toContain("after-the-turn");
    expect(texts[2]).toBe("go on");
  });

  test("a resumed session shows the command and its output, not the raw message", async () => {
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-cwd-");
    const first = zot([{ text: "ok" }], { home, cwd });
    await ready(first.session);
    first.session.type("!echo remembered-output\r");
    await first.session.waitForText("⎿ remembered-output");
    first.session.type("thanks\r");
    await first.session.waitForText("ok");
    first.session.type("/exit\r");
    expect(await first.session.exited()).toBe(0);

    const second = zot([], { home, cwd, args: ["-c"] });
    await ready(second.session);
    await second.session.waitForText("⎿ remembered-output");
    expect(second.session.screen.text()).toContain("› !echo remembered-output");
    expect(second.session.screen.text()).not.toContain("I ran this shell command myself");
  });
});

describe("@file", () => {
  test("Enter in the picker keeps the @: the file's content goes with the prompt, the chat shows it attached", async () => {
    const cwd = tempDir("zot-cwd-");
    mkdirSync(join(cwd, "src"));
    writeFileSync(join(cwd, "src", "app.ts"), "export const answer = 42;\nexport {};\n");
    const { session, mock } = zot([{ text: "seen it" }], { cwd });
    await ready(session);
    session.type("look at @src/");
    await session.waitForText("app.ts");
    expect(session.screen.text()).toContain("enter: attach the file's content");
    session.type("app\r");
    await session.waitFor((screen) => screen.lines().includes("> look at @src/app.ts"), "the mention in the prompt");
    session.type("please\r");
    await session.waitForText("seen it");
    expect(session.screen.text()).toContain("› look at @src/app.ts please");
    expect(session.screen.text()).toContain("⎿ attached src/app.ts (2 lines)");
    const sent = lastUserText(mock.requests[0]!.body);
    expect(sent).toStartWith("look at @src/app.ts please\n\n");
    expect(sent).toContain('<file path="src/app.ts">\nexport const answer = 42;\nexport {};\n</file>');
  });

  test("a typed mention works too; a folder, a missing file and an e-mail address stay text; a binary is named in a note", async () => {
    const cwd = tempDir("zot-cwd-");
    mkdirSync(join(cwd, "docs"));
    writeFileSync(join(cwd, "notes.md"), "# notes\n");
    writeFileSync(join(cwd, "blob.bin"), new Uint8Array([0, 1, 2, 0]));
    const { session, mock } = zot([{ text: "done" }], { cwd });
    await ready(session);
    session.paste("see @notes.md, @docs and @blob.bin; ask ann@example.com about @missing.txt");
    session.type("\r");
    await session.waitForText("done");
    expect(session.screen.text()).toContain("@blob.bin was not attached: it is not text; the model can still read it");
    const sent = lastUserText(mock.requests[0]!.body);
    expect(sent).toContain('<file path="notes.md">\n# notes\n</file>');
    expect(sent.match(/<file path=/g)).toHaveLength(1);
    expect(sent).toStartWith("see @notes.md, @docs and @blob.bin; ask ann@example.com about @missing.txt\n\n");
  });
});
