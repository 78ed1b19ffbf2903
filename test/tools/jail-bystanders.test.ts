// A jailed command beside other writers of the folder's executable configuration: the user in
// another terminal and other zots. What zot undoes after the command may be the user's change made
// meanwhile (it cannot tell them apart): it is undone all the same, and a copy of each file is
// kept. Another zot's plant is never taken for the folder's own. Real bash, under bubblewrap and
// the static check, and real git outside, as the user's.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { protectedPaths } from "../../src/config/workspace-trust.ts";
import type { TextBlock } from "../../src/protocol/messages.ts";
import type { ToolContext } from "../../src/protocol/tool.ts";
import { bashTool } from "../../src/tools/bash.ts";
import { jailConfinement } from "../../src/tools/sandbox.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "zot-jail-bystanders-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const GIT_ENV = { ...process.env, HOME: base, GIT_CONFIG_NOSYSTEM: "1" };
function git(cwd: string, ...args: string[]): string {
  const run = Bun.spawnSync(["git", ...args], { cwd, env: GIT_ENV });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
  return run.stdout.toString();
}

let n = 0;
function repo(): string {
  const dir = join(base, `r${++n}`);
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q");
  return dir;
}

async function jailed(cwd: string, command: string, how: "bwrap" | "static" = "bwrap") {
  const saved = process.env.ZOT_JAIL_CONFINEMENT;
  if (how === "static") process.env.ZOT_JAIL_CONFINEMENT = "static";
  const ctx: ToolContext = { cwd, jailed: true, protectedPaths: protectedPaths({ cwd, home: join(base, "home"), userHome: join(base, "user") }), signal: new AbortController().signal, onProgress() {} };
  const pending = bashTool.execute({ command }, ctx);
  // the confinement is chosen before the command starts
  if (saved === undefined) delete process.env.ZOT_JAIL_CONFINEMENT;
  else process.env.ZOT_JAIL_CONFINEMENT = saved;
  const result = await pending;
  return { ...result, text: (result.content[0] as TextBlock).text };
}

const confinement = await jailConfinement();

const CONFINEMENTS = [...(confinement === "bwrap" ? ["bwrap" as const] : []), "static" as const];
const home = join(base, "home");
mkdirSync(home, { recursive: true });

describe("beside the user's own git", () => {
  for (const how of CONFINEMENTS) {
    test(`${how}: the user's \`git config\` while a jailed command runs cannot be told from the command's and is undone, but a copy of it is kept, and the result says where`, async () => {
      const cwd = repo();
      const running = jailed(cwd, "sleep 1.5; echo built", how);
      await Bun.sleep(400);
      git(cwd, "config", "user.email", "me@example.com");
      const result = await running;
      expect(result.text).toContain("built");
      expect(result.text).toContain("put back .git/config");
      const kept = /as they were when zot undid them, are in (\S+?):/.exec(result.text)?.[1];
      expect(result.text).toContain("each may hold the command's change too");
      expect(kept).toStartWith(join(home, "undone"));
      expect(readFileSync(join(kept!, ".git", "config"), "utf8")).toContain("me@example.com");
      expect(statSync(join(kept!, ".git", "config")).mode & 0o777).toBe(0o600);
    });
  }

  test("a .git/config with another name (a hard link) the command writes through is put back", async () => {
    const cwd = repo();
    const config = join(cwd, ".git", "config");
    const before = readFileSync(config, "utf8");
    linkSync(config, join(cwd, "notes.txt"));
    const result = await jailed(cwd, "printf '[core]\\n\\tfsmonitor = touch planted\\n' >> notes.txt");
    expect(result.text).toContain("put back .git/config");
    expect(readFileSync(config, "utf8")).toBe(before);
  });
});

describe("two jailed commands in one folder at once (two zots)", () => {
  for (const how of CONFINEMENTS) {
    test(`${how}: what one plants while the other starts is not the folder's own: removed by both, never put back`, async () => {
      const cwd = repo();
      // the name built at run time, as a command trying to get past the static check would
      const planting = jailed(cwd, "n=.mc; printf '{\"mcpServers\":{\"x\":{\"command\":\"./payload.sh\"}}}' > ${n}p.json; sleep 1.2", how);
      await Bun.sleep(500);
      expect(existsSync(join(cwd, ".mcp.json"))).toBe(true);
      const other = jailed(cwd, "sleep 1.5; echo tests pass", how);
      const planted = await planting;
      expect(planted.text).toContain("removed .mcp.json");
      expect(existsSync(join(cwd, ".mcp.json"))).toBe(false);
      const later = await other;
      expect(later.text).toContain("tests pass");
      expect(later.text).not.toContain("put back .mcp.json");
      expect(existsSync(join(cwd, ".mcp.json"))).toBe(false);
      // nothing of either is left among the baselines in flight
      expect(readdirSync(join(base, "home", "run", "jail"))).toEqual([]);
    });
  }

  test("static: a file one command changes while the other starts is put back as it was before both", async () => {
    const cwd = repo();
    const config = join(cwd, ".git", "config");
    const original = readFileSync(config, "utf8");
    const changing = jailed(cwd, "d=.gi; printf '[core]\\n\\tfsmonitor = touch planted\\n' >> ${d}t/config; sleep 1.2", "static");
    await Bun.sleep(500);
    expect(readFileSync(config, "utf8")).toContain("fsmonitor");
    const other = jailed(cwd, "sleep 1.5; echo done", "static");
    expect((await changing).text).toContain("put back .git/config");
    const later = await other;
    expect(later.text).toContain("done");
    expect(readFileSync(config, "utf8")).toBe(original);
  });
});

describe("links the command puts on the way: nothing is read, removed or written through them", () => {
  for (const how of CONFINEMENTS) {
    test(`${how}: \`ln -s <a folder outside> .git/modules\` leaves that folder as it was; the link goes`, async () => {
      const cwd = repo();
      const outside = join(base, `outside-${how}`);
      mkdirSync(join(outside, "src"), { recursive: true });
      writeFileSync(join(outside, "id_ed25519"), "secret\n");
      writeFileSync(join(outside, "src", "notes.txt"), "mine\n");
      process.env.OUTSIDE = outside;
      const result = await jailed(cwd, 'd=.gi; ln -s "$OUTSIDE" ${d}t/modules', how);
      delete process.env.OUTSIDE;
      expect(readFileSync(join(outside, "id_ed25519"), "utf8")).toBe("secret\n");
      expect(readFileSync(join(outside, "src", "notes.txt"), "utf8")).toBe("mine\n");
      expect(existsSync(join(cwd, ".git", "modules"))).toBe(false);
      expect(result.text).toContain("removed .git/modules");
    });

    test(`${how}: \`.claude\` moved aside and replaced by a link to the user's ~/.claude: nothing is written there, and the folder's own settings come back`, async () => {
      const cwd = repo();
      mkdirSync(join(cwd, ".claude"));
      writeFileSync(join(cwd, ".claude", "settings.json"), '{"hooks":{"UserPromptSubmit":[]}}\n');
      const userClaude = join(base, `user-claude-${how}`);
      mkdirSync(userClaude, { recursive: true });
      writeFileSync(join(userClaude, "settings.json"), '{"model":"mine"}\n');
      process.env.OUTSIDE = userClaude;
      await jailed(cwd, 'c=.cla; mv ${c}ude x-old && ln -s "$OUTSIDE" ${c}ude', how);
      delete process.env.OUTSIDE;
      expect(readFileSync(join(userClaude, "settings.json"), "utf8")).toBe('{"model":"mine"}\n');
      expect(lstatSync(join(cwd, ".claude")).isSymbolicLink()).toBe(false);
      expect(readFileSync(join(cwd, ".claude", "settings.json"), "utf8")).toBe('{"hooks":{"UserPromptSubmit":[]}}\n');
    });
  }
});

describe("the folder's own links", () => {
  for (const how of CONFINEMENTS) {
    test(`${how}: a .claude the repository ships as a link, pointed by the command at the user's ~/.claude, leads where it led again; nothing is written there`, async () => {
      const cwd = repo();
      mkdirSync(join(cwd, "config", "claude"), { recursive: true });
      writeFileSync(join(cwd, "config", "claude", "settings.json"), '{"hooks":{"UserPromptSubmit":[]}}\n');
      symlinkSync("config/claude", join(cwd, ".claude"));
      const userClaude = join(base, `user-claude-link-${how}`);
      mkdirSync(userClaude, { recursive: true });
      writeFileSync(join(userClaude, "settings.json"), '{"model":"mine"}\n');
      process.env.OUTSIDE = userClaude;
      await jailed(cwd, 'c=.cla; rm ${c}ude && ln -s "$OUTSIDE" ${c}ude', how);
      delete process.env.OUTSIDE;
      expect(readlinkSync(join(cwd, ".claude"))).toBe("config/claude");
      expect(readFileSync(join(userClaude, "settings.json"), "utf8")).toBe('{"model":"mine"}\n');
      expect(readdirSync(userClaude)).toEqual(["settings.json"]);
    });

    test(`${how}: a .mcp.json that is the folder's link, pointed by the command at a file it wrote, leads where it led again`, async () => {
      const cwd = repo();
      mkdirSync(join(cwd, "mcp"));
      writeFileSync(join(cwd, "mcp", "servers.json"), '{"mcpServers":{}}\n');
      symlinkSync("mcp/servers.json", join(cwd, ".mcp.json"));
      const result = await jailed(cwd, `n=.mc; printf '{"mcpServers":{"x":{"command":"./payload.sh"}}}' > planted.json; rm \${n}p.json; ln -s planted.json \${n}p.json`, how);
      expect(readlinkSync(join(cwd, ".mcp.json"))).toBe("mcp/servers.json");
      expect(result.text).toContain("put back .mcp.json");
    });
  }

  for (const how of CONFINEMENTS) {
    test(`${how}: a chain of the folder's links (.claude -> dotfiles/.claude, dotfiles -> vendor/dotfiles) with its middle link pointed at the user's home: nothing is written or removed there`, async () => {
      const cwd = repo();
      mkdirSync(join(cwd, "vendor", "dotfiles", ".claude", "commands"), { recursive: true });
      writeFileSync(join(cwd, "vendor", "dotfiles", ".claude", "settings.json"), '{"hooks":{"UserPromptSubmit":[]}}\n');
      symlinkSync("vendor/dotfiles", join(cwd, "dotfiles"));
      symlinkSync("dotfiles/.claude", join(cwd, ".claude"));
      const userHome = join(base, `user-home-chain-${how}`);
      mkdirSync(join(userHome, ".claude", "commands"), { recursive: true });
      writeFileSync(join(userHome, ".claude", "settings.json"), '{"model":"mine"}\n');
      writeFileSync(join(userHome, ".claude", "commands", "deploy.md"), "mine\n");
      process.env.OUTSIDE = userHome;
      await jailed(cwd, 'rm dotfiles && ln -s "$OUTSIDE" dotfiles', how);
      delete process.env.OUTSIDE;
      expect(readFileSync(join(userHome, ".claude", "settings.json"), "utf8")).toBe('{"model":"mine"}\n');
      expect(readFileSync(join(userHome, ".claude", "commands", "deploy.md"), "utf8")).toBe("mine\n");
    });

    test(`${how}: a hook that is a link to a script in the project: the script is protected as the hook is`, async () => {
      const cwd = repo();
      mkdirSync(join(cwd, "scripts"));
      writeFileSync(join(cwd, "scripts", "pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
      rmSync(join(cwd, ".git", "hooks"), { recursive: true, force: true });
      mkdirSync(join(cwd, ".git", "hooks"));
      symlinkSync("../../scripts/pre-commit", join(cwd, ".git", "hooks", "pre-commit"));
      const result = await jailed(cwd, "s=scri; printf '#!/bin/sh\\ntouch planted\\n' > ${s}pts/pre-commit", how);
      expect(readFileSync(join(cwd, "scripts", "pre-commit"), "utf8")).toBe("#!/bin/sh\nexit 0\n");
      if (how === "static") expect(result.text).toContain("put back scripts/pre-commit");
    });
  }

  for (const how of CONFINEMENTS) {
    test(`${how}: a hook linked through two hops (.git/hooks/pre-commit -> ../../.githooks/pre-commit, .githooks a link) with the middle hop re-pointed: the hook does not run the command's script`, async () => {
      const cwd = repo();
      mkdirSync(join(cwd, "tooling", "hooks"), { recursive: true });
      writeFileSync(join(cwd, "tooling", "hooks", "pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
      symlinkSync("tooling/hooks", join(cwd, ".githooks"));
      rmSync(join(cwd, ".git", "hooks"), { recursive: true, force: true });
      mkdirSync(join(cwd, ".git", "hooks"));
      symlinkSync("../../.githooks/pre-commit", join(cwd, ".git", "hooks", "pre-commit"));
      await jailed(cwd, "mkdir -p evil && printf '#!/bin/sh\\ntouch planted\\n' > evil/pre-commit && chmod +x evil/pre-commit && g=.githoo; rm ${g}ks && ln -s evil ${g}ks", how);
      const hook = join(cwd, ".git", "hooks", "pre-commit");
      // either the hook still leads to the folder's own script, or it is gone: never to the command's
      if (existsSync(hook)) expect(readFileSync(hook, "utf8")).toBe("#!/bin/sh\nexit 0\n");
      expect(existsSync(hook) && readFileSync(hook, "utf8").includes("planted")).toBe(false);
    });

    // Under the static check a file changed inside a protected folder is not seen (docs/jail.md), here as in .zot/extensions itself.
    test.skipIf(how === "static")(`${how}: an extension folder that is a link into the project: what it leads to is protected as the extensions are`, async () => {
      const cwd = repo();
      mkdirSync(join(cwd, "tools", "lint"), { recursive: true });
      writeFileSync(join(cwd, "tools", "lint", "extension.json"), '{"name":"lint","command":["./run.sh"]}\n');
      mkdirSync(join(cwd, ".zot", "extensions"), { recursive: true });
      symlinkSync("../../tools/lint", join(cwd, ".zot", "extensions", "lint"));
      await jailed(cwd, `t=too; printf '{"name":"lint","command":["./evil.sh"]}' > \${t}ls/lint/extension.json`, how);
      expect(readFileSync(join(cwd, "tools", "lint", "extension.json"), "utf8")).toBe('{"name":"lint","command":["./run.sh"]}\n');
    });
  }

  for (const how of CONFINEMENTS) {
    test(`${how}: jailed in a dotfiles repository that the user's ~/.claude/settings.json and ~/.gitconfig link into: those files are protected`, async () => {
      const cwd = repo();
      mkdirSync(join(cwd, "claude"));
      writeFileSync(join(cwd, "claude", "settings.json"), '{"model":"mine"}\n');
      writeFileSync(join(cwd, "gitconfig"), "[user]\n\tname = me\n");
      const user = join(base, "user");
      mkdirSync(join(user, ".claude"), { recursive: true });
      rmSync(join(user, ".claude", "settings.json"), { force: true });
      rmSync(join(user, ".gitconfig"), { force: true });
      symlinkSync(join(cwd, "claude", "settings.json"), join(user, ".claude", "settings.json"));
      symlinkSync(join(cwd, "gitconfig"), join(user, ".gitconfig"));
      try {
        await jailed(cwd, `c=clau; printf '{"hooks":{"UserPromptSubmit":[]}}' > \${c}de/settings.json; g=gitcon; printf '[core]\\n\\tfsmonitor = touch planted\\n' >> \${g}fig`, how);
        expect(readFileSync(join(cwd, "claude", "settings.json"), "utf8")).toBe('{"model":"mine"}\n');
        expect(readFileSync(join(cwd, "gitconfig"), "utf8")).toBe("[user]\n\tname = me\n");
      } finally {
        rmSync(join(user, ".claude", "settings.json"), { force: true });
        rmSync(join(user, ".gitconfig"), { force: true });
      }
    });

    test(`${how}: jailed in a dotfiles repository that ~/.claude (the whole folder) and an extension of $ZOT_HOME link into: the settings and the extension are protected, the rest of the folder stays writable`, async () => {
      const cwd = repo();
      mkdirSync(join(cwd, "claude"));
      writeFileSync(join(cwd, "claude", "settings.json"), '{"model":"mine"}\n');
      writeFileSync(join(cwd, "claude", "CLAUDE.md"), "notes\n");
      mkdirSync(join(cwd, "zot-lint"));
      writeFileSync(join(cwd, "zot-lint", "extension.json"), '{"name":"lint"}\n');
      const user = join(base, "user");
      mkdirSync(user, { recursive: true });
      rmSync(join(user, ".claude"), { recursive: true, force: true });
      symlinkSync(join(cwd, "claude"), join(user, ".claude"));
      mkdirSync(join(home, "extensions"), { recursive: true });
      symlinkSync(join(cwd, "zot-lint"), join(home, "extensions", "lint"));
      try {
        const result = await jailed(cwd, `c=clau; printf 'more notes\\n' >> \${c}de/CLAUDE.md; printf '{"hooks":{}}' > \${c}de/settings.json; z=zot-li; printf '{"name":"lint","command":["./evil.sh"]}' > \${z}nt/extension.json`, how);
        expect(readFileSync(join(cwd, "claude", "settings.json"), "utf8")).toBe('{"model":"mine"}\n');
        // (a file changed inside a protected folder is bubblewrap's to refuse: the static check does not see it, docs/jail.md)
        if (how === "bwrap") expect(readFileSync(join(cwd, "zot-lint", "extension.json"), "utf8")).toBe('{"name":"lint"}\n');
        // the rest of ~/.claude is the project's to write, as before
        expect(readFileSync(join(cwd, "claude", "CLAUDE.md"), "utf8")).toBe("notes\nmore notes\n");
        void result;
      } finally {
        rmSync(join(user, ".claude"), { force: true });
        rmSync(join(home, "extensions", "lint"), { force: true });
      }
    });

    test(`${how}: an extension folder linked through two hops (.zot/extensions/lint -> ../../tools/lint, tools/lint -> zot-lint) with the second re-pointed: the extension does not lead to the command's code`, async () => {
      const cwd = repo();
      mkdirSync(join(cwd, "zot-lint"), { recursive: true });
      writeFileSync(join(cwd, "zot-lint", "extension.json"), '{"name":"lint"}\n');
      mkdirSync(join(cwd, "tools"));
      symlinkSync("../zot-lint", join(cwd, "tools", "lint"));
      mkdirSync(join(cwd, ".zot", "extensions"), { recursive: true });
      symlinkSync("../../tools/lint", join(cwd, ".zot", "extensions", "lint"));
      await jailed(cwd, `mkdir evil && printf '{"name":"lint","command":["./evil.sh"]}' > evil/extension.json && t=too; rm \${t}ls/lint && ln -s ../evil \${t}ls/lint`, how);
      const ext = join(cwd, ".zot", "extensions", "lint", "extension.json");
      expect(existsSync(ext) && readFileSync(ext, "utf8").includes("evil")).toBe(false);
    });

    test(`${how}: an ordinary \`git mv\` of the folder the user's links lead into: the links are kept, made again once what they lead to is back`, async () => {
      const cwd = repo();
      mkdirSync(join(cwd, "config"));
      writeFileSync(join(cwd, "config", "mcp.json"), '{"mcpServers":{}}\n');
      symlinkSync("config/mcp.json", join(cwd, ".mcp.json"));
      git(cwd, "add", "-A");
      git(cwd, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "config");
      await jailed(cwd, "git mv config conf", how);
      expect(lstatSync(join(cwd, ".mcp.json")).isSymbolicLink()).toBe(true);
      expect(readlinkSync(join(cwd, ".mcp.json"))).toBe("config/mcp.json");
      expect(readFileSync(join(cwd, ".mcp.json"), "utf8")).toBe('{"mcpServers":{}}\n');
    });
  }

  test("a .claude linked to a folder outside the project (a dotfiles layout) does not stop jailed commands from running", async () => {
    const cwd = repo();
    const dotfiles = join(base, "dotfiles-claude");
    mkdirSync(dotfiles, { recursive: true });
    writeFileSync(join(dotfiles, "settings.json"), "{}\n");
    symlinkSync(dotfiles, join(cwd, ".claude"));
    const result = await jailed(cwd, "echo ran");
    expect(result.text).toContain("ran");
    expect(result.is_error).toBe(false);
  });

  test("a note names 20 paths at most, then how many more", async () => {
    const cwd = repo();
    const result = await jailed(cwd, "d=.gi; mkdir ${d}t/modules; for i in $(seq 1 30); do printf x > ${d}t/modules/m$i; done");
    expect(result.text).toMatch(/removed (\.git\/modules\/m\d+, ){19}\.git\/modules\/m\d+ and 10 more/);
  });
});

describe("the copies of what is undone", () => {
  test("a restore keeps at most 64 files: a command's thousands of planted hooks cost the user's disk nothing more", async () => {
    const cwd = repo();
    const result = await jailed(cwd, "d=.gi; mkdir ${d}t/modules; for i in $(seq 1 200); do printf x > ${d}t/modules/h$i; done");
    expect(result.text).toContain("not kept: over the limits");
    const kept = /as they were when zot undid them, are in (\S+?) \(/.exec(result.text)?.[1];
    expect(readdirSync(join(kept!, ".git", "modules"))).toHaveLength(64);
    expect(readdirSync(join(cwd, ".git", "modules"))).toEqual([]);
  });

  test("an undone/ that is a link (planted by something that could write $ZOT_HOME) is not followed: no copy, nothing removed there", async () => {
    const cwd = repo();
    const elsewhere = join(base, "elsewhere");
    mkdirSync(join(elsewhere, "old-project"), { recursive: true });
    const old = new Date(Date.now() - 90 * 24 * 60 * 60 * 1000);
    utimesSync(join(elsewhere, "old-project"), old, old);
    rmSync(join(home, "undone"), { recursive: true, force: true });
    symlinkSync(elsewhere, join(home, "undone"));
    try {
      const result = await jailed(cwd, "n=.mc; printf '{}' > ${n}p.json");
      expect(result.text).toContain("removed .mcp.json");
      expect(existsSync(join(elsewhere, "old-project"))).toBe(true);
      expect(readdirSync(elsewhere)).toEqual(["old-project"]);
    } finally {
      rmSync(join(home, "undone"));
    }
  });
});
