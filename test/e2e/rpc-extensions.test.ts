// Slash commands and extensions over `zot rpc`, through the compiled binary: get_commands,
// run_command (an extension's answers, built-ins, the TUI's own commands), a /command in a prompt,
// reload_extensions, notifications as ext_notify events, and a process hook slow to start (rpc does
// not wait for it; what it guards waits).
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scriptedExtension } from "../fixtures/extensions/make.ts";
import { hookExtension, recorded } from "../fixtures/hooks/make.ts";
import { type RpcProcess, rpcFixture, type Turns } from "../support/rpc-process.ts";
import { ROOT, tempDir } from "../support/zot.ts";
import { lastUserText } from "../support/zot-pty.ts";
import { running } from "../support/process-state.ts";

const fixture = rpcFixture();

const HELLO_PY = join(ROOT, "extensions-examples", "hello-py");

/** A scripted extension with one command per answer kind, and a note sent once zot says hello. */
function kinds(countfile?: string): string {
  return scriptedExtension(tempDir("zot-rpc-ext-"), "kinds", {
    after_hello: ["shown", "draft", "quiet", "broken"].map((name) => ({ type: "register_command", name, description: `the ${name} one` })),
    on_ack: [{ type: "notify", level: "warn", message: "kinds is up" }],
    commands: {
      shown: { eval: "{'action': 'display', 'display': 'shown: ' + f['args']}" },
      draft: { action: "insert", insert: "draft text" },
      quiet: { action: "noop" },
      broken: { action: "display", error: "city not found" },
    },
    ...(countfile ? { countfile } : {}),
  });
}

function start(turns: Turns, exts: string[], extra: string[] = []): RpcProcess {
  return fixture.start(turns, ["--no-ext", ...exts.flatMap((dir) => ["--ext", dir]), ...extra]);
}

describe("get_commands", () => {
  test("the rpc-usable built-ins with descriptions, then every extension command with its extension", async () => {
    const r = start([], [HELLO_PY, kinds()]);
    const { commands } = (await r.call({ type: "get_commands" })).data;
    expect(commands.filter((c: any) => c.source === "builtin").map((c: any) => c.name)).toEqual(["clear", "compact", "model", "reload-ext"]);
    expect(commands.every((c: any) => c.description.length > 0)).toBe(true);
    expect(commands).toContainEqual({ name: "hellopy", description: "ask the model to greet you (Python)", source: "extension", extension: "hello-py" });
    expect(commands).toContainEqual({ name: "broken", description: "the broken one", source: "extension", extension: "kinds" });
    expect(await r.close()).toBe(0);
  });
});

describe("run_command", () => {
  test("an extension's display, insert and noop answers are the response data; its error is a failure", async () => {
    const r = start([], [kinds()]);
    expect(await r.call({ type: "run_command", name: "/shown", args: "  berlin ", id: "s" })).toEqual({
      type: "response",
      id: "s",
      command: "run_command",
      success: true,
      data: { command: "shown", extension: "kinds", action: "display", text: "shown: berlin" },
    });
    expect((await r.call({ type: "run_command", name: "draft" })).data).toEqual({ command: "draft", extension: "kinds", action: "insert", text: "draft text" });
    expect((await r.call({ type: "run_command", name: "quiet" })).data).toEqual({ command: "quiet", extension: "kinds", action: "noop" });
    expect(await r.call({ type: "run_command", name: "broken", id: 3 })).toEqual({
      type: "response",
      id: 3,
      command: "run_command",
      success: false,
      error: "/broken (extension kinds): city not found",
    });
    expect(fixture.mock.requests).toHaveLength(0);
    expect(await r.close()).toBe(0);
  });

  test("a Markdown command sent while a turn runs waits its turn whole: its `!` line runs after the turn's tools, and the response (its prompt) comes then", async () => {
    const home = tempDir("zot-rpc-home-");
    mkdirSync(join(home, "commands"));
    writeFileSync(join(home, "commands", "check.md"), "State: !`ls marker 2>&1`\n");
    const bash = { tool_calls: [{ name: "bash", args: { command: "sleep 1; touch marker" } }] };
    const r = fixture.start([bash, { text: "made" }, { text: "checked" }], [], { home });
    const from = r.lines.length;
    r.send({ id: "p", type: "prompt", message: "make marker" });
    await r.waitFor((line) => line.type === "tool_call" && line.name === "bash", from, "the model's bash running");
    r.send({ id: "c", type: "run_command", name: "check" });
    const answer = await r.waitFor((line) => line.type === "response" && line.id === "c", from, "run_command's response");
    const made = await r.waitFor((line) => line.type === "tool_result" && !line.origin_extension, from, "the model's bash done");
    expect(made.index).toBeLessThan(answer.index);
    expect(answer.line.data).toEqual({ command: "check", extension: "commands", action: "prompt", text: "State: marker" });
    const second = await r.waitFor((line) => line.type === "done", answer.index, "the command's done");
    expect(second.line.type).toBe("done");
    expect(lastUserText(fixture.mock.requests.at(-1)!.body)).toBe("State: marker");
    expect(await r.close()).toBe(0);
  });

  test("reload_extensions reads the Markdown commands and the skills again: an edited command, a new skill and a removed command count right after it, with --no-ext too", async () => {
    const home = tempDir("zot-rpc-home-");
    mkdirSync(join(home, "commands"));
    writeFileSync(join(home, "commands", "tweak.md"), "VERSION ONE of the command\n");
    writeFileSync(join(home, "commands", "gone.md"), "GONE\n");
    const r = fixture.start([{ text: "one" }, { text: "two" }, { text: "three" }], ["--no-ext"], { home });
    /** run_command's response, once the turn it started is done */
    const run = async (name: string) => {
      const from = r.lines.length;
      const answer = await r.call({ type: "run_command", name });
      if (answer.success) await r.waitFor((line) => line.type === "done", from, "its done");
      return answer;
    };
    expect((await run("tweak")).data.text).toBe("VERSION ONE of the command");
    writeFileSync(join(home, "commands", "tweak.md"), "VERSION TWO of the command\n");
    rmSync(join(home, "commands", "gone.md"));
    mkdirSync(join(home, "skills", "fresh"), { recursive: true });
    writeFileSync(join(home, "skills", "fresh", "SKILL.md"), "---\ndescription: A new one\n---\nFRESH SKILL\n");
    const reloaded = await r.call({ type: "reload_extensions" });
    expect(reloaded.data).toEqual({ stopped: 0, loaded: 0, ready: 0, warnings: ["extensions are off in this process (--no-ext without --ext); the Markdown commands and skills were read again"] });
    expect((await run("tweak")).data.text).toBe("VERSION TWO of the command");
    expect((await run("fresh")).data).toMatchObject({ extension: "skills", action: "prompt", text: "FRESH SKILL" });
    expect((await run("gone")).error).toContain('unknown command "/gone"');
    expect(await r.close()).toBe(0);
  });

  test("a command of an extension still starting (a slow hello) waits for it, over run_command and in a prompt, instead of being unknown", async () => {
    const slow = scriptedExtension(tempDir("zot-rpc-ext-"), "slow", {
      hello_delay: 2,
      after_hello: [{ type: "register_command", name: "slowcmd", description: "answers late" }],
      commands: { slowcmd: { eval: "{'action': 'display', 'display': 'slow says ' + f['args']}" } },
    });
    const r = start([], [slow]);
    // rpc answers at once meanwhile
    expect((await r.call({ type: "ping" })).success).toBe(true);
    const ran = await r.call({ type: "run_command", name: "slowcmd", args: "hi" });
    expect(ran.data).toEqual({ command: "slowcmd", extension: "slow", action: "display", text: "slow says hi" });
    const from = r.lines.length;
    await r.call({ type: "prompt", message: "/slowcmd again" });
    await r.waitFor((line) => line.type === "done", from, "the command's done");
    expect(r.lines.slice(from).find((line) => line.type === "command_result")).toMatchObject({ command: "slowcmd", action: "display", text: "slow says again" });
    expect(fixture.mock.requests).toHaveLength(0);
    const unknown = await r.call({ type: "run_command", name: "nobody" });
    expect(unknown.error).toContain('unknown command "/nobody"');
    expect(await r.close()).toBe(0);
  });

  test("run_command's prompt answer keeps its place: a prompt sent after it runs after its turn, even when the extension answers late; one right behind a reload runs on the new process", async () => {
    const lag = scriptedExtension(tempDir("zot-rpc-ext-"), "lag", {
      after_hello: [{ type: "register_command", name: "lagcmd", description: "answers after a while" }],
      commands: { lagcmd: { sleep: 1, eval: "{'action': 'prompt', 'prompt': 'LAG ' + f['args']}" } },
    });
    const r = start([{ text: "one" }, { text: "two" }, { text: "three" }], [lag]);
    const from = r.lines.length;
    r.send({ id: "a", type: "run_command", name: "lagcmd", args: "first" });
    r.send({ id: "b", type: "prompt", message: "second" });
    const first = await r.waitFor((line) => line.type === "done", from, "the first done");
    await r.waitFor((line) => line.type === "done", first.index + 1, "the second done");
    expect(fixture.mock.requests.map((request) => lastUserText(request.body))).toEqual(["LAG first", "second"]);
    // Right behind a reload: it waits for the new process instead of failing on the stopping one.
    r.send({ id: "r", type: "reload_extensions" });
    const again = await r.call({ type: "run_command", name: "lagcmd", args: "third" });
    expect(again.success).toBe(true);
    expect(again.data).toMatchObject({ command: "lagcmd", extension: "lag", action: "prompt" });
    expect(await r.close()).toBe(0);
  });

  test("while run_command waits for the extension's answer, nothing is busy: a model switch and a clear sent behind it are done in order, not refused; its prompt answer is a turn once it comes", async () => {
    const lag = scriptedExtension(tempDir("zot-rpc-ext-"), "lag", {
      after_hello: [
        { type: "register_command", name: "slowshow", description: "displays after a while" },
        { type: "register_command", name: "lagcmd", description: "answers after a while" },
      ],
      commands: {
        slowshow: { sleep: 0.5, eval: "{'action': 'display', 'text': 'shown ' + f['args']}" },
        lagcmd: { sleep: 0.5, eval: "{'action': 'prompt', 'prompt': 'LAG ' + f['args']}" },
      },
    });
    // The turn streams slowly enough that the set_model sent once it started always finds it running.
    const r = start([{ text: "one two three", chunk_size: 2, chunk_delay_ms: 80 }], [lag]);
    r.send({ id: "a", type: "run_command", name: "slowshow", args: "x" });
    const state = await r.call({ type: "get_state" });
    expect(state.data).toMatchObject({ busy: false, queued: 0 });
    const switched = await r.call({ type: "set_model", model: "claude-haiku-4-5" });
    expect(switched.success).toBe(true);
    expect((await r.call({ type: "clear" })).success).toBe(true);
    // The display answer came first: they waited behind it, in order.
    const order = r.lines.filter((line) => line.type === "response" && ["a", switched.id].includes(line.id)).map((line) => line.id);
    expect(order[0]).toBe("a");
    // A prompt answer: once it comes its place is a turn, and a model switch is refused while it runs.
    const from = r.lines.length;
    r.send({ id: "p", type: "run_command", name: "lagcmd", args: "first" });
    await r.waitFor((line) => line.type === "turn_start", from, "the command's turn");
    const refused = await r.call({ type: "set_model", model: "claude-haiku-4-5" });
    expect(refused.error).toStartWith("agent is busy: cannot switch the model while a prompt or compaction is running");
    await r.waitFor((line) => line.type === "done", from, "the command's done");
    expect(await r.close()).toBe(0);
  });

  test("an abort while run_command's place waits for the extension frees the queue at once, and the command is still answered", async () => {
    const lag = scriptedExtension(tempDir("zot-rpc-ext-"), "lag", {
      after_hello: [{ type: "register_command", name: "lagcmd", description: "answers after a while" }],
      commands: { lagcmd: { sleep: 2, eval: "{'action': 'prompt', 'prompt': 'LAG ' + f['args']}" } },
    });
    const r = start([{ text: "after the abort" }], [lag]);
    const from = r.lines.length;
    r.send({ id: "a", type: "run_command", name: "lagcmd", args: "first" });
    expect((await r.call({ type: "abort" })).success).toBe(true);
    // The next prompt runs while the extension is still answering (it answers in 2 s)...
    expect((await r.call({ type: "prompt", message: "next" })).success).toBe(true);
    const done = await r.waitFor((line) => line.type === "done", from, "the next prompt's done");
    expect(r.lines.slice(from, done.index).some((line) => line.id === "a")).toBe(false);
    // ...and the command, once it answers, is told it was not run, never left unanswered.
    const answered = await r.waitFor((line) => line.id === "a", from, "run_command's response");
    expect(answered.line).toMatchObject({ success: false });
    expect(answered.line.error).toBe("/lagcmd (extension lag): its prompt was not run: it was cancelled before its turn came");
    expect(fixture.mock.requests.map((request) => lastUserText(request.body))).toEqual(["next"]);
    expect(await r.close()).toBe(0);
  });

  test("run_command's display answer, while a turn runs, answers at once and leaves nothing queued", async () => {
    const quick = scriptedExtension(tempDir("zot-rpc-ext-"), "quick", {
      after_hello: [{ type: "register_command", name: "show", description: "displays" }],
      commands: { show: { action: "display", display: "shown" } },
    });
    const r = start([{ text: "word ".repeat(100), chunk_size: 5, chunk_delay_ms: 20 }], [quick]);
    const from = r.lines.length;
    expect((await r.call({ type: "prompt", message: "talk" })).success).toBe(true);
    const shown = await r.call({ type: "run_command", name: "show" });
    expect(shown.data).toMatchObject({ action: "display", text: "shown" });
    const state = await r.call({ type: "get_state" });
    expect(state.data).toMatchObject({ busy: true, queued: 0 });
    await r.waitFor((line) => line.type === "done", from, "the turn's done");
    expect(await r.close()).toBe(0);
  });

  test("a prompt that starts /word waits for an extension still starting, and an abort ends that wait at once", async () => {
    const slow = scriptedExtension(tempDir("zot-rpc-ext-"), "slow", { hello_delay: 8, after_hello: [{ type: "register_command", name: "fix", description: "late" }] });
    const r = start([{ text: "after the abort" }], [slow]);
    const from = r.lines.length;
    expect((await r.call({ type: "prompt", message: "/fix the tests" })).success).toBe(true);
    expect((await r.call({ type: "abort" })).success).toBe(true);
    await r.waitFor((line) => line.type === "done", from, "the waiting prompt's done");
    // Done while the extension is still starting (its hello is 8 s off): the abort ended the wait.
    const commands = await r.call({ type: "get_commands" });
    expect(commands.data.commands.map((c: { name: string }) => c.name)).not.toContain("fix");
    expect(fixture.mock.requests).toHaveLength(0);
    expect(await r.close()).toBe(0);
  });

  test("a signal while an extension is still starting: exit 130, the extension's process gone, and no note that it did not start (zot stopped it)", async () => {
    const pidfile = join(tempDir("zot-rpc-ext-pid-"), "pid");
    const slow = scriptedExtension(tempDir("zot-rpc-ext-"), "slow", { hello_delay: 20, pidfile });
    const r = start([], [slow]);
    for (let i = 0; i < 200 && !existsSync(pidfile); i++) await Bun.sleep(25);
    const pid = Number(readFileSync(pidfile, "utf8"));
    // past the start's wait for extensions (2 s): the run is up, the extension joins when it is
    await Bun.sleep(2500);
    r.kill("SIGINT");
    expect(await r.exited()).toBe(130);
    expect(r.lines.filter((line) => line.type === "ext_notify")).toEqual([]);
    expect(running(pid)).toBe(false);
  });

  test("an extension's prompt answer: the response names the prompt, then the turn's events follow and end with done", async () => {
    const r = start([{ text: "Hello, Ada!" }], [HELLO_PY]);
    const from = r.lines.length;
    const answer = await r.call({ type: "run_command", name: "hellopy", args: "Ada" });
    expect(answer.data).toMatchObject({ command: "hellopy", extension: "hello-py", action: "prompt" });
    expect(answer.data.text).toContain("Greet Ada");
    const responseAt = r.lines.indexOf(answer);
    const events = await r.eventsUntilDone(from);
    const userAt = r.lines.findIndex((l, i) => i >= from && l.type === "user_message");
    expect(userAt).toBeGreaterThan(responseAt);
    expect(events[0].content[0].text).toContain("Greet Ada");
    expect(events.find((e) => e.type === "assistant_message").content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    expect(JSON.stringify(fixture.mock.requests[0].body.messages)).toContain("Greet Ada");
    expect(await r.close()).toBe(0);
  });

  test("an extension's prompt queued behind a running prompt is answered when its turn starts, after the first done", async () => {
    const r = start([{ text: "first answer, slowly", chunk_size: 2, chunk_delay_ms: 20 }, { text: "Hello, Ada!" }], [HELLO_PY]);
    const from = r.lines.length;
    r.send({ type: "prompt", message: "first", id: "p1" });
    await r.waitFor((l) => l.type === "text_delta", from, "the first turn streaming");
    r.send({ type: "run_command", name: "hellopy", args: "Ada", id: "cmd" });
    const answer = await r.waitFor((l) => l.type === "response" && l.id === "cmd", from, "the command's answer");
    const firstDone = r.lines.findIndex((l, i) => i >= from && l.type === "done");
    expect(firstDone).toBeGreaterThanOrEqual(0);
    expect(answer.index).toBeGreaterThan(firstDone);
    expect(answer.line.data).toMatchObject({ command: "hellopy", action: "prompt" });
    const second = await r.eventsUntilDone(answer.index);
    expect(second[0].type).toBe("user_message");
    expect(second[0].content[0].text).toContain("Greet Ada");
    expect(await r.close()).toBe(0);
  });

  test("built-ins: /model shows and switches, /clear empties the transcript, the TUI's commands and unknown names are refused", async () => {
    const r = start([{ text: "One." }], []);
    const shown = await r.call({ type: "run_command", name: "/model" });
    expect(shown.data).toMatchObject({ command: "model", action: "display" });
    expect(shown.data.text).toContain("claude-sonnet-5-5");
    expect((await r.call({ type: "run_command", name: "model", args: "claude-haiku-4-5" })).data).toEqual({
      command: "model",
      action: "display",
      text: "model: claude-haiku-4-5",
    });
    expect((await r.call({ type: "get_state" })).data.model).toBe("claude-haiku-4-5");
    // Another provider's model is no switch within this process.
    const badModel = await r.call({ type: "run_command", name: "model", args: "gpt-5" });
    expect(badModel.success).toBe(false);
    expect(badModel.error).toContain('unknown model "gpt-5"');
    await r.call({ type: "run_command", name: "model", args: "claude-haiku-4-5" });

    const from = r.lines.length;
    await r.call({ type: "prompt", message: "hi" });
    await r.eventsUntilDone(from);
    expect((await r.call({ type: "get_state" })).data.message_count).toBe(2);
    expect((await r.call({ type: "run_command", name: "/clear" })).data).toMatchObject({ command: "clear", action: "display" });
    expect((await r.call({ type: "get_state" })).data.message_count).toBe(0);

    const help = await r.call({ type: "run_command", name: "/help" });
    expect(help.success).toBe(false);
    expect(help.error).toStartWith("/help is a command of the interactive TUI");
    const unknown = await r.call({ type: "run_command", name: "/nonesuch" });
    expect(unknown.error).toStartWith('unknown command "/nonesuch"');
    expect(unknown.error).toContain("get_commands");
    expect(await r.close()).toBe(0);
  });

  test("a /command in a prompt runs as in --json: a command_result event (after ext_display for a display answer), then done", async () => {
    const r = start([], [kinds()]);
    const from = r.lines.length;
    await r.call({ type: "prompt", message: "/shown oslo" });
    const events = await r.eventsUntilDone(from);
    expect(events.filter((e) => e.type !== "ext_notify")).toEqual([
      { type: "ext_display", extension: "kinds", text: "shown: oslo" },
      { type: "command_result", command: "shown", extension: "kinds", action: "display", text: "shown: oslo" },
      { type: "done" },
    ]);
    expect(fixture.mock.requests).toHaveLength(0);
    expect(await r.close()).toBe(0);
  });
});

describe("extensions over rpc", () => {
  test("notifications arrive as ext_notify events", async () => {
    const r = start([], [kinds()]);
    const { line } = await r.waitFor((l) => l.type === "ext_notify", 0, "the note");
    expect(line).toEqual({ type: "ext_notify", extension: "kinds", level: "warn", message: "kinds is up" });
    expect(await r.close()).toBe(0);
  });

  test("reload_extensions restarts them and reports; run_command /reload-ext does the same", async () => {
    const countfile = join(tempDir("zot-rpc-count-"), "starts");
    const r = start([], [kinds(countfile)]);
    await r.call({ type: "ping" });
    expect(await r.call({ type: "reload_extensions", id: "r" })).toEqual({
      type: "response",
      id: "r",
      command: "reload_extensions",
      success: true,
      data: { stopped: 1, loaded: 1, ready: 1, warnings: [] },
    });
    expect(readFileSync(countfile, "utf8")).toBe("2");
    const again = await r.call({ type: "run_command", name: "reload-ext" });
    expect(again.data).toEqual({ command: "reload-ext", action: "display", text: "extensions reloaded: 1 stopped, 1 loaded, 1 ready" });
    expect(readFileSync(countfile, "utf8")).toBe("3");
    // The commands are there after the reload.
    expect((await r.call({ type: "run_command", name: "shown", args: "x" })).data.text).toBe("shown: x");
    expect(await r.close()).toBe(0);
  });

  test("with none at the start, reload_extensions starts one installed since: its note, its command, its guard and session_start", async () => {
    const victim = join(tempDir("zot-rpc-victim-"), "victim");
    mkdirSync(victim);
    const r = fixture.start([{ tool_calls: [{ name: "bash", args: { command: `rm -rf ${victim}` } }] }, { text: "refused" }], []);
    expect((await r.call({ type: "get_commands" })).data.commands.filter((c: any) => c.name === "shown")).toEqual([]);
    const record = join(tempDir("zot-rpc-rec-"), "frames.ndjson");
    scriptedExtension(join(r.home, "extensions"), "guard", {
      record,
      after_hello: [
        { type: "register_command", name: "shown", description: "says what it was given" },
        { type: "subscribe", events: ["session_start"], intercept: ["tool_call"] },
      ],
      on_ack: [{ type: "notify", level: "info", message: "guard is up" }],
      commands: { shown: { eval: "{'action': 'display', 'display': 'shown: ' + f['args']}" } },
      intercept: { tool_call: { eval: "{'block': 'rm -rf' in f['tool_args'].get('command', ''), 'reason': 'no rm -rf'}" } },
    });
    expect((await r.call({ type: "reload_extensions" })).data).toEqual({ stopped: 0, loaded: 1, ready: 1, warnings: [] });
    // Heard as if it had been there from the start: its note, its command, its guard, its session_start.
    const { line } = await r.waitFor((l) => l.type === "ext_notify", 0, "the note");
    expect(line).toEqual({ type: "ext_notify", extension: "guard", level: "info", message: "guard is up" });
    expect((await r.call({ type: "run_command", name: "shown", args: "x" })).data.text).toBe("shown: x");
    const events = await r.prompt("clean up");
    expect(existsSync(victim)).toBe(true);
    expect(JSON.stringify(events.find((event) => event.type === "tool_result"))).toContain("no rm -rf");
    const frames = readFileSync(record, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(frames.filter((f) => f.type === "event" && f.event === "session_start")).toHaveLength(1);
    // A second reload restarts it, as any reload does.
    expect((await r.call({ type: "reload_extensions" })).data).toEqual({ stopped: 1, loaded: 1, ready: 1, warnings: [] });
    expect(await r.close()).toBe(0);
  }, 30_000);

  test("reload_extensions with --no-ext and no --ext: no extension restarts, and a warning says why", async () => {
    const r = start([], []);
    const answer = await r.call({ type: "reload_extensions" });
    expect(answer.success).toBe(true);
    expect(answer.data).toMatchObject({ stopped: 0, loaded: 0, ready: 0 });
    expect(answer.data.warnings[0]).toContain("--no-ext");
    expect(await r.close()).toBe(0);
  });
});

describe("a process hook slow to answer hook.hello", () => {
  /** A before_tool hook (denying bash) whose hello waits for the test to create `gate`, then answers as `hello` says. */
  function slowHook(gate: string, record: string, hello: Record<string, unknown>): string {
    return hookExtension(
      tempDir("zot-rpc-hook-"),
      "slowgate",
      { record, hello: { wait_for: gate, then: hello }, methods: { "hook.before_tool": { action: "deny_tool", reason: "no bash here" } } },
      { timeouts: { hello: 60_000 }, observe: ["tool_exec_start"] },
    );
  }

  const touch = { tool_calls: [{ id: "t1", name: "bash", args: { command: "touch ran.txt" } }] };

  test("rpc answers at once; a tool call the hook guards waits for it, then its deny holds; what it observes while starting reaches it after", async () => {
    const gate = join(tempDir("zot-rpc-gate-"), "go");
    const record = join(tempDir("zot-rpc-rec-"), "hook.ndjson");
    const r = start([touch, { text: "denied" }], [slowHook(gate, record, { ok: true })]);
    // Before the fix, the server was not serving until the hook answered hello: never, here.
    expect((await r.call({ type: "ping" })).data).toEqual({ pong: true });
    const from = r.lines.length;
    await r.call({ type: "prompt", message: "go" });
    await r.waitFor((l) => l.type === "tool_call", from, "the tool_call");
    await Bun.sleep(300);
    expect(r.lines.slice(from).some((l) => l.type === "tool_result")).toBe(false);
    writeFileSync(gate, "");
    const events = await r.eventsUntilDone(from);
    const result = events.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ id: "t1", is_error: true });
    expect(result.content[0].text).toContain("no bash here");
    expect(existsSync(join(r.cwd, "ran.txt"))).toBe(false);
    const methods = recorded(record).map((m) => m.method);
    expect(methods).toEqual(["hook.hello", "hook.event", "hook.before_tool"]);
    expect(recorded(record)[1].params.Kind).toBe("tool_exec_start");
    expect(r.lines.some((l) => l.type === "ext_notify" && l.extension === "slowgate" && l.message === "started late and joined")).toBe(true);
    expect(await r.close()).toBe(0);
  }, 30_000);

  test("a tool call that waited for a hook which then fails to start is refused, not run unguarded", async () => {
    const gate = join(tempDir("zot-rpc-gate-"), "go");
    const record = join(tempDir("zot-rpc-rec-"), "hook.ndjson");
    const r = start([touch, { text: "refused" }], [slowHook(gate, record, { exit: 3 })]);
    expect((await r.call({ type: "ping" })).data).toEqual({ pong: true });
    const from = r.lines.length;
    await r.call({ type: "prompt", message: "go" });
    await r.waitFor((l) => l.type === "tool_call", from, "the tool_call");
    writeFileSync(gate, "");
    const events = await r.eventsUntilDone(from);
    const result = events.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ id: "t1", is_error: true });
    expect(result.content[0].text).toContain('hook "slowgate" exited with code 3 before answering hook.hello');
    expect(result.content[0].text).toContain("this tool call waited for the hook to start and is refused");
    expect(existsSync(join(r.cwd, "ran.txt"))).toBe(false);
    expect(r.lines.some((l) => l.type === "ext_notify" && l.extension === "slowgate" && l.level === "warn")).toBe(true);
    expect(await r.close()).toBe(0);
  }, 30_000);
});
