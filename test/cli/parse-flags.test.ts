// zot's flag parser against node:util's parseArgs (strict), whose grammar it keeps: every argv here
// parses to the same values and positionals, or fails in both; and the failures read as zot's.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ArgsDef } from "citty";
import { parseFlags } from "../../src/cli/parse-flags.ts";
import { FOLLOWERS, ROOT_ARGS, REPEATABLE } from "../../src/cli/root-args.ts";
import { sessionChoiceFromFlags } from "../../src/cli/runtime-flags.ts";
import { UsageError } from "../../src/config/usage-error.ts";

function nodeParse(def: ArgsDef, argv: string[], repeatable: ReadonlySet<string>) {
  const options: Record<string, { type: "boolean" | "string"; short?: string; multiple?: boolean }> = {};
  for (const [name, arg] of Object.entries(def)) {
    if (arg.type === "positional") continue;
    const alias: string | string[] | undefined = "alias" in arg ? arg.alias : undefined;
    const short = typeof alias === "string" ? alias : alias?.find((a) => a.length === 1);
    options[name] = { type: arg.type === "boolean" ? "boolean" : "string", ...(short ? { short } : {}), ...(repeatable.has(name) ? { multiple: true } : {}) };
  }
  const parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  return { values: { ...parsed.values } as Record<string, unknown>, positionals: parsed.positionals };
}

const CASES: string[][] = [
  [],
  ["hello world"],
  ["-p", "hi"],
  ["-p", "--model", "opus", "hi"],
  ["--model=opus", "-p", "hi"],
  ["-m", "opus", "hi"],
  ["-mopus", "hi"],
  ["-pc"],
  ["-pm", "opus", "x"],
  ["-pmopus", "x"],
  ["--json", "--", "--not-a-flag", "-p"],
  ["--", "sessions"],
  ["-", "x"],
  ["--ext", "a", "--ext=b", "-e", "c", "-ed"],
  ["--model=", "x"],
  ["--model", "-", "x"],
  ["--model=--weird", "x"],
  ["--system-prompt", "be brief", "-p", "a", "b"],
  // failures
  ["--modle", "x"],
  ["-x"],
  ["-pq"],
  ["--model"],
  ["-m"],
  ["--model", "--print"],
  ["-m", "-p"],
  ["--print=yes"],
  ["--print=", "x"],
  ["-1"],
];

describe("parseFlags keeps parseArgs' grammar", () => {
  for (const argv of CASES) {
    test(JSON.stringify(argv), () => {
      let expected: ReturnType<typeof nodeParse> | "error";
      try {
        expected = nodeParse(ROOT_ARGS, argv, REPEATABLE);
      } catch {
        expected = "error";
      }
      if (expected === "error") {
        expect(() => parseFlags(ROOT_ARGS, argv, REPEATABLE)).toThrow(UsageError);
      } else {
        const ours = parseFlags(ROOT_ARGS, argv, REPEATABLE);
        expect(ours.values as Record<string, unknown>).toEqual(expected.values);
        expect(ours.positionals).toEqual(expected.positionals);
      }
    });
  }
});

describe("parseFlags' own sentences", () => {
  const message = (argv: string[]) => {
    try {
      parseFlags(ROOT_ARGS, argv, REPEATABLE);
    } catch (error) {
      return (error as Error).message;
    }
    return "";
  };
  test("an unknown flag names the nearest one and --help", () => {
    expect(message(["--modle", "x"])).toBe('unknown flag "--modle"; did you mean --model? (zot --help lists every flag)');
    expect(message(["--modle=x"])).toStartWith('unknown flag "--modle";');
    expect(message(["-q"])).toStartWith('unknown flag "-q"');
  });
  test("words that start with \"-\" (a prompt) are no flag: the error shows them as typed and how to pass them after --", () => {
    expect(message(["-p", "-v is broken"])).toBe(`"-v is broken" is not a flag; a prompt that starts with "-" goes after --, which ends the flags: zot -p -- '-v is broken'`);
    expect(message(["--verbose flag is missing", "-p"])).toBe(
      `"--verbose flag is missing" is not a flag; a prompt that starts with "-" goes after --, which ends the flags: zot -p -- '--verbose flag is missing'`,
    );
    // A value on the line (a key, say) is not repeated back.
    expect(message(["-p", "-5 degrees", "--api-key", "sk-secret"])).toEndWith(`zot [flags] -- '-5 degrees'`);
    expect(message(["-5"])).toStartWith(`"-5" is not a flag;`);
    // An unknown letter in a cluster is named with what was typed.
    expect(message(["-pq"])).toBe('unknown flag "-q" in "-pq" (zot --help lists every flag)');
    // After --, they are the prompt.
    expect(parseFlags(ROOT_ARGS, ["-p", "--", "-v is broken"], REPEATABLE)).toMatchObject({ values: { print: true }, positionals: ["-v is broken"], terminated: true });
  });
  test("a missing value, a flag where a value belongs, a value for a switch", () => {
    expect(message(["--model"])).toBe("--model needs a value");
    expect(message(["-m"])).toBe("--model needs a value");
    expect(message(["--model", "--print"])).toBe('--model needs a value (to give one that starts with "-", write --model=--print)');
    expect(message(["--print=yes"])).toBe("--print does not take a value");
  });
  test("an enum outside its options", () => {
    const enumDef = Object.entries(ROOT_ARGS).find(([, arg]) => arg.type === "enum");
    if (!enumDef) throw new Error("ROOT_ARGS has no enum flag to test");
    const [name, arg] = enumDef;
    expect(message([`--${name}`, "nonsense"])).toBe(`--${name} must be one of ${(arg as { options: string[] }).options.join(", ")} (got "nonsense")`);
  });
  test("the first positional after -- is marked terminated, one before it is not", () => {
    expect(parseFlags(ROOT_ARGS, ["--", "sessions"], REPEATABLE).terminated).toBe(true);
    expect(parseFlags(ROOT_ARGS, ["sessions", "--", "x"], REPEATABLE).terminated).toBe(false);
    expect(parseFlags(ROOT_ARGS, ["--"], REPEATABLE).terminated).toBe(false);
  });
});

describe("the arguments a flag takes after it (FOLLOWERS), as Claude Code's flags do", () => {
  const parse = (argv: string[]) => parseFlags(ROOT_ARGS, argv, REPEATABLE, "zot", FOLLOWERS);
  test("-r takes a session id or file after it, as Claude Code's --resume <id>; alone (or before a prompt) it is the picker", () => {
    expect(parse(["-p", "-r", "20261123-032914-9f3c2a1b", "go on"])).toMatchObject({ values: { resume: "20261123-032914-9f3c2a1b" }, positionals: ["go on"] });
    expect(parse(["--resume", "package.json", "-p", "x"]).values.resume).toBe(true);
    const file = join(mkdtempSync(join(tmpdir(), "zot-flags-")), "old.jsonl");
    writeFileSync(file, "");
    expect(parse(["--resume", file, "-p", "x"]).values.resume).toBe(file);
    expect(parse(["-pr", "20261123-032914-9f3c2a1b", "x"]).values).toMatchObject({ print: true, resume: "20261123-032914-9f3c2a1b" });
    expect(parse(["-r", "go on"])).toMatchObject({ values: { resume: true }, positionals: ["go on"] });
    // A prompt that names a file is a prompt; a slash command is one.
    expect(parse(["-r", "summarise data.jsonl"])).toMatchObject({ values: { resume: true }, positionals: ["summarise data.jsonl"] });
    expect(parse(["-r", "/compact"])).toMatchObject({ values: { resume: true }, positionals: ["/compact"] });
    expect(parse(["-r", "hello"])).toMatchObject({ values: { resume: true }, positionals: ["hello"] });
    expect(sessionChoiceFromFlags(parse(["-r", "go on"]).values)).toEqual({ kind: "pick" });
  });
  test("-r takes what is shaped as a session's id or file whether or not it is there: one that is not is an error naming it, never the prompt", () => {
    // A mistyped id, an id's start, a session file or path that is not there: the session to
    // resume (session/find.ts says it is not there, and how to list them).
    for (const ref of ["20261127-9999", "20261127", "20261123-1015", "nowhere.jsonl", "./no-such.jsonl", "../old/x.zotsession", "./sessions/abc", "/tmp/zot/x", "~/s.jsonl"]) {
      expect(parse(["-r", ref, "go on"])).toMatchObject({ values: { resume: ref }, positionals: ["go on"] });
      expect(sessionChoiceFromFlags(parse(["-p", "-r", ref, "x"]).values)).toEqual({ kind: "open", ref });
    }
    expect(parse(["--resume=20261123-032914-9f3c2a1b", "x"]).values.resume).toBe("20261123-032914-9f3c2a1b");
    expect(() => parse(["--continue=x"])).toThrow("--continue does not take a value");
    expect(sessionChoiceFromFlags(parse(["-r", "20261123-032914-9f3c2a1b", "x"]).values)).toEqual({ kind: "open", ref: "20261123-032914-9f3c2a1b" });
    expect(sessionChoiceFromFlags(parse(["-r", "x"]).values)).toEqual({ kind: "pick" });
  });
});
