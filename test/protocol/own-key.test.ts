// Words from outside that name members every JavaScript object inherits (constructor, toString,
// __proto__), read where zot looks them up: each is the word itself, never Object's function or
// prototype. The binary's side (flags, commands, models.json, zot mcp add) is in
// test/e2e/object-member-words.test.ts.
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { readSettingsChoices } from "../../src/config/settings-choices.ts";
import { expandVariables } from "../../src/mcp/env-expansion.ts";
import { fillArguments } from "../../src/mcp/prompt-commands.ts";
import { parseRule } from "../../src/permission-rules/rule.ts";
import { asGoReads } from "../../src/protocol/go-json.ts";
import { ownEntry } from "../../src/protocol/own-key.ts";
import { runHttp } from "../../src/settings-hooks/http-run.ts";
import { tempDir } from "../support/zot.ts";

const MEMBERS = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"];

describe("a word Object's prototype has", () => {
  test("ownEntry: only a table's own entries", () => {
    const table: Record<string, string> = { rpc: "rpc" };
    expect(ownEntry(table, "rpc")).toBe("rpc");
    for (const word of MEMBERS) expect(ownEntry(table, word)).toBeUndefined();
  });

  test("${toString} in an MCP server's configuration is an unset variable, named", () => {
    for (const word of MEMBERS) expect(expandVariables(`x-\${${word}}`, {})).toEqual({ value: `x-\${${word}}`, missing: [word] });
    expect(expandVariables("${toString:-dflt}", {})).toEqual({ value: "dflt", missing: [] });
  });

  test("a permission rule naming toString is a rule for a tool of that name, as any unknown name", () => {
    const anchors = { cwd: "/w", userHome: "/h" };
    for (const word of ["constructor", "toString", "hasOwnProperty"]) {
      const rule = parseRule(word, "deny", "test", anchors);
      if ("error" in rule || rule.target.kind !== "tool") throw new Error(`${word}: ${JSON.stringify(rule)}`);
      expect(rule.target.matches(word)).toBe(true);
      expect(rule.target.matches("bash")).toBe(false);
    }
  });

  test("a JSON member named __proto__ stays a member: fields only inside it are not read as present", () => {
    const Schema = v.object({ name: v.string() });
    const read = asGoReads(Schema, JSON.parse('{"__proto__": {"name": "inherited"}}')) as object;
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(v.safeParse(Schema, read).success).toBe(false);
    // Its own name, written in another case, is still the field (Go's decoder).
    expect(v.parse(Schema, asGoReads(Schema, { NAME: "x" }))).toEqual({ name: "x" });
  });

  test("an MCP prompt's required argument named constructor is missing when not typed, and kept when typed", () => {
    const prompt = { name: "p", arguments: [{ name: "constructor", required: true }, { name: "__proto__", required: true }] };
    expect(fillArguments(prompt, [])).toEqual({ missing: ["constructor", "__proto__"] });
    const filled = fillArguments(prompt, ["a", "b"]) as { values: Record<string, string> };
    expect(Object.keys(filled.values)).toEqual(["constructor", "__proto__"]);
    expect(Object.getPrototypeOf(filled.values)).toBe(Object.prototype);
  });

  test("settings.json env: __proto__ is refused with a warning; other names are set", () => {
    const file = join(tempDir(), "settings.json");
    writeFileSync(file, '{"env": {"__proto__": "x", "toString": "y"}}');
    const choices = readSettingsChoices([{ file, label: "settings.json" } as never]);
    expect(choices.warnings.join("\n")).toContain("env.__proto__ cannot be set");
    expect(Object.getPrototypeOf(choices.env)).toBe(Object.prototype);
    expect(Object.hasOwn(choices.env, "toString") && choices.env["toString" as string]).toEqual({ value: "y", from: "settings.json" });
  });

  const seen: Record<string, string>[] = [];
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => (seen.push(Object.fromEntries(req.headers)), Response.json({})) });
  afterAll(() => server.stop(true));

  test("an HTTP hook's header $toString, even allowed, is an unset variable: empty", async () => {
    await runHttp({
      url: `http://127.0.0.1:${server.port}/h`,
      headers: { "X-A": "[$constructor][${toString}][$SET]" },
      allowedEnvVars: ["constructor", "toString", "SET"],
      input: { hook_event_name: "PreToolUse" },
      timeoutMs: 5000,
      signal: new AbortController().signal,
      env: { SET: "s" },
    });
    expect(seen.at(-1)!["x-a"]).toBe("[][][s]");
  });
});
