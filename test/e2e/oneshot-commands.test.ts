// A one-shot (-p, --json) whose prompt names no /command reads no command file (a user with
// thousands paid for each at every start); one that names a command reads them as before.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { tempDir, zot } from "../support/zot.ts";

test("-p hi reads no command file; -p /greet reads them, its command expanded, and says what is wrong with the others", async () => {
  const mock: MockLlm = startMockLlm([{ text: "plain" }, { text: "greeted" }, { text: "json" }]);
  try {
    const userHome = tempDir("zot-oneshot-cmd-user-");
    const commands = join(userHome, ".claude", "commands");
    mkdirSync(commands, { recursive: true });
    writeFileSync(join(commands, "greet.md"), "GREET COMMAND BODY\n");
    // A file no command can be named after: read, it is said.
    writeFileSync(join(commands, "bad name.md"), "never a command\n");
    const args = ["--provider", "anthropic", "--api-key", "k", "--base-url", mock.url];
    const plain = await zot(["-p", "hi", ...args], { env: { HOME: userHome } });
    expect(plain.stdout).toBe("plain\n");
    expect(plain.stderr).not.toContain("not a command name");
    const named = await zot(["-p", "/greet", ...args], { env: { HOME: userHome } });
    expect(named.stdout).toBe("greeted\n");
    expect(named.stderr).toContain("bad name.md: not a command name");
    expect(JSON.stringify(mock.requests[1]?.body.messages)).toContain("GREET COMMAND BODY");
    const json = await zot(["--json", "hello", ...args], { env: { HOME: userHome } });
    expect(json.code).toBe(0);
    expect(json.stderr).not.toContain("not a command name");
  } finally {
    await mock.stop();
  }
});
