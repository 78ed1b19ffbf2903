// `--mcp-config` and `--strict-mcp-config`: servers named on the command line, read as Claude Code
// reads them (a file or the JSON itself), ahead of every file's, or instead of them.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readMcpConfig, runnableServers } from "../../src/mcp/config-files.ts";
import { readFlagMcpConfigs } from "../../src/mcp/flag-configs.ts";
import { loadMcpServers } from "../../src/mcp/load.ts";
import { tempDir } from "../support/zot.ts";

describe("reading --mcp-config values", () => {
  test("a file (relative to the working directory) and JSON text, in order, each labelled", () => {
    const cwd = tempDir("zot-flagmcp-");
    mkdirSync(join(cwd, "ci"));
    writeFileSync(join(cwd, "ci", "servers.json"), JSON.stringify({ mcpServers: { fs: { command: "node", args: ["fs.js"] } } }));
    const read = readFlagMcpConfigs(["ci/servers.json", ' {"mcpServers": {"docs": {"type": "http", "url": "https://example.com/mcp"}}}'], cwd);
    expect(read).toEqual([
      { label: "--mcp-config ci/servers.json", file: join(cwd, "ci", "servers.json"), servers: { fs: { command: "node", args: ["fs.js"] } } },
      { label: "--mcp-config JSON #2", file: undefined, servers: { docs: { type: "http", url: "https://example.com/mcp" } } },
    ]);
  });

  test("a missing file, JSON that does not parse, and JSON without mcpServers are errors naming the value", () => {
    const cwd = tempDir("zot-flagmcp-");
    writeFileSync(join(cwd, "flat.json"), JSON.stringify({ fs: { command: "node" } }));
    expect(() => readFlagMcpConfigs(["nope.json"], cwd)).toThrow(`--mcp-config nope.json: cannot read ${join(cwd, "nope.json")} (no such file)`);
    expect(() => readFlagMcpConfigs(['{"mcpServers": {'], cwd)).toThrow(/^--mcp-config JSON #1: not valid JSON/);
    expect(() => readFlagMcpConfigs(["flat.json"], cwd)).toThrow('--mcp-config flat.json: must hold {"mcpServers": {"<name>": {…}}}, as .mcp.json does');
    expect(() => readFlagMcpConfigs(['[{"mcpServers": {}}]'], cwd)).toThrow('--mcp-config JSON #1: must hold {"mcpServers"');
    expect(() => readFlagMcpConfigs([" "], cwd)).toThrow("--mcp-config needs a file or JSON text, not an empty value");
    expect(() => readFlagMcpConfigs(["."], cwd)).toThrow(`--mcp-config .: cannot read ${cwd} (it is a directory)`);
    // A value as long as a file's text, mistaken for a name: named by its start, once, and the reason in words.
    const long = "x".repeat(100_000);
    let message = "";
    try {
      readFlagMcpConfigs([long], cwd);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(`--mcp-config ${"x".repeat(100)}… (100,000 characters): cannot read it (the path is too long)`);
    // A short value in a deep folder is still named by its whole path.
    const deep = join(cwd, "d".repeat(60), "e".repeat(60));
    expect(() => readFlagMcpConfigs(["servers.json"], deep)).toThrow(`--mcp-config servers.json: cannot read ${join(deep, "servers.json")} (no such file)`);
  });

  test("a file that starts with a byte order mark reads as its JSON", () => {
    const cwd = tempDir("zot-flagmcp-");
    writeFileSync(join(cwd, "bom.json"), `\uFEFF${JSON.stringify({ mcpServers: { fs: { command: "node" } } })}`);
    expect(readFlagMcpConfigs(["bom.json"], cwd)[0]!.servers).toEqual({ fs: { command: "node" } });
  });
});

describe("the command line's servers among the files'", () => {
  function setup() {
    const cwd = tempDir("zot-flagmcp-cwd-");
    const home = tempDir("zot-flagmcp-home-");
    const userHome = tempDir("zot-flagmcp-user-");
    writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { shared: { command: "project-shared" }, team: { command: "project-team" } } }));
    writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: { mine: { command: "user-mine" } } }));
    const flagConfigs = readFlagMcpConfigs(['{"mcpServers": {"shared": {"command": "from-flag"}, "extra": {"command": "extra"}}}'], cwd);
    return { cwd, home, userHome, flagConfigs };
  }

  test("a name on the command line beats the same name in every file; the files' other servers still run", () => {
    const { cwd, home, userHome, flagConfigs } = setup();
    const config = readMcpConfig({ cwd, home, userHome, env: {}, projectTrusted: true, flagConfigs });
    const running = runnableServers(config).map((s) => [s.name, s.transport.type === "stdio" ? s.transport.command : "", s.source.label]);
    expect(running).toEqual([
      ["shared", "from-flag", "--mcp-config JSON #1"],
      ["extra", "extra", "--mcp-config JSON #1"],
      ["team", "project-team", ".mcp.json"],
      ["mine", "user-mine", `${join(home, "mcp.json")} (user)`],
    ]);
    expect(config.servers.find((s) => s.name === "shared" && s.source.scope === "project")?.shadowedBy?.scope).toBe("flag");
  });

  test("the command line's servers need no trust, where the untrusted project's do not start", () => {
    const { cwd, home, userHome, flagConfigs } = setup();
    const running = runnableServers(readMcpConfig({ cwd, home, userHome, env: {}, projectTrusted: false, flagConfigs })).map((s) => s.name);
    expect(running).toEqual(["shared", "extra", "mine"]);
  });

  test("--strict-mcp-config: only the command line's; no file is read, not even a broken one", () => {
    const { cwd, home, userHome, flagConfigs } = setup();
    writeFileSync(join(home, "mcp.json"), "{ broken");
    const config = readMcpConfig({ cwd, home, userHome, env: {}, projectTrusted: true, flagConfigs, strict: true });
    expect(config.warnings).toEqual([]);
    expect(config.servers.map((s) => s.name)).toEqual(["shared", "extra"]);
    expect(readMcpConfig({ cwd, home, userHome, env: {}, projectTrusted: true, strict: true }).servers).toEqual([]);
  });
});

test("a broken entry keeps its name: its note says which server of that name does not start because of it", async () => {
  const cwd = tempDir("zot-flagmcp-cwd-");
  const home = tempDir("zot-flagmcp-home-");
  writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { srv: { command: "project-srv" } } }));
  const loaded = await loadMcpServers({
    cwd,
    home,
    env: { HOME: tempDir("zot-flagmcp-user-") },
    trust: async () => ({ dir: cwd, trusted: true, how: "flag", found: [] }),
    wait: "all",
    clientVersion: "test",
    log: () => {},
    flags: { configs: readFlagMcpConfigs(['{"mcpServers": {"srv": {"args": ["a"]}}}'], cwd), strict: false },
  });
  expect(loaded.manager).toBeUndefined();
  expect(loaded.warnings).toEqual([expect.stringMatching(/^MCP server "srv" in --mcp-config JSON #1: .*needs "command".*; it holds the name, so "srv" in \.mcp\.json does not start either$/)]);
});
