// `zot mcp add` reads Claude Code's argument shapes: options before the name (or between the name
// and the command), the server's own argv after the command, flags included.
import { describe, expect, test } from "bun:test";
import { parseAddArgs, parseAddJsonArgs } from "../../src/cli/mcp-add.ts";

describe("zot mcp add", () => {
  test("a stdio server: its argv after the command is kept whole, -e pairs become env", () => {
    expect(parseAddArgs(["-s", "user", "-e", "KEY=a=b", "fs", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"])).toEqual({
      name: "fs",
      scope: "user",
      entry: { type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], env: { KEY: "a=b" } },
    });
    expect(parseAddArgs(["fs", "--env=A=1", "--", "node", "server.js", "--port", "1"])).toMatchObject({ scope: "local", entry: { command: "node", args: ["server.js", "--port", "1"], env: { A: "1" } } });
  });

  test("http and sse servers take a URL and headers", () => {
    expect(parseAddArgs(["--transport", "http", "-H", "Authorization: Bearer ${TOKEN}", "-H", "X-Team:  core", "docs", "https://example.com/mcp"])).toEqual({
      name: "docs",
      scope: "local",
      entry: { type: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer ${TOKEN}", "X-Team": "core" } },
    });
    expect(parseAddArgs(["-t", "sse", "--scope=project", "old", "https://example.com/sse"]).entry).toEqual({ type: "sse", url: "https://example.com/sse" });
    // Claude Code's own example puts --header after the URL; a URL has no argv, so options may follow it.
    expect(parseAddArgs(["--transport", "http", "secure-server", "https://api.example.com/mcp", "--header", "Authorization: Bearer your-token"])).toEqual({
      name: "secure-server",
      scope: "local",
      entry: { type: "http", url: "https://api.example.com/mcp", headers: { Authorization: "Bearer your-token" } },
    });
    expect(parseAddArgs(["api", "https://example.com/sse", "-t", "sse", "-s", "user"])).toMatchObject({ scope: "user", entry: { type: "sse", url: "https://example.com/sse" } });
    expect(() => parseAddArgs(["-t", "http", "api", "https://example.com/mcp", "extra"])).toThrow(/takes a URL and nothing after it \(got extra\)/);
  });

  test("mistakes say what to type instead", () => {
    expect(() => parseAddArgs(["only-a-name"])).toThrow(/needs a name and a command or URL/);
    expect(() => parseAddArgs(["docs", "https://example.com/mcp"])).toThrow(/is a URL; to add a remote server say so: zot mcp add --transport http docs https:\/\/example.com\/mcp/);
    expect(() => parseAddArgs(["-t", "http", "-e", "A=1", "docs", "https://x"])).toThrow(/-e is for stdio servers/);
    expect(() => parseAddArgs(["-H", "X: 1", "fs", "npx"])).toThrow(/-H headers are for http and sse servers/);
    expect(() => parseAddArgs(["-t", "ws", "x", "y"])).toThrow(/--transport must be one of stdio, http, sse/);
    expect(() => parseAddArgs(["-s", "global", "x", "y"])).toThrow(/--scope must be one of local, project, user/);
    expect(() => parseAddArgs(["-e", "NOEQUALS", "x", "y"])).toThrow(/-e takes KEY=value/);
    expect(() => parseAddArgs(["--verbose", "x", "y"])).toThrow(/unknown option --verbose/);
    expect(() => parseAddArgs(["my server", "y"])).toThrow(/may only hold letters, digits, - and _/);
    expect(() => parseAddArgs(["-t", "http", "x", "https://x", "extra"])).toThrow(/takes a URL and nothing after it/);
  });

  test("add-json takes the entry as Claude Code writes it", () => {
    expect(parseAddJsonArgs(["-s", "user", "w", '{"type":"http","url":"https://w.example/mcp"}'])).toEqual({ name: "w", scope: "user", entry: { type: "http", url: "https://w.example/mcp" } });
    expect(() => parseAddJsonArgs(["w", "{nope"])).toThrow(/does not parse/);
  });
});
