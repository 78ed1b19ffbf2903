// `zot mcp` through dist/zot: add writes where each scope writes, list starts every server once to
// say whether it works (never an untrusted folder's), get shows one, remove takes it out, and
// Claude Code's ~/.claude.json is read and never written.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EVERYTHING, misbehaving } from "../support/mcp-servers.ts";
import { trustDir } from "../support/trust.ts";
import { startMockLlm } from "../support/mock-llm.ts";
import { tempDir, zot } from "../support/zot.ts";

function where() {
  const cwd = tempDir("zot-mcp-cli-");
  const home = tempDir("zot-mcp-home-");
  const userHome = tempDir("zot-mcp-user-");
  return { cwd, home, userHome, env: { HOME: userHome, CLAUDE_CONFIG_DIR: "" } };
}

describe("zot mcp", () => {
  test("Codex's ~/.codex/config.toml servers are listed, started and called as any other; zot does not change Codex's file", async () => {
    const w = where();
    mkdirSync(join(w.userHome, ".codex"), { recursive: true });
    const toml = `model = "o3"\n\n[mcp_servers.everything]\ncommand = "node"\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\nenabled_tools = ["echo", "get-sum"]\ndisabled_tools = ["get-sum"]\n`;
    writeFileSync(join(w.userHome, ".codex", "config.toml"), toml);
    const list = await zot(["mcp", "list"], w);
    expect(list.code).toBe(0);
    // Codex's enabled_tools and disabled_tools choose what is offered: echo alone.
    expect(list.stdout.trim()).toMatch(/^everything: node .*index\.js stdio - ✓ connected \(1 tool.*\.codex\/config\.toml \(user\)\]$/);
    const remove = await zot(["mcp", "remove", "everything"], w);
    expect(remove.code).toBe(2);
    expect(remove.stderr).toContain("Codex's own file, which zot does not change; remove it there (codex mcp remove everything)");
    expect(readFileSync(join(w.userHome, ".codex", "config.toml"), "utf8")).toBe(toml);
    const mock = startMockLlm([{ tool_calls: [{ name: "mcp__everything__echo", args: { message: "from codex's server" } }] }, { text: "{{last_tool_result}}" }]);
    try {
      const run = await zot(["-p", "echo it", "--provider", "anthropic", "--api-key", "k", "--base-url", mock.url], w);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("from codex's server");
      const offered = mock.requests[0]!.body.tools.map((tool: any) => tool.name).filter((name: string) => name.startsWith("mcp__"));
      expect(offered).toEqual(["mcp__everything__echo"]);
    } finally {
      mock.stop();
    }
  });

  test("add in each scope, list them checked, get one, remove them", async () => {
    const w = where();
    trustDir(w.home, w.cwd);
    const claude = JSON.stringify({ mcpServers: { claudes: misbehaving() }, numStartups: 7 });
    writeFileSync(join(w.userHome, ".claude.json"), claude);
    for (const args of [
      ["add", "everything", "node", EVERYTHING, "stdio"],
      ["add", "-s", "project", "-e", "MODE=${MODE:-calm}", "shared", "node", misbehaving().args[0]!],
      ["add", "-s", "user", "--transport", "http", "nowhere", "http://127.0.0.1:9/mcp"],
    ]) {
      const run = await zot(["mcp", ...args], w);
      expect({ args, stderr: run.stderr, code: run.code }).toEqual({ args, stderr: "", code: 0 });
    }
    expect(JSON.parse(readFileSync(join(w.cwd, ".mcp.json"), "utf8"))).toEqual({
      mcpServers: { shared: { type: "stdio", command: "node", args: [misbehaving().args[0]], env: { MODE: "${MODE:-calm}" } } },
    });
    expect(Object.keys(JSON.parse(readFileSync(join(w.home, "mcp.json"), "utf8")).projects)).toEqual([realpathSync(w.cwd)]);

    const list = await zot(["mcp", "list"], w);
    expect(list.code).toBe(0);
    expect(list.stderr).toContain("Checking MCP server health");
    const lines = list.stdout.trim().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^everything: node .*index\.js stdio - ✓ connected \(1[0-9] tools, 4 prompts, [1-9] resources\) \[.*mcp\.json \(local\)\]$/);
    expect(lines[1]).toMatch(/^shared: node .*misbehaving-server\.mjs - ✓ connected \(7 tools, 1 prompt\) \[\.mcp\.json\]$/);
    expect(lines[2]).toMatch(/^nowhere: http:\/\/127\.0\.0\.1:9\/mcp \(HTTP\) - ✗ failed: cannot reach http:\/\/127\.0\.0\.1:9\/mcp/);
    expect(lines[3]).toMatch(/^claudes: node .*misbehaving-server\.mjs - ✓ connected .*\.claude\.json \(user\)\]$/);

    const get = await zot(["mcp", "get", "shared"], w);
    expect(get.stdout).toContain("Scope: project (shared through .mcp.json)");
    expect(get.stdout).toContain("Status: ✓ connected");
    expect(get.stdout).toContain("    MODE=${MODE:-calm}");
    expect(get.stdout).toContain("Tools: mcp__shared__ok, mcp__shared__crash");
    expect(get.stdout).toContain("Prompts: /mcp__shared__greet");
    expect(get.stdout).toContain("To remove it: zot mcp remove shared -s project");
    expect(get.stdout).not.toContain("Resources:");
    const everything = await zot(["mcp", "get", "everything"], w);
    expect(everything.stdout).toContain("Resources: @everything:demo://resource/static/document/");

    const theirs = await zot(["mcp", "remove", "claudes"], w);
    expect(theirs.code).toBe(2);
    expect(theirs.stderr).toContain("Claude Code's own file, which zot does not change");
    expect(readFileSync(join(w.userHome, ".claude.json"), "utf8")).toBe(claude);
    for (const name of ["everything", "shared", "nowhere"]) expect((await zot(["mcp", "remove", name], w)).code).toBe(0);
    expect((await zot(["mcp", "list"], w)).stdout.trim().split("\n").map((line) => line.split(":")[0])).toEqual(["claudes"]);
  });

  test("a ${VAR} is written as typed, set or not (a token stays out of the file): in a header, an env value, a whole url", async () => {
    const w = where();
    const added = [
      await zot(["mcp", "add", "--transport", "http", "-H", "Authorization: Bearer ${TOKEN}", "docs", "https://example.com/mcp"], w),
      await zot(["mcp", "add-json", "gh", '{"command":"npx","args":["-y","server-github"],"env":{"GITHUB_TOKEN":"${TOKEN}"}}'], w),
      await zot(["mcp", "add", "-e", "API_KEY=${TOKEN:-none}", "tool", "node", "server.js"], w),
      await zot(["mcp", "add-json", "moved", '{"type":"http","url":"${MCP_URL}"}'], w),
    ];
    for (const run of added) expect([run.code, run.stderr]).toEqual([0, ""]);
    const file = readFileSync(join(w.home, "mcp.json"), "utf8");
    expect(file).toContain('"Authorization": "Bearer ${TOKEN}"');
    expect(file).toContain('"GITHUB_TOKEN": "${TOKEN}"');
    expect(file).toContain('"API_KEY": "${TOKEN:-none}"');
    expect(file).toContain('"url": "${MCP_URL}"');
    // What is wrong whatever the variables hold is still refused.
    expect((await zot(["mcp", "add-json", "bad", '{"type":"http","url":"ftp://${HOST}/x"}'], w)).code).toBe(2);
    // A url that is a variable leaves the rest of the entry checked.
    const headers = await zot(["mcp", "add-json", "worse", '{"type":"http","url":"${MCP_URL}","headers":["A: b"]}'], w);
    expect([headers.code, headers.stderr]).toEqual([2, expect.stringContaining("headers: must be an object")]);
  });

  test("an untrusted folder's servers are listed, never started; mistakes are usage errors", async () => {
    const w = where();
    // A key spelled into a URL or an argument stays `${…}` in the listing: nothing prints it.
    const spelled = {
      keyed: { type: "http", url: "http://127.0.0.1:9/mcp?k=${SECRET_TOKEN}" },
      echoing: { command: "echo", args: ["${SECRET_TOKEN}"] },
      // A name that would set the clipboard and clear the screen, were it written as it is.
      "\u001b]52;c;ZXZpbA==\u0007\u001b[2Jnamed": { command: "true" },
    };
    writeFileSync(join(w.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { theirs: misbehaving(), broken: { args: [] }, ...spelled } }));
    const list = await zot(["mcp", "list"], { ...w, env: { ...w.env, SECRET_TOKEN: "sk-very-secret" } });
    expect(list.stdout).toContain("theirs: node");
    expect(list.stdout).toContain("- not started: this folder is not trusted (zot trust)");
    expect(list.stdout).toContain("keyed: http://127.0.0.1:9/mcp?k=${SECRET_TOKEN} (HTTP)");
    expect(list.stdout).toContain("echoing: echo '${SECRET_TOKEN}'");
    expect(list.stdout + list.stderr).not.toContain("sk-very-secret");
    expect(list.stdout).toContain("named: true");
    expect(list.stdout).not.toContain("\u001b");
    const bad = await zot(["mcp", "add", "docs", "https://example.com/mcp"], w);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("zot: https://example.com/mcp is a URL; to add a remote server say so: zot mcp add --transport http docs https://example.com/mcp");
    expect((await zot(["mcp", "frobnicate"], w)).stderr).toContain('unknown mcp subcommand "frobnicate"');
    // Bare, add is missing what it needs: exit 2 and the usage, as zot ext does.
    const bare = await zot(["mcp", "add"], w);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("zot mcp add needs a name and a command or URL; usage: zot mcp add [--transport");
    const desktop = await zot(["mcp", "add-from-claude-desktop"], w);
    expect(desktop.code).toBe(2);
    expect(desktop.stderr).toContain("zot mcp add-from-claude-desktop is Claude Code's and zot does not have it: add each server with zot mcp add-json");
    // A URL that is not http(s), and env as an array, are refused, and nothing is written.
    const ftp = await zot(["mcp", "add", "--transport", "sse", "files", "ftp://files.example/sse"], w);
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toContain("url must start with http:// or https://");
    const listEnv = await zot(["mcp", "add-json", "listed", '{"command": "true", "env": ["A=1"]}'], w);
    expect(listEnv.code).toBe(2);
    expect(listEnv.stderr).toContain('env: must be an object like {"NAME": "value"}');
    expect((await zot(["mcp", "get", "files"], w)).stderr).toContain('no MCP server named "files"');
    expect((await zot(["mcp", "get", "listed"], w)).stderr).toContain('no MCP server named "listed"');
    expect((await zot(["mcp", "get", "nope"], w)).stderr).toContain('no MCP server named "nope"');
    // The untrusted folder's "theirs" takes nothing from the user's own of that name: get shows the one that runs.
    expect((await zot(["mcp", "add", "-s", "user", "theirs", "true"], w)).code).toBe(0);
    const own = await zot(["mcp", "get", "theirs"], w);
    expect(own.stdout).toContain("Scope: user (yours, in every folder)");
    expect(own.stdout).toContain("Command: true");
    expect(own.stdout).toContain(".mcp.json, not started: this folder is not trusted");
    expect(own.stdout).not.toContain("which this one shadows");
    const help = await zot(["help", "mcp"], w);
    expect(help.stdout).toContain("zot mcp add [--transport stdio|http|sse] [--scope local|project|user]");
  });

  test("20 `zot mcp add` at once, in zot's own file and the project's .mcp.json: every server is kept", async () => {
    const w = where();
    const names = Array.from({ length: 20 }, (_, i) => `srv${String(i).padStart(2, "0")}`);
    const project = (i: number) => i % 4 === 0;
    const runs = await Promise.all(names.map((name, i) => zot(["mcp", "add", ...(project(i) ? ["-s", "project"] : []), name, "node", "server.js"], w)));
    for (const run of runs) expect({ stderr: run.stderr, code: run.code }).toEqual({ stderr: "", code: 0 });
    const shared = Object.keys(JSON.parse(readFileSync(join(w.cwd, ".mcp.json"), "utf8")).mcpServers).sort();
    expect(shared).toEqual(names.filter((_, i) => project(i)));
    const local = JSON.parse(readFileSync(join(w.home, "mcp.json"), "utf8")).projects[realpathSync(w.cwd)].mcpServers;
    expect(Object.keys(local).sort()).toEqual(names.filter((_, i) => !project(i)));
  });
});
