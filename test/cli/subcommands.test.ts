// Which first words are taken for a mistyped command and which stay prompts.
import { describe, expect, test } from "bun:test";
import { EXT_VERBS } from "../../src/cli/ext.ts";
import { runMcp } from "../../src/cli/mcp.ts";
import { SESSIONS_VERBS } from "../../src/cli/sessions.ts";
import { readFirstWord, SUBCOMMANDS } from "../../src/cli/subcommands.ts";

describe("readFirstWord", () => {
  test("words near a command, alone or followed by its verbs, are an error naming the command", () => {
    const cases: [string[], string][] = [
      [["session", "list"], "`zot sessions list`"],
      [["extension", "list"], "`zot ext list`"],
      [["sesions"], "`zot sessions`"],
      [["sesion"], "`zot sessions`"],
      [["rcp"], "`zot rpc`"],
      [["hlep"], "`zot help`"],
      [["exr", "install", "./x"], "`zot ext install ./x`"],
      // A three-letter command's longer or shorter slip, before one of its verbs.
      [["mcps", "list"], "`zot mcp list`"],
      [["mcpp", "add", "x"], "`zot mcp add x`"],
      [["extt", "list"], "`zot ext list`"],
    ];
    for (const [words, meant] of cases) expect(() => readFirstWord(words, false)).toThrow(`did you mean ${meant}?`);
  });

  test("Codex's `resume <id>` (or bare `resume`) points to -r and -c; `resume` with other words stays a prompt", () => {
    expect(() => readFirstWord(["resume", "20261128-021331-53b5a083"], false)).toThrow("zot resumes a session with `zot -r 20261128-021331-53b5a083`");
    expect(() => readFirstWord(["Resume", "0199a3c2-7b1e-7c40-9a55-3f2e1d0c9b8a"], false)).toThrow("`resume` is Codex's command");
    expect(() => readFirstWord(["resume"], false)).toThrow("`zot -r <id>` (`zot -r` alone lists the sessions to pick from, `zot -c` continues the newest");
    expect(readFirstWord(["resume", "the", "refactor"], false)).toEqual({ kind: "prompt" });
    expect(readFirstWord(["resume", "work"], false)).toEqual({ kind: "prompt" });
    expect(readFirstWord(["resume", "20261128-021331-53b5a083"], true)).toEqual({ kind: "prompt" }); // after --
  });

  test("a first word starting with / is a slash command, never taken for a mistyped subcommand (/rust is not trust, /pc not rpc)", () => {
    for (const word of ["/rust", "/pc", "/cp", "/trust", "/sessions"]) expect(readFirstWord([word], false)).toEqual({ kind: "prompt" });
  });

  test("a command's own name after flags is pointed to its place", () => {
    expect(() => readFirstWord(["sessions", "list"], false)).toThrow("a command goes before the flags");
  });

  test("everything else is a prompt: ordinary words, more words, quoted phrases, anything after --", () => {
    for (const words of [["next"], ["exit"], ["text"], ["mcps"], ["rpcc"], ["next", "step"], ["next", "check", "the", "failing", "tests"], ["text", "remove", "it"], ["exit", "list", "x"], ["hello"], ["hi"], ["session", "handling", "is", "broken"], ["session list is broken"]]) {
      expect(readFirstWord(words, false)).toEqual({ kind: "prompt" });
    }
    expect(readFirstWord(["session", "list"], true)).toEqual({ kind: "prompt" });
    expect(readFirstWord([], false)).toEqual({ kind: "prompt" });
  });

  test("a word Object's prototype has is a prompt, not taken for a synonym of a command", () => {
    for (const word of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
      expect(readFirstWord([word], false)).toEqual({ kind: "prompt" });
    }
  });

  test("help, and help with a command", () => {
    expect(readFirstWord(["help"], false)).toEqual({ kind: "help" });
    expect(readFirstWord(["help", "sessions"], false)).toEqual({ kind: "help", command: "sessions" });
    expect(readFirstWord(["help", "me", "fix", "this"], false)).toEqual({ kind: "prompt" });
    // One word after help is a command asked about: a slip is named, anything else listed against.
    expect(() => readFirstWord(["help", "sesions"], false)).toThrow('no command "sesions"; did you mean `zot help sessions`? (the commands: sessions, ext, rpc, mcp, trust, untrust;');
    expect(() => readFirstWord(["help", "bogus"], false)).toThrow('no command "bogus" (the commands: sessions, ext, rpc, mcp, trust, untrust; to send "help bogus" to the model as a prompt, write zot -- help bogus)');
  });

  test("the verbs the root command knows are each command's own, and help takes every command", async () => {
    const verbsOf = (name: string) => [...(SUBCOMMANDS.find((c) => c.name === name)?.verbs ?? [])].sort();
    expect(verbsOf("ext")).toEqual([...EXT_VERBS].sort());
    expect(verbsOf("sessions")).toEqual([...SESSIONS_VERBS].sort());
    // mcp routes by a switch: each verb listed is one it takes (its --help answers, no "unknown subcommand").
    const log = console.log;
    console.log = () => {};
    try {
      for (const verb of verbsOf("mcp")) expect(await runMcp([verb, "--help"])).toBe(0);
    } finally {
      console.log = log;
    }
    for (const { name } of SUBCOMMANDS.filter((c) => c.name !== "help")) {
      expect(readFirstWord(["help", name], false)).toEqual({ kind: "help", command: name });
    }
  });
});
