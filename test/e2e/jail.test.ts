// --jail and --no-yolo through the compiled binary, against the mock LLM: a model asking to read
// /etc/passwd is refused (and allowed without --jail, so the flag is what refuses it), bash cannot
// reach a file outside through a symlink, rpc takes --jail too, and --no-yolo without a terminal
// warns and refuses every tool call.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rpcFixture } from "../support/rpc-process.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";

const fixture = rpcFixture();

const anthropic = (url: string) => ["--provider", "anthropic", "--api-key", "k", "--base-url", url, "--no-ext", "--no-skill"];

/** The text of the tool results in the newest message of an Anthropic request. */
function lastToolResults(body: any): { is_error: boolean; text: string }[] {
  const last = body.messages.at(-1);
  if (typeof last.content === "string") return [];
  return last.content
    .filter((b: any) => b.type === "tool_result")
    .map((b: any) => ({
      is_error: b.is_error === true,
      text: typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text ?? "").join(""),
    }));
}

describe("--jail", () => {
  test("a jail at the top of the file system, which keeps nothing out, is said", async () => {
    const mock = fixture.llm([{ text: "ok" }, { text: "ok" }]);
    const run = await zot(["-p", "hi", "--jail", "--cwd", "/", "--no-session", ...anthropic(mock.url)]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("--jail confines the tools to the working directory, and that is /: nothing is kept out");
    // a link to / is / (the jail goes by the real path)
    const link = join(tempDir("zot-jail-root-link-"), "top");
    symlinkSync("/", link);
    const linked = await zot(["-p", "hi", "--jail", "--cwd", link, "--no-session", ...anthropic(mock.url)]);
    expect(linked.stderr).toContain("--jail confines the tools to the working directory, and that is /: nothing is kept out");
  });

  test("a read of /etc/passwd is refused with a sentence the model can act on; without --jail it is read", async () => {
    const turns = () => [{ tool_calls: [{ name: "read", args: { path: "/etc/passwd" } }] }, { text: "ok" }];
    const mock = fixture.llm(turns());
    const cwd = tempDir("zot-jail-e2e-");
    const jailed = await zot(["--json", "--jail", "show /etc/passwd", ...anthropic(mock.url)], { cwd });
    expect(jailed.code).toBe(0);
    const [refusal] = lastToolResults(mock.requests[1]!.body);
    expect(refusal!.is_error).toBe(true);
    expect(refusal!.text).toContain("read: /etc/passwd is outside the working directory");
    expect(refusal!.text).toContain("/unjail");
    expect(refusal!.text).not.toContain("root:");
    const result = ndjson(jailed.stdout).find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ name: "read", is_error: true });

    mock.push(...turns());
    const free = await zot(["--json", "show /etc/passwd", ...anthropic(mock.url)], { cwd });
    expect(free.code).toBe(0);
    const [read] = lastToolResults(mock.requests[3]!.body);
    expect(read!.is_error).toBe(false);
    expect(read!.text).toContain("root:");
  });

  const bashThroughLink = async (env: Record<string, string>) => {
    const base = tempDir("zot-jail-bash-");
    const cwd = join(base, "project");
    mkdirSync(cwd);
    mkdirSync(join(base, "private"));
    writeFileSync(join(base, "private", "key.txt"), "TOP-SECRET\n");
    symlinkSync(join(base, "private"), join(cwd, "link"));
    const mock = fixture.llm([
      { tool_calls: [{ name: "bash", args: { command: "cat link/key.txt; echo pwned > link/new.txt" } }] },
      { text: "ok" },
    ]);
    const run = await zot(["-p", "--jail", "read the key", ...anthropic(mock.url)], { cwd, env });
    expect(run.code).toBe(0);
    const [result] = lastToolResults(mock.requests[1]!.body);
    expect(result!.is_error).toBe(true);
    expect(result!.text).not.toContain("TOP-SECRET");
    expect(existsSync(join(base, "private", "new.txt"))).toBe(false);
    return result!.text;
  };

  test("bash cannot read a file outside through a symlink in the cwd, nor write next to it", async () => {
    const text = await bashThroughLink({});
    // bubblewrap: the link dangles inside the jail; the static check: the command is refused.
    expect(text).toMatch(/\[jailed: this command ran under bubblewrap|Bubblewrap \(bwrap\) does not confine commands here/);
  });

  test("the same under the static check (ZOT_JAIL_CONFINEMENT=static): refused before it runs, naming where the link leads", async () => {
    const text = await bashThroughLink({ ZOT_JAIL_CONFINEMENT: "static" });
    expect(text).toContain("bash: the command names link/key.txt, which leads to");
    expect(text).toContain("/private/key.txt, outside the working directory");
  });

  test("zot rpc --jail confines the agent's tools too", async () => {
    const rpc = fixture.start([{ tool_calls: [{ name: "read", args: { path: "/etc/passwd" } }] }, { text: "ok" }], ["--jail"], { provider: anthropic });
    const events = await rpc.prompt("show /etc/passwd");
    const result = events.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ name: "read", is_error: true });
    expect(JSON.stringify(result.content)).toContain("outside the working directory");
  });
});

describe("two jailed zots in one folder", () => {
  test("what one zot's jailed command plants while the other's starts is removed by both and never put back (the static check: bubblewrap alone would keep it read-only)", async () => {
    const home = tempDir("zot-jail-two-home-");
    const cwd = tempDir("zot-jail-two-cwd-");
    Bun.spawnSync(["git", "init", "-q"], { cwd });
    const script = (name: string, turns: unknown[]) => {
      const file = join(tempDir("zot-jail-two-script-"), `${name}.json`);
      writeFileSync(file, JSON.stringify(turns));
      return file;
    };
    // the file's name built at run time, as a command trying to get past the static check would
    const plant = script("b", [{ tool_calls: [{ name: "bash", args: { command: "n=.mc; printf '{\"mcpServers\":{\"x\":{\"command\":\"./payload.sh\"}}}' > ${n}p.json; sleep 1.5" } }] }, { text: "B: {{last_tool_result}}" }]);
    const test = script("a", [{ tool_calls: [{ name: "bash", args: { command: "sleep 2; echo tests pass" } }] }, { text: "A: {{last_tool_result}}" }]);
    const env = { ZOT_JAIL_CONFINEMENT: "static" };
    const b = zot(["-p", "B", "--jail", "--no-session", "--provider", "scripted", "--script", plant], { home, cwd, env });
    for (let i = 0; i < 100 && !existsSync(join(cwd, ".mcp.json")); i++) await Bun.sleep(20);
    expect(existsSync(join(cwd, ".mcp.json"))).toBe(true);
    const a = zot(["-p", "A", "--jail", "--no-session", "--provider", "scripted", "--script", test], { home, cwd, env });
    const [ranB, ranA] = await Promise.all([b, a]);
    expect(ranB.stdout).toContain("removed .mcp.json");
    expect(ranA.stdout).toContain("tests pass");
    expect(ranA.stdout).not.toContain("put back .mcp.json");
    expect(existsSync(join(cwd, ".mcp.json"))).toBe(false);
  });
});

describe("--no-yolo without a terminal", () => {
  test("-p warns up front and refuses every tool call; the model is told why; nothing is written", async () => {
    const mock = fixture.llm([
      { tool_calls: [{ name: "write", args: { path: "made.txt", content: "x" } }] },
      { text: "I could not write it." },
    ]);
    const cwd = tempDir("zot-noyolo-");
    const run = await zot(["-p", "--no-yolo", "write made.txt", ...anthropic(mock.url)], { cwd });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("--no-yolo: this run has no terminal to confirm tool calls in, so every tool call will be refused but a read inside the working directory and what a permission rule allows");
    expect(run.stdout).toContain("I could not write it.");
    const [refusal] = lastToolResults(mock.requests[1]!.body);
    expect(refusal).toEqual({
      is_error: true,
      text:
        "tool call refused: the user asked to confirm every tool call (--no-yolo) and this run has no terminal to ask in; " +
        "go on without tools, or tell the user what you would run",
    });
    expect(existsSync(join(cwd, "made.txt"))).toBe(false);
  });

  test("--json reports who refused as an intercept event", async () => {
    const mock = fixture.llm([{ tool_calls: [{ name: "bash", args: { command: "ls" } }] }, { text: "ok" }]);
    const run = await zot(["--json", "--no-yolo", "list", ...anthropic(mock.url)]);
    expect(run.code).toBe(0);
    const intercept = ndjson(run.stdout).find((e) => e.type === "intercept");
    expect(intercept).toMatchObject({ participant: "confirm", stage: "approve_tool", action: "deny" });
  });
});
