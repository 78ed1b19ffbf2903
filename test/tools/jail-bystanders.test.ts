// A jailed command beside other writers of the folder's executable configuration: the user in
// another terminal and other zots. What the command could not have changed is never "undone" (the
// user's `git config` while a jailed build runs), and what it could change is still undone. Real
// bash under bubblewrap, real git outside, as the user's.
import { afterAll, describe, expect, test } from "bun:test";
import { linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
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

async function jailed(cwd: string, command: string) {
  const ctx: ToolContext = { cwd, jailed: true, protectedPaths: protectedPaths({ cwd, home: join(base, "home"), userHome: join(base, "user") }), signal: new AbortController().signal, onProgress() {} };
  const result = await bashTool.execute({ command }, ctx);
  return { ...result, text: (result.content[0] as TextBlock).text };
}

const confinement = await jailConfinement();

describe.skipIf(confinement !== "bwrap")("under bubblewrap, beside the user's own git", () => {
  test("the user's `git config` and `git remote add` while a jailed command runs stay: the command could not have written .git/config", async () => {
    const cwd = repo();
    const running = jailed(cwd, "sleep 1.5; echo built");
    await Bun.sleep(400);
    git(cwd, "config", "user.email", "me@example.com");
    git(cwd, "remote", "add", "origin", "https://example.com/me/repo.git");
    const result = await running;
    expect(result.text).toContain("built");
    expect(result.text).not.toContain("[jailed: this command changed");
    expect(result.is_error).toBe(false);
    expect(git(cwd, "config", "user.email").trim()).toBe("me@example.com");
    expect(git(cwd, "config", "remote.origin.url").trim()).toBe("https://example.com/me/repo.git");
  });

  test("a .git/config with another name (a hard link) the command could write through is still put back", async () => {
    const cwd = repo();
    const config = join(cwd, ".git", "config");
    const before = readFileSync(config, "utf8");
    linkSync(config, join(cwd, "notes.txt"));
    const result = await jailed(cwd, "printf '[core]\\n\\tfsmonitor = touch planted\\n' >> notes.txt");
    expect(result.text).toContain("put back .git/config");
    expect(readFileSync(config, "utf8")).toBe(before);
  });
});
