// Recording a live agent: after every prompt the session file replays to exactly the agent's
// transcript, model and cumulative usage, through tool calls, a hard_abort, a compaction, a model
// switch and an interceptor's rewrite; a failed write is reported once and the agent goes on.
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "../../src/core/agent.ts";
import type { Decision, Participant } from "../../src/core/intercept.ts";
import type { InterceptStage } from "../../src/protocol/events.ts";
import type { Message } from "../../src/protocol/messages.ts";
import type { Provider } from "../../src/protocol/provider.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import type { Tool } from "../../src/protocol/tool.ts";
import { createScriptedProvider } from "../../src/providers/scripted.ts";
import { newSession } from "../../src/session/open.ts";
import { sessionDir } from "../../src/session/paths.ts";
import { readSessionFile } from "../../src/session/reader.ts";
import { replay } from "../../src/session/replay.ts";
import { testModel } from "../support/test-model.ts";
import { tempDir } from "../support/zot.ts";

const model = testModel({ id: "claude-sonnet-4-5", provider: "anthropic", context_window: 4_000, price_input: 3, price_output: 15 });

const echo: Tool = {
  name: "echo",
  description: "echoes",
  parameters: { type: "object" },
  execute: async (args) => ({ content: [{ type: "text", text: `echo ${JSON.stringify(args)}` }], is_error: false }),
};

function setup(turns: ScriptTurn[], messages?: Message[], tools: Tool[] = []) {
  const home = tempDir("zot-rec-home-");
  const cwd = tempDir("zot-rec-cwd-");
  const logs: string[] = [];
  const agent = new Agent({ provider: createScriptedProvider(turns), model, tools: [echo, ...tools], system: "sys", cwd, autoCompact: 0, messages });
  const session = newSession(home, cwd, []);
  session.record(agent, (m) => logs.push(m));
  return { agent, session, logs, home, cwd };
}

/** What a resume of the file would load. */
function replayed(file: string) {
  const content = readSessionFile(file);
  expect(content.problems).toEqual([]);
  return { ...replay(content.header, content.entries), entries: content.entries, header: content.header };
}

function guard(name: string, decide: (stage: InterceptStage, payload: any) => Decision): Participant {
  return { name, priority: 0, stages: ["tool_call", "turn_start"], timeoutMs: 1000, onFailure: "allow", decide: async (s, p) => decide(s, p) as any };
}

const signal = () => new AbortController().signal;

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await Bun.sleep(2);
  expect(condition()).toBe(true);
}

describe("the session recorder", () => {
  test("a prompt with a tool call: the file replays to the agent's transcript and cumulative usage", async () => {
    const { agent, session } = setup([
      { tool_calls: [{ id: "c1", name: "echo", args: { a: 1 } }], usage: { input: 100, output: 10 } },
      { text: "done", usage: { input: 200, output: 5 } },
    ]);
    await agent.prompt({ text: "go", images: [{ mime_type: "image/png", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=" }] }, signal());
    const state = replayed(session.file);
    expect(state.messages).toEqual([...agent.messages]);
    expect(state.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(state.cumulative).toEqual(agent.cumulative);
    expect(state.header).toMatchObject({ model: "claude-sonnet-4-5", provider: "anthropic", cwd: agent.cwd });
    // written as they happened: each message and usage in the order the agent lived them
    expect(state.entries.map((e) => e.type)).toEqual(["message", "usage", "message", "tool_result", "usage", "message"]);
    session.close();
  });

  test("a session started after a /clear counts its own usage, not the process's: the one before is not charged twice", async () => {
    const { agent, session, home, cwd } = setup([
      { text: "first", usage: { input: 1000, output: 10 } },
      { text: "second", usage: { input: 300, output: 3 } },
    ]);
    await agent.prompt({ text: "one" }, signal());
    session.close();
    const before = { ...agent.cumulative };
    agent.clear();
    const next = newSession(home, cwd, []);
    next.record(agent, () => {});
    await agent.prompt({ text: "two" }, signal());
    next.close();
    expect(agent.cumulative.input).toBe(1300);
    expect(replayed(session.file).cumulative).toEqual(before);
    const own = replayed(next.file).cumulative;
    expect(own.input).toBe(300);
    expect(own.output).toBe(3);
    expect(own.cost_usd).toBeCloseTo(agent.cumulative.cost_usd - before.cost_usd, 10);
  });

  test("a new session's file is made once the request is on its way, and holds the prompt while the model answers", async () => {
    const home = tempDir("zot-rec-home-");
    const cwd = tempDir("zot-rec-cwd-");
    const scripted = createScriptedProvider([{ text: "hello" }]);
    let release!: () => void;
    const answering = new Promise<void>((resolve) => (release = resolve));
    let fileAtRequest: boolean | undefined;
    const session = newSession(home, cwd, []);
    const provider: Provider = {
      name: "anthropic",
      async *stream(request, signal) {
        fileAtRequest = existsSync(session.file);
        await answering;
        yield* scripted.stream(request, signal);
      },
    };
    const agent = new Agent({ provider, model, tools: [], system: "sys", cwd, autoCompact: 0 });
    session.record(agent, () => {});
    const prompting = agent.prompt({ text: "go" }, signal());
    // The model has not answered yet, and the event loop turned: the prompt is on disk.
    await waitFor(() => existsSync(session.file));
    expect(fileAtRequest).toBe(false);
    expect(replayed(session.file).messages).toEqual([...agent.messages]);
    expect(agent.messages.map((m) => m.role)).toEqual(["user"]);
    release();
    await prompting;
    expect(replayed(session.file).messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    session.close();
  });

  test("the first record waits no longer than the next: a tool call is on disk, after the prompt, before its tool runs", async () => {
    let fileWhenRun: string[] | undefined;
    const watcher: Tool = {
      name: "watch",
      description: "reads the session file",
      parameters: { type: "object" },
      execute: async () => {
        fileWhenRun = replayed(session.file).messages.map((m) => m.role);
        return { content: [{ type: "text", text: "seen" }], is_error: false };
      },
    };
    const { agent, session } = setup([{ tool_calls: [{ id: "w1", name: "watch", args: {} }] }, { text: "done" }], undefined, [watcher]);
    await agent.prompt({ text: "go" }, signal());
    expect(fileWhenRun).toEqual(["user", "assistant"]);
    session.close();
  });

  test("nothing said, nothing written: a new session leaves no file", async () => {
    const { session, home, cwd } = setup([]);
    session.close();
    expect(existsSync(sessionDir(home, cwd))).toBe(false);
  });

  test("a hard_abort takes the turn back out: a rewind record, and the file replays without it", async () => {
    const { agent, session } = setup([{ text: "first answer" }, { tool_calls: [{ id: "c2", name: "echo", args: {} }] }, { text: "third" }]);
    await agent.prompt({ text: "one" }, signal());
    agent.chain.add(guard("kill", (stage) => (stage === "tool_call" ? { action: "hard_abort", reason: "stop everything" } : { action: "continue" })));
    await agent.prompt({ text: "two" }, signal());
    expect(agent.messages).toHaveLength(2);
    agent.chain.remove("kill");
    await agent.prompt({ text: "three" }, signal());
    const state = replayed(session.file);
    expect(state.messages).toEqual([...agent.messages]);
    expect(state.messages.map((m) => m.content[0]?.type === "text" && m.content[0].text)).toEqual(["one", "first answer", "three", "third"]);
    expect(state.entries.find((e) => e.type === "rewind")).toMatchObject({ to: 2, reason: "hard_abort by kill" });
    session.close();
  });

  test("a hard_abort after a compaction that summarised part of the prompt: the file replays to the transcript from before the prompt", async () => {
    const home = tempDir("zot-rec-home-");
    const cwd = tempDir("zot-rec-cwd-");
    const turns: ScriptTurn[] = [
      { text: "first answer" },
      // Step 1 of the second prompt: a big result and a nearly full window, so step 2 compacts first
      // (the step, kept verbatim, still fits the window: one bigger than it is nothing to compact).
      { tool_calls: [{ id: "c2", name: "echo", args: { x: "y".repeat(6_000) } }], usage: { input: 3_900 } },
      { text: "## Goal\nthe summary, written from the secret prompt" },
    ];
    const agent = new Agent({ provider: createScriptedProvider(turns), model, tools: [echo], system: "sys", cwd, autoCompact: 0.85 });
    const session = newSession(home, cwd, []);
    session.record(agent, () => {});
    await agent.prompt({ text: "one" }, signal());
    const before = agent.messages.slice();
    // Taken back after step 2's compaction, before its model call.
    agent.chain.add({ ...guard("kill", (_stage, p) => (p.step === 2 ? { action: "hard_abort", reason: "stop" } : { action: "continue" })), stages: ["before_llm"] });
    const compactions: unknown[] = [];
    agent.onCompacted((c) => compactions.push(c));
    await agent.prompt({ text: "my password is hunter2" }, signal());
    expect(compactions).toHaveLength(1);
    expect(agent.messages).toEqual(before);
    const state = replayed(session.file);
    expect(state.messages).toEqual(before);
    expect(JSON.stringify(state.messages)).not.toContain("hunter2");
    session.close();
  });

  test("a compaction is one record (summary + how many kept), and the file replays to the compacted transcript", async () => {
    const big = "word ".repeat(1500);
    const { agent, session } = setup([{ text: big }, { text: "short answer" }, { text: "## Goal\nsummary of the big part" }, { text: "after compaction" }]);
    await agent.prompt({ text: "first" }, signal());
    await agent.prompt({ text: "second" }, signal());
    const before = agent.messages.length;
    const outcome = await agent.compact(signal());
    expect(outcome.status).toBe("ok");
    await agent.prompt({ text: "third" }, signal());
    const state = replayed(session.file);
    expect(state.messages).toEqual([...agent.messages]);
    const compaction = state.entries.find((e) => e.type === "compaction");
    expect(compaction).toMatchObject({ reason: "manual", messages_before: before });
    // the kept messages are not written a second time
    expect(compaction?.type === "compaction" && compaction.kept).toBeGreaterThan(0);
    expect(state.entries.filter((e) => e.type === "message")).toHaveLength(before + 2);
    session.close();
  });

  test("a model switch is recorded before the next message; an interceptor's rewrite is in the audit trail", async () => {
    const { agent, session } = setup([{ tool_calls: [{ id: "c1", name: "echo", args: { x: "rm -rf /" } }] }, { text: "ok" }]);
    agent.switchModel(testModel({ id: "claude-opus-4-5", provider: "anthropic" }));
    agent.chain.add(guard("safe", (stage, p) => (stage === "tool_call" ? { action: "modify", value: { x: "ls" }, reason: "no rm" } : { action: "continue" })));
    await agent.prompt({ text: "clean up" }, signal());
    const state = replayed(session.file);
    expect(state.model).toBe("claude-opus-4-5");
    expect(state.entries[0]).toMatchObject({ type: "model_change", model: "claude-opus-4-5", provider: "anthropic" });
    expect(state.entries.find((e) => e.type === "intercept")).toMatchObject({
      participant: "safe",
      stage: "tool_call",
      action: "modify",
      reason: "no rm",
      before: 'echo {"x":"rm -rf /"}',
      after: 'echo {"x":"ls"}',
    });
    session.close();
  });

  test("each tool result is written when it is known: with zot gone mid-step, the file replays to the results that finished", async () => {
    let release!: () => void;
    const slow: Tool = {
      name: "slow",
      description: "waits",
      parameters: { type: "object" },
      execute: () => new Promise((resolve) => (release = () => resolve({ content: [{ type: "text", text: "slow done" }], is_error: false }))),
    };
    const { agent, session } = setup(
      [{ tool_calls: [{ id: "w1", name: "echo", args: { wrote: "a.txt" } }, { id: "s2", name: "slow", args: {} }] }, { text: "ok" }],
      undefined,
      [slow],
    );
    const done = agent.prompt({ text: "go" }, signal());
    await waitFor(() => typeof release === "function");
    // What a resume would load if zot were killed now: the first call's real result is there.
    const midStep = replayed(session.file);
    expect(midStep.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(midStep.messages[2]!.content).toEqual([{ type: "tool_result", call_id: "w1", is_error: false, content: [{ type: "text", text: 'echo {"wrote":"a.txt"}' }] }]);
    release();
    await done;
    const state = replayed(session.file);
    expect(state.messages).toEqual([...agent.messages]);
    // the tool message is its results, each written once
    expect(state.entries.filter((e) => e.type === "tool_result")).toHaveLength(2);
    expect(state.entries.filter((e) => e.type === "message" && e.message.role === "tool")).toHaveLength(0);
    session.close();
  });

  test("a turn ended mid-step: the unrun calls' results are written too; a hard_abort mid-step takes the written ones back", async () => {
    const calls = [{ id: "a", name: "echo", args: { n: 1 } }, { id: "b", name: "echo", args: { n: 2 } }, { id: "c", name: "echo", args: { n: 3 } }];
    const { agent, session } = setup([{ tool_calls: calls }, { text: "after" }, { tool_calls: calls.map((c) => ({ ...c, id: `${c.id}2` })) }, { text: "never" }]);
    agent.chain.add(guard("stop", (stage, p) => (stage === "tool_call" && p.args.n === 2 ? { action: "abort_turn", reason: "enough" } : { action: "continue" })));
    await agent.prompt({ text: "one" }, signal());
    expect(replayed(session.file).messages).toEqual([...agent.messages]);
    agent.chain.remove("stop");
    agent.chain.add(guard("kill", (stage, p) => (stage === "tool_call" && p.args.n === 3 ? { action: "hard_abort", reason: "undo" } : { action: "continue" })));
    await agent.prompt({ text: "two" }, signal());
    const state = replayed(session.file);
    expect(state.messages).toEqual([...agent.messages]);
    expect(state.messages.at(-1)!.content).toEqual(agent.messages.at(-1)!.content);
    session.close();
  });

  test("a model switch after something was recorded is written at once (a list of sessions shows it); before, the header names it", async () => {
    const { agent, session, home, cwd } = setup([{ text: "first" }]);
    agent.switchModel(testModel({ id: "claude-haiku-4-5", provider: "anthropic" }));
    // Nothing recorded yet: still no file.
    expect(existsSync(sessionDir(home, cwd))).toBe(false);
    await agent.prompt({ text: "hi" }, signal());
    expect(replayed(session.file).header.model).toBe("claude-haiku-4-5");
    agent.switchModel(testModel({ id: "claude-opus-4-5", provider: "anthropic" }));
    const state = replayed(session.file);
    expect(state.model).toBe("claude-opus-4-5");
    expect(state.entries.at(-1)).toMatchObject({ type: "model_change", model: "claude-opus-4-5" });
    session.close();
  });

  test("a session that cannot be written is reported once; the agent answers anyway", async () => {
    const { agent, session, logs, home } = setup([{ text: "still answering" }, { text: "again" }]);
    writeFileSync(join(home, "sessions"), "a file where the sessions directory should be");
    const outcome = await agent.prompt({ text: "hi" }, signal());
    await agent.prompt({ text: "hi again" }, signal());
    session.close();
    expect(outcome.status).toBe("ok");
    expect(agent.messages).toHaveLength(4);
    expect(logs).toHaveLength(1);
    // Nothing of it reached the file: not "the rest of" it.
    expect(logs[0]).toMatch(/^session: .*; this conversation is not saved$/);
  });
});
