// The conversation (src/conversation/) over a real runtime with the scripted provider: the two busy
// policies, the done that ends every unit of work, the queue (order, cancel, operations behind
// turns), the refusals while busy, extension commands as units, the notes a late listener hears, and
// extensions a reload starts in a run that had none.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Conversation, type ConversationOptions, openConversation, ZotBusyError } from "../../src/conversation/conversation.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import type { RuntimeOptions } from "../../src/runtime/runtime.ts";
import { eventually, scriptedExtension } from "../fixtures/extensions/make.ts";
import { recorded } from "../fixtures/hooks/make.ts";
import { tempDir } from "../support/zot.ts";

let open: Conversation | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** A turn that streams for a while (about 40 deltas 10 ms apart). */
const SLOW = { text: "word ".repeat(40), chunk_size: 5, chunk_delay_ms: 10 };

async function start(turns: object[], options: ConversationOptions = { busy: "queue" }, runtime: Partial<RuntimeOptions> = {}) {
  const cwd = tempDir("zot-conv-cwd-");
  const script = join(cwd, "turns.json");
  writeFileSync(script, JSON.stringify(turns));
  open = await openConversation(
    { script, cwd, home: tempDir("zot-conv-home-"), tools: "none", noSkill: true, extensions: { explicit: [], noDiscovery: true }, ...runtime },
    options,
  );
  const events: AgentEvent[] = [];
  open.onEvent((event) => events.push(event));
  return { conversation: open, events };
}

const types = (events: AgentEvent[]) => events.map((e) => e.type).filter((t) => t !== "text_delta");

describe("the runtime's onAnswerOpen", () => {
  test("is told as each model call's answer opens, before the call's first event", async () => {
    const heard: string[] = [];
    const { conversation, events } = await start([{ text: "One." }, { text: "Two." }], { busy: "queue" }, { onAnswerOpen: () => heard.push(`open@${events.length}`) });
    conversation.onEvent((event) => {
      if (event.type === "assistant_start") heard.push(`assistant_start@${events.length - 1}`);
    });
    expect(await conversation.prompt({ text: "one" })).toEqual({ status: "ok" });
    expect(await conversation.prompt({ text: "two" })).toEqual({ status: "ok" });
    const starts = events.flatMap((e, i) => (e.type === "assistant_start" ? [i] : []));
    expect(starts).toHaveLength(2);
    // Each open comes before its assistant_start (nothing of the answer was emitted yet).
    expect(heard).toEqual([`open@${starts[0]}`, `assistant_start@${starts[0]}`, `open@${starts[1]}`, `assistant_start@${starts[1]}`]);
  });
});

describe("the queue policy", () => {
  test("a prompt sent while one runs waits its turn; each ends with one done; onStart comes before its first event", async () => {
    const { conversation, events } = await start([SLOW, { text: "Second." }]);
    const starts: number[] = [];
    const first = conversation.submit({ text: "one" }, { onStart: () => starts.push(events.length) });
    expect(conversation.running).toEqual({ kind: "turn", label: "a prompt" });
    const second = conversation.submit({ text: "two" }, { onStart: () => starts.push(events.length) });
    expect(conversation.state()).toMatchObject({ busy: true, queued: 1 });
    expect(conversation.queued).toEqual([{ text: "two" }]);
    expect(await first).toEqual({ status: "ok" });
    expect(await second).toEqual({ status: "ok" });
    expect(types(events).filter((t) => t === "done")).toHaveLength(2);
    const firstDone = events.findIndex((e) => e.type === "done");
    expect(starts).toEqual([0, firstDone + 1]);
    expect(events[firstDone + 1]).toMatchObject({ type: "user_message" });
    expect(conversation.state()).toMatchObject({ busy: false, queued: 0, message_count: 4 });
  });

  test("cancel drops what waits (told: dropped, no events) and aborts what runs, which still ends with done", async () => {
    const { conversation, events } = await start([SLOW, { text: "never" }]);
    const first = conversation.prompt({ text: "one" });
    const second = conversation.prompt({ text: "two" });
    while (!events.some((e) => e.type === "text_delta")) await Bun.sleep(5);
    await conversation.cancel();
    expect(await first).toEqual({ status: "aborted" });
    expect(await second).toEqual({ status: "dropped" });
    expect(types(events).slice(-2)).toEqual(["turn_end", "done"]);
    expect(events.filter((e) => e.type === "user_message")).toHaveLength(1);
  });

  test("clear, a model switch and the reasoning level are refused while a prompt runs or waits, in rpc's words", async () => {
    const { conversation } = await start([SLOW, { text: "b" }]);
    const first = conversation.prompt({ text: "one" });
    void conversation.prompt({ text: "two" });
    await expect(conversation.clear()).rejects.toThrow(
      new ZotBusyError("agent is busy: cannot clear while a prompt or compaction is running and 1 more queued; send abort or wait for done"),
    );
    await expect(conversation.setReasoning("high")).rejects.toThrow(ZotBusyError);
    await expect(conversation.setModel("scripted")).rejects.toThrow(ZotBusyError);
    await first;
    await conversation.idle();
    // Idle, a clear is done before it returns.
    void conversation.clear();
    expect(conversation.messages).toHaveLength(0);
  });

  test("a model switch is queued work: what is sent right after it (another switch, the reasoning level, clear, a prompt) waits for it and is done in order; no turn runs meanwhile, so the state is not busy", async () => {
    const { conversation } = await start([{ text: "a" }]);
    const done: string[] = [];
    const switching = conversation.setModel("scripted").then(() => done.push("model"));
    expect(conversation.running).toEqual({ kind: "operation", label: "a model switch" });
    expect(conversation.state()).toMatchObject({ busy: false, queued: 0 });
    const again = conversation.setModel("scripted").then(() => done.push("model again"));
    const reasoning = conversation.setReasoning("high").then(() => done.push("reasoning"));
    const cleared = conversation.clear().then(() => done.push("clear"));
    const prompt = conversation.prompt({ text: "go" });
    expect(conversation.state()).toMatchObject({ busy: true, queued: 1 });
    // A prompt waits behind them now: what changes its footing is refused from here on.
    await expect(conversation.clear()).rejects.toThrow("agent is busy: cannot clear while 1 queued; send abort or wait for done");
    await Promise.all([switching, again, reasoning, cleared]);
    expect(done).toEqual(["model", "model again", "reasoning", "clear"]);
    expect(await prompt).toEqual({ status: "ok" });
    expect(conversation.state()).toMatchObject({ busy: false, queued: 0, message_count: 2 });
  });
});

describe("the refuse policy", () => {
  test("a second unit throws ZotBusyError at once, with the front end's words; idle again once the first ended", async () => {
    const { conversation } = await start([SLOW, { text: "again" }], {
      busy: "refuse",
      wording: { turn: "wait for its done event, or abort() it first", operation: "try again" },
    });
    const first = conversation.submit({ text: "one" });
    expect(() => conversation.submit({ text: "two" })).toThrow(
      new ZotBusyError("agent is busy: cannot start another prompt or compaction while a prompt or compaction is running; wait for its done event, or abort() it first"),
    );
    expect(() => conversation.compact()).toThrow(ZotBusyError);
    expect(conversation.state().queued).toBe(0);
    expect(await first).toEqual({ status: "ok" });
    expect(await conversation.submit({ text: "two" })).toEqual({ status: "ok" });
  });
});

describe("units that never reach the agent", () => {
  test("an extension command answered with display: ext_display, command_result, then the conversation's own done", async () => {
    const ext = scriptedExtension(tempDir("zot-conv-ext-"), "shows", {
      after_hello: [{ type: "register_command", name: "shown", description: "shows" }],
      commands: { shown: { eval: "{'action': 'display', 'display': 'shown: ' + f['args']}" } },
    });
    const { conversation, events } = await start([{ text: "unused" }], { busy: "queue" }, { extensions: { explicit: [ext], noDiscovery: true } });
    expect(await conversation.submit({ text: "/shown oslo" })).toEqual({ status: "ok" });
    expect(events.filter((e) => e.type !== "ext_notify")).toEqual([
      { type: "ext_display", extension: "shows", text: "shown: oslo" },
      { type: "command_result", command: "shown", extension: "shows", action: "display", text: "shown: oslo" },
      { type: "done" },
    ]);
  });

  test("what throws inside a unit is an error event (code internal) and done; the queue goes on", async () => {
    const { conversation, events } = await start([{ text: "after" }]);
    const failing = conversation.submit({ text: "x" }, { prepare: () => { throw new Error("prepare broke"); } });
    expect(await failing).toEqual({ status: "error", message: "prepare broke", code: "internal" });
    expect(events).toEqual([{ type: "error", message: "prepare broke", code: "internal" }, { type: "done" }]);
    expect(await conversation.submit({ text: "y" })).toEqual({ status: "ok" });
  });
});

describe("compaction", () => {
  test("with nothing to compact: compact_start, error (compaction), done; the outcome says so", async () => {
    const { conversation, events } = await start([{ text: "unused" }]);
    const outcome = await conversation.compact();
    expect(outcome).toMatchObject({ status: "error", code: "compaction" });
    expect(types(events)).toEqual(["compact_start", "error", "done"]);
  });
});

describe("extensions a reload starts in a run that had none", () => {
  test("a fail_closed guard installed and reloaded mid-turn holds the turn's next tool call while it starts, then refuses it", async () => {
    const victim = join(tempDir("zot-conv-victim-"), "victim");
    mkdirSync(victim);
    const home = tempDir("zot-conv-home-");
    const { conversation, events } = await start(
      [{ tool_calls: [{ name: "bash", args: { command: "sleep 0.3" } }] }, { tool_calls: [{ name: "bash", args: { command: `rm -rf ${victim}` } }] }, { text: "done" }],
      { busy: "queue" },
      { home, tools: ["bash"], extensions: { explicit: [], noDiscovery: false }, extensionWait: 1000 },
    );
    let reloaded: Promise<unknown> | undefined;
    const guardWhenCalled: (string | undefined)[] = [];
    conversation.onEvent((event) => {
      if (event.type !== "tool_call") return;
      guardWhenCalled.push(conversation.extensions()[0]?.state);
      if (reloaded) return;
      // Installed while the first call runs; its hello comes well after the second call is made.
      scriptedExtension(
        join(home, "extensions"),
        "guard",
        {
          hello_delay: 1.5,
          after_hello: [{ type: "subscribe", intercept: ["tool_call"] }],
          intercept: { tool_call: { eval: "{'block': 'rm -rf' in f['tool_args'].get('command', ''), 'reason': 'no rm -rf'}" } },
        },
        { fail_closed: true },
      );
      // As the TUI's /reload-ext: at once, the running turn untouched.
      reloaded = conversation.reloadExtensions();
    });
    expect(await conversation.prompt({ text: "clean up" })).toEqual({ status: "ok" });
    // The second call was made while the guard was still starting: it waited for it, whatever the timing.
    expect(guardWhenCalled).toEqual([undefined, "starting"]);
    expect(existsSync(victim)).toBe(true);
    const results = events.filter((e) => e.type === "tool_result");
    expect(JSON.stringify(results[1])).toContain("no rm -rf");
    expect(await reloaded).toEqual({ stopped: 0, started: 1, ready: 0, warnings: [] });
    expect(conversation.extensions().map((e) => [e.name, e.state])).toEqual([["guard", "ready"]]);
  }, 20_000);

  test("a second reload sent behind the first restarts what the first started, as any reload does; each process hears session_start once, and its notes reach the listener", async () => {
    const home = tempDir("zot-conv-home-");
    const { conversation, events } = await start([{ text: "unused" }], { busy: "queue" }, { home, extensions: { explicit: [], noDiscovery: false } });
    const countfile = join(tempDir("zot-conv-count-"), "starts");
    const record = join(tempDir("zot-conv-rec-"), "frames.ndjson");
    scriptedExtension(join(home, "extensions"), "counted", {
      countfile,
      record,
      after_hello: [{ type: "subscribe", events: ["session_start"] }],
      on_ack: [{ type: "notify", level: "info", message: "counted is up" }],
    });
    const [first, second] = await Promise.all([conversation.reloadExtensions(), conversation.reloadExtensions()]);
    expect(first).toEqual({ stopped: 0, started: 1, ready: 1, warnings: [] });
    expect(second).toEqual({ stopped: 1, started: 1, ready: 1, warnings: [] });
    expect(readFileSync(countfile, "utf8")).toBe("2");
    const starts = () => recorded(record).filter((frame) => frame.type === "event" && frame.event === "session_start").length;
    // The second process is told as its reload ends; its record follows.
    await eventually(() => starts() === 2, "session_start to the second process");
    await Bun.sleep(100);
    expect(starts()).toBe(2);
    expect(events.filter((event) => event.type === "ext_notify")).toEqual([
      { type: "ext_notify", extension: "counted", level: "info", message: "counted is up" },
      { type: "ext_notify", extension: "counted", level: "info", message: "counted is up" },
    ]);
  });

  test("a folder's own extension and hooks.json installed since, in a folder that is not trusted: not started, and the reload says why and how to trust it", async () => {
    const { conversation } = await start([{ text: "unused" }], { busy: "queue" }, { extensions: { explicit: [], noDiscovery: false } });
    const countfile = join(tempDir("zot-conv-count-"), "starts");
    scriptedExtension(join(conversation.cwd, ".zot", "extensions"), "local", { countfile });
    writeFileSync(join(conversation.cwd, ".zot", "hooks.json"), JSON.stringify({ hooks: [] }));
    const report = await conversation.reloadExtensions();
    expect(report).toMatchObject({ stopped: 0, started: 0, ready: 0 });
    expect(report.warnings).toEqual([
      `this folder (${conversation.cwd}) is not trusted, so its .zot/extensions (local) and .zot/hooks.json did not start; to start them, trust it (zot trust ${conversation.cwd}) and start zot again, or start zot again with --trust for one run`,
    ]);
    expect(existsSync(countfile)).toBe(false);
    // Said at every reload: nothing at the start said it.
    expect((await conversation.reloadExtensions()).warnings).toHaveLength(1);
  });

  test("a session switched to while they load: they are told session_start once, with the new session's id, and no session_end", async () => {
    const home = tempDir("zot-conv-home-");
    const { conversation } = await start([{ text: "unused" }], { busy: "queue" }, { home, session: { kind: "new" }, extensions: { explicit: [], noDiscovery: false }, extensionWait: 10_000 });
    const record = join(tempDir("zot-conv-rec-"), "frames.ndjson");
    scriptedExtension(join(home, "extensions"), "quick", { record, after_hello: [{ type: "subscribe", events: ["session_start", "session_end"] }] });
    // The load waits for this one, so the switch comes while the quick one is up and not yet told anything.
    scriptedExtension(join(home, "extensions"), "slow", { hello_delay: 1 });
    const reloading = conversation.reloadExtensions();
    await eventually(() => recorded(record).some((frame) => frame.type === "hello_ack"), "the quick extension up");
    await conversation.sessions.startNew();
    await reloading;
    const told = () => recorded(record).filter((frame) => frame.type === "event");
    await eventually(() => told().length > 0, "session_start");
    await Bun.sleep(100);
    expect(told().map((frame) => [frame.event, frame.session_id])).toEqual([["session_start", conversation.session!.id]]);
  });

  test("once the run is ending, a reload starts nothing: refused, whether or not the run had extensions at the start", async () => {
    const home = tempDir("zot-conv-home-");
    const pidfile = join(tempDir("zot-conv-pid-"), "pid");
    const late = await start([{ text: "unused" }], { busy: "queue" }, { home, extensions: { explicit: [], noDiscovery: false } });
    scriptedExtension(join(home, "extensions"), "late", { pidfile });
    await late.conversation.close();
    await expect(late.conversation.reloadExtensions()).rejects.toThrow("zot is ending");
    const explicit = scriptedExtension(tempDir("zot-conv-ext-"), "early", {});
    const early = await start([{ text: "unused" }], { busy: "queue" }, { extensions: { explicit: [explicit], noDiscovery: true } });
    await early.conversation.close();
    await expect(early.conversation.reloadExtensions()).rejects.toThrow("zot is ending");
    await Bun.sleep(300);
    expect(existsSync(pidfile)).toBe(false);
  });

  test("at the start, an untrusted folder's extensions are told of once, by the trust note, not again by the load", async () => {
    const cwd = tempDir("zot-conv-cwd-");
    scriptedExtension(join(cwd, ".zot", "extensions"), "local", {});
    const { conversation } = await start([{ text: "unused" }], { busy: "queue" }, { cwd, extensions: { explicit: [], noDiscovery: false } });
    const said = conversation.startupNotes.filter((note) => note.includes(".zot/extensions"));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("is not trusted, so its .zot/extensions (local) did not run");
  });
});

describe("a Markdown command run as a unit (runCommand)", () => {
  /** A run whose $ZOT_HOME/commands hold `files` (name → text), the user's own HOME empty. */
  async function withCommands(files: Record<string, string>, turns: object[] = [{ text: "answered" }]) {
    const home = tempDir("zot-conv-home-");
    mkdirSync(join(home, "commands"));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(home, "commands", `${name}.md`), text);
    return start(turns, { busy: "queue" }, { home, tools: "all", env: { ...process.env, HOME: tempDir("zot-conv-user-") }, extensions: { explicit: [], noDiscovery: false } });
  }

  test("cancelled while its `!` line runs: the line is stopped, the next does not start, nothing goes to the model; the unit ends aborted with done, and is busy until then", async () => {
    const { conversation, events } = await withCommands({ slow: "Checks: !`sleep 5; echo SLOW-DONE` then !`echo SECOND-RAN`\n" });
    let told: { action: string; aborted: boolean } | undefined;
    const started = Date.now();
    const running = conversation.runCommand({ name: "slow", args: "" }, { onResult: (result, aborted) => (told = { action: result.action, aborted }) });
    expect(conversation.busy).toBe(true);
    expect(conversation.state()).toMatchObject({ busy: true });
    await eventually(() => events.some((e) => e.type === "tool_call"), "the ! line running");
    await conversation.cancel();
    expect(await running).toEqual({ status: "aborted" });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(told).toEqual({ action: "error", aborted: true });
    expect(events.filter((e) => e.type === "tool_call")).toHaveLength(1);
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ status: "cancelled" });
    expect(events.some((e) => e.type === "user_message")).toBe(false);
    expect(events.at(-2)).toMatchObject({ type: "command_result", command: "slow", action: "error", text: "cancelled", aborted: true });
    expect(events.at(-1)).toEqual({ type: "done" });
    expect(conversation.messages).toHaveLength(0);
    expect(conversation.busy).toBe(false);
  });
  test("sent while a turn runs: it waits its turn whole, and its `!` lines run when it leaves the queue, after the turn's tools; dropped from the queue, it runs nothing", async () => {
    const make = { tool_calls: [{ name: "bash", args: { command: "sleep 0.4; touch marker" } }] };
    const { conversation, events } = await withCommands({ check: "State: !`ls marker 2>&1`\n", mark: "Marked: !`touch ran-anyway`\n" }, [make, { text: "made" }, { text: "checked" }, SLOW]);
    const first = conversation.prompt({ text: "make marker" });
    const check = conversation.runCommand({ name: "check", args: "" });
    expect(conversation.queued).toEqual([{ text: "/check" }]);
    expect(await first).toEqual({ status: "ok" });
    expect(await check).toEqual({ status: "ok" });
    const sent = events.filter((e) => e.type === "user_message").map((e) => JSON.stringify(e));
    expect(sent[1]).toContain("State: marker");
    expect(sent[1]).not.toContain("No such file");
    // Queued behind a turn and then cancelled with it: its `!` line never runs.
    const slow = conversation.prompt({ text: "slow" });
    const mark = conversation.runCommand({ name: "mark", args: "" });
    await eventually(() => events.filter((e) => e.type === "text_delta").length > 0, "the slow turn streaming");
    await conversation.cancel();
    expect(await slow).toEqual({ status: "aborted" });
    expect(await mark).toEqual({ status: "dropped" });
    expect(existsSync(join(conversation.cwd, "ran-anyway"))).toBe(false);
  });
});

describe("a folder trusted in this start's question", () => {
  test("its skills load in this run, as its commands do, and no note says they wait for trust", async () => {
    const cwd = tempDir("zot-conv-cwd-");
    mkdirSync(join(cwd, ".claude", "skills", "release"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "skills", "release", "SKILL.md"), "---\ndescription: How to cut a release here\n---\nRELEASE SKILL BODY\n");
    writeFileSync(join(cwd, ".claude", "settings.json"), JSON.stringify({ env: { REPO_FLAG: "1" } }));
    let asked = 0;
    const { conversation } = await start([{ text: "unused" }], { busy: "queue" }, {
      cwd,
      noSkill: false,
      env: { ...process.env, HOME: tempDir("zot-conv-user-") },
      extensions: { explicit: [], noDiscovery: false },
      askTrust: async () => (asked++, "trust"),
    });
    expect(asked).toBe(1);
    expect(conversation.skills.map((skill) => skill.name)).toContain("release");
    expect(conversation.commands.has("release")).toBe(true);
    expect(conversation.startupNotes.join("\n")).not.toContain("are not loaded until you trust it");
  });
});

describe("a reload reads the Markdown commands and the skills again", () => {
  test("edited, added and removed ones count at once for their /names and the skill tool; the system prompt's list follows at the next new conversation, not before; with no extensions too", async () => {
    const home = tempDir("zot-conv-home-");
    const userHome = tempDir("zot-conv-user-");
    mkdirSync(join(home, "commands"));
    writeFileSync(join(home, "commands", "tweak.md"), "VERSION ONE\n");
    writeFileSync(join(home, "commands", "gone.md"), "GONE SOON\n");
    const skill = (name: string, body: string) => {
      mkdirSync(join(userHome, ".claude", "skills", name), { recursive: true });
      writeFileSync(join(userHome, ".claude", "skills", name, "SKILL.md"), `---\ndescription: The ${name} skill\n---\n${body}\n`);
    };
    skill("steady", "STEADY ONE");
    const { conversation } = await start([{ text: "unused" }], { busy: "queue" }, {
      home,
      tools: "all",
      noSkill: false,
      env: { ...process.env, HOME: userHome },
      extensions: { explicit: [], noDiscovery: true },
    });
    const text = async (name: string) => {
      const result = await conversation.commands.run(name, "");
      return "text" in result ? result.text : result.action;
    };
    const system = () => (conversation as unknown as { runtime: { agent: { system: string } } }).runtime.agent.system;
    const skillTool = (name: string) => (conversation as unknown as { runtime: { agent: { tools: { name: string; execute(args: object, context: object): Promise<{ content: { text: string }[] }> }[] } } }).runtime.agent.tools.find((tool) => tool.name === "skill")!.execute({ name }, {});
    expect(await text("tweak")).toBe("VERSION ONE");
    const before = system();
    expect(before).toContain("The steady skill");
    writeFileSync(join(home, "commands", "tweak.md"), "VERSION TWO\n");
    rmSync(join(home, "commands", "gone.md"));
    skill("fresh", "FRESH SKILL");
    skill("steady", "STEADY TWO");
    expect(conversation.hasExtensions).toBe(false);
    await conversation.reloadExtensions();
    expect(await text("tweak")).toBe("VERSION TWO");
    expect(conversation.commands.has("gone")).toBe(false);
    expect(await text("fresh")).toBe("FRESH SKILL");
    expect((await skillTool("steady")).content[0]!.text).toContain("STEADY TWO");
    expect((await skillTool("fresh")).content[0]!.text).toContain("FRESH SKILL");
    // The prompt's list is as it was until the conversation starts over.
    expect(system()).toBe(before);
    await conversation.clear();
    expect(system()).toContain("The fresh skill");
  });
  test("an extension's before_agent_start rewrite is made again from the prompt with the new list, once the conversation starts over", async () => {
    const userHome = tempDir("zot-conv-user-");
    const skill = (name: string) => {
      mkdirSync(join(userHome, ".claude", "skills", name), { recursive: true });
      writeFileSync(join(userHome, ".claude", "skills", name, "SKILL.md"), `---\ndescription: The ${name} skill\n---\nBODY\n`);
    };
    skill("steady");
    const ext = scriptedExtension(tempDir("zot-conv-ext-"), "rules", {
      after_hello: [{ type: "subscribe", intercept: ["before_agent_start"] }],
      intercept: { before_agent_start: { eval: `{"system_prompt": f["system_prompt"] + "\\n\\nRULE: be brief."}` } },
    });
    const { conversation } = await start([{ text: "one" }, { text: "two" }], { busy: "queue" }, {
      tools: "all",
      noSkill: false,
      env: { ...process.env, HOME: userHome },
      extensions: { explicit: [ext], noDiscovery: true },
    });
    const system = () => (conversation as unknown as { runtime: { agent: { system: string } } }).runtime.agent.system;
    expect(await conversation.prompt({ text: "first" })).toEqual({ status: "ok" });
    expect(system()).toContain("The steady skill");
    expect(system()).toEndWith("RULE: be brief.");
    skill("fresh");
    await conversation.reloadExtensions();
    await conversation.clear();
    expect(await conversation.prompt({ text: "second" })).toEqual({ status: "ok" });
    expect(system()).toContain("The fresh skill");
    expect(system()).toEndWith("RULE: be brief.");
    expect(system().match(/RULE: be brief\./g)).toHaveLength(1);
  });
});
