// Claude Code's ~/.claude.json is read for its MCP servers only, and what zot reads of it is kept
// in $ZOT_HOME/cache while the file stays the same: the same servers either way, the file read
// again after any change, a broken file still a warning, a cache that cannot be written no error.
import { describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mcpView } from "../../src/mcp/claude-config-view.ts";
import { readMcpConfig } from "../../src/mcp/config-files.ts";
import { tempDir } from "../support/zot.ts";

function setup(claude: unknown | ((cwd: string) => unknown)) {
  const root = tempDir("zot-claude-view-");
  const cwd = join(root, "project");
  const home = join(root, "zot-home");
  const userHome = join(root, "user");
  for (const dir of [cwd, home, userHome]) mkdirSync(dir, { recursive: true });
  const file = join(userHome, ".claude.json");
  const content = typeof claude === "function" ? claude(cwd) : claude;
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  const read = () => readMcpConfig({ cwd, home, env: {}, userHome, projectTrusted: true });
  const names = () => read().servers.map((server) => `${server.name}@${server.source.scope}`);
  return { cwd, home, file, read, names, cache: join(home, "cache", "claude-mcp.json") };
}

/** A file as Claude Code writes it: every folder it saw, with its history, most with no servers. */
function claudeFile(cwd: string) {
  const projects: Record<string, unknown> = {};
  for (let i = 0; i < 50; i++) projects[`/elsewhere/p${i}`] = { history: [{ display: "x".repeat(100) }], mcpServers: {}, disabledMcpjsonServers: [] };
  projects[cwd] = { history: [], mcpServers: { local: { command: "local-server" } }, disabledMcpjsonServers: ["refused"] };
  return { numStartups: 3, projects, mcpServers: { everywhere: { command: "user-server" } } };
}

describe("~/.claude.json's MCP servers", () => {
  test("the second read is the kept view, with the same servers; a changed file is read again", () => {
    const s = setup(claudeFile);
    const first = s.read();
    expect(s.names()).toEqual(["local@local", "everywhere@user"]);
    expect(existsSync(s.cache)).toBe(true);
    const kept = JSON.parse(readFileSync(s.cache, "utf8"));
    expect(JSON.stringify(kept.view)).not.toContain("history");
    expect(Object.keys(kept.view.projects)).toEqual([s.cwd]);
    expect(s.read()).toEqual(first);
    // Proof the kept view is what a second read uses: a server put into it alone is seen...
    kept.view.mcpServers.only_in_cache = { command: "x" };
    writeFileSync(s.cache, JSON.stringify(kept));
    expect(s.names()).toContain("only_in_cache@user");
    // ...until the file changes: then the file is read again.
    appendFileSync(s.file, "\n");
    expect(s.names()).toEqual(["local@local", "everywhere@user"]);
  });

  test("the view keeps what the servers need and nothing else; a broken entry stays to be reported", () => {
    expect(
      mcpView({
        numStartups: 1,
        mcpServers: { a: { command: "a" } },
        projects: { "/p": { history: [1], mcpServers: {} }, "/q": { mcpServers: "broken" }, "/r": { disabledMcpjsonServers: ["x"], allowedTools: [] }, "/s": 7 },
      }),
    ).toEqual({ mcpServers: { a: { command: "a" } }, projects: { "/q": { mcpServers: "broken" }, "/r": { disabledMcpjsonServers: ["x"] } } });
  });

  test("a broken file is a warning on every read and is never kept", () => {
    const s = setup("{ not json");
    for (let i = 0; i < 2; i++) expect(s.read().warnings).toEqual([expect.stringContaining(".claude.json is not valid JSON")]);
    expect(existsSync(s.cache)).toBe(false);
  });

  test("a cache that cannot be written is no error: the file is read each time", () => {
    const s = setup({ mcpServers: { everywhere: { command: "user-server" } } });
    // The cache's directory is a file.
    writeFileSync(join(s.home, "cache"), "");
    for (let i = 0; i < 2; i++) expect(s.read()).toEqual({ servers: [expect.objectContaining({ name: "everywhere" })], warnings: [] });
  });
});
