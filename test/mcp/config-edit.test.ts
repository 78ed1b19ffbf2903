// `zot mcp add` and `remove` write where docs/mcp.md says each scope writes, keep the rest of the
// file, never touch Claude Code's ~/.claude.json, and never overwrite a file they cannot read.
import { describe, expect, test } from "bun:test";
import { lstatSync, mkdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { addServer, removeServer } from "../../src/mcp/config-edit.ts";
import { readMcpConfig, runnableServers } from "../../src/mcp/config-files.ts";
import { tempDir } from "../support/zot.ts";

function layout() {
  const root = tempDir("zot-mcp-edit-");
  const cwd = join(root, "project");
  const home = join(root, "zot-home");
  const userHome = join(root, "user");
  for (const dir of [cwd, userHome]) mkdirSync(dir, { recursive: true });
  return { cwd, home, userHome, env: {} as Record<string, string | undefined> };
}

const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const entry = (command: string) => ({ type: "stdio", command, args: [], env: {} });

describe("where each scope writes", () => {
  test("project → .mcp.json; user → $ZOT_HOME/mcp.json; local → $ZOT_HOME/mcp.json under the folder's real path; a run reads all three back", () => {
    const ctx = layout();
    addServer("project", "p", entry("p-cmd"), ctx);
    addServer("user", "u", entry("u-cmd"), ctx);
    addServer("local", "l", entry("l-cmd"), ctx);
    expect(json(join(ctx.cwd, ".mcp.json"))).toEqual({ mcpServers: { p: entry("p-cmd") } });
    expect(json(join(ctx.home, "mcp.json"))).toEqual({ mcpServers: { u: entry("u-cmd") }, projects: { [realpathSync(ctx.cwd)]: { mcpServers: { l: entry("l-cmd") } } } });
    // Headers and env may hold tokens: zot's own file is private.
    expect(statSync(join(ctx.home, "mcp.json")).mode & 0o777).toBe(0o600);
    const config = readMcpConfig({ ...ctx, projectTrusted: true });
    expect(runnableServers(config).map((s) => `${s.name}:${s.source.scope}`)).toEqual(["l:local", "p:project", "u:user"]);
  });

  test("a name already in the scope is refused; the file's other keys survive an add and a remove", () => {
    const ctx = layout();
    writeFileSync(join(ctx.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { keep: entry("k") }, comment: "mine" }));
    expect(() => addServer("project", "keep", entry("x"), ctx)).toThrow(/already exists in .*\.mcp\.json; remove it first \(zot mcp remove keep -s project\)/);
    addServer("project", "new", entry("n"), ctx);
    expect(removeServer("new", undefined, ctx).scope).toBe("project");
    expect(json(join(ctx.cwd, ".mcp.json"))).toEqual({ mcpServers: { keep: entry("k") }, comment: "mine" });
  });

  test("remove: Claude Code's file is never written, a name in two scopes needs -s, an unknown name is said", () => {
    const ctx = layout();
    const claudeFile = join(ctx.userHome, ".claude.json");
    const claude = JSON.stringify({ mcpServers: { theirs: entry("t") } });
    writeFileSync(claudeFile, claude);
    expect(() => removeServer("theirs", undefined, ctx)).toThrow(/Claude Code's own file, which zot does not change; remove it there \(claude mcp remove theirs -s user\)/);
    expect(readFileSync(claudeFile, "utf8")).toBe(claude);
    addServer("user", "twice", entry("a"), ctx);
    addServer("local", "twice", entry("b"), ctx);
    expect(() => removeServer("twice", undefined, ctx)).toThrow(/in more than one scope \(local, user\); say which with -s local\|user/);
    removeServer("twice", "user", ctx);
    expect(runnableServers(readMcpConfig({ ...ctx, projectTrusted: true })).map((s) => `${s.name}:${s.source.scope}`)).toEqual(["twice:local", "theirs:user"]);
    expect(() => removeServer("ghost", undefined, ctx)).toThrow(/no MCP server named "ghost"/);
    // The project's shared entry and Claude Code's of the same name: with no -s, which one is meant is said, not guessed.
    writeFileSync(claudeFile, JSON.stringify({ mcpServers: { theirs: entry("t"), db: entry("mine") } }));
    addServer("project", "db", entry("team"), ctx);
    expect(() => removeServer("db", undefined, ctx)).toThrow(/"db" is in more than one place \(.*\.mcp\.json, the project scope; .*\.claude\.json \(user\), Claude Code's, which zot does not change\); say which with -s project/);
    expect(readFileSync(join(ctx.cwd, ".mcp.json"), "utf8")).toContain('"db"');
    removeServer("db", "project", ctx);
    expect(readFileSync(join(ctx.cwd, ".mcp.json"), "utf8")).not.toContain('"db"');
  });

  test("a file that is not JSON is never overwritten", () => {
    const ctx = layout();
    mkdirSync(ctx.home, { recursive: true });
    writeFileSync(join(ctx.home, "mcp.json"), "{ broken");
    expect(() => addServer("user", "x", entry("x"), ctx)).toThrow(/is not valid JSON .*nothing was changed/);
    expect(readFileSync(join(ctx.home, "mcp.json"), "utf8")).toBe("{ broken");
  });

  test("a section that is there but no object (mcpServers a list, projects a string) is never replaced by the new server alone; an absent or null one is made", () => {
    const ctx = layout();
    mkdirSync(ctx.home, { recursive: true });
    const file = join(ctx.home, "mcp.json");
    const list = '{"mcpServers":[{"name":"github","command":"gh-mcp"}]}';
    writeFileSync(file, list);
    expect(() => addServer("user", "notes", entry("x"), ctx)).toThrow(`"mcpServers" in ${file} is a list, not an object; zot will not replace it: fix it by hand`);
    expect(readFileSync(file, "utf8")).toBe(list);
    writeFileSync(file, '{"projects":"see README"}');
    expect(() => addServer("local", "notes", entry("x"), ctx)).toThrow(`"projects" in ${file} is a string, not an object; zot will not replace it: fix it by hand (an object of folders, {"/path/to/folder": {"mcpServers": {…}}})`);
    expect(readFileSync(file, "utf8")).toBe('{"projects":"see README"}');
    writeFileSync(file, `{"projects":{"${realpathSync(ctx.cwd)}":7}}`);
    expect(() => addServer("local", "notes", entry("x"), ctx)).toThrow(`"projects"."${realpathSync(ctx.cwd)}" in ${file} is a number, not an object`);
    writeFileSync(file, '{"mcpServers":null,"other":1}');
    addServer("user", "notes", entry("x"), ctx);
    expect(json(file)).toEqual({ mcpServers: { notes: entry("x") }, other: 1 });
  });

  test("a project's .mcp.json that links out of the project (to ~/.claude.json) is not written through; one that links inside it is", () => {
    const ctx = layout();
    const claude = join(ctx.userHome, ".claude.json");
    writeFileSync(claude, '{"numStartups": 1}');
    const link = join(ctx.cwd, ".mcp.json");
    symlinkSync(claude, link);
    expect(() => addServer("project", "x", entry("x"), ctx)).toThrow(`${link} is a link to ${realpathSync(claude)}, outside this folder`);
    expect(readFileSync(claude, "utf8")).toBe('{"numStartups": 1}');
    const ctx2 = layout();
    mkdirSync(join(ctx2.cwd, "config"));
    writeFileSync(join(ctx2.cwd, "config", "mcp.json"), "{}");
    symlinkSync(join(ctx2.cwd, "config", "mcp.json"), join(ctx2.cwd, ".mcp.json"));
    addServer("project", "x", entry("x"), ctx2);
    expect(lstatSync(join(ctx2.cwd, ".mcp.json")).isSymbolicLink()).toBe(true);
    expect(json(join(ctx2.cwd, "config", "mcp.json")).mcpServers.x).toMatchObject({ command: "x" });
  });

  test("a file whose bytes are not UTF-8 (a Latin-1 é) is never rewritten: its bytes would become U+FFFD", () => {
    const ctx = layout();
    const file = join(ctx.cwd, ".mcp.json");
    const latin1 = Buffer.from('{"mcpServers": {}, "note": "caf\xe9"}', "latin1");
    writeFileSync(file, latin1);
    expect(() => addServer("project", "x", entry("x"), ctx)).toThrow(`${file} is not valid UTF-8`);
    expect(readFileSync(file).equals(latin1)).toBe(true);
  });
});
