// Jailed, nothing a command does may make the user's next git command outside zot run code: each
// way a reviewer planted a core.fsmonitor (a .git/commondir to a planted config, a linked worktree's
// .git file repointed, .git moved away and replaced, a submodule's config, a new repository in a
// folder below a repository's root) is tried with real git and real bash, under bubblewrap and under
// the static check, and then `git status` runs outside, as the user's would.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { protectedPaths } from "../../src/config/workspace-trust.ts";
import type { TextBlock } from "../../src/protocol/messages.ts";
import type { ToolContext } from "../../src/protocol/tool.ts";
import { bashTool } from "../../src/tools/bash.ts";
import { jailConfinement } from "../../src/tools/sandbox.ts";
import { writeTool } from "../../src/tools/write.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "zot-git-jail-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** git as the user runs it, outside zot, with nothing of the machine's own configuration. */
const GIT_ENV = { ...process.env, HOME: base, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@b", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@b" };
function git(cwd: string, ...args: string[]): string {
  const run = Bun.spawnSync(["git", "-c", "protocol.file.allow=always", ...args], { cwd, env: GIT_ENV });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
  return run.stdout.toString();
}

let n = 0;
function fresh(): string {
  const root = join(base, `t${++n}`);
  mkdirSync(root, { recursive: true });
  return root;
}

/** A repository with one commit at `dir`. */
function repo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q");
  writeFileSync(join(dir, "a.txt"), "a\n");
  git(dir, "add", "a.txt");
  git(dir, "commit", "-qm", "init");
  return dir;
}

const confinement = await jailConfinement();
/** The confinements to try here: bubblewrap where it works, and the static check always. */
const CONFINEMENTS = [...(confinement === "bwrap" ? ["bwrap" as const] : []), "static" as const];

/** Runs `command` as the jailed bash tool in `cwd`, with the protected paths of a run started there. */
async function jailed(cwd: string, command: string, how: "bwrap" | "static", marker?: string) {
  const saved = process.env.ZOT_JAIL_CONFINEMENT;
  if (how === "static") process.env.ZOT_JAIL_CONFINEMENT = "static";
  // the marker outside the jail reaches the command as $MARKER (the static check refuses a path outside in the text)
  process.env.MARKER = marker ?? "";
  try {
    const ctx: ToolContext = { cwd, jailed: true, protectedPaths: protectedPaths({ cwd, home: join(base, "home"), userHome: join(base, "user") }), signal: new AbortController().signal, onProgress() {} };
    const result = await bashTool.execute({ command }, ctx);
    return { ...result, text: (result.content[0] as TextBlock).text };
  } finally {
    if (saved === undefined) delete process.env.ZOT_JAIL_CONFINEMENT;
    else process.env.ZOT_JAIL_CONFINEMENT = saved;
  }
}

/** Whether the user's next `git commit` in `cwd` runs a planted hook (which touches `marker`). */
function committedRuns(cwd: string, marker: string): boolean {
  Bun.spawnSync(["git", "commit", "-q", "--allow-empty", "-m", "mine"], { cwd, env: GIT_ENV, stdout: "ignore", stderr: "ignore" });
  return existsSync(marker);
}

/** Whether the user's next `git status` in `cwd` runs the planted fsmonitor (which touches `marker`). */
function plantedRuns(cwd: string, marker: string): boolean {
  Bun.spawnSync(["git", "status"], { cwd, env: GIT_ENV, stdout: "ignore", stderr: "ignore" });
  return existsSync(marker);
}

// Spelled through variables (g=.gi → ${g}t), so the static check's reading of the text lets them
// run: what it cannot see must still be undone.
describe.each(CONFINEMENTS)("jailed under %s, a planted git configuration does not survive the command", (how) => {
  test("a .git/commondir that points git at a planted config is removed", async () => {
    const root = fresh();
    const cwd = repo(join(root, "project"));
    const marker = join(root, "PWNED");
    const r = await jailed(
      cwd,
      `g=.gi; mkdir -p .evil && cp -r \${g}t/objects \${g}t/refs \${g}t/HEAD .evil/ && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tfsmonitor = touch %s; false\\n' "$MARKER" > .evil/config && printf '%s%s/.evil\\n' . . > \${g}t/commondir; echo tried`,
      how,
      marker,
    );
    expect(r.text).toContain("tried");
    expect(existsSync(join(cwd, ".git", "commondir"))).toBe(false);
    expect(r.text).toContain("removed .git/commondir");
    expect(r.text).toContain("the repository's link to its git configuration (.git/commondir)");
    expect(plantedRuns(cwd, marker)).toBe(false);
  });

  test(".git moved away and a .git file put in its place: the repository is moved back", async () => {
    const root = fresh();
    const cwd = repo(join(root, "project"));
    const marker = join(root, "PWNED");
    const r = await jailed(
      cwd,
      `g=.gi; mv \${g}t .git-real && cp -r .git-real evil && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = touch %s; false\\n' "$MARKER" > evil/config && echo 'gitdir: evil' > \${g}t; echo tried`,
      how,
      marker,
    );
    expect(r.text).toContain("tried");
    expect(statSync(join(cwd, ".git")).isDirectory()).toBe(true);
    expect(git(cwd, "log", "--format=%s")).toBe("init\n");
    expect(plantedRuns(cwd, marker)).toBe(false);
    if (how === "static") expect(r.text).toContain(".git (moved back from .git-real)");
    else expect(r.text).toContain("Device or resource busy");
  });

  test("in a linked worktree, the .git file keeps naming its repository", async () => {
    const root = fresh();
    const main = repo(join(root, "main"));
    git(main, "worktree", "add", "-q", join(root, "wt"));
    const cwd = join(root, "wt");
    const link = readFileSync(join(cwd, ".git"), "utf8");
    const marker = join(root, "PWNED");
    const r = await jailed(
      cwd,
      `g=.gi; git init -q --bare .evil && git -C .evil config core.bare false && git -C .evil config core.worktree "$PWD" && git -C .evil config core.fsmonitor "touch $MARKER; false" && echo 'gitdir: .evil' > \${g}t; echo tried`,
      how,
      marker,
    );
    expect(r.text).toContain("tried");
    expect(readFileSync(join(cwd, ".git"), "utf8")).toBe(link);
    expect(plantedRuns(cwd, marker)).toBe(false);
  });

  test("a submodule's config (.git/modules/<name>/config) stays as it was, and a new submodule git directory is removed", async () => {
    const root = fresh();
    repo(join(root, "sub"));
    const cwd = repo(join(root, "main"));
    git(cwd, "submodule", "add", "-q", "../sub", "sub");
    git(cwd, "commit", "-qm", "sub");
    const config = readFileSync(join(cwd, ".git", "modules", "sub", "config"), "utf8");
    const marker = join(root, "PWNED");
    const r = await jailed(cwd, `git -C sub config core.fsmonitor "touch $MARKER; false"; g=.gi; cp -r \${g}t/modules/sub \${g}t/modules/other; echo tried`, how, marker);
    expect(r.text).toContain("tried");
    expect(readFileSync(join(cwd, ".git", "modules", "sub", "config"), "utf8")).toBe(config);
    expect(existsSync(join(cwd, ".git", "modules", "other"))).toBe(false);
    expect(r.text).toContain("a new submodule's git directory (under .git/modules)");
    expect(plantedRuns(cwd, marker)).toBe(false);
  });

  test("jailed in a folder below a repository's root, a new repository there (git init .) is removed", async () => {
    const root = fresh();
    const top = repo(join(root, "top"));
    const cwd = join(top, "pkg");
    mkdirSync(cwd);
    const marker = join(root, "PWNED");
    const r = await jailed(cwd, `git init -q . && git config core.fsmonitor "touch $MARKER; false" && echo planted`, how, marker);
    expect(r.text).toContain("planted");
    expect(existsSync(join(cwd, ".git"))).toBe(false);
    expect(r.is_error).toBe(true);
    expect(r.text).toContain("removed .git");
    expect(r.text).toContain(`a new git repository (.git) that would take git in this folder over from the repository at ${top}`);
    expect(plantedRuns(cwd, marker)).toBe(false);
  });

  test("git worktree remove of a worktree there at the start works, and leaves git able to add it again; a change in place to its link is undone", async () => {
    const cwd = repo(join(fresh(), "project"));
    git(cwd, "worktree", "add", "-q", "wt");
    git(cwd, "worktree", "add", "-q", "wt2");
    const commondir = readFileSync(join(cwd, ".git", "worktrees", "wt2", "commondir"), "utf8");
    const r = await jailed(cwd, "git worktree remove --force wt && echo removed; g=.gi; e=.; echo $e$e/$e$e/.evil > ${g}t/worktrees/wt2/commondir", how);
    expect(r.text).toContain("removed");
    expect(existsSync(join(cwd, ".git", "worktrees", "wt"))).toBe(false);
    expect(git(cwd, "worktree", "list")).not.toContain("/wt ");
    git(cwd, "worktree", "add", "-q", "wt");
    expect(readFileSync(join(cwd, ".git", "worktrees", "wt2", "commondir"), "utf8")).toBe(commondir);
  });

  test("a linked worktree's git directory swapped for a copy with hooks in it keeps no hook; its .git file repointed is put back", async () => {
    const root = fresh();
    const cwd = repo(join(root, "project"));
    git(cwd, "worktree", "add", "-q", "wt");
    const link = readFileSync(join(cwd, "wt", ".git"), "utf8");
    const marker = join(root, "PWNED");
    const r = await jailed(
      cwd,
      [
        "g=.gi; cd ${g}t/worktrees && cp -a wt wt.new && rm -rf wt && cp -a wt.new wt && rm -rf wt.new && cd wt",
        "ln -s ../../objects objects; ln -s ../../refs refs; mkdir -p hooks",
        'printf "#!/bin/sh\ntouch %s\n" "$MARKER" > hooks/pre-commit && chmod +x hooks/pre-commit',
        "cd ../../.. && echo 'gitdir: elsewhere' > wt/${g}t; echo planted",
      ].join("; "),
      how,
      marker,
    );
    expect(r.text).toContain("planted");
    expect(existsSync(join(cwd, ".git", "worktrees", "wt", "hooks", "pre-commit"))).toBe(false);
    expect(readFileSync(join(cwd, "wt", ".git"), "utf8")).toBe(link);
    // The user's own commit in the worktree, outside zot, runs no planted hook.
    writeFileSync(join(cwd, "wt", "a.txt"), "changed\n");
    Bun.spawnSync(["git", "commit", "-qam", "mine"], { cwd: join(cwd, "wt"), env: GIT_ENV, stdout: "ignore", stderr: "ignore" });
    expect(existsSync(marker)).toBe(false);
  });

  test("worktree move, and remove then add again in one command, leave working worktrees", async () => {
    const cwd = repo(join(fresh(), "project"));
    git(cwd, "worktree", "add", "-q", "wt");
    git(cwd, "worktree", "add", "-q", "again");
    const r = await jailed(cwd, "git worktree move wt moved && git worktree remove --force again && git worktree add -q again && echo done", how);
    expect(r.text).toContain("done");
    const list = git(cwd, "worktree", "list", "--porcelain");
    expect(list).not.toContain("prunable");
    expect(git(join(cwd, "moved"), "rev-parse", "--show-toplevel").trim()).toBe(join(cwd, "moved"));
    expect(git(join(cwd, "again"), "rev-parse", "--show-toplevel").trim()).toBe(join(cwd, "again"));
  });

  test("a worktree removed and added again under its name stays, though its git directory is a new folder", async () => {
    const cwd = repo(join(fresh(), "project"));
    git(cwd, "worktree", "add", "-q", "again");
    const before = statSync(join(cwd, ".git", "worktrees", "again")).ino;
    // the folder made between takes the freed inode, so the one git makes again is another
    const r = await jailed(cwd, "git worktree remove --force again && mkdir between && git worktree add -q again && echo done", how);
    expect(r.text).toContain("done");
    expect(r.text).not.toContain("[jailed: this command changed");
    expect(statSync(join(cwd, ".git", "worktrees", "again")).ino).not.toBe(before);
    expect(git(cwd, "worktree", "list", "--porcelain")).not.toContain("prunable");
    expect(git(join(cwd, "again"), "rev-parse", "--show-toplevel").trim()).toBe(join(cwd, "again"));
  });

  test("a worktree added again under its name keeps no configuration or hook the command put in its new git directory", async () => {
    const cwd = repo(join(fresh(), "project"));
    git(cwd, "worktree", "add", "-q", "again");
    const admin = join(cwd, ".git", "worktrees", "again");
    const plant = "g=.gi; a=${g}t/worktrees/again; echo '[core]' > $a/config.worktree; mkdir -p $a/hooks && echo x > $a/hooks/pre-commit";
    const r = await jailed(cwd, `git worktree remove --force again && mkdir between && git worktree add -q again && ${plant} && echo done`, how);
    expect(r.text).toContain("done");
    expect(r.text).toContain("[jailed: this command changed");
    expect(existsSync(join(admin, "config.worktree"))).toBe(false);
    expect(existsSync(join(admin, "hooks", "pre-commit"))).toBe(false);
    expect(git(join(cwd, "again"), "rev-parse", "--show-toplevel").trim()).toBe(join(cwd, "again"));
  });

  test("a linked worktree's git directory swapped in with a commondir through a link (or a link itself) goes whole: turning the link later plants nothing", async () => {
    const root = fresh();
    const cwd = repo(join(root, "project"));
    const marker = join(root, "PWNED");
    // a commondir whose path goes through the link (../../../link1), and one that is itself a link to a file naming ../..
    const commondirs = ["printf '%s%s/%s%s/%s%s/link1\\n' . . . . . . > $W/commondir", "printf '%s%s/%s%s\\n' . . . . > c.txt && t=$(printf '%s%s/%s%s/%s%s/c.txt' . . . . . .) && ln -s $t $W/commondir"];
    for (const [i, commondir] of commondirs.entries()) {
      const name = `wt${i + 1}`;
      git(cwd, "worktree", "add", "-q", `../${name}`);
      const swap = [
        `g=.gi; W=\${g}t/worktrees/${name}; O=\${g}t/worktrees/old; mv $W $O && mkdir $W && cp $O/HEAD $O/gitdir $O/index $W/`,
        `ln -s \${g}t link${i + 1}`,
        commondir,
        "rm -rf $O; echo swapped",
      ].join(" && ");
      const plant = [
        `g=.gi; l=lin; rm \${l}k${i + 1} && mkdir -p evil${i + 1} && cp -a \${g}t/objects \${g}t/refs \${g}t/HEAD evil${i + 1}/`,
        `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "touch %s; false"\\n' "$MARKER" > evil${i + 1}/config`,
        `ln -s evil${i + 1} \${l}k${i + 1} && echo planted`,
      ].join(" && ");
      const first = await jailed(cwd, swap, how, marker);
      expect(first.text).toContain("swapped");
      expect(first.text).toContain("[jailed");
      const second = await jailed(cwd, plant, how, marker);
      expect(second.text).toContain("planted");
      expect(plantedRuns(join(root, name), marker)).toBe(false);
    }
  });

  test("a linked worktree's git directory made anew whose commondir is not exactly git's ../.. (a link on the way, spaces or a tab) goes whole, with the planted repository it leads to", async () => {
    const root = fresh();
    const cwd = repo(join(root, "project"));
    const marker = join(root, "PWNED");
    // a common dir of the command's making: the repository's objects and refs, a config that runs the marker
    const evil = (e: string) =>
      `mkdir -p ${e} && ln -s $D/$G/objects ${e}/objects && ln -s $D/$G/refs ${e}/refs && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "touch %s; false"\\n' "$MARKER" > ${e}/config`;
    const variants = [
      // git climbs from the link's target (e1/a/b/c) where a reading of the text cancels x/..
      (e: string) => `ln -s $D/$D/$D/${e}/a/b/c $W/x && mkdir -p ${e}/a/b/c && printf 'x/%s/%s/%s\\n' $D $D $D > $W/commondir`,
      // git keeps a trailing tab: it reads the "..<TAB>" entry, a link to the planted one
      (e: string) => `ln -s $D/$D/${e} "$G/worktrees/$D$(printf '\\t')" && printf '%s/%s\\t\\n' $D $D > $W/commondir`,
      // and a leading space
      (e: string) => `ln -s $D/$D/$D/${e}/x "$W/ $D" && mkdir -p ${e}/x && printf ' %s/%s\\n' $D $D > $W/commondir`,
    ];
    for (const [i, variant] of variants.entries()) {
      const name = `wt${i + 1}`;
      const e = `evil${i + 1}`;
      git(cwd, "worktree", "add", "-q", `../${name}`);
      const command = [
        `g=.gi; G=\${g}t; D=$(printf '%s%s' . .); W=$G/worktrees/${name}`,
        evil(e),
        "cp -a $W $G/worktrees/tmpwt && rm -rf $W && mv $G/worktrees/tmpwt $W",
        variant(e),
        "echo planted",
      ].join(" && ");
      const r = await jailed(cwd, command, how, marker);
      expect(r.text).toContain("planted");
      expect(plantedRuns(join(root, name), marker)).toBe(false);
    }
  });

  test("a linked worktree made anew with a .git file naming a new git directory whose commondir goes through a link: that .git goes, and turning the link later plants nothing", async () => {
    const root = fresh();
    const cwd = repo(join(root, "project"));
    git(cwd, "worktree", "add", "-q", "inside");
    const marker = join(root, "PWNED");
    const repoint = [
      "g=.gi; N=${g}t/worktrees/new; mkdir $N && cp ${g}t/worktrees/inside/HEAD ${g}t/worktrees/inside/index $N/",
      "ln -s ${g}t link1",
      "printf '%s%s/%s%s/%s%s/link1\\n' . . . . . . > $N/commondir",
      // the worktree made anew (its .git file then is a new one, as `git worktree add` writes it)
      'i=insid; mv ${i}e ${i}e.old && mkdir ${i}e && printf "gitdir: %s/${g}t/worktrees/new\\n" "$PWD" > ${i}e/${g}t; echo repointed',
    ].join(" && ");
    const plant = [
      "g=.gi; l=lin; rm ${l}k1 && mkdir -p evil && cp -a ${g}t/objects ${g}t/refs ${g}t/HEAD evil/",
      `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "touch %s; false"\\n' "$MARKER" > evil/config`,
      "ln -s evil ${l}k1 && echo planted",
    ].join(" && ");
    expect((await jailed(cwd, repoint, how, marker)).text).toContain("repointed");
    const dotGit = join(cwd, "inside", ".git");
    expect(existsSync(dotGit) ? readFileSync(dotGit, "utf8") : "").not.toContain("worktrees/new");
    expect((await jailed(cwd, plant, how, marker)).text).toContain("planted");
    expect(plantedRuns(join(cwd, "inside"), marker)).toBe(false);
  });

  test("a worktree inside the folder made anew: its .git is kept only as git writes it, naming its own git directory (not one with a trailing space, not a link, not a new folder with a config.worktree)", async () => {
    const variants: { name: string; turns: string[]; worktreeConfig?: boolean }[] = [
      {
        name: "a trailing space git keeps",
        turns: [
          `${'cp -a "$S" "$S " && (cd "$S " && printf \'%s/%s/%s/e\\n\' $D $D $D > commondir)'} && cp -a $U $U.n && rm -rf $U && mv $U.n $U && printf 'gitdir: %s/%s/worktrees/%s \\n' "$P" "$G" "$U" > $U/$G && echo planted`,
        ],
      },
      {
        name: "a link turned later",
        turns: [
          `cp -a $G/worktrees/$U evilgd && (cd evilgd && printf '%s/e\\n' $D > commondir) && printf 'gitdir: %s/%s/worktrees/%s\\n' "$P" "$G" "$U" > good.txt && printf 'gitdir: %s/evilgd\\n' "$P" > evil.txt && ln -s good.txt l1 && cp -a $U $U.n && rm -rf $U && mv $U.n $U && rm $U/$G && ln -s "$P/l1" $U/$G && echo planted`,
          "l=l; ln -sfn evil.txt ${l}1 && echo planted",
        ],
      },
      {
        name: "a new git directory with a config.worktree",
        worktreeConfig: true,
        turns: [
          `N=$G/worktrees/new && cp -a $G/worktrees/$U $N && rm -f $N/config.worktree && printf '[core]\\n\\tfsmonitor = "touch %s; false"\\n' "$MARKER" > $N/config.worktree && cp -a $U $U.n && rm -rf $U && mv $U.n $U && printf 'gitdir: %s/%s/worktrees/new\\n' "$P" "$G" > $U/$G && echo planted`,
        ],
      },
    ];
    for (const variant of variants) {
      const root = fresh();
      const cwd = repo(join(root, "project"));
      writeFileSync(join(cwd, ".gitignore"), "sub/\n");
      git(cwd, "worktree", "add", "-q", "sub");
      if (variant.worktreeConfig) git(cwd, "config", "extensions.worktreeConfig", "true");
      const marker = join(root, "PWNED");
      const names = "g=.gi; G=${g}t; D=$(printf '%s%s' . .); P=$(pwd); s=su; U=${s}b; S=$G/worktrees/$U";
      // a common dir of the command's making: the repository's objects and refs, a config that runs the marker
      const evil = `mkdir -p e && ln -s $D/$G/objects e/objects && ln -s $D/$G/refs e/refs && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "touch %s; false"\\n' "$MARKER" > e/config`;
      for (const [t, turn] of variant.turns.entries()) {
        const command = t === 0 ? `${names} && ${evil} && ${turn}` : `${names} && ${turn}`;
        expect({ variant: variant.name, text: (await jailed(cwd, command, how, marker)).text }).toEqual({ variant: variant.name, text: expect.stringContaining("planted") });
      }
      expect({ variant: variant.name, ran: plantedRuns(join(cwd, "sub"), marker) }).toEqual({ variant: variant.name, ran: false });
    }
  });

  test("the folder made a bare repository of its own (HEAD, objects, refs, config at its top) once its .git fails git's test: the HEAD is removed, so git never reads that config", async () => {
    const bare = `printf 'ref: refs/heads/master\\n' > $T/HEAD && mkdir -p $T/objects $T/refs && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = .\\n\\tfsmonitor = "touch %s; false"\\n' "$MARKER" > $T/config`;
    for (const where of ["project", "sub"] as const) {
      const root = fresh();
      const cwd = repo(join(root, "project"));
      writeFileSync(join(cwd, ".gitignore"), "sub/\n");
      git(cwd, "worktree", "add", "-q", "sub");
      const marker = join(root, "PWNED");
      const names = "g=.gi; G=${g}t; s=su; U=${s}b";
      // the project's .git/HEAD broken; or the inside worktree made anew without its .git
      const broken = where === "project" ? "T=. && printf 'not a ref\\n' > $G/HEAD" : "T=$U && cp -a $U $U.n && rm -rf $U && mv $U.n $U && rm $U/$G";
      const r = await jailed(cwd, `${names} && ${broken} && ${bare} && echo planted`, how, marker);
      expect({ where, text: r.text }).toEqual({ where, text: expect.stringContaining("planted") });
      expect({ where, ran: plantedRuns(where === "project" ? cwd : join(cwd, "sub"), marker) }).toEqual({ where, ran: false });
    }
  });

  test("a worktree's .git made anew with a relative gitdir that climbs through a link is not kept", async () => {
    const root = fresh();
    const cwd = repo(join(root, "project"));
    writeFileSync(join(cwd, ".gitignore"), "sub/\n");
    git(cwd, "worktree", "add", "-q", "sub");
    const marker = join(root, "PWNED");
    const command = [
      "g=.gi; G=${g}t; P=$(pwd); s=su; U=${s}b; D=$(printf '%s%s' . .)",
      `mkdir -p e/a/b e/$G/worktrees && ln -s $P/$G/objects e/$G/objects && ln -s $P/$G/refs e/$G/refs && cp $G/HEAD e/$G/HEAD && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "touch %s; false"\\n' "$MARKER" > e/$G/config`,
      "cp -a $G/worktrees/$U e/$G/worktrees/$U",
      "cp -a $U $U.n && rm -rf $U && mv $U.n $U && ln -s $P/e/a/b $U/x && printf 'gitdir: x/%s/%s/%s/worktrees/%s\\n' $D $D $G $U > $U/$G && echo planted",
    ].join(" && ");
    expect((await jailed(cwd, command, how, marker)).text).toContain("planted");
    expect(plantedRuns(join(cwd, "sub"), marker)).toBe(false);
  });

  test("a submodule checked out in a worktree inside the folder is protected as the main tree's: its git link made a repository is undone", async () => {
    const root = fresh();
    repo(join(root, "libsrc"));
    const cwd = repo(join(root, "project"));
    git(cwd, "submodule", "add", "-q", "../libsrc", "lib");
    git(cwd, "commit", "-qm", "lib");
    writeFileSync(join(cwd, ".gitignore"), "sub/\n");
    git(cwd, "worktree", "add", "-q", "sub");
    git(join(cwd, "sub"), "submodule", "update", "-q", "--init");
    const marker = join(root, "PWNED");
    const command = `g=.gi; G=\${g}t; rm -f sub/lib/$G; g${'i'}t -C sub/lib init -q; printf '[core]\\n\\tfsmonitor = "touch %s; false"\\n' "$MARKER" >> sub/lib/$G/config; echo planted`;
    expect((await jailed(cwd, command, how, marker)).text).toContain("planted");
    expect(plantedRuns(join(cwd, "sub"), marker)).toBe(false);
  });

  test("jailed in a folder below the repository's root: a bare repository made there, and hooks its hooks path names there (a package's .husky), never run", async () => {
    const root = fresh();
    const top = repo(join(root, "project"));
    const cwd = join(top, "pkg");
    mkdirSync(cwd);
    writeFileSync(join(cwd, "p.txt"), "p\n");
    git(top, "add", ".");
    git(top, "commit", "-qm", "pkg");
    git(top, "config", "core.hooksPath", "pkg/.husky/_");
    const marker = join(root, "PWNED");
    const bare = `printf 'ref: refs/heads/master\\n' > HEAD && mkdir -p objects refs && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = .\\n\\tfsmonitor = "touch %s; false"\\n' "$MARKER" > config`;
    const hook = `h=.hus; mkdir -p \${h}ky/_ && printf '#!/bin/sh\\ntouch %s\\n' "$MARKER" > \${h}ky/_/pre-commit && chmod +x \${h}ky/_/pre-commit`;
    expect((await jailed(cwd, `${bare} && ${hook} && echo planted`, how, marker)).text).toContain("planted");
    expect(plantedRuns(cwd, marker)).toBe(false);
    expect(committedRuns(cwd, marker)).toBe(false);
  });

  test("a relative core.hooksPath in a worktree inside the folder: its hooks there are protected as the main tree's", async () => {
    const root = fresh();
    const cwd = repo(join(root, "project"));
    writeFileSync(join(cwd, ".gitignore"), "sub/\n");
    git(cwd, "worktree", "add", "-q", "sub");
    git(cwd, "config", "core.hooksPath", ".githooks");
    const marker = join(root, "PWNED");
    const r = await jailed(cwd, `d=sub/.gith; mkdir -p \${d}ooks && printf '#!/bin/sh\\ntouch %s\\n' "$MARKER" > \${d}ooks/pre-commit && chmod +x \${d}ooks/pre-commit; echo tried`, how, marker);
    expect(r.text).toContain("tried");
    expect(committedRuns(join(cwd, "sub"), marker)).toBe(false);
  });

  test("a new hook in the repository's existing hooks folder is removed (under bubblewrap it cannot be made at all)", async () => {
    const root = fresh();
    const cwd = repo(join(root, "project"));
    const marker = join(root, "PWNED");
    const r = await jailed(cwd, `g=.gi; printf '#!/bin/sh\\ntouch %s\\n' "$MARKER" > \${g}t/hooks/pre-commit; chmod +x \${g}t/hooks/pre-commit; echo tried`, how, marker);
    expect(r.text).toContain("tried");
    expect(existsSync(join(cwd, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(committedRuns(cwd, marker)).toBe(false);
  });

  // As root, a folder made unreadable is read all the same: only an ordinary user sees what the restore must get past.
  test.skipIf(process.getuid?.() === 0)("a top made unreadable (chmod 311) still has its new HEAD removed: git opens HEAD and config by name", async () => {
    const root = fresh();
    const cwd = repo(join(root, "project"));
    const marker = join(root, "PWNED");
    const bare = `printf 'ref: refs/heads/master\\n' > HEAD && mkdir -p objects refs && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = .\\n\\tfsmonitor = "touch %s; false"\\n' "$MARKER" > config`;
    const r = await jailed(cwd, `g=.gi; printf 'not a ref\\n' > \${g}t/HEAD && ${bare} && chmod 311 . && echo planted`, how, marker);
    expect(r.text).toContain("planted");
    expect(existsSync(join(cwd, "HEAD"))).toBe(false);
    expect(plantedRuns(cwd, marker)).toBe(false);
  });

  test.skipIf(process.getuid?.() === 0)("the jail's top made unsearchable (chmod 000 .) hides nothing from the restore: a planted commondir and .mcp.json go", async () => {
    const root = fresh();
    const cwd = repo(join(root, "project"));
    const command = "g=.gi; m=.mc; cp -r ${g}t evil && printf '%s%s/evil\\n' . . > ${g}t/commondir && echo '{}' > ${m}p.json && chmod 000 . && echo planted";
    const r = await jailed(cwd, command, how);
    expect(r.text).toContain("planted");
    expect(existsSync(join(cwd, ".git", "commondir"))).toBe(false);
    expect(existsSync(join(cwd, ".mcp.json"))).toBe(false);
  });

  // Only root can mark a file immutable, and only without bubblewrap (which drops that capability).
  test.skipIf(process.getuid?.() !== 0 || !Bun.which("chattr"))("a planted file marked immutable (chattr +i, as root) is removed all the same", async () => {
    const root = fresh();
    const cwd = repo(join(root, "project"));
    const r = await jailed(cwd, "m=.mc; echo '{}' > ${m}p.json && chattr +i ${m}p.json; echo planted", how);
    expect(r.text).toContain("planted");
    expect(r.text).not.toContain("COULD NOT UNDO");
    expect(existsSync(join(cwd, ".mcp.json"))).toBe(false);
  });

  test("a linked worktree's git directory swapped for a repository of its own (no commondir) goes whole, and its planted configuration never runs", async () => {
    const root = fresh();
    const cwd = repo(join(root, "project"));
    git(cwd, "worktree", "add", "-q", "wt");
    const marker = join(root, "PWNED");
    const r = await jailed(
      cwd,
      [
        // (moved away first, so the new folder cannot take the old one's inode)
        "g=.gi; w=w; cd ${g}t/worktrees && mv ${w}t ../old && mkdir ${w}t && rm -rf ../old && cd ${w}t",
        "cp -a ../../objects ../../refs . && echo 'ref: refs/heads/wt' > HEAD",
        'printf "[core]\n\trepositoryformatversion = 0\n\tfsmonitor = touch %s; false\n" "$MARKER" > config; echo planted',
      ].join("; "),
      how,
      marker,
    );
    expect(r.text).toContain("planted");
    expect(r.text).toContain("[jailed");
    expect(existsSync(join(cwd, ".git", "worktrees", "wt"))).toBe(false);
    expect(plantedRuns(join(cwd, "wt"), marker)).toBe(false);
  });

  test("a linked worktree's submodule keeps its git configuration (.git/worktrees/<name>/modules/<sub>/config)", async () => {
    const root = fresh();
    repo(join(root, "sub"));
    const cwd = repo(join(root, "main"));
    git(cwd, "submodule", "add", "-q", "../sub", "sub");
    git(cwd, "commit", "-qm", "sub");
    git(cwd, "worktree", "add", "-q", "wt");
    git(join(cwd, "wt"), "submodule", "update", "-q", "--init");
    const config = join(cwd, ".git", "worktrees", "wt", "modules", "sub", "config");
    const before = readFileSync(config, "utf8");
    const marker = join(root, "PWNED");
    const hooks = "g=.gi; h=${g}t/worktrees/wt/modules/sub/hooks";
    const r = await jailed(cwd, `g=gi; $g't' -C wt/sub config core.fsmonitor "touch $MARKER; false"; ${hooks}; printf '#!/bin/sh\ntouch %s\n' "$MARKER" > $h/pre-commit; chmod +x $h/pre-commit; echo tried`, how, marker);
    expect(r.text).toContain("tried");
    expect(readFileSync(config, "utf8")).toBe(before);
    expect(existsSync(join(cwd, ".git", "worktrees", "wt", "modules", "sub", "hooks", "pre-commit"))).toBe(false);
    expect(plantedRuns(join(cwd, "wt"), marker)).toBe(false);
  });

  test("a submodule's folder is not moved out from under its configuration (git mv sub), and the repository is left whole", async () => {
    const root = fresh();
    repo(join(root, "sub"));
    const cwd = repo(join(root, "main"));
    git(cwd, "submodule", "add", "-q", "../sub", "sub");
    git(cwd, "commit", "-qm", "sub");
    // Refused by the static check's reading of the text; under bubblewrap the move fails at once.
    const r = await jailed(cwd, "g=gi; $g't' mv sub sub2; echo rc=$?", how);
    expect(r.text).toMatch(how === "static" ? /a submodule's folder \(sub\)/ : /rc=[1-9]/);
    // Whatever git managed, the submodule is where its configuration says, and nothing is left half moved.
    expect(existsSync(join(cwd, "sub", "a.txt"))).toBe(true);
    expect(git(join(cwd, "sub"), "rev-parse", "--show-toplevel").trim()).toBe(join(cwd, "sub"));
    expect(git(join(cwd, "sub"), "status", "--short")).toBe("");
  });

  test("ordinary git work goes on: add, commit, a branch, checkout, stash", async () => {
    const cwd = repo(join(fresh(), "project"));
    const r = await jailed(
      cwd,
      "export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b; echo b > b.txt && git add b.txt && git commit -qm two && git checkout -qb topic && echo c > a.txt && git stash -q && git stash pop -q && git commit -qam three && git checkout -q - && echo ok",
      how,
    );
    expect(r.text).toContain("ok");
    expect(r.is_error).toBe(false);
    expect(git(cwd, "log", "--format=%s", "topic")).toBe("three\ntwo\ninit\n");
  });
});

describe("jailed under the static check, an aborted command that ignores SIGTERM", () => {
  test("gives its output back at once, and what it plants after that (a .mcp.json), before its SIGKILL, is undone once it is gone", async () => {
    const cwd = repo(join(fresh(), "project"));
    const planted = join(cwd, ".mcp.json");
    const saved = process.env.ZOT_JAIL_CONFINEMENT;
    process.env.ZOT_JAIL_CONFINEMENT = "static";
    try {
      const controller = new AbortController();
      const ctx: ToolContext = { cwd, jailed: true, protectedPaths: protectedPaths({ cwd, home: join(base, "home"), userHome: join(base, "user") }), signal: controller.signal, onProgress() {} };
      const command = "trap '' TERM; echo started; m=.mc; sleep 0.8; echo '{}' > ${m}p.json; sleep 30";
      const running = bashTool.execute({ command }, ctx);
      await Bun.sleep(300);
      controller.abort();
      const result = await running;
      expect((result.content[0] as TextBlock).text).toContain("started");
      // The command is still alive here (it ignored SIGTERM); it plants the file, then gets SIGKILL.
      for (let i = 0; i < 40 && !existsSync(planted); i++) await Bun.sleep(50);
      expect(existsSync(planted)).toBe(true);
      for (let i = 0; i < 200 && existsSync(planted); i++) await Bun.sleep(25);
      expect(existsSync(planted)).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.ZOT_JAIL_CONFINEMENT;
      else process.env.ZOT_JAIL_CONFINEMENT = saved;
    }
  });
});

describe.skipIf(confinement !== "bwrap")("under bubblewrap, a git command that writes the repository's configuration", () => {
  test("fails (or saves nothing) with a note that says why and that the user runs it outside the jail", async () => {
    const cwd = repo(join(fresh(), "project"));
    git(cwd, "branch", "other");
    const config = readFileSync(join(cwd, ".git", "config"), "utf8");
    for (const command of ["git remote add origin ../elsewhere", "git branch -u other"]) {
      const r = await jailed(cwd, command, "bwrap");
      expect({ command, text: r.text }).toMatchObject({ command, text: expect.stringContaining("Device or resource busy") });
      expect(r.text).toContain("the git repository's configuration and hooks (.git/config, .git/hooks");
      expect(r.text).toContain("ask the user to run that one outside the jail (in zot's TUI, as !git …)");
    }
    expect(readFileSync(join(cwd, ".git", "config"), "utf8")).toBe(config);
  });
});

describe("the file tools, jailed", () => {
  test("refuse what decides git's configuration: a submodule's config, .git/commondir, a linked worktree's .git file", async () => {
    const root = fresh();
    repo(join(root, "sub"));
    const cwd = repo(join(root, "main"));
    git(cwd, "submodule", "add", "-q", "../sub", "sub");
    const ctx: ToolContext = { cwd, jailed: true, protectedPaths: protectedPaths({ cwd, home: join(root, "home"), userHome: join(root, "user") }), signal: new AbortController().signal, onProgress() {} };
    for (const path of [".git/modules/sub/config", ".git/commondir", ".git/modules/sub/hooks/pre-commit", ".git/modules/new/config", "sub/.git"]) {
      const r = await writeTool.execute({ path, content: "[core]\n\tfsmonitor = touch PWNED\n" }, ctx);
      expect({ path, refused: r.is_error }).toEqual({ path, refused: true });
    }
    expect(existsSync(join(cwd, ".git", "commondir"))).toBe(false);
  });

  test("refuse a file with other names (a hard link a command made to .git/config, to a linked worktree's commondir): writing it would change them", async () => {
    const root = fresh();
    const cwd = repo(join(root, "project"));
    git(cwd, "worktree", "add", "-q", "../wt");
    linkSync(join(cwd, ".git", "config"), join(cwd, "cfg.txt"));
    linkSync(join(cwd, ".git", "worktrees", "wt", "commondir"), join(cwd, ".git", "cd"));
    const config = readFileSync(join(cwd, ".git", "config"), "utf8");
    const ctx: ToolContext = { cwd, jailed: true, protectedPaths: protectedPaths({ cwd, home: join(root, "home"), userHome: join(root, "user") }), signal: new AbortController().signal, onProgress() {} };
    for (const path of ["cfg.txt", ".git/cd"]) {
      const r = await writeTool.execute({ path, content: "[core]\n\tfsmonitor = touch PWNED\n" }, ctx);
      expect({ path, refused: r.is_error, text: (r.content[0] as TextBlock).text }).toEqual({ path, refused: true, text: expect.stringContaining("is a file with 2 names (hard links)") });
    }
    expect(readFileSync(join(cwd, ".git", "config"), "utf8")).toBe(config);
    expect(readFileSync(join(cwd, ".git", "worktrees", "wt", "commondir"), "utf8")).toBe("../..\n");
    // Not jailed, a hard-linked file of the project is the user's to write.
    expect((await writeTool.execute({ path: "cfg.txt", content: config }, { ...ctx, jailed: false })).is_error).toBe(false);
  });
});

describe("the file tools, jailed, and core.hooksPath", () => {
  test("refuse the hooks git runs from core.hooksPath (.githooks), and husky's scripts beside .husky/_", async () => {
    for (const [hooksPath, targets] of [
      [".githooks", [".githooks/pre-commit", ".githooks/post-checkout"]],
      [".husky/_", [".husky/_/pre-commit", ".husky/pre-commit"]],
    ] as const) {
      const cwd = repo(join(fresh(), "r"));
      git(cwd, "config", "core.hooksPath", hooksPath);
      mkdirSync(join(cwd, hooksPath), { recursive: true });
      const ctx: ToolContext = { cwd, jailed: true, protectedPaths: protectedPaths({ cwd, home: join(base, "home"), userHome: join(base, "user") }), signal: new AbortController().signal, onProgress() {} };
      for (const path of targets) {
        const r = await writeTool.execute({ path, content: "#!/bin/sh\ntouch PWNED\n" }, ctx);
        expect({ path, refused: r.is_error }).toEqual({ path, refused: true });
      }
      // Elsewhere in the tree stays the model's to write.
      expect((await writeTool.execute({ path: "src/a.txt", content: "a\n" }, ctx)).is_error).toBe(false);
    }
  });
});

describe("a protected folder that became a file", () => {
  test("`touch .zot` keeps the command's output, and a .zot folder replaced by a file comes back", async () => {
    for (const how of CONFINEMENTS) {
      const cwd = join(fresh(), "project");
      mkdirSync(cwd, { recursive: true });
      const r = await jailed(cwd, "z=.zo; touch ${z}t && echo touched", how);
      expect({ how, text: r.text }).toMatchObject({ how, text: expect.stringContaining("touched") });
      expect(r.text).not.toContain("ENOTDIR");
      expect(r.is_error).toBe(false);
    }
    // the static check cannot stop it (bubblewrap does: the hooks file is a mount point there)
    const cwd = join(fresh(), "project");
    mkdirSync(join(cwd, ".zot"), { recursive: true });
    writeFileSync(join(cwd, ".zot", "hooks.json"), '{"hooks": {}}\n');
    const r = await jailed(cwd, "z=.zo; rm -rf ${z}t && touch ${z}t && echo replaced", "static");
    expect(r.text).toContain("replaced");
    expect(r.text).toContain("put back .zot/hooks.json");
    expect(readFileSync(join(cwd, ".zot", "hooks.json"), "utf8")).toBe('{"hooks": {}}\n');
  });
});

describe.each(CONFINEMENTS)("jailed under %s, a submodule not checked out yet", (how) => {
  test("git submodule update is undone whole: its git directory and its .git link go, so git status outside still works", async () => {
    const root = fresh();
    repo(join(root, "sub"));
    const made = repo(join(root, "made"));
    git(made, "submodule", "add", "-q", "../sub", "sub");
    git(made, "commit", "-qm", "sub");
    const cwd = join(root, "clone");
    git(root, "clone", "-q", made, cwd);
    const r = await jailed(cwd, "git -c protocol.file.allow=always submodule update --init -q; echo tried", how);
    expect(r.text).toContain("tried");
    // (under bubblewrap the clone fails anyway: ../sub is outside the jail)
    if (how === "static") expect(r.text).toMatch(/removed (\.git\/modules\/sub, sub\/\.git|sub\/\.git, \.git\/modules\/sub)/);
    expect(existsSync(join(cwd, ".git", "modules", "sub"))).toBe(false);
    expect(existsSync(join(cwd, "sub", ".git"))).toBe(false);
    expect(Bun.spawnSync(["git", "status", "--porcelain"], { cwd, env: GIT_ENV }).exitCode).toBe(0);
  });
});
