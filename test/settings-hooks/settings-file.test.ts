// Reading a settings file's hooks: matchers as Claude Code reads them, the command hooks in file
// order with their timeouts, and a warning naming the file and the field for each bad part.
import { describe, expect, test } from "bun:test";
import { compileMatcher, type Matcher } from "../../src/settings-hooks/matcher.ts";
import { parseSettingsHooks, type SettingsSource } from "../../src/settings-hooks/settings-file.ts";

const SOURCE: SettingsSource = { file: "/p/.claude/settings.json", label: ".claude/settings.json", scope: "project" };
const parse = (value: unknown) => parseSettingsHooks(JSON.stringify(value), SOURCE);

describe("matchers", () => {
  const m = (text: string | undefined) => compileMatcher(text) as Matcher;
  test("empty, missing and * match everything; letters, digits, _ and | are exact names; anything else is an unanchored regex", () => {
    for (const all of [undefined, "", "*"]) expect(m(all).matches(["Anything"])).toBe(true);
    expect(m("Edit|Write").matches(["Write", "write"])).toBe(true);
    expect(m("Edit").matches(["MultiEdit", "edit"])).toBe(false);
    expect(m("bash").matches(["Bash", "bash"])).toBe(true);
    expect(m("mcp__github__.*").matches(["mcp__github__create_issue"])).toBe(true);
    expect(m("^Notebook").matches(["NotebookEdit"])).toBe(true);
    expect(m("^Notebook").matches(["MyNotebook"])).toBe(false);
    expect(compileMatcher("[")).toEqual({ error: expect.stringContaining("is not a valid regular expression") });
  });

  test("a matcher naming an MCP server alone (mcp__brave-search) is said: it names no tool, as in Claude Code", () => {
    const parsed = parse({ hooks: { PreToolUse: [{ matcher: "mcp__brave-search|Bash", hooks: [{ type: "command", command: "guard.sh" }] }] } });
    expect(parsed.hooks).toHaveLength(1);
    expect(parsed.warnings).toEqual([
      '.claude/settings.json: hooks.PreToolUse[0].matcher "mcp__brave-search" names no tool (an MCP tool is mcp__<server>__<tool>), so this group\'s hooks never run for it; for every tool of that server write "mcp__brave-search__.*"',
    ]);
    expect(parse({ hooks: { PreToolUse: [{ matcher: "mcp__github__create_issue", hooks: [{ type: "command", command: "g" }] }] } }).warnings).toEqual([]);
  });

  test("commas, spaces and hyphens are exact names too, as Claude Code 2.1.191 and 2.1.195 on read them", () => {
    for (const list of ["Edit, Write", "Write | Edit", " Edit ,Write "]) {
      expect(m(list).matches(["Write"])).toBe(true);
      expect(m(list).matches(["Edit"])).toBe(true);
      expect(m(list).matches(["MultiEdit"])).toBe(false);
    }
    // a hyphenated server's tool, exactly: not every tool of that server, nor one whose name contains it
    expect(m("mcp__brave-search__search").matches(["mcp__brave-search__search"])).toBe(true);
    expect(m("mcp__brave-search").matches(["mcp__brave-search__search"])).toBe(false);
    expect(m("mcp__brave-search__.*").matches(["mcp__brave-search__search"])).toBe(true);
  });
});

describe("parseSettingsHooks", () => {
  test("command hooks in file order, with their event, matcher, timeout (600 s by default, 30 s at UserPromptSubmit, as Claude Code's) and place", () => {
    const parsed = parse({
      permissions: { allow: ["Bash(ls)"] },
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "a", timeout: 5 }, { type: "command", command: "b" }] }],
        Stop: [{ hooks: [{ type: "command", command: "c" }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command: "d" }, { type: "command", command: "e", timeout: 90 }] }],
      },
    });
    expect(parsed.warnings).toEqual([]);
    expect(parsed.hooks.map((h) => [h.event, h.matcher.text, h.handler.type === "command" && h.handler.command, h.timeoutMs, h.at])).toEqual([
      ["PreToolUse", "Bash", "a", 5000, "hooks.PreToolUse[0].hooks[0]"],
      ["PreToolUse", "Bash", "b", 600_000, "hooks.PreToolUse[0].hooks[1]"],
      ["Stop", "", "c", 600_000, "hooks.Stop[0].hooks[0]"],
      // UserPromptSubmit holds up every prompt: 30 s unless it names more, as Claude Code's
      ["UserPromptSubmit", "", "d", 30_000, "hooks.UserPromptSubmit[0].hooks[0]"],
      ["UserPromptSubmit", "", "e", 90_000, "hooks.UserPromptSubmit[0].hooks[1]"],
    ]);
  });

  test("http hooks: the URL, headers and allowedEnvVars as written, 600 s by default, as a command's; a bad one is a warning naming the field", () => {
    const parsed = parse({
      hooks: {
        PostToolUse: [
          {
            matcher: "Bash",
            hooks: [
              { type: "http", url: "http://127.0.0.1:8080/hook", headers: { Authorization: "Bearer $TOKEN" }, allowedEnvVars: ["TOKEN"] },
              { type: "http", url: "https://audit.example/h", timeout: 5 },
              { type: "http", url: "ftp://x/y" },
              { type: "http" },
              { type: "http", url: "http://x/", allowedEnvVars: ["$TOKEN"] },
            ],
          },
        ],
      },
    });
    expect(parsed.hooks.map((h) => [h.handler, h.timeoutMs])).toEqual([
      [{ type: "http", url: "http://127.0.0.1:8080/hook", headers: { Authorization: "Bearer $TOKEN" }, allowedEnvVars: ["TOKEN"] }, 600_000],
      [{ type: "http", url: "https://audit.example/h", headers: {}, allowedEnvVars: [] }, 5000],
    ]);
    expect(parsed.warnings).toEqual([
      ".claude/settings.json: hooks.PostToolUse[0].hooks[2].url: must be an http:// or https:// URL; it is skipped",
      ".claude/settings.json: hooks.PostToolUse[0].hooks[3].url: this field is required; it is skipped",
      ".claude/settings.json: hooks.PostToolUse[0].hooks[4].allowedEnvVars[0]: must be a variable's name, without $; it is skipped",
    ]);
  });

  test("`if` on an event that is no tool call's: the hook never runs in Claude Code, so it is skipped with a warning; on a tool event it is kept", () => {
    const parsed = parse({
      hooks: {
        Stop: [{ hooks: [{ type: "command", command: "check.sh", if: "Bash(git push *)" }, { type: "command", command: "always.sh" }] }],
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "guard.sh", if: "Bash(git push *)" }] }],
      },
    });
    expect(parsed.hooks.map((h) => [h.event, h.handler.type === "command" && h.handler.command, h.condition])).toEqual([
      ["Stop", "always.sh", undefined],
      ["PreToolUse", "guard.sh", "Bash(git push *)"],
    ]);
    expect(parsed.warnings).toEqual([
      ".claude/settings.json: hooks.Stop[0].hooks[0].if is read on tool events only (PreToolUse, PostToolUse, PostToolUseFailure); as in Claude Code, a Stop hook with one never runs, so it is skipped",
    ]);
  });

  test("exec form: args is kept as written beside its program; args that is not a list of text is a warning and the hook is skipped", () => {
    const parsed = parse({
      hooks: {
        PreToolUse: [{ hooks: [{ type: "command", command: "python3", args: ["${CLAUDE_PROJECT_DIR}/guard.py", "--strict"] }, { type: "command", command: "node", args: "guard.js" }, { type: "command", command: "node", args: [1] }] }],
      },
    });
    expect(parsed.hooks.map((h) => h.handler)).toEqual([{ type: "command", command: "python3", args: ["${CLAUDE_PROJECT_DIR}/guard.py", "--strict"] }]);
    expect(parsed.warnings).toHaveLength(2);
    expect(parsed.warnings[0]).toContain('hooks.PreToolUse[0].hooks[1].args: must be a list of arguments, ["${CLAUDE_PROJECT_DIR}/hooks/guard.py"]');
    expect(parsed.warnings[1]).toContain("hooks.PreToolUse[0].hooks[2].args[0]: must be text");
  });

  test("a file that starts with a byte-order mark (as PowerShell writes it) is read as its JSON", () => {
    const parsed = parseSettingsHooks(`\uFEFF${JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "./notify.sh" }] }] } })}`, SOURCE);
    expect(parsed.warnings).toEqual([]);
    expect(parsed.hooks.map((hook) => hook.event)).toEqual(["Stop"]);
  });

  test("a file without hooks, or with disableAllHooks, runs nothing and says nothing", () => {
    expect(parse({ model: "opus" })).toEqual({ hooks: [], warnings: [] });
    expect(parse({ disableAllHooks: true, hooks: {} }).disableAll).toBe(true);
  });

  test("each bad part is one warning naming the file and the field; the good parts still count", () => {
    const parsed = parse({
      hooks: {
        PreToolUse: [
          "not a group",
          { matcher: 3, hooks: [] },
          { matcher: "Bash", hooks: [{ type: "command", command: "ok", timeout: -1 }, { type: "prompt", prompt: "judge" }, { type: "command", command: "  " }, 7] },
        ],
        Stop: { hooks: [] },
        UserPromptSubmit: [{ matcher: "Bash", hooks: [{ type: "command", command: "u" }] }],
        PermissionRequest: [],
      },
    });
    expect(parsed.hooks.map((h) => h.handler.type === "command" && h.handler.command)).toEqual(["ok", "u"]);
    expect(parsed.warnings).toEqual([
      '.claude/settings.json: hooks.PreToolUse[0] must be an object {"matcher": …, "hooks": […]}; this group\'s hooks do not run',
      expect.stringMatching(/^\.claude\/settings\.json: hooks\.PreToolUse\[1\]\.matcher: .*; this group's hooks do not run$/),
      ".claude/settings.json: hooks.PreToolUse[2].hooks[0].timeout must be more than 0 seconds; the default 600 s applies",
      '.claude/settings.json: hooks.PreToolUse[2].hooks[1].type is "prompt"; zot runs "command" and "http" hooks, so this one is skipped',
      '.claude/settings.json: hooks.PreToolUse[2].hooks[2].command: must be the command to run (zot runs {"type": "command", "command": "…"} and {"type": "http", "url": "…"} hooks); it is skipped',
      '.claude/settings.json: hooks.PreToolUse[2].hooks[3] must be an object {"type": "command", "command": …}; it is skipped',
      '.claude/settings.json: hooks.Stop must be a list of {"matcher": …, "hooks": […]} groups; its hooks do not run',
      ".claude/settings.json: hooks.UserPromptSubmit[0].matcher: UserPromptSubmit hooks have no matcher, so it is ignored and they run every time",
      expect.stringMatching(/^\.claude\/settings\.json: hooks\.PermissionRequest: zot has no such hook event/),
    ]);
  });

  test("text that is not a JSON object loses the file's hooks, and says so", () => {
    expect(parseSettingsHooks("[1]", SOURCE).warnings).toEqual([".claude/settings.json: it must be a JSON object; none of its hooks run until it is fixed"]);
    expect(parse({ hooks: [] }).warnings).toEqual([expect.stringMatching(/^\.claude\/settings\.json: hooks: .*; none of its hooks run until it is fixed$/)]);
  });
});
