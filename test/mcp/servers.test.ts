// The MCP manager against real servers: the reference "everything" and "filesystem" servers over
// stdio, streamable HTTP and HTTP+SSE, and a server that misbehaves on purpose (garbage, a crash
// mid-call, a hang at start and in a call). Rule checked: every failure is reported and isolated,
// and nothing a server started outlives stop().
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { InterceptChain } from "../../src/core/intercept.ts";
import type { ConfiguredServer } from "../../src/mcp/config-files.ts";
import { McpManager } from "../../src/mcp/manager.ts";
import { parseServerEntry, type ServerTransport } from "../../src/mcp/server-entry.ts";
import type { Tool } from "../../src/protocol/tool.ts";
import { everythingStdio, FILESYSTEM, filesystemStdio, misbehaving, startEverythingHttp } from "../support/mcp-servers.ts";
import { runningWith } from "../support/process-census.ts";
import { testModel } from "../support/test-model.ts";
import { tempDir } from "../support/zot.ts";

const managers: McpManager[] = [];
afterAll(async () => {
  await Promise.all(managers.map((m) => m.stop()));
});

function servers(entries: Record<string, unknown>, env: Record<string, string | undefined>) {
  return Object.entries(entries).map(([name, raw]) => {
    const parsed = parseServerEntry(raw, name, env);
    if ("error" in parsed) throw new Error(parsed.error);
    return { name, raw, warnings: [], transport: parsed.transport, source: { scope: "project", owner: "project", file: ".mcp.json", label: ".mcp.json" } } as ConfiguredServer & { transport: ServerTransport };
  });
}

/** A manager over `entries`, attached to an agent-like object; `notes` collects what it tells the user. */
async function start(entries: Record<string, unknown>, options: { env?: Record<string, string>; wait?: "all" | number; reconnectWaitsMs?: number[] } = {}) {
  const cwd = tempDir("zot-mcp-cwd-");
  const home = tempDir("zot-mcp-home-");
  const env = { ...process.env, ...options.env };
  const notes: string[] = [];
  const manager = new McpManager({
    cwd,
    home,
    env,
    servers: servers(entries, env),
    wait: options.wait ?? "all",
    clientVersion: "test",
    log: (m) => notes.push(m),
    ...(options.reconnectWaitsMs ? { reconnectWaitsMs: options.reconnectWaitsMs } : {}),
  });
  managers.push(manager);
  const warnings = await manager.start();
  const agent = {
    tools: [] as Tool[],
    chain: new InterceptChain(),
    model: testModel({ context_window: 200_000 }),
    swapTools(previous: readonly Tool[], next: readonly Tool[]) {
      const old = new Set(previous);
      agent.tools = [...agent.tools.filter((tool) => !old.has(tool)), ...next];
    },
    sections: new Map<string, string>(),
    setSystemSection(owner: string, text: string) {
      agent.sections.set(owner, text);
    },
  };
  manager.attach(agent);
  const call = async (name: string, args: Record<string, unknown> = {}, signal = new AbortController().signal) => {
    const tool = agent.tools.find((t) => t.name === name);
    if (!tool) throw new Error(`no tool ${name} among ${agent.tools.map((t) => t.name).join(", ")}`);
    return tool.execute(args, { cwd, signal, onProgress() {} });
  };
  return { manager, agent, warnings, notes, call, cwd, home };
}

const text = (result: { content: { type: string; text?: string }[] }) => result.content.map((b) => b.text ?? `[${b.type}]`).join("\n");

function running(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("the reference servers over stdio", () => {
  test("filesystem and everything start in parallel; their tools read files, return images and structured content; prompts are commands", async () => {
    const dir = tempDir("zot-mcp-files-");
    writeFileSync(join(dir, "note.txt"), "hello from the file\n");
    const { manager, agent, warnings, call } = await start({ fs: filesystemStdio(dir), everything: everythingStdio() }, { env: { ENABLE_TOOL_SEARCH: "false" } });
    expect(warnings).toEqual([]);
    const names = agent.tools.map((t) => t.name);
    expect(names).toContain("mcp__fs__read_file");
    expect(names).toContain("mcp__everything__get-sum");
    expect(text(await call("mcp__fs__read_file", { path: join(dir, "note.txt") }))).toBe("hello from the file\n");
    const outside = await call("mcp__fs__read_file", { path: "/etc/hostname" });
    expect(outside.is_error).toBe(true);
    expect(text(outside)).toContain("Access denied");
    const image = await call("mcp__everything__get-tiny-image");
    expect(image.content.some((b) => b.type === "image" && b.mime_type === "image/png")).toBe(true);
    const structured = await call("mcp__everything__get-structured-content", { location: "Chicago" });
    expect(structured.details).toMatchObject({ structured_content: { conditions: expect.any(String) } });
    expect(manager.hasCommand("mcp__everything__args-prompt")).toBe(true);
    const prompt = await manager.runCommand("mcp__everything__args-prompt", '"New York" NY', new AbortController().signal);
    expect(prompt).toMatchObject({ action: "prompt", extension: "mcp:everything" });
    expect(prompt.action === "prompt" && prompt.text).toContain("New York");
    expect(await manager.runCommand("mcp__everything__args-prompt", "", new AbortController().signal)).toMatchObject({ action: "error", text: expect.stringContaining("needs <city>") });
    const pids = manager.list().map((s) => s.pid);
    expect(pids.every(running)).toBe(true);
    await manager.stop();
    expect(pids.some(running)).toBe(false);
    expect(text(await call("mcp__fs__read_file", { path: join(dir, "note.txt") }))).toContain('MCP server "fs" is not running');
  });

  test("zot offers the working folder as the root of a server given no folder: the filesystem server started with none works on it", async () => {
    const { call, cwd, manager } = await start({ fs: { command: "node", args: [FILESYSTEM] } }, { env: { ENABLE_TOOL_SEARCH: "false" } });
    writeFileSync(join(cwd, "here.txt"), "in the root\n");
    expect(manager.list()[0]!.state).toBe("connected");
    // The server asks for the roots once initialized, and takes them a moment later.
    let allowed = "";
    for (let i = 0; i < 100 && !allowed.includes(realpathSync(cwd)); i++) allowed = text(await call("mcp__fs__list_allowed_directories"));
    expect(allowed).toContain(realpathSync(cwd));
    expect(text(await call("mcp__fs__read_text_file", { path: join(cwd, "here.txt") }))).toBe("in the root\n");
  });

  test("a server whose arguments name folders is offered those as its roots: the filesystem server keeps the folder it was given", async () => {
    const dir = tempDir("zot-mcp-given-");
    writeFileSync(join(dir, "given.txt"), "in the given folder\n");
    const { call, cwd } = await start({ fs: filesystemStdio(dir) }, { env: { ENABLE_TOOL_SEARCH: "false" } });
    await Bun.sleep(200); // the server takes the roots a moment after it is initialized
    const allowed = text(await call("mcp__fs__list_allowed_directories"));
    expect(allowed).toContain(realpathSync(dir));
    expect(allowed).not.toContain(realpathSync(cwd));
    expect(text(await call("mcp__fs__read_text_file", { path: join(dir, "given.txt") }))).toBe("in the given folder\n");
  });

  test("a stdio server never gets zot's credentials, and gets its own env", async () => {
    const { call } = await start({ everything: { ...everythingStdio(), env: { FROM_CONFIG: "${CONFIG_VALUE}" } } }, { env: { ANTHROPIC_API_KEY: "sk-must-not-leak", CONFIG_VALUE: "configured", ENABLE_TOOL_SEARCH: "false" } });
    const env = text(await call("mcp__everything__get-env"));
    expect(env).toContain('"FROM_CONFIG": "configured"');
    expect(env).not.toContain("sk-must-not-leak");
  });
  test("a stdio server gets CLAUDE_PROJECT_DIR, the folder it runs in, over an exported value; its own env still wins", async () => {
    const exported = { CLAUDE_PROJECT_DIR: "/some/other/project", ENABLE_TOOL_SEARCH: "false" };
    const folder = await start({ everything: everythingStdio() }, { env: exported });
    expect(JSON.parse(text(await folder.call("mcp__everything__get-env"))).CLAUDE_PROJECT_DIR).toBe(folder.cwd);
    const own = await start({ everything: { ...everythingStdio(), env: { CLAUDE_PROJECT_DIR: "/its/own" } } }, { env: exported });
    expect(JSON.parse(text(await own.call("mcp__everything__get-env"))).CLAUDE_PROJECT_DIR).toBe("/its/own");
  });
});

describe("the everything server over HTTP", () => {
  test("streamable HTTP, HTTP+SSE, and http falling back to SSE at an SSE-only endpoint", async () => {
    const http = await startEverythingHttp("streamableHttp");
    const sse = await startEverythingHttp("sse");
    try {
      const { manager, call } = await start(
        { h: { type: "http", url: http.url }, s: { type: "sse", url: sse.url }, fallback: { type: "http", url: sse.url } },
        { env: { ENABLE_TOOL_SEARCH: "false" } },
      );
      expect(manager.list().map((s) => `${s.name}:${s.state}:${s.transport}`)).toEqual(["h:connected:http", "s:connected:sse", "fallback:connected:sse"]);
      expect(text(await call("mcp__h__echo", { message: "over http" }))).toBe("Echo: over http");
      expect(text(await call("mcp__s__echo", { message: "over sse" }))).toBe("Echo: over sse");
      expect(text(await call("mcp__fallback__get-sum", { a: 2, b: 40 }))).toContain("42");
    } finally {
      http.stop();
      sse.stop();
    }
  });

  test("a remote server that goes away is a drop: the call says it could not be reached, and once one listens again the next call reaches it", async () => {
    let http = await startEverythingHttp("streamableHttp");
    try {
      const { manager, call, notes } = await start({ h: { type: "http", url: http.url } }, { env: { ENABLE_TOOL_SEARCH: "false" }, reconnectWaitsMs: [200, 400, 800, 1600, 3200] });
      expect(text(await call("mcp__h__echo", { message: "one" }))).toBe("Echo: one");
      http.stop();
      await Bun.sleep(100);
      const lost = await call("mcp__h__echo", { message: "two" });
      expect(lost.is_error).toBe(true);
      expect(text(lost)).toMatch(/^MCP server "h" could not be reached \(.+\) during the call of echo$/);
      expect(notes[0]).toMatch(/^MCP server "h" stopped \(could not be reached \(.+\); its log: .*\); zot starts it again in 0\.2 s \(try 1 of 5\)$/);
      // Back on the same port: the call waits across the tries until one reaches it.
      http = await startEverythingHttp("streamableHttp", http.port);
      expect(text(await call("mcp__h__echo", { message: "three" }))).toBe("Echo: three");
      expect(manager.list()[0]!.state).toBe("connected");
      expect(notes.at(-1)).toMatch(/^MCP server "h" is back: \d+ tools, \d+ prompts$/);
    } finally {
      http.stop();
    }
  });

  test("stop() ends a streamable HTTP session with a DELETE; a server that does not answer it holds stop() up at most a second", async () => {
    const http = await startEverythingHttp("streamableHttp");
    const seen: string[] = [];
    let answerDelete = true;
    // Between zot and the server: records each request, and can leave a DELETE unanswered.
    const proxy = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(request) {
        seen.push(`${request.method} ${request.headers.get("mcp-session-id") ? "with session" : "without session"}`);
        if (request.method === "DELETE" && !answerDelete) return new Promise<Response>(() => {});
        const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
        return fetch(http.url, { method: request.method, headers: request.headers, body });
      },
    });
    try {
      const url = `http://127.0.0.1:${proxy.port}/mcp`;
      const first = await start({ h: { type: "http", url } }, { env: { ENABLE_TOOL_SEARCH: "false" } });
      expect(text(await first.call("mcp__h__echo", { message: "hi" }))).toBe("Echo: hi");
      await first.manager.stop();
      expect(seen.filter((line) => line.startsWith("DELETE"))).toEqual(["DELETE with session"]);
      answerDelete = false;
      const second = await start({ h: { type: "http", url } }, { env: { ENABLE_TOOL_SEARCH: "false" } });
      const began = Date.now();
      await second.manager.stop();
      expect(Date.now() - began).toBeLessThan(3000);
      expect(seen.filter((line) => line.startsWith("DELETE"))).toHaveLength(2);
    } finally {
      proxy.stop(true);
      http.stop();
    }
  });

  test("a server that exits while starting: the warning names its log once", async () => {
    const { warnings } = await start({ quits: { command: "sh", args: ["-c", "exit 3"] } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^MCP server "quits" \(\.mcp\.json\) did not start: exited with code 3 before it finished starting \(its log: [^)]*mcp-quits\.log\)$/);
  });

  test("an endpoint nobody listens on is a failed server with a sentence, not a crash", async () => {
    const { warnings } = await start({ gone: { type: "http", url: "http://127.0.0.1:9/mcp" } });
    expect(warnings).toEqual([expect.stringMatching(/^MCP server "gone" \(\.mcp\.json\) did not start: cannot reach http:\/\/127\.0\.0\.1:9\/mcp/)]);
  });
});

describe("a misbehaving server", () => {
  test("its MCP log messages go to its log with their level and logger, never to the user", async () => {
    const { call, notes, home } = await start({ talky: misbehaving("--logging") });
    expect(text(await call("mcp__talky__ok", { text: "x" }))).toBe("ok: x");
    const log = readFileSync(join(home, "logs", "mcp-talky.log"), "utf8");
    expect(log).toContain("talky: [warning startup] the cache is cold");
    // the server's words, told from zot's own lines: no "[zot] " before them
    expect(log).not.toContain("[zot] talky: [warning");
    expect(log).toContain('talky: [info] {"called":"ok","text":"x"}');
    expect(notes).toEqual([]);
  });

  test("a flood of MCP log messages is held to the log budget a child's stderr has, and each message is one line", async () => {
    const { call, home } = await start({ flood: misbehaving("--log-flood") });
    for (let i = 0; i < 50; i++) await Bun.sleep(10);
    expect(text(await call("mcp__flood__ok", { text: "x" }))).toBe("ok: x");
    const log = readFileSync(join(home, "logs", "mcp-flood.log"), "utf8");
    expect(log.length).toBeLessThan(1024 * 1024); // 2,000 messages of 2 KB: 4 MB unbudgeted
    expect(log).toContain("flood: [info flood] 0 xxx");
  });

  test("a prompt with assistant messages keeps their roles, marked, in the text sent; one of user messages alone is sent as it was", async () => {
    const { manager } = await start({ fewshot: misbehaving("--dialogue"), plain: misbehaving() });
    const signal = new AbortController().signal;
    expect(await manager.runCommand("mcp__fewshot__greet", "Ann", signal)).toMatchObject({
      action: "prompt",
      text: 'The MCP prompt greet of server fewshot is a conversation; its messages, each with its role:\n\n<message role="user">\nGreet Ann.\n</message>\n\n<message role="assistant">\nHello, Bob!\n</message>\n\n<message role="user">\nNow the same, warmer.\n</message>',
    });
    expect(await manager.runCommand("mcp__plain__greet", "Ann", signal)).toMatchObject({ action: "prompt", text: "Say hello to Ann." });
  });

  test("garbage between answers is skipped and reported once; the tools still work", async () => {
    const { call, notes, manager } = await start({ bad: misbehaving("--garbage") });
    expect(manager.list()[0]).toMatchObject({ state: "connected" });
    expect(text(await call("mcp__bad__ok", { text: "still fine" }))).toBe("ok: still fine");
    expect(text(await call("mcp__bad__ok", { text: "again" }))).toBe("ok: again");
    expect(notes.filter((n) => n.includes("wrote output that is not MCP"))).toHaveLength(1);
  });

  test("a crash mid-call fails that call at once with the exit; the server is started again and its next call waits for it", async () => {
    const { call, notes, manager } = await start({ bad: misbehaving(), good: misbehaving() }, { reconnectWaitsMs: [50, 50] });
    const pid = manager.list()[0]!.pid;
    const crashed = await call("mcp__bad__crash");
    expect(crashed.is_error).toBe(true);
    expect(text(crashed)).toBe('MCP server "bad" exited with code 3 during the call of crash');
    // The next call waits for the new start, and is answered by a new process.
    expect(text(await call("mcp__bad__ok", { text: "again" }))).toBe("ok: again");
    expect(manager.list()[0]).toMatchObject({ state: "connected" });
    expect(manager.list()[0]!.pid).not.toBe(pid);
    expect(running(pid)).toBe(false);
    expect(notes).toEqual([
      expect.stringMatching(/^MCP server "bad" stopped \(exited with code 3; its log: .*mcp-bad\.log\); zot starts it again in 0\.05 s \(try 1 of 2\)$/),
      'MCP server "bad" is back: 7 tools, 1 prompts',
    ]);
    // The other server is untouched.
    expect(text(await call("mcp__good__ok", { text: "x" }))).toBe("ok: x");
  });

  test("a server that will not start again is left down after its tries, its tools say so; reconnect() brings it back", async () => {
    const marker = join(tempDir("zot-mcp-once-"), "started");
    const { call, notes, manager, home } = await start({ bad: misbehaving("--start-once", marker) }, { reconnectWaitsMs: [20, 20, 20] });
    await call("mcp__bad__crash");
    // Three tries, each failing at start (the marker is there), then it stays down.
    for (let i = 0; i < 100 && !notes.some((n) => n.includes("after 3 tries")); i++) await Bun.sleep(20);
    const log = join(home, "logs", "mcp-bad.log");
    const failed = `did not start again: exited with code 4 before it finished starting (its log: ${log})`;
    expect(notes).toEqual([
      `MCP server "bad" stopped (exited with code 3; its log: ${log}); zot starts it again in 0.02 s (try 1 of 3)`,
      `MCP server "bad" ${failed}; zot starts it again in 0.02 s (try 2 of 3)`,
      `MCP server "bad" ${failed}; zot starts it again in 0.02 s (try 3 of 3)`,
      `MCP server "bad" ${failed}; after 3 tries zot leaves it down and its tools answer with an error (/mcp reconnect bad tries again)`,
    ]);
    expect(text(await call("mcp__bad__ok"))).toBe(`MCP server "bad" is not running: exited with code 4 before it finished starting (its log: ${log})`);
    expect(manager.list()[0]!.state).toBe("failed");
    // Asked by name once the cause is gone, it comes back, with all its tries again.
    rmSync(marker);
    const back = await manager.reconnect("bad");
    expect(back).toMatchObject([{ name: "bad", state: "connected" }]);
    expect(text(await call("mcp__bad__ok", { text: "back" }))).toBe("ok: back");
    expect(await manager.reconnect("nope")).toEqual({ error: 'no MCP server "nope" in this run (bad)' });
    // With no name: the ones that are down (none now).
    expect(await manager.reconnect()).toEqual([]);
  });

  test("a prompt for a server waiting to be started again waits MCP_TIMEOUT at most, not through its tries and their waits", async () => {
    const marker = join(tempDir("zot-mcp-once-"), "started");
    const { call, manager } = await start({ bad: misbehaving("--start-once", marker) }, { reconnectWaitsMs: [5000, 5000], env: { MCP_TIMEOUT: "300" } });
    await call("mcp__bad__crash");
    const asked = Date.now();
    const answer = await manager.runCommand("mcp__bad__greet", "Ann", new AbortController().signal);
    expect(Date.now() - asked).toBeLessThan(4000); // the first try comes after 5 s
    expect(answer).toMatchObject({ action: "error", text: 'MCP server "bad" is still starting after 0.3 s (MCP_TIMEOUT sets the limit, in ms)' });
  });

  test("a reconnect during the wait before a try takes over quietly: no false note, no try counted", async () => {
    const marker = join(tempDir("zot-mcp-once-"), "started");
    const { call, notes, manager } = await start({ bad: misbehaving("--start-once", marker) }, { reconnectWaitsMs: [1000, 1000] });
    await call("mcp__bad__crash");
    expect(notes).toHaveLength(1);
    rmSync(marker);
    expect(await manager.reconnect("bad")).toMatchObject([{ state: "connected" }]);
    await Bun.sleep(50);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain("(try 1 of 2)");
  });

  test("two reconnects at once start one new process; stop() while one runs leaves nothing running", async () => {
    const tag = `zot-reconnect-${process.pid}-${Date.now()}`;
    const { manager } = await start({ bad: misbehaving("--tag", tag) });
    const before = manager.list()[0]!.pid;
    const [first, second] = (await Promise.all([manager.reconnect("bad"), manager.reconnect("bad")])) as { pid?: number; state: string }[][];
    expect(first![0]!.pid).toBe(second![0]!.pid!);
    expect(first![0]!.pid).not.toBe(before);
    expect(runningWith(tag)).toEqual([first![0]!.pid!]);
    // A stop while a reconnect is under way: nothing starts after it, nothing is left.
    const again = manager.reconnect("bad");
    await manager.stop();
    await again;
    expect(manager.list()[0]!.state).toBe("stopped");
    expect(runningWith(tag)).toEqual([]);
  });

  test("reconnect(name) starts a server again while it is up (a wedged one), a new process in place of the old", async () => {
    const { call, manager } = await start({ bad: misbehaving() });
    const before = manager.list()[0]!.pid;
    const [after] = (await manager.reconnect("bad")) as { pid?: number; state: string }[];
    expect(after).toMatchObject({ state: "connected" });
    expect(after!.pid).not.toBe(before);
    expect(running(before)).toBe(false);
    expect(text(await call("mcp__bad__ok", { text: "fresh" }))).toBe("ok: fresh");
  });

  test("an answer too long to read fails its call at once; a long one that fits is cut for the model", async () => {
    const { call } = await start({ bad: misbehaving() }, { env: { MAX_MCP_OUTPUT_TOKENS: "1000" } });
    const huge = await call("mcp__bad__big", { size: 33 * 1024 * 1024 });
    expect(huge.is_error).toBe(true);
    expect(text(huge)).toMatch(/^MCP server "bad" could not run big: the server's answer was \d+ bytes, more than zot reads \(33554432\); ask for less$/);
    const long = await call("mcp__bad__big", { size: 10_000 });
    expect(text(long)).toContain("[output cut: the tool returned 10000 characters, more than the 1000-token limit (MAX_MCP_OUTPUT_TOKENS)");
    expect(text(await call("mcp__bad__ok", { text: "still here" }))).toBe("ok: still here");
  });

  test("a call that hangs ends at MCP_TOOL_TIMEOUT, and at once on abort", async () => {
    const { call } = await start({ bad: misbehaving() }, { env: { MCP_TOOL_TIMEOUT: "300" } });
    const timedOut = await call("mcp__bad__hang");
    expect(text(timedOut)).toBe('MCP server "bad" did not answer hang within 0.3 s (MCP_TOOL_TIMEOUT sets the limit, in ms)');
    expect(timedOut.details).toMatchObject({ status: "timed_out" });
    const abort = new AbortController();
    const pending = call("mcp__bad__hang", {}, abort.signal);
    abort.abort();
    expect(text(await pending)).toBe('MCP server "bad" call of hang was cancelled');
    expect(text(await call("mcp__bad__ok", { text: "after" }))).toBe("ok: after");
  });

  test("a hang at start fails at MCP_TIMEOUT and leaves no process; others start regardless", async () => {
    const { warnings, manager, agent } = await start({ stuck: misbehaving("--hang-start"), fine: misbehaving() }, { env: { MCP_TIMEOUT: "500" } });
    expect(warnings).toEqual([expect.stringContaining('MCP server "stuck" (.mcp.json) did not start: did not start within 0.5 s (MCP_TIMEOUT sets the limit, in ms)')]);
    expect(manager.list()[0]).toMatchObject({ name: "stuck", state: "failed" });
    expect(agent.tools.some((t) => t.name === "mcp__fine__ok")).toBe(true);
    expect(agent.tools.some((t) => t.name.startsWith("mcp__stuck__"))).toBe(false);
  });

  test("with a bounded wait the run goes on without a slow server, which joins when it is up", async () => {
    const slowDir = tempDir("zot-mcp-slow-");
    const script = join(slowDir, "slow.sh");
    writeFileSync(script, `#!/bin/sh\nsleep 1\nexec node ${JSON.stringify(misbehaving().args[0])}\n`, { mode: 0o755 });
    const { manager, agent, notes } = await start({ slow: { command: script } }, { wait: 50 });
    expect(manager.list()[0]!.state).toBe("starting");
    expect(agent.tools).toEqual([]);
    for (let i = 0; i < 200 && manager.list()[0]!.state === "starting"; i++) await Bun.sleep(50);
    expect(agent.tools.map((t) => t.name)).toContain("mcp__slow__ok");
    expect(notes).toEqual([expect.stringContaining('MCP server "slow" is up and joined: 7 tools, 1 prompt')]);
    expect(existsSync(manager.list()[0]!.log)).toBe(true);
  });

  test("a mention or a prompt command naming a server still starting waits for it; one naming a server that did not start says so", async () => {
    const slowDir = tempDir("zot-mcp-slow-");
    const script = join(slowDir, "slow.sh");
    writeFileSync(script, `#!/bin/sh\nsleep 1\nexec node ${JSON.stringify(misbehaving().args[0])} --resources\n`, { mode: 0o755 });
    const { manager } = await start({ slow: { command: script }, gone: { command: "sh", args: ["-c", "sleep 0.5; exit 3"] } }, { wait: 50 });
    const signal = new AbortController().signal;
    expect(manager.list().map((s) => s.state)).toEqual(["starting", "starting"]);
    expect(manager.hasCommand("mcp__slow__greet")).toBe(true);
    const [text, greeting] = await Promise.all([manager.resourceText("slow", "note://hello", signal, 1000), manager.runCommand("mcp__slow__greet", "Ann", signal)]);
    expect(text).toEqual({ text: "hello text" });
    expect(greeting).toMatchObject({ action: "prompt", text: "Say hello to Ann." });
    expect(manager.hasCommand("mcp__gone__anything")).toBe(true);
    const [resource, command] = await Promise.all([manager.resourceText("gone", "note://hello", signal, 1000), manager.runCommand("mcp__gone__anything", "", signal)]);
    expect(resource).toEqual({ why: expect.stringMatching(/^MCP server "gone" is not running: exited with code 3 before it finished starting \(its log: .*\)$/) });
    expect(command).toMatchObject({ action: "error", text: expect.stringMatching(/^MCP server "gone" is not running: .*; \/mcp__gone__anything was not sent$/) });
    // A server that is up and has no such prompt: not its command (sent as text, as before).
    expect(manager.hasCommand("mcp__slow__nope")).toBe(false);
    expect(manager.resourceText("nobody", "note://hello", signal, 1000)).toBeUndefined();
  });
});

describe("lists that change", () => {
  test("a tools/list_changed that comes while zot is still listing at the start is not lost: zot lists again after", async () => {
    const { call, manager } = await start({ late: misbehaving("--late-tool") });
    expect(manager.list()[0]).toMatchObject({ state: "connected", tools: expect.arrayContaining(["mcp__late__late"]) });
    expect(text(await call("mcp__late__late"))).toBe("did late");
    // The same at a start again (a new process, which gains it again while listed).
    expect(await manager.reconnect("late")).toMatchObject([{ state: "connected", tools: expect.arrayContaining(["mcp__late__late"]) }]);
  });

  test("a server that announces changes faster than it can be listed still starts, and its tools work: a listing takes a few rounds at most", async () => {
    const { call, manager } = await start({ storm: misbehaving("--storm") });
    expect(manager.list()[0]).toMatchObject({ state: "connected", tools: expect.arrayContaining(["mcp__storm__ok"]) });
    expect(text(await call("mcp__storm__ok", { text: "calm" }))).toBe("ok: calm");
  });

  test("a call that adds tools (list_changed before its result) returns once they are listed again: the next request offers them", async () => {
    const { call, agent } = await start({ dyn: misbehaving("--dynamic") });
    expect(agent.tools.map((t) => t.name)).not.toContain("mcp__dyn__added");
    expect(text(await call("mcp__dyn__change"))).toBe("changed");
    expect(agent.tools.map((t) => t.name)).toContain("mcp__dyn__added");
    expect(text(await call("mcp__dyn__added"))).toBe("did added");
  });
});

describe("a listing that fails", () => {
  test("a server whose prompts/list fails keeps its tools; a note says its prompts could not be listed and why", async () => {
    const { call, manager, warnings, notes } = await start({ np: misbehaving("--prompts-fail") });
    expect(warnings).toEqual([]);
    expect(manager.list()[0]).toMatchObject({ state: "connected", prompts: [] });
    expect(text(await call("mcp__np__ok", { text: "tools work" }))).toBe("ok: tools work");
    expect(notes).toEqual([expect.stringMatching(/^MCP server "np" could not list its prompts \(prompts\/list: MCP error -32601: Method not found\); its tools are there, its prompts are not \(its log: .*mcp-np\.log\)$/)]);
    // Listed again (a start again): the tools stay, and the note is not said again.
    expect(await manager.reconnect("np")).toMatchObject([{ state: "connected", tools: expect.arrayContaining(["mcp__np__ok"]) }]);
    expect(notes).toHaveLength(1);
  });
});

describe("deferral", () => {
  test("ENABLE_TOOL_SEARCH=true gives the agent tool_search instead of the schemas; auto keeps two small servers direct", async () => {
    const deferred = await start({ everything: everythingStdio() }, { env: { ENABLE_TOOL_SEARCH: "true" } });
    expect(deferred.agent.tools.map((t) => t.name)).toEqual(["tool_search"]);
    expect(deferred.agent.tools[0]!.description).toContain("mcp__everything__echo");
    const found = await deferred.call("tool_search", { query: "echo" });
    expect(text(found)).toContain("mcp__everything__echo");
    expect(deferred.agent.tools.map((t) => t.name)).toContain("mcp__everything__echo");
    const direct = await start({ everything: everythingStdio() });
    expect(direct.agent.tools.map((t) => t.name)).toContain("mcp__everything__echo");
    expect(direct.agent.tools.map((t) => t.name)).not.toContain("tool_search");
  });
});
