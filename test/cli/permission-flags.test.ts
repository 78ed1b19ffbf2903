// Claude Code's permission flags as `claude -p` scripts pass them: how their lists are split, how
// far a list reaches into the arguments after it, and what each mode asks of the run.
import { describe, expect, test } from "bun:test";
import { parseFlags } from "../../src/cli/parse-flags.ts";
import { continuesRuleList, permissionFlags } from "../../src/cli/permission-flags.ts";
import { splitRuleList } from "../../src/protocol/rule-list.ts";
import { FOLLOWERS, REPEATABLE, ROOT_ARGS } from "../../src/cli/root-args.ts";
import { runtimeOptionsFromFlags } from "../../src/cli/runtime-flags.ts";
import { UsageError } from "../../src/config/usage-error.ts";

const parse = (argv: string[]) => parseFlags(ROOT_ARGS, argv, REPEATABLE, "zot", FOLLOWERS);
const options = (argv: string[]) => runtimeOptionsFromFlags(parse(argv).values);
const usageError = (argv: string[]) => {
  try {
    options(argv);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`no usage error for ${argv.join(" ")}`);
};

describe("a list's rules", () => {
  test("commas and white space outside brackets separate rules; inside, they are the rule's", () => {
    expect(splitRuleList("Read,Edit")).toEqual(["Read", "Edit"]);
    expect(splitRuleList("Bash(git:*) Read")).toEqual(["Bash(git:*)", "Read"]);
    expect(splitRuleList("Bash(git log *), Bash(git diff *)")).toEqual(["Bash(git log *)", "Bash(git diff *)"]);
    expect(splitRuleList("Bash(printf 'a,b')")).toEqual(["Bash(printf 'a,b')"]);
    expect(splitRuleList("  ")).toEqual([]);
  });

  test("an argument of rules continues the list; a prompt does not", () => {
    expect(continuesRuleList("Read")).toBe(true);
    expect(continuesRuleList("Bash(npm run test *)")).toBe(true);
    expect(continuesRuleList("mcp__github__create_issue Read")).toBe(true);
    expect(continuesRuleList("fix the failing test")).toBe(false);
    expect(continuesRuleList("Read the README and summarise it")).toBe(false);
    expect(continuesRuleList("hello")).toBe(false);
  });

  test("--allowedTools takes the rules after it, up to the prompt, as Claude Code's docs write them", () => {
    const { values, positionals } = parse(["-p", "--allowedTools", "Bash(git diff *)", "Bash(git log *)", "Read", "write the commit message", "--verbose"]);
    expect(values.allowedTools).toEqual(["Bash(git diff *)", "Bash(git log *)", "Read"]);
    expect(positionals).toEqual(["write the commit message"]);
    expect(values.verbose).toBe(true);
    // The prompt first, the flags after it, as well; and the dashed spelling, repeated.
    const later = parse(["-p", "summarise", "--allowed-tools", "Read,Edit", "--allowed-tools=Bash(ls)"]);
    expect(later.values["allowed-tools"]).toEqual(["Read,Edit", "Bash(ls)"]);
    expect(later.positionals).toEqual(["summarise"]);
  });
});

describe("what the flags ask of the run", () => {
  test("nothing given: nothing changes (zot asks nothing by default)", () => {
    const o = options(["-p", "x"]);
    expect(o.noYolo).toBe(false);
    expect(o.permissionRules).toBeUndefined();
    expect(o.askNobody).toBeUndefined();
  });

  test("--allowedTools: its rules allow, and every other call is confirmed", () => {
    const o = options(["--allowedTools", "Bash(npm test),Read", "-p", "x"]);
    expect(o.noYolo).toBe(true);
    expect(o.confirmingFlag).toBe("--allowedTools");
    expect(o.permissionRules).toEqual([
      { verdict: "allow", text: "Bash(npm test)", source: "--allowedTools" },
      { verdict: "allow", text: "Read", source: "--allowedTools" },
    ]);
  });

  test("--allowedTools given empty (a script's empty \"$LIST\") still turns confirmations on: nothing is allowed unasked", () => {
    for (const value of ["", ",", " "]) {
      const o = options([`--allowedTools=${value}`, "-p", "x"]);
      expect(o.noYolo).toBe(true);
      expect(o.permissionRules).toBeUndefined();
    }
  });

  test("--disallowedTools: deny rules, and confirmations stay as they were", () => {
    const o = options(["--disallowedTools", "Bash", "--disallowed-tools", "Read(./.env)", "-p", "x"]);
    expect(o.noYolo).toBe(false);
    expect(o.permissionRules).toEqual([
      { verdict: "deny", text: "Bash", source: "--disallowedTools" },
      { verdict: "deny", text: "Read(./.env)", source: "--disallowedTools" },
    ]);
  });

  test("each mode", () => {
    expect(options(["--permission-mode", "default", "-p", "x"])).toMatchObject({ noYolo: true, confirmingFlag: "--permission-mode default" });
    const edits = options(["--permission-mode", "acceptEdits", "-p", "x"]);
    expect(edits).toMatchObject({ noYolo: true, permissionRules: [{ verdict: "allow", text: "Edit(./**)", source: "--permission-mode acceptEdits" }] });
    expect(options(["--permission-mode", "dontAsk", "-p", "x"])).toMatchObject({ noYolo: true, askNobody: true });
    expect(options(["--permission-mode", "bypassPermissions", "--allowedTools", "Read", "-p", "x"]).noYolo).toBe(false);
    expect(options(["--dangerously-skip-permissions", "-p", "x"]).noYolo).toBe(false);
    // --no-yolo keeps its own note and refusal.
    expect(options(["--no-yolo", "--allowedTools", "Read", "-p", "x"])).toMatchObject({ noYolo: true });
    expect(options(["--no-yolo", "--allowedTools", "Read", "-p", "x"]).confirmingFlag).toBeUndefined();
  });

  test("what zot cannot do, or flags that contradict each other, are usage errors that say what to use", () => {
    expect(usageError(["--permission-mode", "plan", "-p", "x"])).toContain("zot has no plan mode; --tools read");
    expect(usageError(["--permission-mode", "auto", "-p", "x"])).toContain("use default (ask before each call), acceptEdits, dontAsk or bypassPermissions");
    expect(usageError(["--permission-mode", "askMe", "-p", "x"])).toBe(
      '--permission-mode must be one of default, acceptEdits, dontAsk, bypassPermissions (got "askMe")',
    );
    expect(usageError(["--no-yolo", "--dangerously-skip-permissions", "-p", "x"])).toBe(
      "--no-yolo and --dangerously-skip-permissions cannot be used together: one asks before tool calls, the other never does",
    );
    expect(usageError(["--dangerously-skip-permissions", "--permission-mode", "dontAsk", "-p", "x"])).toBe(
      "--dangerously-skip-permissions and --permission-mode dontAsk cannot be used together; pick one",
    );
    expect(() => permissionFlags({ "no-yolo": true, "permission-mode": "bypassPermissions" })).toThrow("--no-yolo and --permission-mode bypassPermissions cannot be used together");
  });
});
