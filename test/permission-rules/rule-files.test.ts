// The permission rules of the settings files: which files, what an untrusted folder's files count
// for, what a broken file or rule says, and a file edited mid-run.
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { PermissionRuleFiles } from "../../src/permission-rules/rule-files.ts";
import { settingsSources } from "../../src/settings-hooks/settings-locations.ts";
import { tempDir } from "../support/zot.ts";

function setup(files: Record<string, unknown>, projectTrusted = true) {
  const cwd = tempDir("zot-perm-cwd-");
  const home = tempDir("zot-perm-home-");
  const userHome = tempDir("zot-perm-user-");
  const where: Record<string, string> = {
    project: join(cwd, ".claude", "settings.json"),
    local: join(cwd, ".claude", "settings.local.json"),
    user: join(userHome, ".claude", "settings.json"),
    zot: join(home, "settings.json"),
  };
  const put = (which: string, content: unknown) => {
    mkdirSync(dirname(where[which]!), { recursive: true });
    writeFileSync(where[which]!, typeof content === "string" ? content : JSON.stringify(content));
  };
  for (const [which, content] of Object.entries(files)) put(which, content);
  const warnings: string[] = [];
  const sources = settingsSources({ cwd, home, userHome, projectTrusted: true });
  const reader = new PermissionRuleFiles({ sources, cwd, userHome, projectTrusted, warn: (m) => warnings.push(m) });
  const summary = () => reader.current().rules.map((r) => `${r.verdict} ${r.text} (${r.source})`);
  return { put, summary, warnings, userHome };
}

describe("the files", () => {
  test("every file's rules count: ~/.claude, $ZOT_HOME, the folder's settings.json and settings.local.json", () => {
    const s = setup({
      user: { permissions: { deny: ["Read(~/.ssh/**)"] } },
      zot: { permissions: { ask: ["Bash(git push *)"] } },
      project: { permissions: { allow: ["Bash(npm test)"], deny: ["Read(./.env)"] }, hooks: {} },
      local: { permissions: { allow: ["Bash(make)"] } },
    });
    expect(s.summary()).toEqual([
      "deny Read(~/.ssh/**) (~/.claude/settings.json)",
      "ask Bash(git push *) ($ZOT_HOME/settings.json)",
      "deny Read(./.env) (.claude/settings.json)",
      "allow Bash(npm test) (.claude/settings.json)",
      "allow Bash(make) (.claude/settings.local.json)",
    ]);
    expect(s.warnings).toEqual([]);
  });

  test("an untrusted folder's deny and ask rules hold; its allow rules do not, the user's do", () => {
    const s = setup(
      {
        user: { permissions: { allow: ["Bash(ls)"] } },
        project: { permissions: { allow: ["Bash"], ask: ["Edit"], deny: ["Read(./.env)"] } },
      },
      false,
    );
    expect(s.summary()).toEqual(["allow Bash(ls) (~/.claude/settings.json)", "deny Read(./.env) (.claude/settings.json)", "ask Edit (.claude/settings.json)"]);
  });
});

describe("what cannot be read", () => {
  test("a rule zot cannot read is a warning naming the file, the list and the rule; the rest hold; a deny or ask rule's place is taken by asking about every call", () => {
    const s = setup({ project: { permissions: { deny: ["Bash(rm -rf", "Read(./.env)"], allow: ["Read(", "Bash(ls)"] } } });
    expect(s.summary()).toEqual(["ask * (.claude/settings.json)", "deny Read(./.env) (.claude/settings.json)", "allow Bash(ls) (.claude/settings.json)"]);
    expect(s.warnings).toEqual([
      '.claude/settings.json: permissions.deny[0] "Bash(rm -rf" has an opening ( without its closing ); until it is fixed and zot starts again, every tool call is asked about',
      '.claude/settings.json: permissions.allow[0] "Read(" has an opening ( without its closing ); it is skipped',
    ]);
  });

  test("a file that is not JSON says so once, and holds no rules until it is fixed", () => {
    const s = setup({ project: "{ not json" });
    expect(s.summary()).toEqual([]);
    s.summary();
    expect(s.warnings).toHaveLength(1);
    expect(s.warnings[0]).toStartWith(".claude/settings.json: is not valid JSON (");
    expect(s.warnings[0]).toEndWith("; none of its permission rules hold until it is fixed");
  });

  test("a file that holds deny or ask rules and cannot be read (a trailing comma), or whose deny list is not a list, asks about every tool call until it is fixed", () => {
    const broken = setup({ user: '{"permissions": {"deny": ["Bash"],}}' });
    expect(broken.summary()).toEqual(["ask * (~/.claude/settings.json)"]);
    expect(broken.warnings[0]).toEndWith("; its deny and ask rules cannot be read, so every tool call is asked about until it is fixed and zot starts again");
    const notAList = setup({ project: { permissions: { deny: "Bash", allow: ["Bash(ls)"] } } });
    expect(notAList.summary()).toEqual(["ask * (.claude/settings.json)", "allow Bash(ls) (.claude/settings.json)"]);
    expect(notAList.warnings).toEqual(['.claude/settings.json: permissions.deny must be a list of rules, ["Bash(rm *)", …]; until it is and zot starts again, every tool call is asked about']);
    // Fixed (or emptied by the model) mid-run, its rules hold, and what stood for them holds until the next start, as any deny or ask read does.
    broken.put("user", { permissions: { deny: ["Bash"] } });
    expect(broken.summary()).toEqual(["deny Bash (~/.claude/settings.json)", "ask * (~/.claude/settings.json)"]);
    broken.put("user", {});
    expect(broken.summary()).toEqual(["ask * (~/.claude/settings.json)"]);
  });

  test("a misspelt deny or ask key (Deny, denny), or a misspelt permissions holding one, is named and asks about every call; another unknown key is named and ignored", () => {
    for (const permissions of [{ Deny: ["Bash"] }, { denny: ["Bash"] }, { asks: ["Bash"] }]) {
      const s = setup({ project: { permissions } });
      const key = Object.keys(permissions)[0];
      expect(s.summary()).toEqual(["ask * (.claude/settings.json)"]);
      expect(s.warnings).toEqual([
        `.claude/settings.json: permissions.${key} is no key zot reads (did you mean "${key.toLowerCase().startsWith("a") ? "ask" : "deny"}"?); the rules under it may be deny or ask rules and do not hold as written, so every tool call is asked about until it is fixed and zot starts again`,
      ]);
    }
    // A list of rules under a name that reads as none of them, or any rules under a name that says deny, may be deny rules too.
    for (const [key, value] of [["denied", ["Bash"]], ["blocklist", ["Bash"]], ["denied", "Bash(echo:*)"], ["disallowedTools", "Bash"], ["deny_rules", { "Bash(rm *)": true }]] as const) {
      const s = setup({ project: { permissions: { [key]: value } } });
      expect(s.summary()).toEqual(["ask * (.claude/settings.json)"]);
      expect(s.warnings[0]).toContain(`permissions.${key} is no key zot reads`);
      expect(s.warnings[0]).toContain("every tool call is asked about");
    }
    const top = setup({ user: { permisions: { deny: ["Bash"] } } });
    expect(top.summary()).toEqual(["ask * (~/.claude/settings.json)"]);
    expect(top.warnings[0]).toStartWith('~/.claude/settings.json: permisions is no key zot reads (did you mean "permissions"?); the rules under it may be deny or ask rules and do not hold');
    // A rule list outside permissions altogether: deny and ask hold back, allow is only off.
    const outside = setup({ user: { deny: ["Bash(rm *)"], allow: ["Bash(ls)"], Ask: "Bash(git push)" } });
    expect(outside.summary()).toEqual(["ask * (~/.claude/settings.json)", "ask * (~/.claude/settings.json)"]);
    expect(outside.warnings).toEqual([
      '~/.claude/settings.json: deny is no key zot reads (did you mean "permissions.deny"?); the rules under it may be deny or ask rules and do not hold as written, so every tool call is asked about until it is fixed and zot starts again',
      '~/.claude/settings.json: allow is no key zot reads (did you mean "permissions.allow"?); it is ignored',
      '~/.claude/settings.json: Ask is no key zot reads (did you mean "permissions.ask"?); the rules under it may be deny or ask rules and do not hold as written, so every tool call is asked about until it is fixed and zot starts again',
    ]);
    // A top-level key of that name holding no rules is not one.
    expect(setup({ user: { deny: "nothing", allow: true } }).warnings).toEqual([]);
    const other = setup({ project: { permissions: { alow: ["Bash(ls)"], deny: ["Read(./.env)"], colour: "blue" }, model: "x" } });
    expect(other.summary()).toEqual(["deny Read(./.env) (.claude/settings.json)"]);
    expect(other.warnings).toEqual([
      '.claude/settings.json: permissions.alow is no key zot reads (did you mean "allow"?); it is ignored',
      ".claude/settings.json: permissions.colour is no key zot reads (it reads permissions.allow, ask and deny); it is ignored",
    ]);
    // A name that reads as allow, or as another of Claude Code's keys, holds nothing back: its rules are only off.
    const allowish = setup({ project: { permissions: { allowlist: ["Bash(ls)"], allowedTools: ["Read"], additionalDirectory: ["../x"] } } });
    expect(allowish.summary()).toEqual([]);
    expect(allowish.warnings.every((warning) => warning.endsWith("; it is ignored"))).toBe(true);
    expect(allowish.warnings).toHaveLength(3);
    // Claude Code's own settings, true or false, are no rules: a correct file never stops zot (the third review's finding).
    const booleans = setup({ user: { permissions: { blockWritesOutsideWorkingDirectories: true, blockReadsOutsideWorkingDirectories: false, denyInsteadOfPrompting: true, disableAutoMode: "disable", deny: ["Read(./.env)"] } } });
    expect(booleans.summary()).toEqual(["deny Read(./.env) (~/.claude/settings.json)"]);
    expect(booleans.warnings).toEqual([]);
    const unknownFlag = setup({ project: { permissions: { blockEverythingPlease: true, colourDepth: 8 } } });
    expect(unknownFlag.summary()).toEqual([]);
    expect(unknownFlag.warnings.every((warning) => warning.endsWith("; it is ignored"))).toBe(true);
    // A negated allow is a deny, and rules written as rules are held back under any name or shape.
    for (const permissions of [{ neverAllow: ["Bash(echo:*)"] }, { notAllowed: ["Bash"] }, { rules: { deny: ["Bash(rm *)"] } }, { "Bash(echo:*)": "deny" }]) {
      expect(setup({ project: { permissions } }).summary()).toEqual(["ask * (.claude/settings.json)"]);
    }
    expect(setup({ project: { permisions: { rules: ["Bash(echo:*)"] } } }).summary()).toEqual(["ask * (.claude/settings.json)"]);
    // What decides is what a key holds (the fourth review's findings): a note is no rule, whatever its
    // name; a rule written as the key is one, whatever its value; a deny inside an allow-like name holds.
    for (const permissions of [{ notes: "reviewed by secteam" }, { askTimeout: 30 }, { task: { x: 1 } }, { _comment: ["keep this file short"] }, { normalMode: "on" }]) {
      const s = setup({ project: { permissions } });
      expect(s.summary()).toEqual([]);
      expect(s.warnings.every((warning) => warning.endsWith("; it is ignored"))).toBe(true);
    }
    for (const permissions of [{ "Bash(echo:*)": false }, { allowlist: { deny: ["Bash(rm *)"] } }, { policy: { never: ["bash(rm *)"] } }]) {
      expect(setup({ project: { permissions } }).summary()).toEqual(["ask * (.claude/settings.json)"]);
    }
    // Claude Code's own keys are read or left to it, and said nothing of.
    const known = setup({ project: { permissions: { allow: [], defaultMode: "acceptEdits", additionalDirectories: ["../x"], disableBypassPermissionsMode: "disable" } } });
    expect(known.warnings).toEqual([]);
  });

  test("a settings file that is there and cannot be read (a link that loops) asks about every tool call, and says so", () => {
    const s = setup({});
    const loop = join(s.userHome, ".claude", "settings.json");
    mkdirSync(dirname(loop), { recursive: true });
    symlinkSync(loop, loop);
    expect(s.summary()).toEqual(["ask * (~/.claude/settings.json)"]);
    expect(s.warnings).toEqual(["~/.claude/settings.json: cannot be read (it is a link that loops); its deny and ask rules cannot be read, so every tool call is asked about until it can be read and zot starts again"]);
  });

  test("a bad list or a bad rule loses only itself: the file's deny rules still hold, and what the bad deny rules stood for is asked about", () => {
    const s = setup({ project: { permissions: { allow: "Bash(ls)", ask: null, deny: [3, "Read([z-a].txt)", "Bash(rm *)"] } } });
    // ask: null is no list at all.
    expect(s.summary()).toEqual(["ask * (.claude/settings.json)", "deny Bash(rm *) (.claude/settings.json)"]);
    expect(s.warnings).toEqual([
      '.claude/settings.json: permissions.deny[0] 3 must be a rule as text, "Tool" or "Tool(…)"; until it is fixed and zot starts again, every tool call is asked about',
      expect.stringMatching(/^\.claude\/settings\.json: permissions\.deny\[1\] "Read\(\[z-a\]\.txt\)" is not a path pattern zot can read \(.+\); until it is fixed and zot starts again, every tool call is asked about$/),
      '.claude/settings.json: permissions.allow must be a list of rules, ["Bash(npm test)", …]; its rules do not hold until it is fixed',
    ]);
  });;
});

test("a file edited mid-run holds from the next read", () => {
  const s = setup({ project: { permissions: { deny: ["Bash(rm *)"] } } });
  expect(s.summary()).toEqual(["deny Bash(rm *) (.claude/settings.json)"]);
  s.put("project", { permissions: { deny: ["Bash(rm *)", "Bash(curl *)"] } });
  expect(s.summary()).toEqual(["deny Bash(rm *) (.claude/settings.json)", "deny Bash(curl *) (.claude/settings.json)"]);
});

test("during a run the rules only tighten: a deny taken out still holds, an allow added does not, an allow taken out stops", () => {
  const s = setup({ project: { permissions: { deny: ["Bash(rm *)"], allow: ["Bash(ls)"] } } });
  expect(s.summary()).toEqual(["deny Bash(rm *) (.claude/settings.json)", "allow Bash(ls) (.claude/settings.json)"]);
  // What a bash command could do to the file: empty it.
  s.put("project", "{}");
  expect(s.summary()).toEqual(["deny Bash(rm *) (.claude/settings.json)"]);
  s.put("project", { permissions: { allow: ["Bash(ls)", "Bash"], ask: ["Edit"] } });
  expect(s.summary()).toEqual(["ask Edit (.claude/settings.json)", "allow Bash(ls) (.claude/settings.json)", "deny Bash(rm *) (.claude/settings.json)"]);
});
