// Reading MCP configuration as Claude Code writes it: `${VAR}` expansion, the entry shapes, and
// which file wins a name (local > project > user; zot's own file before Claude Code's in a scope).
import { describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expandVariables } from "../../src/mcp/env-expansion.ts";
import { readMcpConfig, runnableServers } from "../../src/mcp/config-files.ts";
import { parseServerEntry } from "../../src/mcp/server-entry.ts";
import { tempDir } from "../support/zot.ts";

describe("${VAR} expansion", () => {
  test("expands set variables and defaults, names the missing ones and leaves $VAR alone", () => {
    const env = { TOKEN: "t0k", EMPTY: "" };
    expect(expandVariables("Bearer ${TOKEN}", env)).toEqual({ value: "Bearer t0k", missing: [] });
    expect(expandVariables("${HOST:-localhost}:${PORT:-8080}", env)).toEqual({ value: "localhost:8080", missing: [] });
    expect(expandVariables("${EMPTY:-x}", env)).toEqual({ value: "", missing: [] });
    expect(expandVariables("${NOPE}/$TOKEN", env)).toEqual({ value: "${NOPE}/$TOKEN", missing: ["NOPE"] });
  });
});

describe("a server entry", () => {
  const where = 'MCP server "x"';
  test("without a type and with a command is stdio, its strings expanded", () => {
    const parsed = parseServerEntry({ command: "${BIN}", args: ["--root", "${ROOT:-/srv}"], env: { KEY: "${KEY}" } }, where, { BIN: "npx", KEY: "k" });
    expect(parsed).toEqual({ transport: { type: "stdio", command: "npx", args: ["--root", "/srv"], env: { KEY: "k" } }, warnings: [] });
  });

  test("http, sse, other clients' spellings of streamable HTTP, and a bare url", () => {
    const env = { T: "secret" };
    expect(parseServerEntry({ type: "http", url: "https://a.example/mcp", headers: { Authorization: "Bearer ${T}" } }, where, env)).toEqual({
      transport: { type: "http", url: "https://a.example/mcp", headers: { Authorization: "Bearer secret" } },
      warnings: [],
    });
    expect(parseServerEntry({ type: "sse", url: "https://a.example/sse" }, where, env)).toMatchObject({ transport: { type: "sse" } });
    expect(parseServerEntry({ type: "streamable-http", url: "https://a.example/mcp" }, where, env)).toMatchObject({ transport: { type: "http" } });
    expect(parseServerEntry({ url: "https://a.example/mcp" }, where, env)).toMatchObject({ transport: { type: "http" } });
    expect(parseServerEntry({ type: "http", url: "https://a.example/mcp", headersHelper: "get-token" }, where, env)).toMatchObject({
      warnings: [expect.stringContaining('"headersHelper" is not supported')],
    });
  });

  test("every mistake is a sentence naming the server and what to fix", () => {
    expect(parseServerEntry({ command: "x", env: { K: "${MISSING_ONE}" } }, where, {})).toEqual({
      error: 'MCP server "x": ${MISSING_ONE} is not set; set it in the environment, or write ${NAME:-default}',
    });
    expect(parseServerEntry({ args: ["a"] }, where, {})).toEqual({ error: expect.stringContaining('needs "command"') });
    expect(parseServerEntry({ type: "ws", url: "ws://a" }, where, {})).toEqual({ error: expect.stringContaining("WebSocket servers") });
    expect(parseServerEntry({ type: "grpc", url: "x" }, where, {})).toEqual({ error: expect.stringContaining('unknown "type" "grpc"') });
    expect(parseServerEntry({ type: "http", url: "not a url" }, where, {})).toEqual({ error: expect.stringContaining("url must be a full URL") });
    expect(parseServerEntry({ command: "x", args: "a b" }, where, {})).toEqual({ error: expect.stringContaining("args") });
    expect(parseServerEntry([], where, {})).toEqual({ error: expect.stringContaining("must be an object") });
  });

  test("a remote url is http or https; env and headers are objects, never arrays", () => {
    for (const url of ["ftp://h.example/mcp", "file:///tmp/mcp", "mailto:a@b.example"]) {
      expect(parseServerEntry({ type: "sse", url }, where, {})).toEqual({ error: expect.stringContaining("url must start with http:// or https://") });
      expect(parseServerEntry({ type: "http", url }, where, {})).toEqual({ error: expect.stringContaining("url must start with http:// or https://") });
    }
    expect(parseServerEntry({ type: "http", url: "HTTP://h.example/mcp" }, where, {})).toMatchObject({ transport: { type: "http" } });
    expect(parseServerEntry({ command: "x", env: [] }, where, {})).toEqual({ error: expect.stringContaining('env: must be an object like {"NAME": "value"}') });
    expect(parseServerEntry({ command: "x", env: ["A=1"] }, where, {})).toEqual({ error: expect.stringContaining("env: must be an object") });
    expect(parseServerEntry({ type: "http", url: "https://h.example", headers: [] }, where, {})).toEqual({ error: expect.stringContaining("headers: must be an object") });
    expect(parseServerEntry({ command: "x", env: { A: "1" } }, where, {})).toMatchObject({ transport: { env: { A: "1" } } });
  });
});

/** A folder, a ZOT_HOME and a user home with the files given (relative to each). */
function layout(files: { project?: unknown; zot?: unknown; claude?: unknown }) {
  const root = tempDir("zot-mcp-config-");
  const cwd = join(root, "project");
  const home = join(root, "zot-home");
  const userHome = join(root, "user");
  for (const dir of [cwd, home, userHome]) mkdirSync(dir, { recursive: true });
  if (files.project !== undefined) writeFileSync(join(cwd, ".mcp.json"), typeof files.project === "string" ? files.project : JSON.stringify(files.project));
  if (files.zot !== undefined) writeFileSync(join(home, "mcp.json"), JSON.stringify(files.zot));
  if (files.claude !== undefined) writeFileSync(join(userHome, ".claude.json"), JSON.stringify(files.claude));
  return { cwd, home, userHome, env: {} as Record<string, string | undefined> };
}

const server = (command: string) => ({ command, args: [] });

describe("the sources", () => {
  test("local beats project beats user, zot's file before Claude Code's in each scope; the losers are kept, marked", () => {
    const where = layout({
      project: { mcpServers: { a: server("project-a"), b: server("project-b"), c: server("project-c") } },
      zot: { mcpServers: { c: server("zot-user-c"), d: server("zot-user-d") } },
      claude: { mcpServers: { d: server("claude-user-d"), e: server("claude-user-e") } },
    });
    // The local entries, filed under the folder's path as Claude Code does.
    const cwd = where.cwd;
    writeFileSync(join(where.home, "mcp.json"), JSON.stringify({ mcpServers: { c: server("zot-user-c"), d: server("zot-user-d") }, projects: { [cwd]: { mcpServers: { a: server("zot-local-a") } } } }));
    writeFileSync(
      join(where.userHome, ".claude.json"),
      JSON.stringify({ mcpServers: { d: server("claude-user-d"), e: server("claude-user-e") }, projects: { [cwd]: { mcpServers: { a: server("claude-local-a"), b: server("claude-local-b") } } } }),
    );
    const config = readMcpConfig({ ...where, projectTrusted: true });
    const winners = Object.fromEntries(runnableServers(config).map((s) => [s.name, s.transport.type === "stdio" ? s.transport.command : ""]));
    expect(winners).toEqual({ a: "zot-local-a", b: "claude-local-b", c: "project-c", d: "zot-user-d", e: "claude-user-e" });
    const shadowed = config.servers.filter((s) => s.shadowedBy).map((s) => `${s.name}:${s.source.scope}/${s.source.owner}`);
    expect(shadowed.sort()).toEqual(["a:local/claude", "a:project/project", "b:project/project", "c:user/zot", "d:user/claude"]);
  });

  test("an untrusted folder's entry, or one turned off, takes no name from the user's own: the user's server still runs", () => {
    const where = layout({ project: { mcpServers: { audit: server("repo-audit"), b: server("repo-b") } }, zot: { mcpServers: { audit: server("users-audit"), b: server("users-b") } } });
    writeFileSync(join(where.userHome, ".claude.json"), JSON.stringify({ projects: { [where.cwd]: { disabledMcpjsonServers: ["b"] } } }));
    const untrusted = readMcpConfig({ ...where, projectTrusted: false });
    expect(runnableServers(untrusted).map((s) => (s.transport.type === "stdio" ? s.transport.command : ""))).toEqual(["users-audit", "users-b"]);
    const trusted = readMcpConfig({ ...where, projectTrusted: true });
    // Trusted, the folder's audit wins as a project entry does; its b, turned off, still takes nothing.
    expect(runnableServers(trusted).map((s) => (s.transport.type === "stdio" ? s.transport.command : ""))).toEqual(["repo-audit", "users-b"]);
  });

  test("an untrusted folder's .mcp.json is listed and not run; Claude Code's disabledMcpjsonServers is honoured", () => {
    const where = layout({ project: { mcpServers: { a: server("a"), b: server("b") } } });
    writeFileSync(join(where.userHome, ".claude.json"), JSON.stringify({ projects: { [where.cwd]: { disabledMcpjsonServers: ["b"] } } }));
    const untrusted = readMcpConfig({ ...where, projectTrusted: false });
    expect(runnableServers(untrusted)).toEqual([]);
    expect(untrusted.servers.map((s) => s.untrusted)).toEqual([true, true]);
    const trusted = readMcpConfig({ ...where, projectTrusted: true });
    expect(runnableServers(trusted).map((s) => s.name)).toEqual(["a"]);
    expect(trusted.servers.find((s) => s.name === "b")?.disabled).toBe(true);
  });

  test("a broken file is one warning naming it, and the other files still count", () => {
    const where = layout({ project: "{ not json", claude: { mcpServers: { ok: server("ok"), bad: { args: [] } } } });
    const config = readMcpConfig({ ...where, projectTrusted: true });
    expect(config.warnings).toEqual([expect.stringMatching(/\.mcp\.json is not valid JSON .*not started until it is fixed/)]);
    expect(runnableServers(config).map((s) => s.name)).toEqual(["ok"]);
    expect(config.servers.find((s) => s.name === "bad")?.error).toContain('needs "command"');
  });

  test("${CLAUDE_PROJECT_DIR} is the folder in every scope's entries, over an exported value, as Claude Code expands it", () => {
    const uses = { command: "${CLAUDE_PROJECT_DIR}/bin/srv", args: ["--db", "${CLAUDE_PROJECT_DIR}/.data/app.db"], env: { ROOT: "${CLAUDE_PROJECT_DIR:-/unused}" } };
    const remote = { type: "http", url: "https://h.example/mcp?root=${CLAUDE_PROJECT_DIR}", headers: { "X-Root": "${CLAUDE_PROJECT_DIR}" } };
    const where = layout({ project: { mcpServers: { project: uses, remote } }, zot: { mcpServers: { zotUser: uses } } });
    writeFileSync(join(where.userHome, ".claude.json"), JSON.stringify({ mcpServers: { claudeUser: uses }, projects: { [where.cwd]: { mcpServers: { claudeLocal: uses } } } }));
    const config = readMcpConfig({ ...where, env: { CLAUDE_PROJECT_DIR: "/some/other/project" }, projectTrusted: true });
    expect(config.servers.filter((s) => s.error)).toEqual([]);
    const byName = Object.fromEntries(runnableServers(config).map((s) => [s.name, s.transport]));
    const stdio = { type: "stdio" as const, command: `${where.cwd}/bin/srv`, args: ["--db", `${where.cwd}/.data/app.db`], env: { ROOT: where.cwd } };
    expect(byName).toEqual({
      claudeLocal: stdio,
      project: stdio,
      remote: { type: "http", url: `https://h.example/mcp?root=${where.cwd}`, headers: { "X-Root": where.cwd } },
      zotUser: stdio,
      claudeUser: stdio,
    });
    // As written, for zot mcp get and list, which show entries as their files spell them.
    expect(config.servers.find((s) => s.name === "project")?.raw).toEqual(uses);
  });

  test("CLAUDE_CONFIG_DIR moves Claude Code's file; a folder reached through a symlink finds its local entries", () => {
    const where = layout({});
    const moved = join(where.userHome, "elsewhere");
    mkdirSync(moved);
    const link = join(where.userHome, "link-to-project");
    symlinkSync(where.cwd, link);
    writeFileSync(join(moved, ".claude.json"), JSON.stringify({ projects: { [realpathSync(where.cwd)]: { mcpServers: { here: server("x") } } } }));
    const config = readMcpConfig({ cwd: link, home: where.home, userHome: where.userHome, env: { CLAUDE_CONFIG_DIR: moved }, projectTrusted: true });
    expect(runnableServers(config).map((s) => `${s.name}:${s.source.scope}`)).toEqual(["here:local"]);
  });
});

describe("Codex's config.toml", () => {
  const CODEX = `model = "o3"

[mcp_servers.everything]
command = "node"
args = ["server.js", "stdio"]
env = { API_KEY = "k1" }
startup_timeout_sec = 20

[mcp_servers.docs]
url = "https://docs.example/mcp"
bearer_token_env_var = "DOCS_TOKEN"
http_headers = { "X-Team" = "core" }
env_http_headers = { "X-Key" = "DOCS_KEY" }

[mcp_servers.off]
command = "never"
enabled = false

[mcp_servers.picky]
command = "picky"
cwd = "/srv"
disabled_tools = ["delete_everything"]
`;

  test("its [mcp_servers.*] are servers of the user scope, mapped to Claude Code's shape; one turned off is not started; what zot cannot honour is said", () => {
    const where = layout({});
    mkdirSync(join(where.userHome, ".codex"), { recursive: true });
    writeFileSync(join(where.userHome, ".codex", "config.toml"), CODEX);
    const config = readMcpConfig({ ...where, env: { DOCS_TOKEN: "t0k", DOCS_KEY: "k2" }, projectTrusted: false });
    const started = Object.fromEntries(runnableServers(config).map((s) => [s.name, s.transport]));
    expect(started).toEqual({
      everything: { type: "stdio", command: "node", args: ["server.js", "stdio"], env: { API_KEY: "k1" } },
      docs: { type: "http", url: "https://docs.example/mcp", headers: { "X-Team": "core", "X-Key": "k2", Authorization: "Bearer t0k" } },
      picky: { type: "stdio", command: "picky", args: [], env: {}, toolFilter: { disabled: ["delete_everything"] } },
    });
    const picky = config.servers.find((s) => s.name === "picky")!;
    expect(picky.source.label).toBe(`${join(where.userHome, ".codex", "config.toml")} (user)`);
    expect(picky.warnings.join("\n")).toContain("Codex's cwd is not read");
    expect(picky.warnings.join("\n")).not.toContain("disabled_tools");
    expect(config.servers.map((s) => s.name)).not.toContain("off");
  });

  test("a header whose env_http_headers variable is not set is left out, as Codex leaves it out; the server still starts", () => {
    const where = layout({});
    mkdirSync(join(where.userHome, ".codex"), { recursive: true });
    writeFileSync(join(where.userHome, ".codex", "config.toml"), '[mcp_servers.docs]\nurl = "https://docs.example/mcp"\nenv_http_headers = { "X-Key" = "DOCS_KEY" }\nscopes = ["read"]\n');
    const config = readMcpConfig({ ...where, env: {}, projectTrusted: false });
    expect(runnableServers(config).map((s) => s.transport)).toEqual([{ type: "http", url: "https://docs.example/mcp", headers: {} }]);
    expect(config.servers[0]!.warnings).toEqual([expect.stringMatching(/Codex's scopes is not read by zot$/)]);
  });

  test("$CODEX_HOME says where it is; a folder's .codex/config.toml is a project file, started once trusted; a broken file is one sentence", () => {
    const where = layout({});
    const codexHome = join(where.userHome, "elsewhere");
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(join(codexHome, "config.toml"), '[mcp_servers.mine]\ncommand = "mine"\n');
    mkdirSync(join(where.cwd, ".codex"), { recursive: true });
    writeFileSync(join(where.cwd, ".codex", "config.toml"), '[mcp_servers.repo]\ncommand = "repo-server"\n');
    const untrusted = readMcpConfig({ ...where, env: { CODEX_HOME: codexHome }, projectTrusted: false });
    expect(runnableServers(untrusted).map((s) => s.name)).toEqual(["mine"]);
    expect(untrusted.servers.find((s) => s.name === "repo")?.untrusted).toBe(true);
    expect(runnableServers(readMcpConfig({ ...where, env: { CODEX_HOME: codexHome }, projectTrusted: true })).map((s) => s.name).sort()).toEqual(["mine", "repo"]);
    writeFileSync(join(codexHome, "config.toml"), "[mcp_servers.mine\ncommand = ");
    const broken = readMcpConfig({ ...where, env: { CODEX_HOME: codexHome }, projectTrusted: false });
    expect(broken.warnings).toEqual([expect.stringContaining(`${join(codexHome, "config.toml")} is not valid TOML`)]);
  });
});
