// `zot --help` as a new user reads it (in a pipe, in an 80-column terminal, with NO_COLOR), `zot
// help`, and the guard that keeps a mistyped command (`zot session list`) away from the model.
import { afterEach, describe, expect, test } from "bun:test";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { PtySession } from "../support/pty.ts";
import { cleanEnv, tempDir, ZOT, zot } from "../support/zot.ts";

let mock: MockLlm | undefined;
afterEach(() => mock?.stop());

const ESC = "\x1b";
const widest = (text: string) => Math.max(...text.split("\n").map((line) => Bun.stringWidth(line)));

/** zot in a terminal of this width; resolves with everything it printed. */
async function inTerminal(args: string[], cols: number, env: Record<string, string> = {}): Promise<{ code: number; output: string; lines: string[] }> {
  const home = tempDir("zot-home-");
  const { NO_COLOR: _drop, ...base } = cleanEnv(home);
  const session = new PtySession([ZOT, ...args], { cols, rows: 200, env: { ...base, TERM: "xterm-256color", ...env }, cwd: tempDir("zot-cwd-") });
  try {
    const code = await session.exited();
    return { code, output: session.output, lines: session.screen.allLines() };
  } finally {
    session.close();
  }
}

describe("zot --help", () => {
  test("in a pipe: no colour, a COMMANDS section with one line per subcommand, every row within 80 columns", async () => {
    const run = await zot(["--help"], { env: { NO_COLOR: "" } });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(ESC);
    expect(run.stdout).toContain("COMMANDS");
    for (const command of ["sessions", "ext", "mcp", "rpc", "help"]) expect(run.stdout).toMatch(new RegExp(`^  ${command} +\\S`, "m"));
    expect(widest(run.stdout)).toBeLessThanOrEqual(80);
    for (const flag of ["--print", "--json", "--model", "--base-url", "--session", "--verbose", "--no-extensions", "--with-skill"]) {
      expect(run.stdout).toContain(flag);
    }
    expect(run.stdout).toContain("ANTHROPIC_AUTH_TOKEN");
    // --json is a way to run of its own (it is refused with -p), so it has its own usage line.
    expect(run.stdout).toMatch(/^ {2}zot --json <prompt> +as -p \(the same options\), but every agent event as/m);
    expect(run.stdout).toMatch(/^ {2}zot -p \[options\] <prompt> +one prompt; print the final answer$/m);
  });

  test("$COLUMNS narrows a page printed into a pipe", async () => {
    const run = await zot(["--help"], { env: { COLUMNS: "60" } });
    expect(widest(run.stdout)).toBeLessThanOrEqual(60);
  });

  test("in an 80-column terminal: coloured, and no row wraps", async () => {
    const { code, output, lines } = await inTerminal(["--help"], 80);
    expect(code).toBe(0);
    expect(output).toContain(`${ESC}[`);
    // A row that wrapped would continue on the next screen row; rows of exactly 80 columns are the sign.
    expect(Math.max(...lines.map((line) => Bun.stringWidth(line)))).toBeLessThan(80);
    expect(lines.some((line) => line.startsWith("COMMANDS"))).toBe(true);
  });

  test("in a terminal with NO_COLOR: no colour", async () => {
    const { output } = await inTerminal(["--help"], 100, { NO_COLOR: "1" });
    expect(output).toContain("COMMANDS");
    expect(output).not.toMatch(/\x1b\[(?:3\d|9\d|1|4)m/);
  });

  test("zot help is the help; zot help sessions is the command's", async () => {
    const root = await zot(["help"]);
    expect(root.code).toBe(0);
    expect(root.stdout).toContain("COMMANDS");
    const sessions = await zot(["help", "sessions"]);
    expect(sessions.code).toBe(0);
    expect(sessions.stdout).toContain("zot sessions <command>");
  });

  test("trust and untrust are listed; zot help trust is its page, without colour in a pipe", async () => {
    const root = await zot(["--help"]);
    expect(root.stdout).toMatch(/^ {2}trust +trust a folder/m);
    expect(root.stdout).toMatch(/^ {2}untrust +forget whether a folder is trusted/m);
    const trust = await zot(["help", "trust"]);
    expect(trust.code).toBe(0);
    expect(trust.stdout).toContain("zot trust --list [--json]");
    expect(trust.stdout).not.toContain(ESC);
    const untrust = await zot(["help", "untrust"]);
    expect(untrust.code).toBe(0);
    expect(untrust.stdout).toContain("zot untrust");
    const typo = await zot(["trsut"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("did you mean `zot trust`?");
  });

  test("subcommands' --help and flag errors point to their own help", async () => {
    const rpc = await zot(["rpc", "--bogus"]);
    expect(rpc.code).toBe(2);
    expect(rpc.stderr).toContain("zot rpc --help");
    const list = await zot(["ext", "list", "--help"]);
    expect(list.stdout).not.toContain(ESC);
    expect(list.stdout).toContain("--json");
    const show = await zot(["sessions", "show", "--help"], { env: { COLUMNS: "50" } });
    expect(widest(show.stdout)).toBeLessThanOrEqual(50);
  });
});

describe("a mistyped command never reaches the model", () => {
  const real = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];

  test("zot session list, zot extension list, zot sesions: exit 2 with the command meant, no request", async () => {
    mock = startMockLlm([{ text: "should never be asked" }]);
    const cases: [string[], string][] = [
      [["session", "list"], "did you mean `zot sessions list`?"],
      [["extension", "list"], "did you mean `zot ext list`?"],
      [["sesions"], "did you mean `zot sessions`?"],
      [["rcp"], "did you mean `zot rpc`?"],
      [["-p", "sessions", "list"], "did you mean `zot sessions list`?"],
      [["-p", "ext", "doctor"], "did you mean `zot ext doctor`?"],
    ];
    for (const [args, message] of cases) {
      const run = await zot([...args, ...real(mock)]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).toContain("zot --");
    }
    expect(mock.requests).toHaveLength(0);
  });

  test("a real prompt that starts with such a word still goes: after --, quoted, or with more words", async () => {
    mock = startMockLlm([{ text: "a" }, { text: "b" }, { text: "c" }]);
    const dashdash = await zot(["-p", ...real(mock), "--", "session", "list"]);
    expect(dashdash.code).toBe(0);
    const quoted = await zot(["-p", "session list is empty, why?", ...real(mock)]);
    expect(quoted.code).toBe(0);
    const words = await zot(["-p", "session", "handling", "is", "broken", ...real(mock)]);
    expect(words.code).toBe(0);
    const sent = mock.requests.map((r) => r.body.messages.at(-1).content.at(-1).text);
    expect(sent).toEqual(["session list", "session list is empty, why?", "session handling is broken"]);
  });
});
