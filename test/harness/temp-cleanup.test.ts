// The test run's own hygiene: every directory test/support/zot.ts tempDir makes is gone once the
// file that made it is over (the preload test/support/temp-cleanup.ts), and the mock LLM's scripted
// dropped connection is not printed as an error. Both run in a `bun test` of their own, with a
// private TMPDIR, so what is left behind can be counted.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../support/zot.ts";

async function bun(args: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  const proc = Bun.spawn([process.execPath, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, output: stdout + stderr };
}

describe("the test run", () => {
  test("removes each test file's temp directories once the file is over, and the last file's at the end", async () => {
    // Not tempDir: this directory must outlive the inner run to be inspected.
    const tmp = mkdtempSync(join(tmpdir(), "zot-cleanup-run-"));
    try {
      const log = join(tmp, "made.log");
      mkdirSync(join(tmp, "t"));
      // In the repository, so bunfig.toml's preload applies; the report goes elsewhere, not over the outer run's.
      const files = ["./test/fixtures/harness/first.fixture.ts", "./test/fixtures/harness/second.fixture.ts"];
      const run = await bun(["test", ...files, "--reporter=junit", `--reporter-outfile=${join(tmp, "report.xml")}`], {
        TMPDIR: join(tmp, "t"),
        ZOT_CLEANUP_LOG: log,
      });
      expect(run.output).toContain("3 pass");
      expect(run.code).toBe(0);
      const made = readFileSync(log, "utf8").trim().split("\n");
      expect(made.map((line) => line.split(" ")[0])).toEqual(["first", "first", "second"]);
      for (const line of made) expect(existsSync(line.split(" ")[1]!)).toBe(false);
      expect(readdirSync(join(tmp, "t"))).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  test("the mock LLM's scripted dropped connection reaches the client as a reset, and nothing prints it as an error", async () => {
    const run = await bun(["run", "./test/fixtures/harness/dropped-connection.ts"]);
    expect(run.code).toBe(0);
    expect(run.output).toBe("client: the connection was lost\n");
  });
});
