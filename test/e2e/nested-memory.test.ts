// A monorepo package's own CLAUDE.md (packages/api/CLAUDE.md, below the working directory), given
// to the model when it first works in the package, as Claude Code gives it: with the result of a
// read of a file there, and with a prompt that @mentions one; once while the transcript holds it,
// a resumed session's included. Through the compiled binary, against the mock LLM.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { trustDir } from "../support/trust.ts";
import { tempDir, zot } from "../support/zot.ts";

let mock: MockLlm | undefined;
afterEach(() => {
  mock?.stop();
  mock = undefined;
});

const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];
const write = (file: string, text: string) => {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, text);
};

/** A monorepo with a root CLAUDE.md and the api package's own, trusted in its own ZOT_HOME. */
function monorepo(): { cwd: string; home: string } {
  const cwd = tempDir("zot-nested-");
  const home = tempDir("zot-nested-home-");
  trustDir(home, cwd);
  mkdirSync(join(cwd, ".git"));
  write(join(cwd, "CLAUDE.md"), "ROOT-RULE: be brief.\n");
  write(join(cwd, "packages", "api", "CLAUDE.md"), "API-RULE: never use default exports.\n");
  write(join(cwd, "packages", "api", "src", "handler.ts"), "export default function handler() {}\n");
  write(join(cwd, "packages", "api", "src", "routes.ts"), "export const routes = [];\n");
  write(join(cwd, "packages", "web", "index.ts"), "export {};\n");
  return { cwd, home };
}

/** How many times the api package's rule is in what a request sent (the system prompt and the messages). */
const apiRules = (body: { system?: unknown; messages: unknown }) => (JSON.stringify([body.system, body.messages]).match(/API-RULE/g) ?? []).length;

describe("a subfolder's CLAUDE.md", () => {
  test("-p: a read in the package brings its CLAUDE.md once, after the file, labelled; another read there and a resumed session do not repeat it; a read elsewhere brings none", async () => {
    const p = monorepo();
    mock = startMockLlm([
      { tool_calls: [{ name: "read", args: { path: "packages/web/index.ts" } }] },
      { tool_calls: [{ name: "read", args: { path: "packages/api/src/handler.ts" } }] },
      { tool_calls: [{ name: "read", args: { path: "packages/api/src/routes.ts" } }] },
      { text: "done" },
    ]);
    const run = await zot(["-p", "fix the api handler", ...anthropic(mock)], p);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("done\n");
    const bodies = mock.requests.map((r) => r.body);
    // The start has the root's, not the package's.
    expect(JSON.stringify(bodies[0].system)).toContain("ROOT-RULE");
    expect(bodies.map(apiRules)).toEqual([0, 0, 1, 1]);
    const result = bodies[2].messages.at(-1).content[0];
    expect(result.type).toBe("tool_result");
    // After the file's lines (the Anthropic wire joins a result's text blocks).
    expect(result.content).toStartWith(`     1\texport default function handler() {}\n\n<memory-file path="${join(p.cwd, "packages", "api", "CLAUDE.md")}">\n`);
    expect(result.content).toContain("packages/api/CLAUDE.md holds instructions for the files under packages/api/");

    // The session recorded the result as the model got it: -c has the file, and does not send it again.
    mock.push({ tool_calls: [{ name: "read", args: { path: "packages/api/src/handler.ts" } }] }, { text: "again" });
    const resumed = await zot(["-p", "-c", "once more", ...anthropic(mock)], p);
    expect(resumed.code).toBe(0);
    expect(mock.requests.slice(4).map((r) => apiRules(r.body))).toEqual([1, 1]);
  }, 60_000);

  test("-p: @packages/api/src/handler.ts in a prompt brings the package's CLAUDE.md with the prompt; --setting-sources without project does not", async () => {
    const p = monorepo();
    mock = startMockLlm([{ text: "ok" }, { text: "ok" }]);
    const run = await zot(["-p", "fix @packages/api/src/handler.ts", ...anthropic(mock)], p);
    expect(run.code).toBe(0);
    const sent = mock.requests[0]!.body.messages.at(-1).content;
    expect(sent[0].text).toContain('<file path="packages/api/src/handler.ts">');
    expect(sent[1].text).toStartWith(`<memory-file path="${join(p.cwd, "packages", "api", "CLAUDE.md")}">\npackages/api/CLAUDE.md holds instructions for the files under packages/api/`);
    expect(apiRules(mock.requests[0]!.body)).toBe(1);

    const userOnly = await zot(["-p", "fix @packages/api/src/handler.ts", "--setting-sources", "user", ...anthropic(mock)], p);
    expect(userOnly.code).toBe(0);
    expect(apiRules(mock.requests[1]!.body)).toBe(0);
  }, 60_000);
});
