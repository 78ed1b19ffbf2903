// The reference clients in examples/rpc/ (Python, Node, bash + jq) run as a user runs them, as
// real processes against dist/zot rpc (ZOT_BIN) and the mock LLM: the answer, a tool call's round
// trip, a failed turn, a failed automatic compaction the turn went on from, the token handshake, zot failing to start; and the Python and Node client
// classes driven as libraries (hello, a streamed prompt aborted mid-way, state, set_reasoning, close).
// Rule: assert what the client prints and how it exits, and what reached the model.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicMock, rpcFixture } from "../support/rpc-process.ts";
import { cleanEnv, ROOT, tempDir, ZOT } from "../support/zot.ts";

const EXAMPLES = join(ROOT, "examples", "rpc");
const CLIENTS = {
  python: ["python3", join(EXAMPLES, "python", "zot_rpc.py")],
  node: ["node", join(EXAMPLES, "node", "zot-rpc.mjs")],
  shell: ["bash", join(EXAMPLES, "shell", "zot-rpc.sh")],
} as const;
type Client = keyof typeof CLIENTS;

/** The test's mock LLM, stopped when it ends (the clients start zot rpc themselves). */
const fixture = rpcFixture();

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(command: readonly string[], env: Record<string, string> = {}, where = { cwd: tempDir("zot-client-cwd-"), home: tempDir("zot-client-home-") }): Promise<Run> {
  const proc = Bun.spawn([...command], {
    cwd: where.cwd,
    // No __pycache__ left in examples/ by the library test.
    env: cleanEnv(where.home, { ZOT_BIN: ZOT, PYTHONDONTWRITEBYTECODE: "1", ...env }),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** One prompt through a client's command line, with zot's flags after it. */
function runClient(client: Client, prompt: string, zotFlags: string[], env: Record<string, string> = {}): Promise<Run> {
  return run([...CLIENTS[client], prompt, ...zotFlags], env);
}

/** The text of the tool results in the newest message of an Anthropic request. */
function toolResultText(body: any): string {
  const blocks = body.messages.at(-1).content.filter((b: any) => b.type === "tool_result");
  return JSON.stringify(blocks.map((b: any) => b.content));
}

// The shell client's Ctrl+C is the shell's own; these two handle it themselves.
describe.each(["python", "node"] as const)("%s client, interrupted", (client) => {
  test("Ctrl+C mid-answer (the client alone interrupted): zot is asked to abort, the answer so far is printed, exit 130", async () => {
    const long = Array.from({ length: 400 }, (_, i) => `streamed word ${i}`).join(" ");
    const mock = fixture.llm([{ text: long, chunk_size: 8, chunk_delay_ms: 20 }]);
    const proc = Bun.spawn([...CLIENTS[client], "talk slowly", ...anthropicMock(mock.url), "--no-ext"], {
      cwd: tempDir("zot-client-cwd-"),
      env: cleanEnv(tempDir("zot-client-home-"), { ZOT_BIN: ZOT, PYTHONDONTWRITEBYTECODE: "1" }),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    for (let i = 0; i < 100 && mock.requests.length === 0; i++) await Bun.sleep(50);
    await Bun.sleep(700);
    proc.kill("SIGINT");
    const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(130);
    expect(stdout).toStartWith("streamed word 0 streamed word 1");
    expect(stdout).not.toContain("streamed word 399");
  });
});

describe.each(Object.keys(CLIENTS) as Client[])("%s client", (client) => {
  test("a tool call's round trip: the call and its result on stderr, the final answer on stdout, exit 0", async () => {
    const mock = fixture.llm([
      { text: "Let me look.", tool_calls: [{ id: "toolu_1", name: "bash", args: { command: "echo from-the-tool" } }] },
      { text: "The command printed: {{last_tool_result}}" },
    ]);
    const r = await runClient(client, "what does echo print?", [...anthropicMock(mock.url), "--no-ext"]);
    expect(r.stderr).toContain('[tool] bash {"command":"echo from-the-tool"}');
    expect(r.stderr).toContain("[result] from-the-tool");
    expect(r.stdout).toStartWith("The command printed: from-the-tool");
    expect(r.stdout).not.toContain("Let me look.");
    expect(r.code).toBe(0);
    // The prompt reached the model, and the tool's output went back to it.
    expect(mock.requests).toHaveLength(2);
    expect(JSON.stringify(mock.requests[0].body.messages)).toContain("what does echo print?");
    expect(toolResultText(mock.requests[1].body)).toContain("from-the-tool");
  });

  test("a failed turn: the provider's error on stderr, exit 1", async () => {
    const mock = fixture.llm([{ error: { status: 400, message: "the request was refused on purpose" } }]);
    const r = await runClient(client, "hi", [...anthropicMock(mock.url), "--no-ext"]);
    expect(r.stderr).toContain("the request was refused on purpose");
    expect(r.stdout).toBe("");
    expect(r.code).toBe(1);
  });

  test("an automatic compaction that fails before the answer: the answer on stdout, exit 0 (the turn went on)", async () => {
    const where = { cwd: tempDir("zot-client-cwd-"), home: tempDir("zot-client-home-") };
    writeFileSync(join(where.home, "models.json"), JSON.stringify({ providers: { anthropic: { models: [{ id: "small", contextWindow: 40_000 }] } } }));
    // A first prompt fills most of the small window; the client's prompt, in the same session, compacts first.
    const mock = fixture.llm([
      { text: "First answer.", usage: { input: 30_000, output: 10 } },
      { error: { status: 400, message: "the summary was refused on purpose" } },
      { text: "Answer after the failed compaction." },
    ]);
    const flags = [...anthropicMock(mock.url), "--no-ext", "--model", "small", "--auto-compact", "20"];
    // (long enough that a compaction has older turns to summarise)
    const first = await run([ZOT, "-p", `the whole log: ${"line of output ".repeat(3200)}`, ...flags], {}, where);
    expect(first.code).toBe(0);
    const r = await run([...CLIENTS[client], "the short question", ...flags, "-c"], {}, where);
    expect(mock.requests).toHaveLength(3);
    expect(r.stdout.trim()).toBe("Answer after the failed compaction.");
    expect(r.code).toBe(0);
  });

  test("with ZOTCORE_RPC_TOKEN set, hello carries it and the prompt is answered", async () => {
    const mock = fixture.llm([{ text: "authorised answer" }]);
    const r = await runClient(client, "hi", [...anthropicMock(mock.url), "--no-ext"], { ZOTCORE_RPC_TOKEN: "s3cret" });
    expect(r.stdout).toBe("authorised answer\n");
    expect(r.code).toBe(0);
  });

  test("zot cannot start (a bad flag): zot's message, the client's own line, zot's exit code", async () => {
    const r = await runClient(client, "hi", ["--provider", "anthropic", "--api-key", "k", "--no-such-flag"]);
    expect(r.stderr).toContain('unknown flag "--no-such-flag"');
    expect(r.stderr).toContain("zot rpc exited with code 2 before answering");
    expect(r.stdout).toBe("");
    expect(r.code).toBe(2);
  });

  test("zot is not there: it says so and how to point at it, exit 127", async () => {
    const missing = join(tempDir("zot-missing-"), "zot");
    const r = await runClient(client, "hi", [], { ZOT_BIN: missing });
    expect(r.stderr).toContain(`cannot start ${missing}`);
    expect(r.stderr).toContain("set ZOT_BIN or put zot on PATH");
    expect(r.stdout).toBe("");
    expect(r.code).toBe(127);
  });
});

/** A turn that streams slowly enough that an abort sent at its first delta lands mid-stream. */
const SLOW = { text: "word ".repeat(120), chunk_size: 5, chunk_delay_ms: 20 };

describe("the client classes as libraries", () => {
  test("python: hello, a prompt aborted at its first delta (turn_end aborted, done), state, close → 0", async () => {
    const mock = fixture.llm([SLOW]);
    const script = `
import json, sys
sys.path.insert(0, ${JSON.stringify(join(EXAMPLES, "python"))})
from zot_rpc import ZotRpc
client = ZotRpc(args=sys.argv[1:])
print(json.dumps(client.hello()))
seen = []
for event in client.prompt("count slowly"):
    seen.append(event)
    if event["type"] == "text_delta" and len([e for e in seen if e["type"] == "text_delta"]) == 1:
        client.abort()
print(json.dumps(seen))
print(json.dumps(client.state()))
print(client.close())
`;
    const r = await run(["python3", "-c", script, ...anthropicMock(mock.url), "--no-ext"]);
    expect(r.stderr).toBe("");
    expectAbortedRun(r);
  });

  test("node: hello, a prompt aborted at its first delta (turn_end aborted, done), state, close → 0", async () => {
    const mock = fixture.llm([SLOW]);
    const script = `
import { ZotRpc } from ${JSON.stringify(`file://${join(EXAMPLES, "node", "zot-rpc.mjs")}`)};
const client = new ZotRpc({ args: process.argv.slice(1) });
console.log(JSON.stringify(await client.hello()));
const seen = [];
for await (const event of await client.prompt("count slowly")) {
  seen.push(event);
  if (event.type === "text_delta" && seen.filter((e) => e.type === "text_delta").length === 1) await client.abort();
}
console.log(JSON.stringify(seen));
console.log(JSON.stringify(await client.state()));
console.log(await client.close());
`;
    const r = await run(["node", "--input-type=module", "-e", script, "--", ...anthropicMock(mock.url), "--no-ext"]);
    expect(r.stderr).toBe("");
    expectAbortedRun(r);
  });
});

describe("set_reasoning in the client classes", () => {
  const scripts = {
    python: (flags: string[]) => [
      "python3",
      "-c",
      `
import json, sys
sys.path.insert(0, ${JSON.stringify(join(EXAMPLES, "python"))})
from zot_rpc import ZotRpc
client = ZotRpc(args=sys.argv[1:])
print(json.dumps(client.set_reasoning("max")))
for event in client.prompt("think hard"):
    pass
print(client.close())
`,
      ...flags,
    ],
    node: (flags: string[]) => [
      "node",
      "--input-type=module",
      "-e",
      `
import { ZotRpc } from ${JSON.stringify(`file://${join(EXAMPLES, "node", "zot-rpc.mjs")}`)};
const client = new ZotRpc({ args: process.argv.slice(1) });
console.log(JSON.stringify(await client.setReasoning("max")));
for await (const event of await client.prompt("think hard"));
console.log(await client.close());
`,
      "--",
      ...flags,
    ],
  };
  test.each(Object.keys(scripts) as (keyof typeof scripts)[])("%s: set_reasoning max reaches the next request as the default model's effort max", async (client) => {
    const mock = fixture.llm([{ text: "thought" }]);
    const r = await run(scripts[client]([...anthropicMock(mock.url), "--no-ext"]));
    expect(r.stderr).toBe("");
    const [answer, code] = r.stdout.trim().split("\n");
    expect(JSON.parse(answer!)).toEqual({ reasoning: "max", applied: "max" });
    expect(code).toBe("0");
    // The default model (claude-sonnet-5-5) thinks adaptively: the level is its effort, never a budget.
    expect(mock.requests[0].body.model).toBe("claude-sonnet-5-5");
    expect(mock.requests[0].body.output_config).toEqual({ effort: "max" });
    expect(mock.requests[0].body.thinking).toMatchObject({ type: "adaptive" });
    expect(mock.requests[0].body.thinking.budget_tokens).toBeUndefined();
  });
});

function expectAbortedRun(r: Run): void {
  expect(r.code).toBe(0);
  const [hello, events, state, closed] = r.stdout.trim().split("\n");
  expect(JSON.parse(hello!)).toMatchObject({ protocol_version: 1, provider: "anthropic", model: "claude-sonnet-5-5" });
  const seen = JSON.parse(events!) as any[];
  expect(seen[0]).toMatchObject({ type: "user_message", content: [{ type: "text", text: "count slowly" }] });
  expect(seen.at(-2)).toEqual({ type: "turn_end", stop: "aborted" });
  expect(seen.at(-1)).toEqual({ type: "done" });
  const streamed = seen.filter((e) => e.type === "text_delta").map((e) => e.delta).join("");
  expect(streamed.length).toBeGreaterThan(0);
  expect(streamed.length).toBeLessThan(SLOW.text.length);
  // The prompt and the part of the answer that streamed before the abort.
  expect(JSON.parse(state!)).toMatchObject({ busy: false, queued: 0, message_count: 2 });
  expect(closed).toBe("0");
}
