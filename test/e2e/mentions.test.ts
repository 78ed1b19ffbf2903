// @path and @server:uri outside the TUI: -p, --json and rpc's prompt send the files and MCP
// resources a prompt mentions with it, as the TUI does (and Claude Code's -p); what could not go
// is said; a /command's words are the command's, not attached here.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { everythingStdio } from "../support/mcp-servers.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { lastUserText } from "../support/zot-pty.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";

let mock: MockLlm | undefined;
afterEach(() => {
  mock?.stop();
  mock = undefined;
});

const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];

describe("@mentions outside the TUI", () => {
  test("-p: a mentioned file goes with the prompt; a binary one is said on stderr and left to the model", async () => {
    const cwd = tempDir("zot-mention-");
    writeFileSync(join(cwd, "notes.md"), "# notes\nship on friday\n");
    writeFileSync(join(cwd, "blob.bin"), new Uint8Array([0, 1, 2, 0]));
    mock = startMockLlm([{ text: "read them" }]);
    const run = await zot([...anthropic(mock), "-p", "compare @notes.md with @blob.bin and mail ann@example.com"], { cwd });
    expect(run.code).toBe(0);
    const sent = lastUserText(mock.requests[0]!.body);
    expect(sent).toStartWith("compare @notes.md with @blob.bin and mail ann@example.com\n\n");
    expect(sent).toContain('<file path="notes.md">\n# notes\nship on friday\n</file>');
    expect(sent.match(/<file path=/g)).toHaveLength(1);
    expect(run.stderr).toContain("[zot] warn: @blob.bin was not attached: it is not text; the model can still read it");
  });

  test("--json and rpc: the same, and an MCP server's resource by @server:uri", async () => {
    const cwd = tempDir("zot-mention-");
    const home = tempDir("zot-home-");
    writeFileSync(join(cwd, "notes.md"), "NOTES BODY\n");
    writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: { everything: everythingStdio() } }));
    mock = startMockLlm([{ text: "one" }, { text: "two" }]);
    const env = { HOME: tempDir("zot-user-"), CLAUDE_CONFIG_DIR: "" };
    const json = await zot([...anthropic(mock), "--json", "summarise @everything:demo://resource/static/document/features.md and @notes.md"], { cwd, home, env });
    expect(json.code).toBe(0);
    const sent = lastUserText(mock.requests[0]!.body);
    expect(sent).toContain('<resource server="everything" uri="demo://resource/static/document/features.md">\n# Everything Server - Features\n');
    expect(sent).toContain('<file path="notes.md">\nNOTES BODY\n</file>');
    // The user_message event carries what the model was sent.
    expect(ndjson(json.stdout).find((event) => event.type === "user_message")?.content[0].text).toBe(sent);

    const rpc = await zot(["rpc", ...anthropic(mock)], { cwd, home, env, stdin: `${JSON.stringify({ id: "1", type: "prompt", message: "again @notes.md" })}\n` });
    expect(rpc.code).toBe(0);
    expect(lastUserText(mock.requests[1]!.body)).toBe('again @notes.md\n\n[files the user attached with @, as they are now]\n<file path="notes.md">\nNOTES BODY\n</file>');
  });

  test("held to what the read tool may read: the jail and a Read deny rule keep files out; a link and its file go once; piped text attaches nothing", async () => {
    const root = tempDir("zot-mention-");
    const cwd = join(root, "proj");
    mkdirSync(join(cwd, ".claude"), { recursive: true });
    writeFileSync(join(root, "secret.txt"), "TOPSECRET-OUTSIDE\n");
    writeFileSync(join(cwd, ".env"), "DOTENV=hunter2\n");
    writeFileSync(join(cwd, "notes.md"), "NOTES BODY\n");
    symlinkSync(join(cwd, "notes.md"), join(cwd, "notes-link.md"));
    writeFileSync(join(cwd, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Read(./.env)"] } }));
    mock = startMockLlm([{ text: "one" }, { text: "two" }, { text: "three" }, { text: "four" }, { text: "five" }]);
    const ask = "see @notes.md @notes-link.md @.env and @../secret.txt";

    // rpc, jailed: a program's text.
    const rpc = await zot(["rpc", ...anthropic(mock), "--jail"], { cwd, stdin: `${JSON.stringify({ id: "1", type: "prompt", message: ask })}\n` });
    expect(rpc.code).toBe(0);
    const sent = lastUserText(mock.requests[0]!.body);
    expect(sent.match(/NOTES BODY/g)).toHaveLength(1);
    expect(sent).not.toContain("hunter2");
    expect(sent).not.toContain("TOPSECRET");
    const notes = ndjson(rpc.stdout).filter((line) => line.type === "ext_notify").map((line) => line.message);
    expect(notes).toContain('@.env was not attached: reading it is denied by the permission rule "Read(./.env)" (.claude/settings.json)');
    expect(notes.some((note: string) => note.startsWith("@../secret.txt was not attached: it is outside the working directory") && note.endsWith("and zot is jailed to it"))).toBe(true);

    // -p's piped text is data: its @words attach nothing.
    const piped = await zot([...anthropic(mock), "-p"], { cwd, stdin: "check @notes.md and @../secret.txt" });
    expect(piped.code).toBe(0);
    expect(lastUserText(mock.requests.at(-1)!.body)).toBe("check @notes.md and @../secret.txt");

    // A Markdown command's @files, its template's and the words after it, are held the same way.
    mkdirSync(join(cwd, ".claude", "commands"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "commands", "rv.md"), "Review @.env and $ARGUMENTS\n");
    const command = await zot(["rpc", ...anthropic(mock), "--jail", "--trust"], { cwd, stdin: `${JSON.stringify({ id: "1", type: "prompt", message: "/rv @../secret.txt @notes.md" })}\n` });
    expect(command.code).toBe(0);
    const reviewed = lastUserText(mock.requests.at(-1)!.body);
    expect(reviewed).toContain("NOTES BODY");
    expect(reviewed).not.toContain("hunter2");
    expect(reviewed).not.toContain("TOPSECRET");
    expect(reviewed).toContain('(.env is not attached: reading it is denied by the permission rule "Read(./.env)" (.claude/settings.json))');
    expect(reviewed).toContain("(../secret.txt is not attached: it is outside the working directory");
    // An absolute path through a link and back up (`sub/up/../..`) is judged where it really leads.
    mkdirSync(join(root, "elsewhere", "deeper"), { recursive: true });
    symlinkSync(join(root, "elsewhere", "deeper"), join(cwd, "up"));
    writeFileSync(join(root, "elsewhere", "loot.txt"), "LOOT-OUTSIDE\n");
    const dotdot = await zot(["rpc", ...anthropic(mock), "--jail"], { cwd, stdin: `${JSON.stringify({ id: "1", type: "prompt", message: `see @${cwd}/up/../loot.txt` })}\n` });
    expect(dotdot.code).toBe(0);
    expect(lastUserText(mock.requests.at(-1)!.body)).not.toContain("LOOT-OUTSIDE");

    // -p's own argument, typed by a person, unjailed: the Read deny rule still holds.
    const typed = await zot([...anthropic(mock), "-p", ask], { cwd });
    expect(typed.code).toBe(0);
    const third = lastUserText(mock.requests.at(-1)!.body);
    expect(third).toContain("TOPSECRET-OUTSIDE");
    expect(third).not.toContain("hunter2");
  });

  test("a deny rule on a link's own name holds, as the read tool's does", async () => {
    const cwd = tempDir("zot-mention-");
    mkdirSync(join(cwd, "config"));
    mkdirSync(join(cwd, ".claude", "commands"), { recursive: true });
    writeFileSync(join(cwd, "config", "app-secrets.txt"), "APP-SECRET\n");
    symlinkSync(join(cwd, "config", "app-secrets.txt"), join(cwd, ".env"));
    writeFileSync(join(cwd, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Read(**/.env)"] } }));
    writeFileSync(join(cwd, ".claude", "commands", "explain.md"), "Explain $ARGUMENTS\n");
    mock = startMockLlm([{ text: "one" }, { text: "two" }]);
    expect((await zot([...anthropic(mock), "-p", "read @.env"], { cwd })).code).toBe(0);
    expect(lastUserText(mock.requests[0]!.body)).not.toContain("APP-SECRET");
    expect((await zot([...anthropic(mock), "-p", "/explain @.env"], { cwd })).code).toBe(0);
    expect(lastUserText(mock.requests[1]!.body)).not.toContain("APP-SECRET");
  });

  test("a /command's words go to the command; the prompt it answers with is not attached again", async () => {
    const cwd = tempDir("zot-mention-");
    writeFileSync(join(cwd, "notes.md"), "NOTES BODY\n");
    mkdirSync(join(cwd, ".claude", "commands"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "commands", "look.md"), "Look at $ARGUMENTS.\n");
    mock = startMockLlm([{ text: "looked" }]);
    const run = await zot([...anthropic(mock), "-p", "/look @notes.md"], { cwd });
    expect(run.code).toBe(0);
    const sent = lastUserText(mock.requests[0]!.body);
    expect(sent.match(/NOTES BODY/g)).toHaveLength(1);
    expect(sent).not.toContain("<file path=");
  });
});

test("a file the prompt attached is one the model has seen: its write of it is not refused as unread", async () => {
  const cwd = tempDir("zot-cwd-");
  writeFileSync(join(cwd, "notes.txt"), "draft\n");
  writeFileSync(join(cwd, "other.txt"), "untouched\n");
  mock = startMockLlm([
    { tool_calls: [{ id: "w1", name: "write", args: { path: "notes.txt", content: "final\n" } }, { id: "w2", name: "write", args: { path: "other.txt", content: "gone\n" } }] },
    { text: "done" },
  ]);
  const run = await zot(["--json", "rewrite @notes.txt", ...anthropic(mock)], { cwd });
  const results = ndjson(run.stdout).filter((e) => e.type === "tool_result");
  expect(results.map((r) => r.is_error)).toEqual([false, true]);
  expect(results[1].content[0].text).toContain("other.txt exists and you have not read it since this session was opened");
  expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("final\n");
  expect(readFileSync(join(cwd, "other.txt"), "utf8")).toBe("untouched\n");
});
