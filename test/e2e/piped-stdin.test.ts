// Piped stdin with a prompt (`git diff | zot -p "review this change"`): both reach the model, the
// piped text first as context; the same for --json and for `zot "prompt"` (print mode, since the
// TUI needs the terminal on stdin). An empty or silent pipe never loses the prompt.
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { scriptedExtension } from "../fixtures/extensions/make.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { PtySession } from "../support/pty.ts";
import { cleanEnv, ndjson, tempDir, ZOT, zot } from "../support/zot.ts";

let mock: MockLlm;
afterEach(() => mock?.stop());

const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];
const DIFF = "diff --git a/src/x.ts b/src/x.ts\n-const a = 1;\n+const a = 2;\n";
/** `zot -p review` against the mock, its stdin as given, stdout and stderr piped. */
function review<const In extends "pipe" | "ignore" | ReturnType<typeof Bun.file>>(stdin: In) {
  return Bun.spawn([ZOT, "-p", "review", ...anthropic(mock)], {
    cwd: tempDir("zot-cwd-"),
    env: cleanEnv(tempDir("zot-home-")),
    stdin,
    stdout: "pipe",
    stderr: "pipe",
  });
}
/** The text the model got in the last user message of a request. */
const sentText = (m: MockLlm, i = 0) => m.requests[i].body.messages.at(-1).content.map((b: any) => b.text).join("");

describe("piped stdin and a prompt", () => {
  test("-p: the diff and the prompt both reach the model, the diff first", async () => {
    mock = startMockLlm([{ text: "looks fine" }]);
    const run = await zot(["-p", "review this change", ...anthropic(mock)], { stdin: DIFF });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("looks fine\n");
    expect(sentText(mock)).toBe(`<stdin>\n${DIFF.trimEnd()}\n</stdin>\n\nreview this change`);
  });

  test("a directory on stdin (zot -p … < folder) is a usage error saying so, not the system's EISDIR", async () => {
    mock = startMockLlm([{ text: "never" }]);
    const proc = Bun.spawn(["bash", "-c", `"$ZOT" -p review --provider anthropic --api-key k --base-url "$URL" < "$DIR"; echo "rc=$?"`], {
      env: cleanEnv(tempDir("zot-home-"), { ZOT, URL: mock.url, DIR: tempDir("zot-stdin-dir-") }),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    expect(stdout).toBe("rc=2\n");
    expect(stderr).toContain("stdin is a directory, not text");
    expect(mock.requests).toHaveLength(0);
  });

  test("binary data on stdin (cat image.png | zot -p …) is a usage error naming it, and the model is never called", async () => {
    mock = startMockLlm([{ text: "never" }]);
    const run = await zot(["-p", "describe this", ...anthropic(mock)], { stdin: "\x89PNG\r\n\x1a\n\0\0\0\rIHDR" });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/stdin holds binary data \(\d+ bytes\), not text/);
    expect(mock.requests).toHaveLength(0);
  });

  test("Latin-1 text on stdin goes on with a note counting what could not be read; UTF-8 (with a U+FFFD of its own) gets none", async () => {
    mock = startMockLlm([{ text: "ok" }, { text: "ok" }]);
    const latin1 = Buffer.from("Kunde: Fran\xe7ois M\xfcller, Betrag: 12\x80\n", "latin1");
    const run = await zot(["-p", "summarise", ...anthropic(mock)], { stdin: latin1 });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("zot: stdin is not UTF-8: 3 byte sequence(s) could not be read as text and reach the model as \uFFFD; convert it first (iconv -f latin1 -t utf-8");
    const utf8 = await zot(["-p", "summarise", ...anthropic(mock)], { stdin: "Fran\u00e7ois \uFFFD M\u00fcller\n" });
    expect(utf8.stderr).not.toContain("not UTF-8");
  });

  test("a /command is recognised in the typed prompt, and its prompt answer takes the piped text along", async () => {
    mock = startMockLlm([{ text: "reviewed" }]);
    const cwd = tempDir("zot-pipe-cmd-");
    scriptedExtension(join(cwd, "ext"), "reviewer", {
      on_ack: [{ type: "register_command", name: "review" }],
      commands: { review: { eval: "{'action': 'prompt', 'prompt': 'Review this diff for ' + f.get('args', 'bugs')}" } },
    });
    const run = await zot(["--ext", join(cwd, "ext", "reviewer"), "-p", "/review races", ...anthropic(mock)], { cwd, stdin: DIFF });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("reviewed\n");
    expect(sentText(mock)).toBe(`<stdin>\n${DIFF.trimEnd()}\n</stdin>\n\nReview this diff for races`);
  });

  test("--json: the user_message carries both", async () => {
    mock = startMockLlm([{ text: "ok" }]);
    const run = await zot(["--json", "review", ...anthropic(mock)], { stdin: DIFF });
    expect(run.code).toBe(0);
    const user = ndjson(run.stdout).find((e) => e.type === "user_message");
    expect(user.content[0].text).toContain(DIFF.trimEnd());
    expect(user.content[0].text).toEndWith("\n\nreview");
    expect(sentText(mock)).toContain("+const a = 2;");
  });

  test("without -p, a piped stdin means print mode: the answer is printed", async () => {
    mock = startMockLlm([{ text: "printed" }]);
    const run = await zot(["review", ...anthropic(mock)], { stdin: DIFF });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("printed\n");
    expect(sentText(mock)).toContain("+const a = 2;");
  });

  test("stdin piped and stdout a terminal (`git diff | zot \"review\"`): print mode on the terminal, nothing lost", async () => {
    mock = startMockLlm([{ text: "reviewed on the terminal" }]);
    const cmd = `printf '%s' "$DIFF" | '${ZOT}' review ${anthropic(mock).join(" ")}`;
    const session = new PtySession(["sh", "-c", cmd], {
      env: { ...cleanEnv(tempDir("zot-home-")), DIFF },
      cwd: tempDir("zot-cwd-"),
    });
    try {
      expect(await session.exited()).toBe(0);
      expect(session.screen.text()).toContain("reviewed on the terminal");
      expect(sentText(mock)).toBe(`<stdin>\n${DIFF.trimEnd()}\n</stdin>\n\nreview`);
    } finally {
      session.close();
    }
  });

  test("an empty pipe (`git diff` on a clean tree) sends the prompt alone, with a note", async () => {
    mock = startMockLlm([{ text: "ok" }]);
    const proc = review("pipe");
    proc.stdin.end();
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(0);
    expect(stderr).toContain("stdin was piped but empty");
    expect(sentText(mock)).toBe("review");
  });

  test("a pipe that stays open and silent does not hang a run that has its prompt", async () => {
    mock = startMockLlm([{ text: "went on" }]);
    const proc = review("pipe");
    try {
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect(code).toBe(0);
      expect(stdout).toBe("went on\n");
      expect(stderr).toContain("sent nothing in 3 s");
      expect(sentText(mock)).toBe("review");
    } finally {
      proc.stdin.end();
    }
  });

  test("-p typed in a terminal: stdin is the terminal, never read; the prompt goes alone", async () => {
    mock = startMockLlm([{ text: "answered from a terminal" }]);
    const session = new PtySession([ZOT, "-p", "hello", ...anthropic(mock)], {
      env: cleanEnv(tempDir("zot-home-")),
      cwd: tempDir("zot-cwd-"),
    });
    try {
      expect(await session.exited()).toBe(0);
      expect(session.screen.text()).toContain("answered from a terminal");
      expect(sentText(mock)).toBe("hello");
    } finally {
      session.close();
    }
  });

  test("stdin a file (`zot -p review < x.diff`) is context; /dev/null is nothing, without a note", async () => {
    mock = startMockLlm([{ text: "ok" }, { text: "ok" }]);
    const file = join(tempDir("zot-stdin-"), "x.diff");
    writeFileSync(file, DIFF);
    // Spawned, not spawnSync: the mock answers from this process's event loop.
    const run = async (stdin: ReturnType<typeof Bun.file> | "ignore") => {
      const proc = review(stdin);
      const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
      return { stderr, code };
    };
    expect((await run(Bun.file(file))).code).toBe(0);
    expect(sentText(mock)).toBe(`<stdin>\n${DIFF.trimEnd()}\n</stdin>\n\nreview`);
    const fromNull = await run("ignore");
    expect(fromNull.code).toBe(0);
    expect(fromNull.stderr).toBe("");
    expect(sentText(mock, 1)).toBe("review");
  });

  test("stdin alone is still the prompt", async () => {
    mock = startMockLlm([{ text: "ok" }]);
    const run = await zot(["-p", ...anthropic(mock)], { stdin: "what is this?\n" });
    expect(run.code).toBe(0);
    expect(sentText(mock)).toBe("what is this?");
  });
});
