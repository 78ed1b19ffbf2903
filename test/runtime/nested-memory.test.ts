// The subfolders' memory files given through the chain: with a read's result, once while the
// transcript holds them (two reads in one step too), again once a compaction or /clear dropped
// them; never the system prompt's, never for an extension's call_tool.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Agent } from "../../src/core/agent.ts";
import type { ContentBlock, Message } from "../../src/protocol/messages.ts";
import type { Provider, ProviderBatch } from "../../src/protocol/provider.ts";
import { readTool } from "../../src/tools/read.ts";
import { NestedMemory } from "../../src/runtime/nested-memory.ts";
import { testModel } from "../support/test-model.ts";

let repo: string;
beforeEach(() => {
  repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "zot-nested-rt-")));
  for (const [file, text] of Object.entries({
    "CLAUDE.md": "ROOT-RULE",
    "packages/api/CLAUDE.md": "API-RULE",
    "packages/api/src/a.ts": "export const a = 1;\n",
    "packages/api/src/b.ts": "export const b = 2;\n",
  })) {
    fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    fs.writeFileSync(path.join(repo, file), text);
  }
});
afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

/** A provider that asks for the reads it is given, one step each; an empty step (or none left) says "done". */
function reading(...steps: string[][]): Provider {
  let call = 0;
  return {
    name: "fake",
    async *stream(): AsyncIterable<ProviderBatch> {
      const paths = steps.shift() ?? [];
      const content: ContentBlock[] = paths.map((p) => ({ type: "tool_call", id: `c${++call}`, name: "read", args: { path: p } }));
      if (paths.length === 0) content.push({ type: "text", text: "done" });
      yield [
        { type: "usage", usage: { input: 1, output: 1, cache_read: 0, cache_write: 0 } },
        { type: "done", content, stop: paths.length > 0 ? "tool_use" : "end_turn" },
      ];
    },
  };
}

function agentWith(provider: Provider, atStart: string[] = [path.join(repo, "CLAUDE.md")]): Agent {
  const agent = new Agent({ provider, model: testModel(), tools: [readTool], system: "", cwd: repo, maxSteps: 0 });
  new NestedMemory(agent, { userHome: repo, projectTrusted: true, atStart, log: () => {} });
  return agent;
}

/** How many memory blocks of each file the transcript holds. */
const blocks = (messages: readonly Message[]) =>
  messages
    .flatMap((m) => m.content.flatMap((b) => (b.type === "tool_result" ? b.content : [])))
    .flatMap((b) => (b.type === "text" && b.text.startsWith("<memory-file") ? [b.text.includes("API-RULE") ? "api" : b.text.includes("ROOT-RULE") ? "root" : "?"] : []));

describe("NestedMemory", () => {
  test("a read in a package gives its CLAUDE.md once: two reads in one step and a read in the next step do not repeat it", async () => {
    const agent = agentWith(reading(["packages/api/src/a.ts", "packages/api/src/b.ts"], ["packages/api/src/a.ts"]));
    expect((await agent.prompt({ text: "go" }, new AbortController().signal)).status).toBe("ok");
    expect(blocks(agent.messages)).toEqual(["api"]);
    // It came after the file's own content, in the first read's result.
    const first = agent.messages.find((m) => m.role === "tool")!.content[0]!;
    expect(first.type === "tool_result" && first.content.map((b) => (b.type === "text" ? b.text.slice(0, 14) : b.type))).toEqual(["     1\texport ", `<memory-file p`]);
  });

  test("a file the system prompt holds (the root's CLAUDE.md imports the package's) is not given again", async () => {
    const agent = agentWith(reading(["packages/api/src/a.ts"]), [path.join(repo, "CLAUDE.md"), path.join(repo, "packages", "api", "CLAUDE.md")]);
    await agent.prompt({ text: "go" }, new AbortController().signal);
    expect(blocks(agent.messages)).toEqual([]);
  });

  test("once the transcript no longer holds it (a compaction summarised it away, /clear), the next read gives it again", async () => {
    const agent = agentWith(reading(["packages/api/src/a.ts"], [], ["packages/api/src/b.ts"]));
    await agent.prompt({ text: "go" }, new AbortController().signal);
    expect(blocks(agent.messages)).toEqual(["api"]);
    agent.replaceTranscript([{ role: "user", content: [{ type: "text", text: "## Context summary (compacted)\n\nread a.ts" }], time: "2026-05-06T10:00:00Z", summary: true }]);
    await agent.prompt({ text: "again" }, new AbortController().signal);
    expect(blocks(agent.messages)).toEqual(["api"]);
  });

  test("an extension's call_tool read gets the file alone: its result never reaches the model", async () => {
    const agent = agentWith(reading());
    const run = await agent.runToolCall({ id: "x1", name: "read", args: { path: "packages/api/src/a.ts" } }, { origin: { extension: "ext", chain: ["read"] }, signal: new AbortController().signal });
    expect(run.result.content.length).toBe(1);
  });
});
