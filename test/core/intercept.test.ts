import { describe, expect, test } from "bun:test";
import { type Decision, InterceptChain, type Participant } from "../../src/core/intercept.ts";
import type { AgentEvent, InterceptStage } from "../../src/protocol/events.ts";

function participant(
  name: string,
  decide: (stage: InterceptStage, payload: any) => Decision | Promise<Decision>,
  extra: Partial<Participant> = {},
): Participant {
  return {
    name,
    priority: 0,
    stages: ["turn_start", "before_llm", "after_llm", "tool_call", "approve_tool", "after_tool", "assistant_message"],
    timeoutMs: 1000,
    onFailure: "allow",
    decide: async (stage, payload) => (await decide(stage, payload)) as any,
    ...extra,
  };
}

const signal = () => new AbortController().signal;
const toolCall = { id: "c1", name: "bash", args: { command: "ls" } };

describe("InterceptChain", () => {
  test("runs participants by priority, then name, whatever the order they were added", async () => {
    const seen: string[] = [];
    const chain = new InterceptChain();
    for (const [name, priority] of [["zeta", 0], ["alpha", 0], ["first", -5], ["last", 10]] as const) {
      chain.add(participant(name, () => (seen.push(name), { action: "continue" }), { priority }));
    }
    await chain.run("tool_call", toolCall, signal());
    expect(seen).toEqual(["first", "alpha", "zeta", "last"]);
  });

  test("folds rewrites: each participant sees the previous one's args", async () => {
    const seenBySecond: unknown[] = [];
    const chain = new InterceptChain();
    chain.add(participant("a", () => ({ action: "modify", value: { command: "ls -la" } })));
    chain.add(
      participant("b", (_s, p) => {
        seenBySecond.push(p.args);
        return { action: "modify", value: { ...p.args, timeout: 5 } };
      }),
    );
    const out = await chain.run("tool_call", toolCall, signal());
    expect(seenBySecond).toEqual([{ command: "ls -la" }]);
    expect(out.action).toBe("continue");
    expect(out.payload.args).toEqual({ command: "ls -la", timeout: 5 });
  });

  test("an empty modify never erases an earlier rewrite; non-object args are ignored and logged", async () => {
    const logs: string[] = [];
    const chain = new InterceptChain({ log: (m) => logs.push(m) });
    chain.add(participant("a", () => ({ action: "modify", value: { command: "pwd" } })));
    chain.add(participant("b", () => ({ action: "modify", value: undefined })));
    chain.add(participant("c", () => ({ action: "modify", value: ["not", "an", "object"] as any })));
    const out = await chain.run("tool_call", toolCall, signal());
    expect(out.payload.args).toEqual({ command: "pwd" });
    expect(logs.some((l) => l.includes("c: modified args must be a JSON object"))).toBe(true);
  });

  test("stops at the first deny and reports it; later participants are not asked", async () => {
    const events: AgentEvent[] = [];
    let askedLater = false;
    const chain = new InterceptChain({ emit: (e) => events.push(e) });
    chain.add(participant("a-guard", () => ({ action: "deny", reason: "rm is not allowed" })));
    chain.add(participant("b-late", () => ((askedLater = true), { action: "continue" })));
    const out = await chain.run("tool_call", toolCall, signal());
    expect(out).toMatchObject({ action: "deny", reason: "rm is not allowed", participant: "a-guard" });
    expect(askedLater).toBe(false);
    expect(events).toEqual([
      { type: "intercept", participant: "a-guard", stage: "tool_call", action: "deny", reason: "rm is not allowed" },
    ]);
  });

  test("respond ends tool_call with a result; respond elsewhere is ignored", async () => {
    const chain = new InterceptChain();
    chain.add(
      participant("r", () => ({ action: "respond", result: { content: [{ type: "text", text: "cached" }], is_error: false } })),
    );
    const out = await chain.run("tool_call", toolCall, signal());
    expect(out.action).toBe("respond");
    if (out.action === "respond") expect(out.result.content).toEqual([{ type: "text", text: "cached" }]);
    const turn = await chain.run("turn_start", { step: 1 }, signal());
    expect(turn.action).toBe("continue");
  });

  test("approve_tool needs every approver's yes", async () => {
    const chain = new InterceptChain();
    chain.add(participant("a", () => ({ action: "continue" })));
    chain.add(participant("b", () => ({ action: "deny", reason: "not today" })));
    const out = await chain.run("approve_tool", toolCall, signal());
    expect(out).toMatchObject({ action: "deny", reason: "not today", participant: "b" });
  });

  test("timeouts follow each participant's rule: allow continues, deny denies", async () => {
    const logs: string[] = [];
    const chain = new InterceptChain({ log: (m) => logs.push(m) });
    chain.add(participant("slow-ext", () => new Promise(() => {}), { timeoutMs: 30, onFailure: "allow" }));
    const allowed = await chain.run("tool_call", toolCall, signal());
    expect(allowed.action).toBe("continue");
    expect(logs[0]).toContain("slow-ext did not answer tool_call within 30 ms; allowed");

    chain.add(participant("slow-approver", () => new Promise(() => {}), { timeoutMs: 30, onFailure: "deny", stages: ["approve_tool"] }));
    const denied = await chain.run("approve_tool", toolCall, signal());
    expect(denied.action).toBe("deny");
  });

  test("a participant that throws is skipped under skip and the chain goes on", async () => {
    const chain = new InterceptChain();
    chain.add(participant("a-broken", () => { throw new Error("boom"); }, { onFailure: "skip" }));
    chain.add(participant("b-ok", () => ({ action: "modify", value: { command: "echo ok" } })));
    const out = await chain.run("tool_call", toolCall, signal());
    expect(out.payload.args).toEqual({ command: "echo ok" });
  });

  test("a timeout beyond setTimeout's limit waits for the answer instead of expiring at once", async () => {
    const chain = new InterceptChain();
    chain.add(
      participant("patient", async () => {
        await Bun.sleep(30);
        return { action: "modify", value: { command: "ls -la" } };
      }, { timeoutMs: 30 * 24 * 3600 * 1000, onFailure: "deny" }),
    );
    const out = await chain.run("tool_call", toolCall, signal());
    expect(out.action).toBe("continue");
    expect(out.payload.args).toEqual({ command: "ls -la" });
  });

  test("per-stage timeouts apply to their stage only", async () => {
    const chain = new InterceptChain();
    chain.add(
      participant("p", () => new Promise((r) => setTimeout(() => r({ action: "deny", reason: "late" }), 60)), {
        timeoutMs: { tool_call: 10, approve_tool: 500 },
      }),
    );
    expect((await chain.run("tool_call", toolCall, signal())).action).toBe("continue");
    expect((await chain.run("approve_tool", toolCall, signal())).action).toBe("deny");
  });

  test("modify on a stage that cannot be modified is ignored", async () => {
    const chain = new InterceptChain();
    chain.add(participant("p", () => ({ action: "modify", value: { step: 99 } as never })));
    const out = await chain.run("turn_start", { step: 1 }, signal());
    expect(out.payload).toEqual({ step: 1 });
  });

  test("replacing a participant with the same name keeps one copy", async () => {
    const chain = new InterceptChain();
    chain.add(participant("same", () => ({ action: "deny", reason: "old" })));
    chain.add(participant("same", () => ({ action: "deny", reason: "new" })));
    expect(chain.list()).toHaveLength(1);
    expect(await chain.run("tool_call", toolCall, signal())).toMatchObject({ reason: "new" });
  });

  test("a participant from configuration named like one of zot's own sits beside it; removing by name never takes zot's own", async () => {
    const asked: string[] = [];
    const chain = new InterceptChain();
    chain.add(participant("confirm", () => (asked.push("zot's"), { action: "deny", reason: "zot's gate" }), { builtin: true }));
    chain.add(participant("confirm", () => (asked.push("a hook's"), { action: "continue" })));
    expect(chain.list()).toHaveLength(2);
    // zot's own first at the same place, and its deny still holds.
    expect(await chain.run("approve_tool", toolCall, signal())).toMatchObject({ action: "deny", reason: "zot's gate" });
    expect(asked).toEqual(["zot's"]);
    // Added again in the other order (an extension reload): still two.
    chain.add(participant("confirm", () => ({ action: "continue" })));
    chain.add(participant("confirm", () => ({ action: "deny", reason: "zot's gate again" }), { builtin: true }));
    expect(chain.list().map((p) => p.builtin === true)).toEqual([true, false]);
    chain.remove("confirm");
    expect(chain.list().map((p) => p.builtin === true)).toEqual([true]);
  });
});
