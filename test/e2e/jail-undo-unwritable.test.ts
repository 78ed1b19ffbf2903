// A jailed command that plants git configuration and then makes it unwritable (`chmod 555`) is
// undone all the same: run as a user who is not root (as root, when the suite runs as root, through
// setpriv as nobody), since root writes through any mode and would never see the failure.
import { expect, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir, ZOT } from "../support/zot.ts";

const root = process.getuid?.() === 0;
const asUser = root ? ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] : [];
const canSwitch = !root || Bun.which("setpriv") !== null;

test.skipIf(!canSwitch)("a linked worktree's commondir removed, hooks and config planted, the folder made read-only: the undo still happens", () => {
  const base = tempDir("zot-undo-");
  chmodSync(base, 0o777);
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(base, "home"),
    ZOT_HOME: join(base, "home", ".zot"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "a",
    GIT_AUTHOR_EMAIL: "a@b",
    GIT_COMMITTER_NAME: "a",
    GIT_COMMITTER_EMAIL: "a@b",
  };
  const run = (cwd: string, ...argv: string[]) => Bun.spawnSync([...asUser, ...argv], { cwd, env, stdout: "pipe", stderr: "pipe" });
  const sh = (cwd: string, script: string) => {
    const done = run(cwd, "sh", "-c", script);
    if (done.exitCode !== 0) throw new Error(`${script}: ${done.stderr.toString()}`);
    return done.stdout.toString();
  };
  sh(base, "mkdir -p home/.zot repo && cd repo && git init -q && echo a > a.txt && git add a.txt && git commit -qm init && git worktree add -q wt");
  const repo = join(base, "repo");
  const marker = join(base, "PWNED");
  const plant = [
    "g=.gi && cd $\{g}t/worktrees/wt && rm commondir && ln -s ../../objects objects && ln -s ../../refs refs && mkdir hooks",
    `printf '#!/bin/sh\\ntouch ${marker}\\n' > hooks/pre-commit && chmod +x hooks/pre-commit`,
    `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "touch ${marker}; false"\\n' > config`,
    "cd .. && chmod 555 wt && echo planted",
  ].join(" && ");
  writeFileSync(join(base, "s.json"), JSON.stringify([{ tool_calls: [{ name: "bash", args: { command: plant } }] }, { text: "end" }]));
  chmodSync(join(base, "s.json"), 0o644);
  // A copy the other user can run, wherever this checkout lives (a home it may not enter).
  const binary = join(base, "zot");
  copyFileSync(ZOT, binary);
  chmodSync(binary, 0o755);
  const zot = run(repo, binary, "--json", "--jail", "--no-session", "--provider", "scripted", "--script", join(base, "s.json"), "go");
  expect(zot.exitCode).toBe(0);
  const result = zot.stdout
    .toString()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .find((event) => event.type === "tool_result");
  // The plant ran (spelled so that the static check's reading of the text lets it through, if that is the confinement).
  expect(result.content[0].text).toStartWith("planted\n");
  // The admin folder is a linked worktree's again, and the user's own git runs nothing planted.
  expect(existsSync(join(repo, ".git", "worktrees", "wt", "commondir"))).toBe(true);
  expect(existsSync(join(repo, ".git", "worktrees", "wt", "hooks", "pre-commit"))).toBe(false);
  expect(readdirSync(join(repo, ".git", "worktrees", "wt"))).not.toContain("config");
  sh(join(repo, "wt"), "git status --short >/dev/null; echo b > a.txt; git commit -qam mine || true");
  expect(existsSync(marker)).toBe(false);
});
