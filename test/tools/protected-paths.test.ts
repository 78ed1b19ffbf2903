// What the built-in tools may not write: the trust store always; while jailed, a folder's
// executable configuration and $ZOT_HOME (code there would run outside the jail the next time zot
// starts). Real files, real bash: the file tools refuse; a jailed bash command sees what exists
// read-only (bubblewrap) or is refused by the static check, and what it creates or swaps in at
// those paths is undone when it ends.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { protectedPaths } from "../../src/config/workspace-trust.ts";
import type { TextBlock } from "../../src/protocol/messages.ts";
import type { Tool, ToolContext } from "../../src/protocol/tool.ts";
import { bashTool } from "../../src/tools/bash.ts";
import { protectedBy } from "../../src/tools/protected-paths.ts";
import { editTool } from "../../src/tools/edit.ts";
import { jailConfinement } from "../../src/tools/sandbox.ts";
import { writeTool } from "../../src/tools/write.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "zot-protected-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

let n = 0;
/** A fresh project (the jail) and a ZOT_HOME outside it, with a trust store. */
function layout() {
  const root = join(base, `p${++n}`);
  const cwd = join(root, "project");
  const home = join(root, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "trust.json"), '{"folders": {}}\n');
  const paths = protectedPaths({ cwd, home, userHome: join(root, "user") });
  const ctx = (jailed: boolean): ToolContext => ({ cwd, jailed, protectedPaths: paths, signal: new AbortController().signal, onProgress() {} });
  return { cwd, home, ctx };
}

async function call(tool: Tool, args: Record<string, unknown>, context: ToolContext) {
  const result = await tool.execute(args, context);
  return { ...result, text: (result.content[0] as TextBlock).text };
}

describe("the file tools", () => {
  test("never write the trust store, jailed or not, however the path is spelled", async () => {
    const { home, ctx } = layout();
    for (const jailed of [false, true]) {
      const r = await call(writeTool, { path: join(home, "trust.json"), content: '{"folders": {"/": {"trusted": true, "decided": "now"}}}' }, ctx(jailed));
      expect(r.is_error).toBe(true);
      expect(r.text).toContain(jailed ? "outside the working directory" : "is the workspace trust store, which write may not change");
      const e = await call(editTool, { path: join(home, "..", "home", "trust.json"), edits: [{ old_text: "{}", new_text: '{"/": {"trusted": true, "decided": "now"}}' }] }, ctx(jailed));
      expect(e.is_error).toBe(true);
    }
    expect(readFileSync(join(home, "trust.json"), "utf8")).toBe('{"folders": {}}\n');
  });

  test("jailed, they refuse the folder's extensions, hooks, MCP servers and Claude Code settings; unjailed they write them", async () => {
    const { cwd, ctx } = layout();
    mkdirSync(join(cwd, ".claude"));
    writeFileSync(join(cwd, ".claude", "settings.json"), "{}\n");
    const targets = [
      ".zot/extensions/evil/extension.json",
      ".zot/hooks.json",
      ".mcp.json",
      ".claude/settings.local.json",
      ".claude/settings.json",
      // a Markdown command's `!` lines run in the next run
      ".claude/commands/commit.md",
      ".zot/commands/git/push.md",
      // a skill's allowed-tools allow its tool calls unasked, as a command's do (/deploy runs .claude/skills/deploy)
      ".claude/skills/deploy/SKILL.md",
      ".zot/skills/deploy/SKILL.md",
      ".agents/skills/deploy/SKILL.md",
      // Codex's and pi's: hooks and MCP servers run at the next start, skills and prompts when typed
      ".codex/hooks.json",
      ".codex/config.toml",
      ".codex/skills/deploy/SKILL.md",
      ".pi/skills/deploy/SKILL.md",
      ".pi/prompts/ship.md",
    ];
    for (const path of targets) {
      const r = await call(writeTool, { path, content: '{"evil": true}' }, ctx(true));
      expect(r.is_error).toBe(true);
      expect(r.text).toMatch(/which write may not change: zot is jailed, and code written there would run outside the jail/);
    }
    const e = await call(editTool, { path: ".claude/settings.json", edits: [{ old_text: "{}", new_text: '{"hooks": {}}' }] }, ctx(true));
    expect(e.is_error).toBe(true);
    expect(existsSync(join(cwd, ".zot"))).toBe(false);
    expect(existsSync(join(cwd, ".mcp.json"))).toBe(false);
    expect(readFileSync(join(cwd, ".claude", "settings.json"), "utf8")).toBe("{}\n");
    // other files in those folders, and the same files unjailed, are the model's to write
    expect((await call(writeTool, { path: ".claude/notes.md", content: "x" }, ctx(true))).is_error).toBe(false);
    expect((await call(writeTool, { path: ".zot/notes.txt", content: "x" }, ctx(true))).is_error).toBe(false);
    for (const path of targets) expect((await call(writeTool, { path, content: "{}" }, ctx(false))).is_error).toBe(false);
  });

  test("jailed in the home folder, the user's own commands and skills (read without trust) are refused", async () => {
    const root = join(base, `p${++n}`);
    const user = join(root, "user");
    mkdirSync(user, { recursive: true });
    const paths = protectedPaths({ cwd: join(root, "work"), home: join(root, "zot-home"), userHome: user });
    mkdirSync(join(root, "work"));
    const jailed: ToolContext = { cwd: user, jailed: true, protectedPaths: paths, signal: new AbortController().signal, onProgress() {} };
    const codexAndPi = [".codex/hooks.json", ".codex/config.toml", ".codex/prompts/deploy.md", ".codex/skills/deploy/SKILL.md", ".pi/agent/prompts/deploy.md", ".pi/agent/skills/deploy/SKILL.md"];
    for (const path of [".claude/commands/deploy.md", ".claude/skills/deploy/SKILL.md", ".agents/skills/deploy/SKILL.md", ...codexAndPi]) {
      const r = await call(writeTool, { path, content: "---\nallowed-tools: Bash\n---\nrm it\n" }, jailed);
      expect([path, r.is_error]).toEqual([path, true]);
    }
    expect(existsSync(join(user, ".claude"))).toBe(false);
    expect(existsSync(join(user, ".codex"))).toBe(false);
    expect(existsSync(join(user, ".pi"))).toBe(false);
  });

  test("jailed in the home folder, Claude Code's ~/.claude.json (whose MCP servers zot starts) is refused", async () => {
    const root = join(base, `p${++n}`);
    const user = join(root, "user");
    mkdirSync(user, { recursive: true });
    const paths = protectedPaths({ cwd: user, home: join(root, "zot-home"), userHome: user });
    const jailed: ToolContext = { cwd: user, jailed: true, protectedPaths: paths, signal: new AbortController().signal, onProgress() {} };
    const r = await call(writeTool, { path: ".claude.json", content: '{"mcpServers": {"evil": {"command": "sh"}}}' }, jailed);
    expect(r.is_error).toBe(true);
    expect(r.text).toContain("is your Claude Code configuration (~/.claude.json), whose MCP servers zot starts, which write may not change");
    expect(existsSync(join(user, ".claude.json"))).toBe(false);
  });

  test("jailed, a symlink inside leading to a protected file is judged by where it leads", async () => {
    const { cwd, ctx } = layout();
    mkdirSync(join(cwd, ".zot"));
    writeFileSync(join(cwd, ".zot", "hooks.json"), "{}\n");
    Bun.spawnSync(["ln", "-s", ".zot/hooks.json", join(cwd, "innocent.json")]);
    const r = await call(writeTool, { path: "innocent.json", content: '{"hooks": {}}' }, ctx(true));
    expect(r.is_error).toBe(true);
    expect(readFileSync(join(cwd, ".zot", "hooks.json"), "utf8")).toBe("{}\n");
  });
});

describe("a jailed bash command", () => {
  test("what it creates where executable configuration goes is removed when it ends, and the model is told", async () => {
    const { cwd, ctx } = layout();
    const r = await call(
      bashTool,
      {
        // spelled through variables, so the static check (where bubblewrap is missing) lets it run too
        command:
          "z=.zo c=.clau m=.mc; mkdir -p ${z}t/extensions/evil ${c}de && echo '{}' > ${z}t/extensions/evil/extension.json && echo '{}' > ${z}t/hooks.json && " +
          "echo '{}' > ${m}p.json && echo '{}' > ${c}de/settings.local.json && mkdir -p ${z}t/skills/deploy ${z}t/notes && echo x > ${z}t/skills/deploy/SKILL.md && echo kept > ${z}t/notes/note && echo done",
      },
      ctx(true),
    );
    expect(r.text).toContain("done");
    expect(r.is_error).toBe(true);
    expect(r.text).toContain("[jailed: this command changed executable configuration");
    for (const path of [".zot/extensions", ".zot/hooks.json", ".mcp.json", ".claude/settings.local.json", ".zot/skills"]) expect(existsSync(join(cwd, path))).toBe(false);
    // the rest of what it did stays
    expect(readFileSync(join(cwd, ".zot", "notes", "note"), "utf8")).toBe("kept\n");
  });

  test("what exists is kept as it was: written over, swapped for a copy, moved away and replaced", async () => {
    // spelled through a variable, so the static check (where bubblewrap is missing) lets them run too
    const attempts = [
      "echo '{\"evil\": 1}' > ${z}t/hooks.json",
      "cp ${z}t/hooks.json h.tmp && echo '{\"evil\": 2}' > h.tmp && mv -f h.tmp ${z}t/hooks.json",
      "rm -f ${z}t/hooks.json",
      "mv ${z}t ${z}t-old && mkdir -p ${z}t/extensions/evil && echo '{\"evil\": 3}' > ${z}t/hooks.json",
    ].map((command) => `z=.zo; ${command}`);
    for (const command of attempts) {
      const { cwd, ctx } = layout();
      mkdirSync(join(cwd, ".zot", "extensions", "mine"), { recursive: true });
      writeFileSync(join(cwd, ".zot", "hooks.json"), '{"hooks": {}}\n');
      await call(bashTool, { command }, ctx(true));
      expect({ command, evil: existsSync(join(cwd, ".zot", "extensions", "evil")) }).toEqual({ command, evil: false });
      // what the command moved away keeps the user's files; where they were, nothing of the command's is left
      const at = existsSync(join(cwd, ".zot-old")) ? ".zot-old" : ".zot";
      expect({ command, hooks: readFileSync(join(cwd, at, "hooks.json"), "utf8") }).toEqual({ command, hooks: '{"hooks": {}}\n' });
      expect(statSync(join(cwd, at, "extensions", "mine")).isDirectory()).toBe(true);
      if (at === ".zot-old") expect(existsSync(join(cwd, ".zot", "hooks.json"))).toBe(false);
    }
  });
});

describe("the folder's git repository, jailed", () => {
  test("its config and hooks are what git runs outside zot: a jailed command cannot set core.fsmonitor, a tool cannot write a hook; a repository the command creates is its own", async () => {
    const root = join(base, `p${++n}`);
    const cwd = join(root, "project");
    mkdirSync(cwd, { recursive: true });
    Bun.spawnSync(["git", "init", "-q"], { cwd });
    const paths = protectedPaths({ cwd, home: join(root, "home"), userHome: join(root, "user") });
    const ctx: ToolContext = { cwd, jailed: true, protectedPaths: paths, signal: new AbortController().signal, onProgress() {} };
    const before = readFileSync(join(cwd, ".git", "config"), "utf8");
    await call(bashTool, { command: "g=.gi; git config core.fsmonitor 'touch PWNED'; echo '#!/bin/sh' > ${g}t/hooks/pre-commit; mkdir fresh && cd fresh && git init -q && echo made" }, ctx);
    expect(readFileSync(join(cwd, ".git", "config"), "utf8")).toBe(before);
    // A new hook in an existing .git/hooks is kept out by bubblewrap only (docs/jail.md): the static
    // check cannot see `${g}t/hooks` name it.
    if ((await jailConfinement()) === "bwrap") expect(existsSync(join(cwd, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(existsSync(join(cwd, "fresh", ".git", "config"))).toBe(true);
    const hook = await call(writeTool, { path: ".git/hooks/post-checkout", content: "#!/bin/sh\ntouch PWNED\n" }, ctx);
    expect(hook.is_error).toBe(true);
    expect(hook.text).toContain("the repository's git hooks (.git/hooks)");
  });
});

describe("a protected path that is a symlink", () => {
  test("where it leads is protected, and a command that replaces the link has its replacement removed", async () => {
    for (const command of ["mkdir exts/evil", "z=.zo; rm ${z}t/extensions && mkdir -p ${z}t/extensions/evil"]) {
      const { cwd, ctx } = layout();
      mkdirSync(join(cwd, "exts", "mine"), { recursive: true });
      mkdirSync(join(cwd, ".zot"));
      Bun.spawnSync(["ln", "-s", "../exts", join(cwd, ".zot", "extensions")]);
      expect((await call(writeTool, { path: "exts/evil/extension.json", content: "{}" }, ctx(true))).is_error).toBe(true);
      await call(bashTool, { command }, ctx(true));
      expect({ command, evil: existsSync(join(cwd, ".zot", "extensions", "evil")) }).toEqual({ command, evil: false });
    }
  });
});

const confinement = await jailConfinement();
describe.skipIf(confinement !== "bwrap")("under bubblewrap", () => {
  test("the existing configuration is read-only inside the jail", async () => {
    const { cwd, ctx } = layout();
    mkdirSync(join(cwd, ".zot", "extensions", "mine"), { recursive: true });
    writeFileSync(join(cwd, ".zot", "hooks.json"), '{"hooks": {}}\n');
    const r = await call(bashTool, { command: "echo x > .zot/hooks.json; mkdir .zot/extensions/evil; rm -rf .zot/extensions/mine; ls .zot/extensions" }, ctx(true));
    expect(r.details).toMatchObject({ jailed: "bwrap" });
    expect(r.text).toContain("Read-only file system");
    expect(readFileSync(join(cwd, ".zot", "hooks.json"), "utf8")).toBe('{"hooks": {}}\n');
    expect(statSync(join(cwd, ".zot", "extensions", "mine")).isDirectory()).toBe(true);
  });
});

describe("the static check (no bubblewrap)", () => {
  test("refuses a command that names a protected path or the folder holding one, before it runs", async () => {
    const saved = process.env.ZOT_JAIL_CONFINEMENT;
    process.env.ZOT_JAIL_CONFINEMENT = "static";
    try {
      const { cwd, ctx } = layout();
      for (const command of ["echo x > .zot/hooks.json", "mkdir -p .zot/extensions/evil", "mv .zot elsewhere", "cp x .claude/settings.json", "touch ./.mcp.json"]) {
        const r = await call(bashTool, { command }, ctx(true));
        expect({ command, refused: r.text.includes("which a jailed command may not change") }).toEqual({ command, refused: true });
      }
      expect(existsSync(join(cwd, ".zot"))).toBe(false);
      expect((await call(bashTool, { command: "echo fine > notes.txt" }, ctx(true))).is_error).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.ZOT_JAIL_CONFINEMENT;
      else process.env.ZOT_JAIL_CONFINEMENT = saved;
    }
  });
});

describe("on a file system that folds case (macOS, Windows)", () => {
  test("a path spelled in another case is the protected one; where case counts, it is not", () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "zot-fold-")));
    const paths = protectedPaths({ cwd, home: join(cwd, ".zot-home"), userHome: cwd });
    expect(protectedBy(paths, join(cwd, ".MCP.json"), true, true)?.what).toContain(".mcp.json");
    expect(protectedBy(paths, join(cwd, ".Claude", "Settings.JSON"), true, true)?.what).toContain("Claude Code hooks");
    expect(protectedBy(paths, join(cwd, ".MCP.json"), true, false)).toBeUndefined();
    rmSync(cwd, { recursive: true, force: true });
  });
});
