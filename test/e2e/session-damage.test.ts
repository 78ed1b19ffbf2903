// A damaged session always resumes into a request the provider accepts. A session with tool
// calls is recorded through the binary, then each of its records in turn is lost, garbled or cut
// off (the file ends in the middle of it), and every damaged copy is resumed against the mock LLM
// on Anthropic, OpenAI Chat Completions and OpenAI Responses; each request must keep the rules the
// real APIs enforce (test/support/provider-rules.ts), or every later turn of the session would fail.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionDir } from "../../src/session/paths.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { anthropicViolations, openaiChatViolations, openaiResponsesViolations, requestViolations } from "../support/provider-rules.ts";
import { tempDir, zot } from "../support/zot.ts";

let mock: MockLlm;
const home = tempDir("zot-damage-home-");
const cwd = tempDir("zot-damage-cwd-");
const copies = tempDir("zot-damage-copies-");
let lines: string[] = [];

const PROVIDERS: Record<string, string[]> = {
  anthropic: ["--provider", "anthropic"],
  "openai-chat": ["--provider", "openai", "--model", "gpt-4.1"],
  "openai-responses": ["--provider", "openai", "--model", "gpt-5"],
};
const baseUrl = (provider: string) => (provider === "anthropic" ? mock.url : `${mock.url}/v1`);

beforeAll(async () => {
  writeFileSync(join(cwd, "a.txt"), "alpha\n");
  mock = startMockLlm([
    {
      tool_calls: [
        { id: "toolu_read", name: "read", args: { path: "a.txt" } },
        { id: "toolu_echo", name: "bash", args: { command: "echo hi" } },
      ],
    },
    { tool_calls: [{ id: "toolu_write", name: "write", args: { path: "b.txt", content: "beta\n" } }] },
    { text: "done" },
    { text: "second answer" },
  ]);
  const flags = ["--provider", "anthropic", "--api-key", "k", "--base-url", mock.url];
  expect((await zot(["-p", "read a, run echo, write b", ...flags], { home, cwd })).code).toBe(0);
  expect((await zot(["-p", "-c", "anything else?", ...flags], { home, cwd })).code).toBe(0);
  const dir = sessionDir(home, cwd);
  const [file] = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  lines = readFileSync(join(dir, file!), "utf8").split("\n").slice(0, -1);
});
afterAll(() => mock?.stop());

/** The session with record `index` (0 is the header) damaged one way. */
function damaged(index: number, how: "lost" | "garbled" | "cut"): string {
  const line = lines[index]!;
  const half = line.slice(0, Math.floor(line.length / 2));
  if (how === "lost") return [...lines.slice(0, index), ...lines.slice(index + 1)].map((l) => `${l}\n`).join("");
  if (how === "garbled") return [...lines.slice(0, index), half, ...lines.slice(index + 1)].map((l) => `${l}\n`).join("");
  return lines.slice(0, index).map((l) => `${l}\n`).join("") + half;
}

async function resume(content: string, name: string, provider: string) {
  const file = join(copies, `${name}.jsonl`);
  writeFileSync(file, content);
  mock.push({ text: "resumed" });
  const run = await zot(["-p", "--session", file, "go on", ...PROVIDERS[provider]!, "--api-key", "k", "--base-url", baseUrl(provider)], { home, cwd });
  return { run, request: mock.requests.at(-1)! };
}

describe("the rules checker", () => {
  test("it catches what the real APIs refuse: an orphan result, a call with no result, a first message that is not the user's", () => {
    expect(anthropicViolations({ messages: [{ role: "assistant", content: "hi" }] })).toContain(
      "messages[0] has role assistant; the first message must be the user's",
    );
    expect(anthropicViolations({ messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "x", content: "r" }] }] })).toContain(
      "messages[0]: tool_result x answers no tool_use of the message before it",
    );
    expect(openaiChatViolations({ messages: [{ role: "user", content: "q" }, { role: "tool", tool_call_id: "x", content: "r" }] })).toHaveLength(1);
    expect(openaiChatViolations({ messages: [{ role: "assistant", content: null, tool_calls: [{ id: "y" }] }, { role: "user", content: "q" }] })).toEqual([
      "messages[0]: tool_call y has no tool message after it",
    ]);
    expect(openaiResponsesViolations({ input: [{ type: "function_call_output", call_id: "z", output: "r" }] })).toHaveLength(1);
  });
});

describe("every record of a session with tool calls, damaged", () => {
  test("the recorded session is what the damage is done to: tool calls, results record by record, a second prompt", () => {
    const types = lines.map((l) => JSON.parse(l).type);
    expect(types.filter((t) => t === "tool_result")).toHaveLength(3);
    expect(types.filter((t) => t === "message")).toHaveLength(6);
  });

  for (const how of ["lost", "garbled", "cut"] as const) {
    test(`each record ${how}: the resume succeeds on every provider and its request keeps every rule`, async () => {
      const failures: string[] = [];
      for (let index = 1; index < lines.length; index++) {
        for (const provider of Object.keys(PROVIDERS)) {
          const { run, request } = await resume(damaged(index, how), `${how}-${index}-${provider}`, provider);
          const type = JSON.parse(lines[index]!).type;
          if (run.code !== 0) failures.push(`record ${index} (${type}) ${how}, ${provider}: exit ${run.code}: ${run.stderr}`);
          for (const problem of requestViolations(request)) failures.push(`record ${index} (${type}) ${how}, ${provider}: ${problem}`);
        }
      }
      expect(failures).toEqual([]);
    });
  }

  test("the assistant message that made the calls garbled, on each provider: the results are kept as text, and the model is told", async () => {
    const index = lines.findIndex((l) => l.includes('"toolu_read"') && l.includes('"role":"assistant"'));
    expect(index).toBeGreaterThan(0);
    for (const provider of Object.keys(PROVIDERS)) {
      const { run, request } = await resume(damaged(index, "garbled"), `orphans-${provider}`, provider);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("2 tool result(s) answered a call whose record was lost; kept them as text for the model");
      expect(requestViolations(request)).toEqual([]);
      expect(JSON.stringify(request.body)).toContain("whose request was lost from a damaged session file");
      expect(JSON.stringify(request.body)).toContain("alpha");
    }
  });

  test("the first prompt lost: a note stands in for it", async () => {
    const { run, request } = await resume(damaged(1, "lost"), "first-lost", "anthropic");
    expect(run.stderr).toContain("the conversation's first message was lost; a note stands in its place");
    expect(request.body.messages[0]).toMatchObject({ role: "user" });
    expect(JSON.stringify(request.body.messages[0])).toContain("the start of this conversation was lost");
    expect(existsSync(join(copies, "first-lost.jsonl"))).toBe(true);
  });
});
