// MCP servers end to end through dist/zot and the mock LLM: a project's .mcp.json with the
// reference filesystem and everything servers, a server added with `zot mcp add` over streamable
// HTTP, and a misbehaving server (a crash mid-call, a hang at start, a tree left behind), in -p and
// --json. Every run has its own HOME, so the machine's ~/.claude.json never takes part.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EVERYTHING, everythingStdio, FILESYSTEM, filesystemStdio, misbehaving, startEverythingHttp } from "../support/mcp-servers.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { killPids, runningWith, sleepMarker, survivors } from "../support/process-census.ts";
import { trustDir } from "../support/trust.ts";
import { rpcFixture } from "../support/rpc-process.ts";
import { ndjson, tempDir, ZOT, zot } from "../support/zot.ts";

let mock: MockLlm | undefined;
let markers: string[] = [];
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
  for (const marker of markers) killPids(runningWith(marker));
  markers = [];
});

/** A project with `.mcp.json` holding `servers`, trusted unless told otherwise, and a HOME of its own. */
function project(servers: Record<string, unknown>, options: { trusted?: boolean } = {}) {
  const cwd = tempDir("zot-mcp-project-");
  const home = tempDir("zot-mcp-home-");
  const userHome = tempDir("zot-mcp-user-");
  writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: servers }, null, 2));
  if (options.trusted !== false) trustDir(home, cwd);
  return { cwd, home, env: { HOME: userHome, CLAUDE_CONFIG_DIR: "" } };
}

const anthropic = (url: string) => ["--provider", "anthropic", "--api-key", "k", "--base-url", url];
const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.name);
/** The text of the tool results in the newest message of an Anthropic request. */
function lastToolResults(body: any): { text: string; is_error: boolean }[] {
  return body.messages
    .at(-1)
    .content.filter((b: any) => b.type === "tool_result")
    .map((b: any) => ({ text: typeof b.content === "string" ? b.content : b.content.map((c: any) => c.text ?? "").join("\n"), is_error: b.is_error === true }));
}

describe("zot -p with a project's MCP servers", () => {
  test("the model calls mcp__fs__read_file and gets the file's content; the everything server's tools are offered beside it", async () => {
    const files = tempDir("zot-mcp-files-");
    writeFileSync(join(files, "plan.md"), "step one: ship the MCP client\n");
    const where = project({ fs: filesystemStdio(files), everything: everythingStdio() });
    mock = startMockLlm([{ tool_calls: [{ name: "mcp__fs__read_file", args: { path: join(files, "plan.md") } }] }, { text: "The plan says: {{last_tool_result}}" }]);
    const run = await zot(["-p", "what does the plan say?", ...anthropic(mock.url)], where);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("The plan says: step one: ship the MCP client\n");
    const offered = toolNames(mock.requests[0]!.body);
    expect(offered).toContain("mcp__fs__read_file");
    expect(offered).toContain("mcp__everything__echo");
    expect(offered).toContain("read");
    expect(lastToolResults(mock.requests[1]!.body)).toEqual([{ text: "step one: ship the MCP client\n", is_error: false }]);
  });

  test("a server run by the zot binary's own bun (BUN_BE_BUN=1 in its env) needs no node", async () => {
    const files = tempDir("zot-mcp-files-");
    writeFileSync(join(files, "x.txt"), "read by a server zot itself runs\n");
    const where = project({ fs: { command: ZOT, args: ["run", FILESYSTEM, files], env: { BUN_BE_BUN: "1" } } });
    mock = startMockLlm([{ tool_calls: [{ name: "mcp__fs__read_text_file", args: { path: join(files, "x.txt") } }] }, { text: "{{last_tool_result}}" }]);
    const run = await zot(["-p", "read it", ...anthropic(mock.url)], where);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("read by a server zot itself runs\n");
  });

  test("${CLAUDE_PROJECT_DIR} in .mcp.json is the project folder without being exported, and a stdio server has it in its environment; zot mcp get shows the entry as written", async () => {
    const where = project({
      fs: { command: "node", args: [FILESYSTEM, "${CLAUDE_PROJECT_DIR}/notes"] },
      everything: { command: "node", args: [EVERYTHING, "stdio"], env: { DB_PATH: "${CLAUDE_PROJECT_DIR}/.data/app.db" } },
    });
    const folder = realpathSync(where.cwd);
    mkdirSync(join(folder, "notes"));
    writeFileSync(join(folder, "notes", "todo.txt"), "ship the release\n");
    mock = startMockLlm([
      { tool_calls: [{ name: "mcp__fs__read_text_file", args: { path: join(folder, "notes", "todo.txt") } }] },
      { tool_calls: [{ name: "mcp__everything__get-env", args: {} }] },
      { text: "done" },
    ]);
    const run = await zot(["-p", "where am I?", ...anthropic(mock.url)], where);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(lastToolResults(mock.requests[1]!.body)).toEqual([{ text: "ship the release\n", is_error: false }]);
    const env = JSON.parse(lastToolResults(mock.requests[2]!.body)[0]!.text);
    expect(env.CLAUDE_PROJECT_DIR).toBe(folder);
    expect(env.DB_PATH).toBe(`${folder}/.data/app.db`);
    const get = await zot(["mcp", "get", "fs"], where);
    expect(get.stdout).toContain("Status: ✓ connected");
    expect(get.stdout).toContain(`Args: ${FILESYSTEM} \${CLAUDE_PROJECT_DIR}/notes`);
  });

  test("a server added with zot mcp add --transport http is reached over streamable HTTP", async () => {
    const server = await startEverythingHttp("streamableHttp");
    try {
      const where = project({});
      const added = await zot(["mcp", "add", "--transport", "http", "--scope", "user", "-H", "X-Test: ${TEST_HEADER:-none}", "remote", server.url], where);
      expect(added.stderr).toBe("");
      expect(added.stdout).toContain('added http MCP server "remote" to');
      mock = startMockLlm([{ tool_calls: [{ name: "mcp__remote__echo", args: { message: "across HTTP" } }] }, { text: "{{last_tool_result}}" }]);
      const run = await zot(["-p", "echo it", ...anthropic(mock.url)], where);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("Echo: across HTTP\n");
    } finally {
      server.stop();
    }
  });

  test("a server that crashes mid-call: that call is a tool error naming the exit, the turn goes on, the server is started again for the next call", async () => {
    const where = project({ bad: misbehaving() });
    mock = startMockLlm([{ tool_calls: [{ name: "mcp__bad__crash", args: {} }] }, { tool_calls: [{ name: "mcp__bad__ok", args: { text: "again" } }] }, { text: "coped" }]);
    const run = await zot(["--json", "try it", ...anthropic(mock.url)], where);
    expect(run.code).toBe(0);
    const results = ndjson(run.stdout).filter((e) => e.type === "tool_result");
    expect(results.map((e) => [e.name, e.is_error, e.content[0].text])).toEqual([
      ["mcp__bad__crash", true, 'MCP server "bad" exited with code 3 during the call of crash'],
      ["mcp__bad__ok", false, "ok: again"],
    ]);
    expect(run.stderr).toMatch(/zot: MCP server "bad" stopped \(exited with code 3; its log: .*mcp-bad\.log\); zot starts it again in 1 s \(try 1 of 5\)\n/);
    expect(run.stderr).toContain('zot: MCP server "bad" is back: 7 tools, 1 prompts\n');
    expect(ndjson(run.stdout).at(-1)).toMatchObject({ type: "done" });
  });

  test("a server that hangs at start holds -p only until MCP_TIMEOUT; the prompt runs without it and the run says why", async () => {
    const where = project({ stuck: misbehaving("--hang-start"), fine: misbehaving() });
    mock = startMockLlm([{ text: "answered anyway" }]);
    const run = await zot(["-p", "hi", ...anthropic(mock.url)], { ...where, env: { ...where.env, MCP_TIMEOUT: "1500" } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("answered anyway\n");
    expect(run.stderr).toContain('zot: MCP server "stuck" (.mcp.json) did not start: did not start within 1.5 s (MCP_TIMEOUT sets the limit, in ms)');
    const offered = toolNames(mock.requests[0]!.body);
    expect(offered).toContain("mcp__fine__ok");
    expect(offered.some((name) => name.startsWith("mcp__stuck__"))).toBe(false);
  });

  test("a remote server that never finishes its handshake (SSE with no endpoint event, headers that never come) is given up at MCP_TIMEOUT too", async () => {
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      idleTimeout: 0,
      async fetch(req) {
        const path = new URL(req.url).pathname;
        if (req.method === "POST") return new Response(null, { status: 405 });
        // No headers at all: the request is held until the client goes away.
        if (path === "/mute") return new Promise<Response>((resolve) => req.signal.addEventListener("abort", () => resolve(new Response(null))));
        // SSE headers and a comment, and never the endpoint event (a buffering proxy).
        return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(": keep-alive\n\n")) }), { headers: { "content-type": "text/event-stream" } });
      },
    });
    try {
      const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;
      const where = project({ silent: { type: "sse", url: url("/sse") }, fallback: { type: "http", url: url("/mcp") }, mute: { type: "sse", url: url("/mute") }, fine: misbehaving() });
      mock = startMockLlm([{ text: "answered anyway" }]);
      const run = await zot(["-p", "hi", ...anthropic(mock.url)], { ...where, env: { ...where.env, MCP_TIMEOUT: "1500" } });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("answered anyway\n");
      for (const name of ["silent", "fallback", "mute"]) {
        expect(run.stderr).toContain(`zot: MCP server "${name}" (.mcp.json) did not start: did not start within 1.5 s (MCP_TIMEOUT sets the limit, in ms)`);
      }
      expect(toolNames(mock.requests[0]!.body)).toContain("mcp__fine__ok");
    } finally {
      server.stop(true);
    }
  });

  test("a tool the SDK's schemas would refuse does not take the server's other tools with it; a result's odd blocks are lines, its good ones stay", async () => {
    const where = project({ odd: misbehaving("--odd-tools") });
    mock = startMockLlm([{ tool_calls: [{ name: "mcp__odd__mixed", args: {} }] }, { text: "done" }]);
    const run = await zot(["-p", "hi", ...anthropic(mock.url)], where);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("did not start");
    const offered = toolNames(mock.requests[0]!.body);
    for (const name of ["mcp__odd__ok", "mcp__odd__either", "mcp__odd__measured", "mcp__odd__mixed", "mcp__odd__numbered"]) expect(offered).toContain(name);
    const numbered = mock.requests[0]!.body.tools.find((tool: any) => tool.name === "mcp__odd__numbered");
    expect(numbered.input_schema).toEqual({ type: "object", properties: {} });
    expect(typeof numbered.description).toBe("string");
    // null is absent, not a wrong shape: the schema stays.
    const nulls = mock.requests[0]!.body.tools.find((tool: any) => tool.name === "mcp__odd__nulls");
    expect(nulls.input_schema).toEqual({ type: "object", properties: { q: { type: "string" } } });
    const numbers = mock.requests[0]!.body.tools.find((tool: any) => tool.name === "mcp__odd__numbers");
    expect(numbers.input_schema).toEqual({ type: "object", properties: {} });
    // Nested deeper than 64 levels (at 50,000 building every request overflowed the stack): offered with no parameters.
    const deep = mock.requests[0]!.body.tools.find((tool: any) => tool.name === "mcp__odd__deep");
    expect(deep.input_schema).toEqual({ type: "object", properties: {} });
    const result = JSON.stringify(mock.requests[1]!.body.messages.at(-1));
    expect(result).toContain("42 results");
    expect(result).toContain('content of type \\"foo\\"');
    expect(result).toContain("whose data is not base64");
    expect(result).not.toContain("invalid_union");
  });

  test("an untrusted folder's .mcp.json does not run, and the note says how to trust it", async () => {
    const marker = sleepMarker();
    markers.push(marker);
    const where = project({ bad: misbehaving("--sleeper", marker) }, { trusted: false });
    mock = startMockLlm([{ text: "ok" }]);
    const run = await zot(["-p", "hi", ...anthropic(mock.url)], where);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/is not trusted, so its \.mcp\.json did not run; to run them, trust it: zot trust /);
    expect(toolNames(mock.requests[0]!.body).some((name) => name.startsWith("mcp__"))).toBe(false);
    expect(runningWith(marker)).toEqual([]);
  });

  test("nothing a stdio server starts outlives zot (its setsid'd child included)", async () => {
    const marker = sleepMarker();
    markers.push(marker);
    const where = project({ bad: misbehaving("--sleeper", marker) });
    mock = startMockLlm([{ tool_calls: [{ name: "mcp__bad__ok", args: { text: "x" } }] }, { text: "done" }]);
    const run = await zot(["-p", "go", ...anthropic(mock.url)], where);
    expect(run.code).toBe(0);
    expect(lastToolResults(mock.requests[1]!.body)[0]!.text).toBe("ok: x");
    expect(await survivors(marker)).toEqual([]);
  });

  test("a server's prompt is a slash command: /mcp__bad__greet fills its arguments and sends the prompt to the model", async () => {
    const where = project({ bad: misbehaving() });
    mock = startMockLlm([{ text: "Hello, Ada!" }]);
    const run = await zot(["-p", "/mcp__bad__greet Ada cheerful", ...anthropic(mock.url)], where);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello, Ada!\n");
    expect(JSON.stringify(mock.requests[0]!.body.messages)).toContain("Say hello to Ada in a cheerful mood.");
    const missing = await zot(["-p", "/mcp__bad__greet", ...anthropic(mock.url)], where);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("/mcp__bad__greet (extension mcp:bad): needs <name>: /mcp__bad__greet <name> [mood]");
    // --no-ext loads no extension; the servers' prompts are commands all the same.
    mock.push({ text: "Hello again, Ada!" });
    const noExt = await zot(["--no-ext", "-p", "/mcp__bad__greet Ada calm", ...anthropic(mock.url)], where);
    expect(noExt.code).toBe(0);
    expect(JSON.stringify(mock.requests.at(-1)!.body.messages)).toContain("Say hello to Ada in a calm mood.");
  });
});

describe("MCP servers' instructions", () => {
  test("a server's instructions reach the system prompt under its name, as Claude Code sends them; a server that gives none adds nothing", async () => {
    const system = (body: any): string => body.system.map((block: { text: string }) => block.text).join("");
    const files = tempDir("zot-mcp-files-");
    mock = startMockLlm([{ text: "one" }, { text: "two" }]);
    const run = await zot(["-p", "hi", ...anthropic(mock.url)], project({ everything: everythingStdio(), fs: filesystemStdio(files) }));
    expect(run.code).toBe(0);
    const withInstructions = system(mock.requests[0]!.body);
    expect(withInstructions).toContain("# Instructions from the MCP servers");
    expect(withInstructions).toContain("## everything\n\n# Everything Server – Server Instructions");
    expect(withInstructions).not.toContain("## fs\n");
    const none = await zot(["-p", "hi", ...anthropic(mock.url)], project({ fs: filesystemStdio(files) }));
    expect(none.code).toBe(0);
    expect(system(mock.requests[1]!.body)).not.toContain("Instructions from the MCP servers");
  });
});

describe("MCP resources, as Claude Code offers them", () => {
  const FEATURES = "demo://resource/static/document/features.md";

  test("ListMcpResourcesTool lists the everything server's resources and ReadMcpResourceTool reads one; a server without resources brings neither tool", async () => {
    const where = project({ everything: everythingStdio() });
    mock = startMockLlm([
      { tool_calls: [{ name: "ListMcpResourcesTool", args: {} }] },
      { tool_calls: [{ name: "ReadMcpResourceTool", args: { server: "everything", uri: FEATURES } }, { name: "ReadMcpResourceTool", args: { server: "nope", uri: "x://y" } }] },
      { text: "read" },
    ]);
    const run = await zot(["-p", "what resources are there?", ...anthropic(mock.url)], where);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("read\n");
    expect(toolNames(mock.requests[0]!.body)).toEqual(expect.arrayContaining(["ListMcpResourcesTool", "ReadMcpResourceTool", "mcp__everything__echo"]));
    const [listed] = lastToolResults(mock.requests[1]!.body);
    expect(listed!.is_error).toBe(false);
    const resources = JSON.parse(listed!.text) as { server: string; uri: string; name: string; mimeType?: string }[];
    expect(resources.length).toBeGreaterThan(1);
    expect(resources).toContainEqual(expect.objectContaining({ server: "everything", uri: FEATURES, name: "features.md", mimeType: "text/markdown" }));
    const [read, unknown] = lastToolResults(mock.requests[2]!.body);
    expect(read!.is_error).toBe(false);
    expect(read!.text).toStartWith(`[resource ${FEATURES}]\n# Everything Server - Features`);
    expect(unknown).toEqual({ text: 'no MCP server "nope" offers resources; these do: everything', is_error: true });

    const files = tempDir("zot-mcp-files-");
    mock.push({ text: "no resources here" });
    const fsOnly = await zot(["-p", "hi", ...anthropic(mock.url)], project({ fs: filesystemStdio(files) }));
    expect(fsOnly.code).toBe(0);
    const offered = toolNames(mock.requests.at(-1)!.body);
    expect(offered).toContain("mcp__fs__read_text_file");
    expect(offered).not.toContain("ListMcpResourcesTool");
    expect(offered).not.toContain("ReadMcpResourceTool");
  });

  test("Claude Code's permission rules name them as Claude Code does (a deny keeps ReadMcpResourceTool from the model); --no-yolo asks about a read as about the server's tools, never about the list", async () => {
    const where = project({ everything: everythingStdio() });
    mkdirSync(join(where.cwd, ".claude"));
    writeFileSync(join(where.cwd, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["ReadMcpResourceTool"] } }));
    mock = startMockLlm([{ text: "denied" }]);
    const denied = await zot(["-p", "read a resource", ...anthropic(mock.url)], where);
    expect(denied.code).toBe(0);
    expect(toolNames(mock.requests[0]!.body)).toContain("ListMcpResourcesTool");
    expect(toolNames(mock.requests[0]!.body)).not.toContain("ReadMcpResourceTool");

    // Nobody can answer a question in -p: the read --no-yolo asks about is refused, the list runs; an allow rule lets the read through.
    writeFileSync(join(where.cwd, ".claude", "settings.json"), "{}");
    mock.push({ tool_calls: [{ name: "ListMcpResourcesTool", args: {} }, { name: "ReadMcpResourceTool", args: { server: "everything", uri: FEATURES } }] }, { text: "done" });
    const asked = await zot(["-p", "--no-yolo", "read it", ...anthropic(mock.url)], where);
    expect(asked.code).toBe(0);
    const [listed, refused] = lastToolResults(mock.requests.at(-1)!.body);
    expect(listed!.is_error).toBe(false);
    expect(refused!.is_error).toBe(true);
    expect(refused!.text).toContain("has no terminal to ask in");
    mock.push({ tool_calls: [{ name: "ReadMcpResourceTool", args: { server: "everything", uri: FEATURES } }] }, { text: "{{last_tool_result}}" });
    const allowed = await zot(["-p", "--no-yolo", "--allowedTools", "ReadMcpResourceTool", "read it", ...anthropic(mock.url)], where);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toStartWith(`[resource ${FEATURES}]`);
  });
});

describe("--mcp-config and --strict-mcp-config, as Claude Code takes them", () => {
  test("a file's servers run for this run, beside the project's; in an untrusted folder only the command line's run", async () => {
    const files = tempDir("zot-mcp-files-");
    writeFileSync(join(files, "plan.md"), "ship the flags\n");
    const where = project({ everything: everythingStdio() });
    const config = join(tempDir("zot-mcp-flag-"), "ci-servers.json");
    writeFileSync(config, JSON.stringify({ mcpServers: { fs: filesystemStdio(files) } }));
    mock = startMockLlm([{ tool_calls: [{ name: "mcp__fs__read_file", args: { path: join(files, "plan.md") } }] }, { text: "It says: {{last_tool_result}}" }]);
    const run = await zot(["-p", "read the plan", "--mcp-config", config, ...anthropic(mock.url)], where);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("It says: ship the flags\n");
    const offered = toolNames(mock.requests[0]!.body);
    expect(offered).toContain("mcp__fs__read_file");
    expect(offered).toContain("mcp__everything__echo");

    const untrusted = project({ everything: everythingStdio() }, { trusted: false });
    mock.push({ text: "fine" });
    const inline = await zot(["-p", "hi", `--mcp-config=${JSON.stringify({ mcpServers: { fs: filesystemStdio(files) } })}`, ...anthropic(mock.url)], untrusted);
    expect(inline.code).toBe(0);
    const names = toolNames(mock.requests.at(-1)!.body).filter((name) => name.startsWith("mcp__"));
    expect(names).toContain("mcp__fs__read_file");
    expect(names.some((name) => name.startsWith("mcp__everything__"))).toBe(false);
  });

  test("--strict-mcp-config: only the command line's servers, and no trust question about the project's", async () => {
    const files = tempDir("zot-mcp-files-");
    const where = project({ everything: everythingStdio() }, { trusted: false });
    mock = startMockLlm([{ text: "ok" }]);
    const run = await zot(["--json", "hi", "--strict-mcp-config", "--mcp-config", JSON.stringify({ mcpServers: { fs: filesystemStdio(files) } }), ...anthropic(mock.url)], where);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const names = toolNames(mock.requests[0]!.body).filter((name) => name.startsWith("mcp__"));
    expect(names).toContain("mcp__fs__list_directory");
    expect(names.some((name) => name.startsWith("mcp__everything__"))).toBe(false);
  });

  test("Claude Code's settings turn a .mcp.json server off (disabledMcpjsonServers), and --setting-sources without project leaves .mcp.json out", async () => {
    const files = tempDir("zot-mcp-files-");
    const where = project({ fs: filesystemStdio(files), everything: everythingStdio() });
    mkdirSync(join(where.env.HOME, ".claude"), { recursive: true });
    writeFileSync(join(where.env.HOME, ".claude", "settings.json"), JSON.stringify({ disabledMcpjsonServers: ["everything"] }));
    mock = startMockLlm([{ text: "ok" }, { text: "ok" }]);
    expect((await zot(["-p", "hi", ...anthropic(mock.url)], where)).code).toBe(0);
    const first = toolNames(mock.requests[0]!.body).filter((name) => name.startsWith("mcp__"));
    expect(first).toContain("mcp__fs__list_directory");
    expect(first.some((name) => name.startsWith("mcp__everything__"))).toBe(false);
    expect((await zot(["-p", "hi", "--setting-sources", "user", ...anthropic(mock.url)], where)).code).toBe(0);
    expect(toolNames(mock.requests[1]!.body).filter((name) => name.startsWith("mcp__"))).toEqual([]);
  });

  test("a --mcp-config that cannot be read stops the run before anything starts, naming it", async () => {
    mock = startMockLlm([{ text: "never" }]);
    const where = project({});
    const missing = await zot(["-p", "hi", "--mcp-config", "servers.json", ...anthropic(mock.url)], where);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`zot: --mcp-config servers.json: cannot read ${join(realpathSync(where.cwd), "servers.json")} (no such file)\n`);
    const broken = await zot(["-p", "hi", "--mcp-config", '{"mcpServers": ', ...anthropic(mock.url)], where);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toStartWith("zot: --mcp-config JSON #1: not valid JSON");
    expect(mock.requests).toEqual([]);
  });
});

describe("deferred MCP tools (ENABLE_TOOL_SEARCH)", () => {
  test("with tool search the first request carries tool_search instead of the schemas; a search activates the tool for the next request", async () => {
    const files = tempDir("zot-mcp-files-");
    writeFileSync(join(files, "a.txt"), "deferred but found\n");
    const servers = { fs: filesystemStdio(files), everything: everythingStdio() };
    const direct = project(servers);
    mock = startMockLlm([{ text: "direct" }]);
    expect((await zot(["-p", "hi", ...anthropic(mock.url)], { ...direct, env: { ...direct.env, ENABLE_TOOL_SEARCH: "false" } })).code).toBe(0);
    const directBody = mock.requests[0]!.body;
    await mock.stop();

    const where = project(servers);
    mock = startMockLlm([
      { tool_calls: [{ name: "tool_search", args: { query: "read file", max_results: 3 } }] },
      { tool_calls: [{ name: "mcp__fs__read_text_file", args: { path: join(files, "a.txt") } }] },
      { text: "{{last_tool_result}}" },
    ]);
    const run = await zot(["-p", "read a.txt", ...anthropic(mock.url)], { ...where, env: { ...where.env, ENABLE_TOOL_SEARCH: "true" } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("deferred but found\n");
    const first = mock.requests[0]!.body;
    expect(toolNames(first).filter((name) => name.startsWith("mcp__"))).toEqual([]);
    expect(toolNames(first)).toContain("tool_search");
    expect(first.tools.find((t: any) => t.name === "tool_search").description).toContain("mcp__fs__read_text_file");
    expect(toolNames(mock.requests[1]!.body)).toContain("mcp__fs__read_text_file");
    // The point of it: the deferred request is much smaller than the one carrying every schema.
    expect(JSON.stringify(first.tools).length * 2).toBeLessThan(JSON.stringify(directBody.tools).length);
  });
});

describe("the MCP servers over rpc", () => {
  const rpcs = rpcFixture();

  test("get_mcp_servers lists them as /mcp does; mcp_reconnect starts one again, a new process, and names what it cannot", async () => {
    const config = JSON.stringify({ mcpServers: { bad: misbehaving() } });
    const rpc = rpcs.start([], [`--mcp-config=${config}`, "--strict-mcp-config"], { cwd: tempDir("zot-mcp-rpc-"), env: { HOME: tempDir("zot-mcp-rpc-user-") } });
    let listed: any;
    for (let i = 0; i < 50; i++) {
      listed = (await rpc.call({ type: "get_mcp_servers" })).data;
      if (listed.servers[0]?.state === "connected") break;
      await Bun.sleep(100);
    }
    expect(listed).toMatchObject({ deferring: false, servers: [{ name: "bad", source: "--mcp-config JSON #1", state: "connected", transport: "stdio", prompts: ["mcp__bad__greet"] }] });
    expect(listed.servers[0].tools).toContain("mcp__bad__ok");
    const before = listed.servers[0].pid;
    const again = await rpc.call({ type: "mcp_reconnect", server: "bad" });
    expect(again).toMatchObject({ success: true, data: { servers: [{ name: "bad", state: "connected" }] } });
    expect(again.data.servers[0].pid).not.toBe(before);
    // With no name: only the servers that are down (none).
    expect((await rpc.call({ type: "mcp_reconnect" })).data.servers).toEqual([]);
    expect(await rpc.call({ type: "mcp_reconnect", server: "nope" })).toMatchObject({ success: false, error: 'mcp_reconnect: no MCP server "nope" in this run (bad)' });
  });

  test("a published server killed from outside (kill -9) is started again on its own, and the model's next call reaches the new one", async () => {
    const config = JSON.stringify({ mcpServers: { everything: everythingStdio() } });
    const rpc = rpcs.start(
      [{ tool_calls: [{ name: "mcp__everything__echo", args: { message: "still here" } }] }, { text: "{{last_tool_result}}" }],
      [`--mcp-config=${config}`, "--strict-mcp-config"],
      { cwd: tempDir("zot-mcp-rpc-"), env: { HOME: tempDir("zot-mcp-rpc-user-") } },
    );
    const server = async () => (await rpc.call({ type: "get_mcp_servers" })).data.servers[0];
    let first = await server();
    for (let i = 0; i < 100 && first.state !== "connected"; i++) first = (await Bun.sleep(100), await server());
    expect(first.state).toBe("connected");
    process.kill(first.pid, "SIGKILL");
    let now = await server();
    for (let i = 0; i < 100 && !(now.state === "connected" && now.pid !== first.pid); i++) now = (await Bun.sleep(100), await server());
    expect(now).toMatchObject({ state: "connected" });
    expect(now.pid).not.toBe(first.pid);
    const events = await rpc.prompt("echo it");
    const result = events.find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ name: "mcp__everything__echo", is_error: false });
    expect(result.content[0].text).toContain("still here");
    expect(rpc.stderr).toContain('zot: MCP server "everything" stopped (');
    expect(rpc.stderr).toContain('zot: MCP server "everything" is back:');
  });
});
