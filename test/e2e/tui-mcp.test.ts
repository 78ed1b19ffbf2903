// MCP in the TUI through a real pseudo-terminal: /mcp shows each server's state, tools and prompt
// commands (a server still starting shows as starting, and the app did not wait for it), a
// server's prompt runs as a slash command typed in the editor, /mcp reconnect starts a server
// that stayed down again, and a server configured but not started (turned off in Claude Code) is
// listed as off, with why.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { everythingStdio, misbehaving } from "../support/mcp-servers.ts";
import { startMockLlm } from "../support/mock-llm.ts";
import type { PtySession } from "../support/pty.ts";
import { ptyRuns } from "../support/pty-runs.ts";
import { lastUserText, ready } from "../support/zot-pty.ts";
import { trustedProject } from "../support/trust.ts";
import { tempDir } from "../support/zot.ts";

const runs = ptyRuns();

/** Types /mcp until it shows `server` connected (it may join after the app's short start-up wait). */
async function untilConnected(session: PtySession, server: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    session.type("/mcp\r");
    try {
      await session.waitForText(`${server} — connected`, 1000);
      return;
    } catch (error) {
      if (attempt >= 20) throw error;
    }
  }
}

describe("MCP in the TUI", () => {
  test("/mcp lists the servers as they are; /mcp__good__greet sends the server's prompt", async () => {
    const home = tempDir("zot-home-");
    writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: { good: misbehaving(), stuck: misbehaving("--hang-start") } }));
    const mock = startMockLlm([{ text: "Hello there, Ada." }]);
    const { session } = runs.start(mock, { home, rows: 40, cols: 160, env: { HOME: tempDir("zot-user-"), CLAUDE_CONFIG_DIR: "" } });
    await ready(session);
    // The good server is up within the app's short start-up wait (or joins a moment later); the
    // stuck one never answers, and the app never waited for it.
    await untilConnected(session, "good");
    const screen = session.screen.text();
    expect(screen).toContain("MCP servers");
    expect(screen).toContain("stuck — starting…");
    expect(screen).toContain("mcp__good__ok");
    expect(screen).toContain("/mcp__good__greet");
    session.type("/mcp__good__greet Ada\r");
    await session.waitForText("Hello there, Ada.");
    expect(lastUserText(mock.requests.at(-1)!.body)).toBe("Say hello to Ada.");
  });

  test("a .mcp.json server turned off for the folder in Claude Code (disabledMcpjsonServers) is listed as off, with why, as zot mcp list has it", async () => {
    for (const servers of [{ good: misbehaving(), refused: misbehaving() }, { refused: misbehaving() }]) {
      const { cwd, home } = trustedProject();
      const userHome = tempDir("zot-user-");
      writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
      writeFileSync(join(userHome, ".claude.json"), JSON.stringify({ projects: { [cwd]: { disabledMcpjsonServers: ["refused"] } } }));
      const { session } = runs.start(runs.mock ?? startMockLlm(), { cwd, home, rows: 40, cols: 160, env: { HOME: userHome, CLAUDE_CONFIG_DIR: "" } });
      await ready(session);
      if ("good" in servers) await untilConnected(session, "good");
      else session.type("/mcp\r");
      await session.waitForText("refused — off: turned off for this folder in Claude Code (disabledMcpjsonServers) (.mcp.json)");
      expect(session.screen.text()).not.toContain("no MCP servers in this run");
      // Reconnecting it starts nothing, and says so instead of "starting … again".
      session.type("/mcp reconnect refused\r");
      await session.waitForText('MCP server "refused" (.mcp.json) is not started in this run: turned off for this folder in Claude Code');
      expect(session.screen.text()).not.toContain('starting MCP server "refused" again');
      session.close();
    }
  });

  test("@server:uri attaches an MCP resource to the prompt, as Claude Code does, and the @ picker lists them; /mcp counts the server's resources", async () => {
    const home = tempDir("zot-home-");
    writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: { everything: everythingStdio() } }));
    const mock = startMockLlm([{ text: "It lists the tools." }, { text: "unused" }]);
    const { session } = runs.start(mock, { home, rows: 40, cols: 160, env: { HOME: tempDir("zot-user-"), CLAUDE_CONFIG_DIR: "" } });
    await ready(session);
    await untilConnected(session, "everything");
    // however the list of its tools wraps
    expect(session.screen.text().replace(/\s+/g, " ")).toMatch(/resources: [1-9] \(`?@everything:<uri>/);
    // The @ picker lists the resources once the fragment names the server; Enter puts the mention in.
    session.type("summarise @everything:");
    await session.waitForText("MCP resources");
    session.type("features\r");
    await session.waitFor((screen) => screen.lines().includes("> summarise @everything:demo://resource/static/document/features.md"), "the mention in the prompt");
    session.type("and @everything:demo://nothing/here please");
    session.type("\r");
    await session.waitForText("It lists the tools.");
    const sent = lastUserText(mock.requests.at(-1)!.body);
    expect(sent).toStartWith("summarise @everything:demo://resource/static/document/features.md and @everything:demo://nothing/here please\n\n");
    expect(sent).toContain('<resource server="everything" uri="demo://resource/static/document/features.md">\n# Everything Server - Features\n');
    expect(sent).not.toContain("demo://nothing/here\">");
    const screen = session.screen.text();
    expect(screen).toContain("⎿ attached everything:demo://resource/static/document/features.md (");
    expect(screen).toContain('@everything:demo://nothing/here was not attached: MCP server "everything" could not read demo://nothing/here');
  });

  test("/mcp reconnect <name> starts a server again: one that will not start says why, one that is up comes back as a new process", async () => {
    const home = tempDir("zot-home-");
    const marker = join(tempDir("zot-once-"), "started");
    writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: { flaky: misbehaving("--start-once", marker), good: misbehaving() } }));
    const mock = startMockLlm();
    const { session } = runs.start(mock, { home, rows: 40, cols: 220, env: { HOME: tempDir("zot-user-"), CLAUDE_CONFIG_DIR: "" } });
    await ready(session);
    // flaky crashes, and every start after fails (its marker is there).
    mock.push({ tool_calls: [{ name: "mcp__flaky__crash", args: {} }] }, { text: "it crashed" });
    session.type("crash it\r");
    await session.waitForText("it crashed");
    await session.waitForText('MCP server "flaky" stopped (exited with code 3');
    session.type("/mcp reconnect flaky\r");
    await session.waitForText('MCP server "flaky" did not start: exited with code 4');
    session.type("/mcp reconnect good\r");
    await session.waitForText('MCP server "good" is up: 7 tools, 1 prompts');
    mock.push({ tool_calls: [{ name: "mcp__good__ok", args: { text: "again" } }] }, { text: "{{last_tool_result}}" });
    session.type("call it\r");
    await session.waitForText("ok: again");
    session.type("/mcp reconnect nope\r");
    await session.waitForText('no MCP server "nope" in this run (flaky, good)');
  });

  test("/mcp reconnect <name> starts the user's own server, though an untrusted folder's .mcp.json has one of that name", async () => {
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-untrusted-");
    writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: { good: misbehaving() } }));
    writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { good: { command: "false" } } }));
    const { session } = runs.start(startMockLlm(), { home, cwd, rows: 40, cols: 220, env: { HOME: tempDir("zot-user-"), CLAUDE_CONFIG_DIR: "" } });
    // The folder's question: not now (Esc), so its .mcp.json stays off.
    await session.waitForText("Trust this folder?");
    session.type("\x1b");
    await ready(session);
    await untilConnected(session, "good");
    session.type("/mcp reconnect good\r");
    await session.waitForText('MCP server "good" is up: 7 tools, 1 prompts');
  });
});
