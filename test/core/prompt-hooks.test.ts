// The agent's prompt hooks (core/prompt-hooks.ts), the points outside the chain that settings
// hooks fill: a prompt refused before it enters the transcript or given context, the agent sent
// back to work when it would stop, a compaction refused before it starts.
import { describe, expect, test } from "bun:test";
import { Agent } from "../../src/core/agent.ts";
import type { PromptHooks } from "../../src/core/prompt-hooks.ts";
import type { AgentEvent } from "../../src/protocol/events.ts";
import type { Message } from "../../src/protocol/messages.ts";
import { type ModelRequest, type Provider, ProviderError } from "../../src/protocol/provider.ts";
import { testModel } from "../support/test-model.ts";

/** Plays text answers (an "!" answer fails the call) and records every request. */
function setup(answers: string[], hooks: PromptHooks, messages: Message[] = [], contextWindow = 100_000) {
  const requests: ModelRequest[] = [];
  const provider: Provider = {
    name: "fake",
    async *stream(request) {
      requests.push(structuredClone(request));
      const text = answers.shift();
      if (text === undefined || text === "!") throw new ProviderError("fake: failed", "bad_request");
      yield [
        { type: "usage", usage: { input: 10, output: 10, cache_read: 0, cache_write: 0 } },
        { type: "done", content: [{ type: "text", text }], stop: "end_turn" },
      ];
    },
  };
  const agent = new Agent({ provider, model: testModel({ context_window: contextWindow }), tools: [], system: "sys", cwd: "/tmp", messages });
  agent.setPromptHooks(hooks);
  const events: AgentEvent[] = [];
  agent.onEvent((event) => events.push(event));
  return { agent, events, requests };
}

const signal = () => new AbortController().signal;
const userTexts = (request: ModelRequest) =>
  request.messages.filter((m) => m.role === "user").map((m) => m.content.map((b) => (b.type === "text" ? b.text : "")).join("|"));

describe("submit (UserPromptSubmit)", () => {
  test("a refused prompt never enters the transcript and never reaches the model: error (blocked), done", async () => {
    const { agent, events, requests } = setup(["unused"], { submit: async () => ({ block: "no secrets in prompts" }) });
    expect(await agent.prompt({ text: "my password" }, signal())).toEqual({ status: "blocked", reason: "no secrets in prompts" });
    expect(agent.messages).toEqual([]);
    expect(requests).toEqual([]);
    expect(events).toEqual([{ type: "error", message: "no secrets in prompts", code: "blocked" }, { type: "done" }]);
  });

  test("context goes beside the prompt in the same user message", async () => {
    const seen: string[] = [];
    const { agent, requests } = setup(["ok"], {
      submit: async (text) => {
        seen.push(text);
        return { context: ["[hook] it is Friday"] };
      },
    });
    await agent.prompt({ text: "what day is it?", context: "piped" }, signal());
    expect(seen).toEqual(["what day is it?"]);
    expect(userTexts(requests[0])).toEqual(["<stdin>\npiped\n</stdin>\n\nwhat day is it?|[hook] it is Friday"]);
  });
});

describe("stopping (Stop)", () => {
  test("a reason sends the agent back with it as the next user message, until it lets go", async () => {
    const reasons = ["run the tests", "and the linter"];
    let asked = 0;
    const { agent, events, requests } = setup(["done", "tests pass", "lint clean"], {
      stopping: async () => {
        asked++;
        return reasons.shift();
      },
    });
    expect(await agent.prompt({ text: "fix it" }, signal())).toEqual({ status: "ok" });
    expect(asked).toBe(3);
    expect(requests.map((r) => userTexts(r).at(-1))).toEqual(["fix it", "run the tests", "and the linter"]);
    expect(events.filter((e) => e.type === "user_message")).toHaveLength(3);
    expect(events.filter((e) => e.type === "done")).toHaveLength(1);
  });

  test("a prompt that failed is not a stop: the hook is not asked", async () => {
    let asked = 0;
    const { agent } = setup(["!"], { stopping: async () => (asked++, "again") });
    expect((await agent.prompt({ text: "x" }, signal())).status).toBe("error");
    expect(asked).toBe(0);
  });
});

describe("compacting (PreCompact)", () => {
  const TIME = "2025-01-01T00:00:00.000Z";
  const long = (role: Message["role"], n: number): Message => ({ role, content: [{ type: "text", text: `${"words ".repeat(n)}` }], time: TIME });
  const history = () => [long("user", 2000), long("assistant", 2000), long("user", 10), long("assistant", 10)];

  test("a refusal ends the compaction before compact_start: an error, the transcript as it was, no model call", async () => {
    const asked: unknown[] = [];
    const { agent, events, requests } = setup([], { compacting: async (reason, instructions) => (asked.push([reason, instructions]), "the task is mid-flight") }, history(), 4_000);
    const before = agent.messages.slice();
    const outcome = await agent.compact(signal(), { instructions: "keep paths" });
    expect(outcome).toEqual({ status: "error", message: "the task is mid-flight", code: "compaction" });
    expect(asked).toEqual([["manual", "keep paths"]]);
    expect(events).toEqual([{ type: "error", message: "the task is mid-flight", code: "compaction" }, { type: "done" }]);
    expect(agent.messages).toEqual(before);
    expect(requests).toEqual([]);
  });

  test("no refusal: the compaction goes on", async () => {
    const { agent } = setup(["## Goal\nsummary"], { compacting: async () => undefined }, history(), 4_000);
    expect((await agent.compact(signal())).status).toBe("ok");
  });
});
