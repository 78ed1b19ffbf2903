// The workspace trust decision: --trust, the remembered answer, the question (asked only when the
// folder has something to run, remembered unless "not now"), and a store that cannot be read.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { childEnv } from "../../src/config/child-env.ts";
import { folderAnswer, rememberFolder } from "../../src/config/trust-store.ts";
import { decideWorkspaceTrust, findProjectConfig, type TrustAnswer, type TrustQuestion } from "../../src/config/workspace-trust.ts";
import { tempDir } from "../support/zot.ts";

function folder(withConfig = true) {
  const cwd = tempDir("zot-wt-cwd-");
  const home = tempDir("zot-wt-home-");
  if (withConfig) {
    mkdirSync(join(cwd, ".zot", "extensions", "b"), { recursive: true });
    mkdirSync(join(cwd, ".zot", "extensions", "a"), { recursive: true });
    writeFileSync(join(cwd, ".zot", "hooks.json"), "{}");
  }
  const asked: TrustQuestion[] = [];
  const ask = (answer: TrustAnswer) => async (question: TrustQuestion) => {
    asked.push(question);
    return answer;
  };
  return { cwd, home, asked, ask };
}

describe("decideWorkspaceTrust", () => {
  test("asks once about what would run; yes and no are remembered, not now is not", async () => {
    for (const answer of ["trust", "distrust", "not_now"] as const) {
      const f = folder();
      const first = await decideWorkspaceTrust({ cwd: f.cwd, home: f.home, ask: f.ask(answer) });
      expect(first.trusted).toBe(answer === "trust");
      expect(f.asked.map((q) => q.found.map((item) => [item.label, item.items]))).toEqual([[[".zot/extensions", ["a", "b"]], [".zot/hooks.json", undefined]]]);
      const again = await decideWorkspaceTrust({ cwd: f.cwd, home: f.home, ask: f.ask("trust") });
      expect({ answer, asked: f.asked.length, trusted: again.trusted }).toEqual(
        answer === "not_now" ? { answer, asked: 2, trusted: true } : { answer, asked: 1, trusted: answer === "trust" },
      );
    }
  });

  test("a folder with nothing to run is never asked about; --trust needs no store; no asker means not trusted, with a note", async () => {
    const plain = folder(false);
    const decided = await decideWorkspaceTrust({ cwd: plain.cwd, home: plain.home, ask: plain.ask("trust") });
    expect(decided).toMatchObject({ trusted: false, how: "nothing_to_run" });
    expect(plain.asked).toEqual([]);
    const f = folder();
    expect(await decideWorkspaceTrust({ cwd: f.cwd, home: f.home, flag: true })).toMatchObject({ trusted: true, how: "flag" });
    const unasked = await decideWorkspaceTrust({ cwd: f.cwd, home: f.home });
    expect(unasked).toMatchObject({ trusted: false, how: "not_asked" });
    expect(unasked.note).toContain(`zot trust ${f.cwd}`);
    expect(folderAnswer(f.home, f.cwd)).toBeUndefined();
  });

  test("a kind the run skips (.mcp.json under --strict-mcp-config) is no reason to ask, nor in a note; a question asked for the rest shows it", async () => {
    const mcpOnly = folder(false);
    writeFileSync(join(mcpOnly.cwd, ".mcp.json"), JSON.stringify({ mcpServers: {} }));
    expect(await decideWorkspaceTrust({ cwd: mcpOnly.cwd, home: mcpOnly.home, ask: mcpOnly.ask("trust"), skip: [".mcp.json"] })).toMatchObject({ trusted: false, how: "nothing_to_run" });
    expect(mcpOnly.asked).toEqual([]);
    const unasked = await decideWorkspaceTrust({ cwd: mcpOnly.cwd, home: mcpOnly.home, skip: [".mcp.json"] });
    expect(unasked.note).toBeUndefined();

    const both = folder();
    writeFileSync(join(both.cwd, ".mcp.json"), JSON.stringify({ mcpServers: {} }));
    const note = (await decideWorkspaceTrust({ cwd: both.cwd, home: both.home, skip: [".mcp.json"] })).note;
    expect(note).toContain(".zot/hooks.json");
    expect(note).not.toContain(".mcp.json");
    // The answer is remembered for the folder, so the question names everything it covers.
    await decideWorkspaceTrust({ cwd: both.cwd, home: both.home, ask: both.ask("trust"), skip: [".mcp.json"] });
    expect(both.asked.map((q) => q.found.map((item) => item.label))).toEqual([[".zot/extensions", ".zot/hooks.json", ".mcp.json"]]);
  });

  test("the answer belongs to the real folder, whatever path reaches it", async () => {
    const f = folder();
    const link = join(tempDir("zot-wt-link-"), "there");
    symlinkSync(f.cwd, link);
    rememberFolder(f.home, link, true);
    expect((await decideWorkspaceTrust({ cwd: f.cwd, home: f.home })).trusted).toBe(true);
    expect(Object.keys(JSON.parse(readFileSync(join(f.home, "trust.json"), "utf8")).folders)).toEqual([f.cwd]);
  });

  test("a store that cannot be read trusts nothing, asks nothing, and says which file", async () => {
    const f = folder();
    writeFileSync(join(f.home, "trust.json"), "{ nope");
    const decided = await decideWorkspaceTrust({ cwd: f.cwd, home: f.home, ask: f.ask("trust") });
    expect(decided).toMatchObject({ trusted: false, how: "store_unreadable" });
    expect(decided.note).toContain(`${join(f.home, "trust.json")} is not valid JSON`);
    expect(f.asked).toEqual([]);
    expect(() => rememberFolder(f.home, f.cwd, true)).toThrow("nothing was changed");
    expect(readFileSync(join(f.home, "trust.json"), "utf8")).toBe("{ nope");
  });

  test("a rewrite keeps the fields of trust.json zot does not know (a newer zot's), and a byte order mark is no error", () => {
    const f = folder();
    const file = join(f.home, "trust.json");
    writeFileSync(file, `\uFEFF${JSON.stringify({ version: 3, folders: { "/x": { trusted: true, decided: "2024-01-01T00:00:00Z", note: "keep me" } }, refused: ["a"] })}`);
    expect(folderAnswer(f.home, "/x")).toMatchObject({ trusted: true });
    rememberFolder(f.home, f.cwd, true, new Date("2026-01-01T00:00:00Z"));
    const written = JSON.parse(readFileSync(file, "utf8"));
    expect(written).toEqual({
      folders: { "/x": { trusted: true, decided: "2024-01-01T00:00:00Z", note: "keep me" }, [f.cwd]: { trusted: true, decided: "2026-01-01T00:00:00.000Z" } },
      version: 3,
      refused: ["a"],
    });
  });

  test("ZOT_HOME inside the folder: its extensions are the user's own, not the folder's", () => {
    const f = folder(false);
    mkdirSync(join(f.cwd, ".zot", "extensions", "mine"), { recursive: true });
    expect(findProjectConfig(f.cwd, join(f.cwd, ".zot"))).toEqual([]);
    expect(findProjectConfig(f.cwd, f.home).map((item) => item.label)).toEqual([".zot/extensions"]);
  });
});

describe("a project's .mcp.json", () => {
  test("is executable configuration: the question names it, and only it, in a folder that has nothing else", async () => {
    const f = folder(false);
    writeFileSync(join(f.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { fs: { command: "npx" } } }));
    expect(findProjectConfig(f.cwd, f.home).map((found) => found.label)).toEqual([".mcp.json"]);
    const trust = await decideWorkspaceTrust({ cwd: f.cwd, home: f.home });
    expect(trust.note).toContain("so its .mcp.json did not run");
  });
});

describe("childEnv", () => {
  test("drops zot's credentials unless ZOT_PASS_ENV names them; keeps everything else", () => {
    const env = { ANTHROPIC_API_KEY: "a", OPENAI_API_KEY: "o", ANTHROPIC_AUTH_TOKEN: "t", ZOTCORE_RPC_TOKEN: "r", OPENAI_BASE_URL: "u", HOME: "/h" };
    expect(childEnv(env)).toEqual({ OPENAI_BASE_URL: "u", HOME: "/h" });
    expect(childEnv({ ...env, ZOT_PASS_ENV: "OPENAI_API_KEY, ZOTCORE_RPC_TOKEN" })).toEqual({
      OPENAI_API_KEY: "o",
      ZOTCORE_RPC_TOKEN: "r",
      OPENAI_BASE_URL: "u",
      HOME: "/h",
      ZOT_PASS_ENV: "OPENAI_API_KEY, ZOTCORE_RPC_TOKEN",
    });
  });

  test("a folder's .claude/settings.json and settings.local.json count when they hold hooks, each on its own", () => {
    const f = folder(false);
    mkdirSync(join(f.cwd, ".claude"), { recursive: true });
    writeFileSync(join(f.cwd, ".claude", "settings.json"), JSON.stringify({ permissions: { allow: [] }, hooks: {} }));
    writeFileSync(join(f.cwd, ".claude", "settings.other.json"), JSON.stringify({ hooks: { Stop: [] } }));
    writeFileSync(join(f.cwd, ".claude", "settings.local.json"), "{ broken");
    expect(findProjectConfig(f.cwd, f.home)).toEqual([]);
    writeFileSync(join(f.cwd, ".claude", "settings.local.json"), JSON.stringify({ hooks: { PreToolUse: [] } }));
    expect(findProjectConfig(f.cwd, f.home)).toEqual([{ kind: ".claude", label: ".claude/settings.local.json", what: "Claude Code hooks, env and apiKeyHelper", path: join(f.cwd, ".claude", "settings.local.json") }]);
  });

  test("the answers are read again whenever trust.json changed, by zot or by hand, also within one process", () => {
    const f = folder(false);
    expect(folderAnswer(f.home, f.cwd)).toBeUndefined();
    rememberFolder(f.home, f.cwd, true);
    expect(folderAnswer(f.home, f.cwd)).toMatchObject({ trusted: true });
    const file = join(f.home, "trust.json");
    writeFileSync(file, readFileSync(file, "utf8").replace('"trusted": true', '"trusted": false'));
    expect(folderAnswer(f.home, f.cwd)).toMatchObject({ trusted: false });
    writeFileSync(file, "{ broken");
    expect(folderAnswer(f.home, f.cwd)).toBeUndefined();
  });

  test("a folder's .claude/settings.json that holds only an apiKeyHelper counts: the command runs at the start", () => {
    const f = folder(false);
    mkdirSync(join(f.cwd, ".claude"), { recursive: true });
    writeFileSync(join(f.cwd, ".claude", "settings.json"), JSON.stringify({ apiKeyHelper: " " }));
    expect(findProjectConfig(f.cwd, f.home)).toEqual([]);
    writeFileSync(join(f.cwd, ".claude", "settings.json"), JSON.stringify({ apiKeyHelper: "vault read -field=key secret/claude" }));
    expect(findProjectConfig(f.cwd, f.home).map((found) => found.label)).toEqual([".claude/settings.json"]);
  });

  test("a folder's Codex files count when they would run something: .codex/hooks.json with hooks, .codex/config.toml with MCP servers", () => {
    const f = folder(false);
    mkdirSync(join(f.cwd, ".codex"), { recursive: true });
    writeFileSync(join(f.cwd, ".codex", "config.toml"), 'model = "o3"\n');
    writeFileSync(join(f.cwd, ".codex", "hooks.json"), JSON.stringify({ hooks: {} }));
    expect(findProjectConfig(f.cwd, f.home)).toEqual([]);
    writeFileSync(join(f.cwd, ".codex", "config.toml"), '[mcp_servers.repo]\ncommand = "repo-server"\n');
    writeFileSync(join(f.cwd, ".codex", "hooks.json"), JSON.stringify({ hooks: { PreToolUse: [] } }));
    expect(findProjectConfig(f.cwd, f.home).map((found) => found.label)).toEqual([".codex/hooks.json", ".codex/config.toml"]);
  });

  test("a folder's settings file with an env counts too: its variables reach every command and the model's key", () => {
    const f = folder(false);
    mkdirSync(join(f.cwd, ".claude"), { recursive: true });
    writeFileSync(join(f.cwd, ".claude", "settings.json"), JSON.stringify({ env: {}, model: "opus" }));
    expect(findProjectConfig(f.cwd, f.home)).toEqual([]);
    writeFileSync(join(f.cwd, ".claude", "settings.json"), JSON.stringify({ env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:9" } }));
    expect(findProjectConfig(f.cwd, f.home).map((found) => found.label)).toEqual([".claude/settings.json"]);
  });
});
