// The roots zot offers a stdio server: the folders its positional arguments name, else the folder
// zot works in; an argument after a flag is the flag's value, never a root.
import { expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { clientRoots } from "../../src/mcp/client-roots.ts";
import { tempDir } from "../support/zot.ts";

const stdio = (...args: string[]) => ({ type: "stdio" as const, command: "npx", args, env: {} });
const uris = (roots: { uri: string }[]) => roots.map((root) => root.uri);
const url = (path: string) => pathToFileURL(path).href;

test("positional folders are the roots; a flag's value, a missing folder or none at all leaves the working folder", () => {
  const cwd = tempDir("zot-roots-cwd-");
  const home = tempDir("zot-roots-home-");
  mkdirSync(join(home, "notes"));
  mkdirSync(join(cwd, "server"));
  expect(uris(clientRoots(stdio("-y", "@modelcontextprotocol/server-filesystem", "~/notes", "."), cwd, home))).toEqual([url(join(home, "notes")), url(cwd)]);
  // uv's --directory is where the server's source is, a cache dir is not the project, --allow / is a permission
  expect(uris(clientRoots(stdio("--directory", "server", "run", "main.py"), cwd, home))).toEqual([url(cwd)]);
  expect(uris(clientRoots(stdio("mcp-server", "--cache-dir", "/tmp", "--allow", "/"), cwd, home))).toEqual([url(cwd)]);
  expect(uris(clientRoots(stdio("mcp-server", "--root=/tmp", "/no/such/folder"), cwd, home))).toEqual([url(cwd)]);
  expect(uris(clientRoots({ type: "http", url: "http://127.0.0.1:1/mcp", headers: {} }, cwd, home))).toEqual([url(cwd)]);
});
