// The confirmation gate through a real agent loop (Anthropic SDK against the mock LLM): each of the
// four answers, what the session remembers, /yolo (also approving a pending dialog), abort while a
// dialog is open, no one to ask, and composition with other participants of the chain.
import { afterEach, describe, expect, test } from "bun:test";
import { Agent } from "../../src/core/agent.ts";
import { APPROVED_BY_YOLO, type ConfirmAnswer, ConfirmGate, type ConfirmRequest, previewArgs } from "../../src/core/confirm-gate.ts";
import type { Participant } from "../../src/core/intercept.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import type { ScriptTurn } from "../../src/protocol/script.ts";
import type { Tool } from "../../src/protocol/tool.ts";
import { createAnthropicProvider } from "../../src/providers/anthropic.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { testModel } from "../support/test-model.ts";

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

/** Tools that record the arguments they ran with. */
function recordingTools(ran: string[]): Tool[] {
  return ["bash", "read", "write"].map((name) => ({
    name,
    description: name,
    parameters: { type: "object", properties: {} },
    execute: async (args) => {
      ran.push(`${name} ${JSON.stringify(args)}`);
      return { content: [{ type: "text", text: `${name} ran` }], is_error: false };
    },
  }));
}

const call = (name: string, args: Record<string, unknown>): ScriptTurn => ({ tool_calls: [{ name, args }] });

function setup(turns: ScriptTurn[], gate: ConfirmGate) {
  const m = (mock = startMockLlm(turns));
  const ran: string[] = [];
  const agent = new Agent({
    provider: createAnthropicProvider({ apiKey: "k", baseUrl: m.url }),
    model: testModel({ id: "claude-test", provider: "anthropic", api: "anthropic-messages" }),
    tools: recordingTools(ran),
    system: "s",
    cwd: "/tmp",
  });
  agent.chain.add(gate);
  const events: AgentEvent[] = [];
  agent.onEvent((e) => events.push(e));
  return { agent, ran, events, mock: m };
}

/** A confirmer that answers from a list and records what it was asked. */
function scripted(answers: ConfirmAnswer[]) {
  const asked: ConfirmRequest[] = [];
  const confirmer = async (request: ConfirmRequest) => {
    asked.push(request);
    const answer = answers.shift();
    if (!answer) throw new Error(`asked more than scripted: ${request.tool}`);
    return answer;
  };
  return { asked, confirmer };
}

/** The tool results the model was sent, per request, as [is_error, text]. */
function toolResults(m: MockLlm): [boolean, string][] {
  const text = (content: any) => (typeof content === "string" ? content : content.map((c: any) => c.text).join(""));
  return m.requests.flatMap((r) => {
    const last = r.body.messages.at(-1).content;
    if (typeof last === "string") return [];
    return last.filter((b: any) => b.type === "tool_result").map((b: any) => [b.is_error === true, text(b.content)]);
  });
}

const signal = () => new AbortController().signal;

describe("previewArgs", () => {
  test("the first non-empty of command, path, file_path, url, query, name", () => {
    expect(previewArgs({ command: "ls -la", path: "x" })).toBe("ls -la");
    expect(previewArgs({ command: "  ", path: "src/a.ts" })).toBe("src/a.ts");
    expect(previewArgs({ file_path: "a.go", content: "…" })).toBe("a.go");
    expect(previewArgs({ url: "https://example.com" })).toBe("https://example.com");
    expect(previewArgs({ query: "zot", name: "n" })).toBe("zot");
    expect(previewArgs({ name: "deploy" })).toBe("deploy");
  });

  test("else compact JSON; nothing for no arguments; one line; at most 120 characters with …", () => {
    expect(previewArgs({ a: 1, b: [true] })).toBe('{"a":1,"b":[true]}');
    expect(previewArgs({})).toBe("");
    expect(previewArgs({ command: "cd src &&\n  make\tall" })).toBe("cd src && make all");
    const long = previewArgs({ command: `echo ${"x".repeat(200)}` });
    expect(Array.from(long)).toHaveLength(120);
    expect(long).toEndWith("x…");
    expect(previewArgs({ command: "é".repeat(121) })).toBe(`${"é".repeat(119)}…`);
    expect(previewArgs({ command: "y".repeat(120) })).toBe("y".repeat(120));
  });
});

describe("the four answers", () => {
  test("yes runs this call only: the next call is asked again", async () => {
    const { asked, confirmer } = scripted([{ answer: "yes" }, { answer: "yes" }]);
    const { agent, ran } = setup([call("bash", { command: "ls" }), call("bash", { command: "pwd" }), { text: "done" }], new ConfirmGate({ confirmer }));
    expect(await agent.prompt({ text: "go" }, signal())).toEqual({ status: "ok" });
    expect(asked.map((r) => [r.tool, r.preview])).toEqual([
      ["bash", "ls"],
      ["bash", "pwd"],
    ]);
    expect(asked[0]!.args).toEqual({ command: "ls" });
    expect(ran).toEqual(['bash {"command":"ls"}', 'bash {"command":"pwd"}']);
  });

  test("yes for this tool: later calls of it run unasked, another tool is asked", async () => {
    const { asked, confirmer } = scripted([{ answer: "yes_tool" }, { answer: "no", reason: "not that file" }]);
    const g = new ConfirmGate({ confirmer });
    const { agent, ran } = setup(
      [call("bash", { command: "ls" }), call("bash", { command: "pwd" }), call("read", { path: "a.txt" }), { text: "done" }],
      g,
    );
    await agent.prompt({ text: "go" }, signal());
    expect(asked.map((r) => r.tool)).toEqual(["bash", "read"]);
    expect(ran).toEqual(['bash {"command":"ls"}', 'bash {"command":"pwd"}']);
    expect(g.rememberedTools()).toEqual(["bash"]);
    expect(g.confirming).toBe(true);
  });

  test("yes for everything: one question, every later call runs, confirmations are off", async () => {
    const { asked, confirmer } = scripted([{ answer: "yes_all" }]);
    const gate = new ConfirmGate({ confirmer });
    const { agent, ran } = setup(
      [call("bash", { command: "ls" }), call("read", { path: "a" }), call("write", { path: "b" }), { text: "done" }],
      gate,
    );
    await agent.prompt({ text: "go" }, signal());
    expect(asked).toHaveLength(1);
    expect(ran).toHaveLength(3);
    expect(gate.confirming).toBe(false);
  });

  test("locked on (disableBypassPermissionsMode): yes for everything approves that call only, and /yolo's toggle leaves confirmations on", async () => {
    const { asked, confirmer } = scripted([{ answer: "yes_all" }, { answer: "yes" }, { answer: "no" }]);
    const gate = new ConfirmGate({ confirmer, lockedOn: "a settings file keeps them on" });
    const { agent, ran } = setup([call("bash", { command: "ls" }), call("read", { path: "a" }), call("write", { path: "b" }), { text: "done" }], gate);
    await agent.prompt({ text: "go" }, signal());
    expect(asked.map((request) => request.tool)).toEqual(["bash", "read", "write"]);
    expect(ran).toEqual(['bash {"command":"ls"}', 'read {"path":"a"}']);
    expect(gate.confirming).toBe(true);
    expect(gate.toggle()).toBe(true);
    gate.setConfirming(false);
    expect(gate.confirming).toBe(true);
    expect(gate.lockedOn).toBe("a settings file keeps them on");
  });

  test("no: the tool does not run; the model gets 'the user declined' and the reason; an intercept event says who", async () => {
    const { confirmer } = scripted([{ answer: "no", reason: "do not run sudo" }, { answer: "no" }]);
    const { agent, ran, events, mock: m } = setup(
      [call("bash", { command: "sudo rm -rf /" }), call("bash", { command: "ls" }), { text: "ok, I will ask" }],
      new ConfirmGate({ confirmer }),
    );
    await agent.prompt({ text: "go" }, signal());
    expect(ran).toEqual([]);
    expect(toolResults(m)).toEqual([
      [true, "the user declined: do not run sudo"],
      [true, "the user declined"],
    ]);
    expect(events.filter((e) => e.type === "intercept")).toEqual([
      { type: "intercept", participant: "confirm", stage: "approve_tool", action: "deny", reason: "the user declined: do not run sudo" },
      { type: "intercept", participant: "confirm", stage: "approve_tool", action: "deny", reason: "the user declined" },
    ]);
  });
});

describe("session and run time", () => {
  test("/yolo (toggle) turns confirmations off and on again at run time", async () => {
    const { asked, confirmer } = scripted([{ answer: "yes" }]);
    const gate = new ConfirmGate({ confirmer });
    const { agent, ran } = setup([call("bash", { command: "a" }), { text: "1" }, call("bash", { command: "b" }), { text: "2" }, call("bash", { command: "c" }), { text: "3" }], gate);
    expect(gate.toggle()).toBe(false);
    await agent.prompt({ text: "one" }, signal());
    expect(asked).toHaveLength(0);
    expect(gate.toggle()).toBe(true);
    await agent.prompt({ text: "two" }, signal());
    expect(asked.map((r) => r.preview)).toEqual(["b"]);
    gate.setConfirming(false);
    await agent.prompt({ text: "three" }, signal());
    expect(asked).toHaveLength(1);
    expect(ran).toHaveLength(3);
  });

  test("starting with confirmations off (no --no-yolo) asks nothing until toggled", async () => {
    const { asked, confirmer } = scripted([]);
    const gate = new ConfirmGate({ confirmer, confirming: false });
    const { agent, ran } = setup([call("bash", { command: "a" }), { text: "1" }], gate);
    await agent.prompt({ text: "go" }, signal());
    expect(asked).toHaveLength(0);
    expect(ran).toHaveLength(1);
  });

  test("/yolo while a dialog is open approves the pending call and closes the dialog", async () => {
    let dialogSignal: AbortSignal | undefined;
    let gate: ConfirmGate;
    const confirmer = (_request: ConfirmRequest, s: AbortSignal) => {
      dialogSignal = s;
      setTimeout(() => gate.toggle(), 20);
      return new Promise<ConfirmAnswer>(() => {}); // the person never answers
    };
    gate = new ConfirmGate({ confirmer });
    const { agent, ran } = setup([call("bash", { command: "ls" }), { text: "done" }], gate);
    expect(await agent.prompt({ text: "go" }, signal())).toEqual({ status: "ok" });
    expect(ran).toEqual(['bash {"command":"ls"}']);
    expect(dialogSignal?.aborted).toBe(true);
    expect(gate.confirming).toBe(false);
  });

  test("/yolo does not approve a call a rule or hook asked about: it waits for its own answer", async () => {
    let gate: ConfirmGate;
    const reasons: unknown[] = [];
    const confirmer = (_request: ConfirmRequest, s: AbortSignal) => {
      s.addEventListener("abort", () => reasons.push((s.reason as Error).message));
      // /yolo meanwhile; then the person says no.
      setTimeout(() => gate.setConfirming(false), 20);
      return new Promise<ConfirmAnswer>((resolve) => setTimeout(() => resolve({ answer: "no", reason: "not this" }), 80));
    };
    gate = new ConfirmGate({ confirmer, confirming: true });
    const { agent, ran } = setup([call("bash", { command: "deploy" }), { text: "done" }], gate);
    const rule: Participant = {
      name: "rule",
      priority: 0,
      stages: ["approve_tool"],
      timeoutMs: 5000,
      onFailure: "deny",
      decide: (async (_stage: string, payload: { id: string }) => {
        gate.hookVerdict(payload.id, "ask", "the rule asks");
        return { action: "continue" };
      }) as Participant["decide"],
    };
    agent.chain.add(rule);
    await agent.prompt({ text: "go" }, signal());
    expect(ran).toEqual([]);
    expect(gate.confirming).toBe(false);
    // The dialog was not closed as approved: it stayed open until the person answered.
    expect(reasons).not.toContain(APPROVED_BY_YOLO);
  });

  test("/yolo approving a waiting call closes its dialog saying so", async () => {
    let reason: unknown;
    let gate: ConfirmGate;
    const confirmer = (_request: ConfirmRequest, s: AbortSignal) => {
      s.addEventListener("abort", () => (reason = (s.reason as Error).message), { once: true });
      setTimeout(() => gate.setConfirming(false), 20);
      return new Promise<ConfirmAnswer>(() => {});
    };
    gate = new ConfirmGate({ confirmer });
    const { agent, ran } = setup([call("bash", { command: "ls" }), { text: "done" }], gate);
    await agent.prompt({ text: "go" }, signal());
    expect(ran).toHaveLength(1);
    expect(reason).toBe(APPROVED_BY_YOLO);
  });

  test("cancelling the turn while a dialog is open: the dialog's signal aborts and the tool never runs", async () => {
    const turn = new AbortController();
    let dialogSignal: AbortSignal | undefined;
    const confirmer = (_request: ConfirmRequest, s: AbortSignal) => {
      dialogSignal = s;
      setTimeout(() => turn.abort(), 20);
      return new Promise<ConfirmAnswer>(() => {});
    };
    const { agent, ran, mock: m } = setup([call("write", { path: "x" })], new ConfirmGate({ confirmer }));
    expect(await agent.prompt({ text: "go" }, turn.signal)).toEqual({ status: "aborted" });
    expect(dialogSignal?.aborted).toBe(true);
    expect(ran).toEqual([]);
    expect(m.requests).toHaveLength(1);
    // The call keeps a result, so the next request is well formed.
    const results = agent.messages.at(-1)!.content;
    expect(results).toEqual([{ type: "tool_result", call_id: expect.any(String), is_error: true, content: [{ type: "text", text: "aborted before running" }] }]);
  });

  test("no one to ask (a run with no terminal): every call is refused with the reason given", async () => {
    const gate = new ConfirmGate({ unattended: "tool call refused: --no-yolo is on and -p has no terminal to ask in" });
    const { agent, ran, mock: m } = setup([call("bash", { command: "ls" }), { text: "I could not run it" }], gate);
    await agent.prompt({ text: "go" }, signal());
    expect(ran).toEqual([]);
    expect(toolResults(m)).toEqual([[true, "tool call refused: --no-yolo is on and -p has no terminal to ask in"]]);
  });

  test("a confirmer that fails denies the call (approvers fail closed)", async () => {
    const gate = new ConfirmGate({
      confirmer: async () => {
        throw new Error("the dialog crashed");
      },
    });
    const { agent, ran, mock: m } = setup([call("bash", { command: "ls" }), { text: "ok" }], gate);
    await agent.prompt({ text: "go" }, signal());
    expect(ran).toEqual([]);
    expect(toolResults(m)[0]![1]).toContain("confirm failed at approve_tool: the dialog crashed");
  });
});

describe("calls that need no question, and what a question shows", () => {
  test("a call the runtime marks unasked runs without a question, even with no one to ask; it got through by policy", async () => {
    const unasked = ({ name, args }: { name: string; args: Record<string, unknown> }) => name === "read" && args.path === "inside.txt";
    const { asked, confirmer } = scripted([{ answer: "no" }]);
    const gate = new ConfirmGate({ confirmer, unasked });
    const { agent, ran } = setup([call("read", { path: "inside.txt" }), call("read", { path: "/etc/passwd" }), { text: "ok" }], gate);
    await agent.prompt({ text: "go" }, signal());
    expect(asked.map((r) => r.preview)).toEqual(["/etc/passwd"]);
    expect(ran).toEqual(['read {"path":"inside.txt"}']);

    const alone = new ConfirmGate({ unasked });
    expect(await alone.decide("approve_tool", { id: "c1", name: "read", args: { path: "inside.txt" } }, signal())).toEqual({ action: "continue" });
    expect(alone.approvalSource("c1")).toBe("policy");
    expect((await alone.decide("approve_tool", { id: "c2", name: "read", args: { path: "elsewhere" } }, signal())).action).toBe("deny");
  });

  test("the question carries the call's preview (a diff); a preview that fails leaves it out", async () => {
    const { asked, confirmer } = scripted([{ answer: "yes" }, { answer: "yes" }]);
    const preview = async ({ args }: { name: string; args: Record<string, unknown> }) => {
      if (args.path === "broken") throw new Error("cannot diff");
      return `--- a/${args.path}\n+++ b/${args.path}\n+new`;
    };
    const gate = new ConfirmGate({ confirmer, preview });
    const { agent } = setup([call("write", { path: "a.txt" }), call("write", { path: "broken" }), { text: "ok" }], gate);
    await agent.prompt({ text: "go" }, signal());
    expect(asked[0]!.diff).toBe("--- a/a.txt\n+++ b/a.txt\n+new");
    expect(asked[1]).not.toHaveProperty("diff");
  });
});

describe("composition with the chain", () => {
  const participant = (name: string, stages: Participant["stages"], decide: (stage: string, payload: any) => Promise<unknown>): Participant => ({
    name,
    priority: 0,
    stages,
    timeoutMs: 5000,
    onFailure: "deny",
    decide: decide as Participant["decide"],
  });

  test("the person sees the arguments a tool_call participant rewrote, and the tool runs with them", async () => {
    const { asked, confirmer } = scripted([{ answer: "yes" }]);
    const { agent, ran } = setup([call("bash", { command: "rm -rf build" }), { text: "ok" }], new ConfirmGate({ confirmer }));
    agent.chain.add(
      participant("guard", ["tool_call"], async (_stage, payload: any) => ({
        action: "modify",
        value: { command: `${payload.args.command} --interactive` },
      })),
    );
    await agent.prompt({ text: "go" }, signal());
    expect(asked.map((r) => r.preview)).toEqual(["rm -rf build --interactive"]);
    expect(ran).toEqual(['bash {"command":"rm -rf build --interactive"}']);
  });

  test("another approver runs first: its deny means the person is never asked; its yes still needs the person's", async () => {
    const { asked, confirmer } = scripted([{ answer: "no" }]);
    const { agent, ran, mock: m } = setup(
      [call("bash", { command: "curl evil" }), call("read", { path: "a" }), { text: "ok" }],
      new ConfirmGate({ confirmer }),
    );
    agent.chain.add(
      participant("policy", ["approve_tool"], async (_stage, payload: any) =>
        payload.name === "bash" ? { action: "deny", reason: "policy: no network" } : { action: "continue" },
      ),
    );
    expect(agent.chain.list().map((p) => p.name)).toEqual(["policy", "confirm"]);
    await agent.prompt({ text: "go" }, signal());
    expect(asked.map((r) => r.tool)).toEqual(["read"]);
    expect(ran).toEqual([]);
    expect(toolResults(m)).toEqual([
      [true, "policy: no network"],
      [true, "the user declined"],
    ]);
  });

  test("an ask holds against an allow, whichever comes first; two asks show both reasons", async () => {
    const { asked, confirmer } = scripted([{ answer: "yes" }, { answer: "yes" }]);
    const gate = new ConfirmGate({ confirmer, confirming: false });
    const { agent, ran } = setup([call("bash", { command: "deploy" }), call("read", { path: "a" }), { text: "ok" }], gate);
    agent.chain.add(
      participant("verdicts", ["approve_tool"], async (_stage, payload: any) => {
        if (payload.name === "bash") {
          gate.hookVerdict(payload.id, "ask", "a hook asks: deploys need a human");
          gate.hookVerdict(payload.id, "allow");
        } else {
          gate.hookVerdict(payload.id, "allow");
          gate.hookVerdict(payload.id, "ask", "the rule asks");
          gate.hookVerdict(payload.id, "ask", "the other rule asks");
        }
        return { action: "continue" };
      }),
    );
    await agent.prompt({ text: "go" }, signal());
    expect(asked.map((r) => [r.tool, r.why])).toEqual([
      ["bash", "a hook asks: deploys need a human"],
      ["read", "the rule asks; the other rule asks"],
    ]);
    expect(ran).toHaveLength(2);
  });

  test("an allow holds for the arguments it judged: a later participant's rewrite is confirmed as any call", async () => {
    const { asked, confirmer } = scripted([{ answer: "no" }]);
    const gate = new ConfirmGate({ confirmer, confirming: true });
    const { agent, ran } = setup([call("bash", { command: "echo hi" }), call("bash", { command: "echo fine" }), { text: "ok" }], gate);
    // A PreToolUse hook allows what it saw; a participant after it rewrites the first call only.
    agent.chain.add({ ...participant("a-hook", ["tool_call"], async (_stage, payload: any) => (gate.hookVerdict(payload.id, "allow", undefined, payload.args), { action: "continue" })), priority: 0 });
    agent.chain.add({
      ...participant("z-rewriter", ["tool_call"], async (_stage, payload: any) =>
        payload.args.command === "echo hi" ? { action: "modify", value: { command: "echo PWNED > pwned.txt" } } : { action: "continue" },
      ),
      priority: 1,
    });
    await agent.prompt({ text: "go" }, signal());
    // The rewritten call is asked about (and refused); the one that ran as allowed needs no question.
    expect(asked.map((r) => r.preview)).toEqual(["echo PWNED > pwned.txt"]);
    expect(ran).toEqual(['bash {"command":"echo fine"}']);
  });

  test("forget drops what was said of an id, so a later call that reuses it is judged afresh", async () => {
    const { asked, confirmer } = scripted([{ answer: "no" }]);
    const gate = new ConfirmGate({ confirmer, confirming: true });
    const { agent, ran } = setup([call("bash", { command: "deploy" }), { text: "ok" }], gate);
    agent.chain.add(
      participant("stale", ["approve_tool"], async (_stage, payload: any) => {
        gate.hookVerdict(payload.id, "allow");
        gate.forget(payload.id);
        return { action: "continue" };
      }),
    );
    await agent.prompt({ text: "go" }, signal());
    expect(asked.map((r) => r.tool)).toEqual(["bash"]);
    expect(ran).toEqual([]);
  });
});
