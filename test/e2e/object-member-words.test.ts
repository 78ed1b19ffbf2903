// Words from outside that name members every JavaScript object inherits (constructor, toString,
// __proto__) read as the words they are: in flags, commands, models.json and .mcp.json, through the
// compiled binary. Each of these once crashed or printed Object's source as advice.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir, zot } from "../support/zot.ts";

const ANTHROPIC = ["--provider", "anthropic", "--api-key", "k", "--base-url", "http://127.0.0.1:9"];

describe("a word Object's prototype has", () => {
  test("--tools constructor is an unknown tool, not a crash", async () => {
    for (const word of ["constructor", "toString"]) {
      const run = await zot(["-p", "hi", ...ANTHROPIC, "--tools", word]);
      expect(run.stderr).toContain(`unknown tool "${word}"`);
      expect(run.code).toBe(2);
    }
  });

  test("--allowedTools toString is a rule naming no tool, not a crash", async () => {
    const run = await zot(["-p", "hi", ...ANTHROPIC, "--allowedTools", "toString"]);
    expect(run.stderr).toContain('--allowedTools "toString" names no tool this run has');
    expect(run.stderr).not.toContain("is not a function");
  });

  test("zot mcp constructor is an unknown subcommand", async () => {
    const run = await zot(["mcp", "constructor"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown mcp subcommand "constructor"');
  });

  test("zot mcp add refuses __proto__ as a server, variable or header name instead of writing nothing", async () => {
    const cwd = tempDir("zot-cwd-");
    for (const args of [["__proto__", "echo", "hi"], ["-e", "__proto__=x", "srv", "echo", "hi"], ["-H", "__proto__: y", "srv", "echo", "hi"]]) {
      const run = await zot(["mcp", "add", "--scope", "project", ...args], { cwd });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('"__proto__" cannot be kept in .mcp.json');
    }
  });

  test("models.json: a provider spelt Constructor is skipped with the usual warning, and $toString is an unset key", async () => {
    const home = tempDir("zot-home-");
    const models = join(home, "models.json");
    writeFileSync(models, JSON.stringify({ providers: { Constructor: { models: [{ id: "x1" }] } } }));
    const list = await zot(["--list-models"], { home });
    expect(list.stderr).toContain('provider "Constructor" is not one zot speaks');
    expect(list.stdout).not.toContain("function Object");

    writeFileSync(models, JSON.stringify({ providers: { anthropic: { apiKey: "$toString", models: [{ id: "claude-sonnet-4-5" }] } } }));
    const run = await zot(["-p", "hi", "--provider", "anthropic", "--model", "claude-sonnet-4-5", "--base-url", "http://127.0.0.1:9"], { home });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("the key in toString, which is not set");
    expect(readFileSync(models, "utf8")).toContain("$toString");
  });
});
