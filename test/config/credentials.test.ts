// API key lookup order, auth.json parsing and errors, and the 0600 write.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  ConfigError,
  missingKeyMessage,
  requiresApiKey,
  resolveApiKey,
  saveApiKey,
} from "../../src/config/credentials.ts";

let home: string;
let authFile: string;

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "zot-cred-"));
  authFile = path.join(home, "auth.json");
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

function writeAuth(content: string, mode = 0o600) {
  fs.writeFileSync(authFile, content);
  fs.chmodSync(authFile, mode);
}

describe("resolveApiKey precedence", () => {
  const both = JSON.stringify({ anthropic: { api_key: "from-file" }, openai: { api_key: "oa-file" } });

  test("--api-key beats the environment and auth.json", () => {
    writeAuth(both);
    const got = resolveApiKey("anthropic", { flag: "from-flag", env: { ANTHROPIC_API_KEY: "from-env" }, home });
    expect(got).toEqual({ key: "from-flag", kind: "api_key", source: "flag", from: "--api-key" });
  });

  test("the environment beats auth.json", () => {
    writeAuth(both);
    expect(resolveApiKey("anthropic", { env: { ANTHROPIC_API_KEY: "from-env" }, home })).toEqual({
      key: "from-env",
      kind: "api_key",
      source: "env",
      from: "ANTHROPIC_API_KEY",
    });
    expect(resolveApiKey("openai", { env: { OPENAI_API_KEY: "oa-env", ANTHROPIC_API_KEY: "x" }, home })).toMatchObject({
      key: "oa-env",
      source: "env",
    });
  });

  test("auth.json is used last, per provider", () => {
    writeAuth(both);
    expect(resolveApiKey("anthropic", { env: {}, home })).toEqual({ key: "from-file", kind: "api_key", source: "auth.json", from: authFile });
    expect(resolveApiKey("openai", { env: { ANTHROPIC_API_KEY: "other" }, home })).toMatchObject({
      key: "oa-file",
      source: "auth.json",
    });
  });

  test("blank values do not count", () => {
    writeAuth(both);
    expect(resolveApiKey("anthropic", { flag: "  ", env: { ANTHROPIC_API_KEY: "" }, home })?.source).toBe("auth.json");
  });

  test("no key anywhere → undefined; a missing auth.json is not an error", () => {
    expect(resolveApiKey("anthropic", { env: {}, home })).toBeUndefined();
  });

  test("a home under a file (ZOT_HOME=/some/file/zot) is said as that, not as a permissions problem", () => {
    const file = path.join(home, "a-file");
    fs.writeFileSync(file, "");
    expect(() => resolveApiKey("anthropic", { env: {}, home: path.join(file, "zot") })).toThrow(
      `zot's home ${path.join(file, "zot")} is not a directory (a part of that path is a file); point ZOT_HOME at a directory, or move the file away.`,
    );
  });

  test("ollama and scripted need no key", () => {
    expect(requiresApiKey("ollama")).toBe(false);
    expect(requiresApiKey("scripted")).toBe(false);
    expect(requiresApiKey("anthropic")).toBe(true);
    writeAuth(JSON.stringify({ ollama: { api_key: "ignored" } }));
    expect(resolveApiKey("ollama", { env: {}, home })).toBeUndefined();
    expect(resolveApiKey("ollama", { flag: "proxy-key", env: {}, home })).toMatchObject({ key: "proxy-key", source: "flag" });
    expect(resolveApiKey("ollama", { env: { OLLAMA_API_KEY: "cloud" }, home })).toMatchObject({ key: "cloud", from: "OLLAMA_API_KEY" });
  });

  test("ANTHROPIC_AUTH_TOKEN (a gateway's bearer token) counts as a credential, after ANTHROPIC_API_KEY", () => {
    expect(resolveApiKey("anthropic", { env: { ANTHROPIC_AUTH_TOKEN: "gw" }, home })).toEqual({
      key: "gw",
      kind: "auth_token",
      source: "env",
      from: "ANTHROPIC_AUTH_TOKEN",
    });
    expect(resolveApiKey("anthropic", { env: { ANTHROPIC_AUTH_TOKEN: "gw", ANTHROPIC_API_KEY: "k" }, home })?.kind).toBe("api_key");
    expect(missingKeyMessage("anthropic", home)).toContain("ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN");
  });
});

describe("malformed auth.json", () => {
  test("a list, or a directory where the file should be, is said as that, not read as no keys or blamed on permissions", () => {
    writeAuth("[]");
    expect(() => resolveApiKey("anthropic", { env: {}, home })).toThrow(`${authFile} must be a JSON object of keys per provider`);
    fs.rmSync(authFile);
    fs.mkdirSync(authFile);
    expect(() => resolveApiKey("anthropic", { env: {}, home })).toThrow(`${authFile} is a directory, not zot's key file`);
    fs.rmSync(authFile, { recursive: true });
  });

  test("invalid JSON → ConfigError naming the file", () => {
    writeAuth("{ not json");
    let error: unknown;
    try {
      resolveApiKey("anthropic", { env: {}, home });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(authFile);
    expect((error as Error).message).toContain("not valid JSON");
  });

  test("wrong field type → ConfigError naming the file and the field", () => {
    writeAuth(JSON.stringify({ anthropic: { api_key: 42 } }));
    expect(() => resolveApiKey("anthropic", { env: {}, home })).toThrow(ConfigError);
    expect(() => resolveApiKey("anthropic", { env: {}, home })).toThrow(/auth\.json.*"anthropic\.api_key"/);
  });

  test("an entry without api_key (a mis-keyed file) is an error naming the file and the field, not the demo", () => {
    writeAuth(JSON.stringify({ anthropic: { key: "sk-ant-x" } }));
    expect(() => resolveApiKey("anthropic", { env: {}, home })).toThrow(ConfigError);
    expect(() => resolveApiKey("anthropic", { env: {}, home })).toThrow(
      `${authFile}: "anthropic" has no "api_key" field (it has "key"); write {"anthropic": {"api_key": "…"}}`,
    );
    writeAuth(JSON.stringify({ openai: { api_key: " " } }));
    expect(() => resolveApiKey("openai", { env: {}, home })).toThrow(`field "openai.api_key" is empty`);
    // another provider's entry is not this one's problem
    expect(resolveApiKey("anthropic", { env: {}, home })).toBeUndefined();
  });

  test("a key written where its entry belongs, or any string in a wrong place, is never repeated in the error", () => {
    const key = "sk-ant-api03-THIS-IS-THE-SECRET-KEY";
    const messageOf = () => {
      try {
        resolveApiKey("anthropic", { env: {}, home });
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error("expected a ConfigError");
    };
    writeAuth(JSON.stringify({ anthropic: key }));
    const message = messageOf();
    expect(message).not.toContain("SECRET");
    expect(message).toBe(`${authFile} is malformed at field "anthropic": it is a string where an object belongs (the key itself, not shown?); write {"anthropic": {"api_key": "<your key>"}}.`);
    // A short one too: any string in this file may be a key.
    writeAuth(JSON.stringify({ anthropic: "hunter2" }));
    expect(messageOf()).not.toContain("hunter2");
    // A key written as an entry's name, or as a field's, is not repeated either.
    writeAuth(JSON.stringify({ "sk-ant-api03-SECRETSECRETSECRET": "anthropic" }));
    expect(messageOf()).not.toContain("SECRET");
    expect(messageOf()).toContain("an entry whose name is not shown (it may be a key)");
    writeAuth(JSON.stringify({ anthropic: { "sk-ant-api03-SECRETSECRETSECRET": true } }));
    expect(messageOf()).not.toContain("SECRET");
    expect(messageOf()).toContain('"anthropic" has no "api_key" field (it has a field whose name is not shown (it may be a key))');
  });

  test("a byte-order mark at the start (an editor's UTF-8 with BOM) is read past, as zot's other files are", () => {
    writeAuth(`\uFEFF${JSON.stringify({ anthropic: { api_key: "sk-ant-bom" } })}`);
    expect(resolveApiKey("anthropic", { env: {}, home })?.key).toBe("sk-ant-bom");
  });

  test("a malformed file is not read when a flag or env key is present", () => {
    writeAuth("{ not json");
    expect(resolveApiKey("anthropic", { env: { ANTHROPIC_API_KEY: "k" }, home })?.key).toBe("k");
  });

  test("an empty file holds no keys", () => {
    writeAuth("");
    expect(resolveApiKey("anthropic", { env: {}, home })).toBeUndefined();
  });
});

describe("file mode", () => {
  test("a group/world readable auth.json gives a warning with the fix", () => {
    writeAuth(JSON.stringify({ anthropic: { api_key: "k" } }), 0o644);
    const got = resolveApiKey("anthropic", { env: {}, home });
    expect(got?.key).toBe("k");
    expect(got?.warning).toContain(authFile);
    expect(got?.warning).toContain("0644");
    expect(got?.warning).toContain("chmod 600");
  });

  test("mode 0600 gives no warning", () => {
    writeAuth(JSON.stringify({ anthropic: { api_key: "k" } }), 0o600);
    expect(resolveApiKey("anthropic", { env: {}, home })?.warning).toBeUndefined();
  });
});

describe("saveApiKey", () => {
  test("writes mode 0600 and keeps other providers' entries", () => {
    writeAuth(JSON.stringify({ openai: { api_key: "oa" }, anthropic: { oauth: { access_token: "t" }, extra: 1 } }), 0o644);
    saveApiKey(home, "anthropic", "new-key");
    expect(fs.statSync(authFile).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(fs.readFileSync(authFile, "utf8"));
    expect(saved.openai).toEqual({ api_key: "oa" });
    // a new API key replaces the OAuth credential; unknown fields survive
    expect(saved.anthropic).toEqual({ extra: 1, api_key: "new-key" });
    expect(resolveApiKey("anthropic", { env: {}, home })).toMatchObject({ key: "new-key", source: "auth.json" });
    // no temporary files left behind
    expect(fs.readdirSync(home)).toEqual(["auth.json"]);
  });

  test("creates the home directory when missing", () => {
    const nested = path.join(home, "deep", "zot");
    saveApiKey(nested, "openai", "k");
    expect(fs.statSync(path.join(nested, "auth.json")).mode & 0o777).toBe(0o600);
    expect(resolveApiKey("openai", { env: {}, home: nested })?.key).toBe("k");
  });

  test("refuses to overwrite a malformed file", () => {
    writeAuth("{ broken");
    expect(() => saveApiKey(home, "openai", "k")).toThrow(ConfigError);
    expect(fs.readFileSync(authFile, "utf8")).toBe("{ broken");
  });
});

test("missingKeyMessage is one line naming the variable, the flag and the file", () => {
  const msg = missingKeyMessage("anthropic", "/z");
  expect(msg).toBe("no API key for anthropic; set ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN, pass --api-key, or add it to /z/auth.json");
  expect(missingKeyMessage("openai", "/z")).toContain("OPENAI_API_KEY");
  expect(msg).not.toContain("\n");
});
