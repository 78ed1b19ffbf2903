// zot's own credentials never reach a process it starts: the bash tool's commands, an extension, a
// process hook. One `env` in a bash call would otherwise put them in the transcript, the session
// file and the provider's request. ZOT_PASS_ENV passes a named one on purpose.
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { programExtension, SCRIPTED } from "../fixtures/extensions/make.ts";
import { SCRIPTED_HOOK, writeHooksJson } from "../fixtures/hooks/make.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { tempDir, zot } from "../support/zot.ts";

let mock: MockLlm;
afterEach(() => mock?.stop());

const SECRETS = {
  ANTHROPIC_API_KEY: "sk-secret-anthropic-key",
  ANTHROPIC_AUTH_TOKEN: "secret-anthropic-bearer",
  OPENAI_API_KEY: "sk-secret-openai-key",
  ZOTCORE_RPC_TOKEN: "secret-rpc-token",
};

/** Every file under dir, recursively, as one string. */
function allText(dir: string): string {
  let text = "";
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const file = join(dir, name);
    if (statSync(file).isFile()) text += readFileSync(file, "utf8");
  }
  return text;
}

/** A run whose model calls `env` through bash, with an extension and a hook that dump theirs. */
async function run(extra: Record<string, string> = {}) {
  const home = tempDir("zot-env-home-");
  const base = tempDir("zot-env-");
  const extEnv = join(base, "ext-env.txt");
  const hookEnv = join(base, "hook-env.txt");
  const ext = programExtension(base, "dumper", {
    name: "start.sh",
    text: `#!/usr/bin/env bash\nenv > ${extEnv}\necho '{}' > config.json\nexec python3 ${SCRIPTED} config.json\n`,
    executable: true,
  });
  // $ZOT_HOME/hooks.json is the user's own configuration: it runs without workspace trust.
  writeHooksJson(join(home, "hooks.json"), {
    "env-hook": { enabled: true, command: ["bash", "-c", `env > ${hookEnv}; exec python3 ${SCRIPTED_HOOK}`], intercept: ["before_tool"] },
  });
  mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: "env" } }] }, { text: "done" }]);
  const result = await zot(["-p", "show the environment", "--provider", "anthropic", "--base-url", mock.url, "--ext", ext], {
    home,
    env: { ...SECRETS, MY_OWN_VARIABLE: "kept", ...extra },
  });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  const toModel = JSON.stringify(mock.requests[1]!.body.messages.at(-1));
  return { toModel, ext: readFileSync(extEnv, "utf8"), hook: readFileSync(hookEnv, "utf8"), sessions: allText(join(home, "sessions")) };
}

describe("children's environment", () => {
  test("the bash tool, an extension and a hook inherit none of zot's credentials, and everything else", async () => {
    const seen = await run();
    // zot itself did use the key: the provider's request carried it
    expect(JSON.stringify(mock.requests[0]!.headers)).toContain(SECRETS.ANTHROPIC_API_KEY);
    for (const [where, text] of Object.entries(seen)) {
      for (const [name, value] of Object.entries(SECRETS)) {
        expect({ where, name, leaked: text.includes(value) }).toEqual({ where, name, leaked: false });
      }
      if (where !== "sessions") expect(text).toContain("MY_OWN_VARIABLE");
    }
  });

  test("ZOT_PASS_ENV passes the credentials it names, and only those", async () => {
    const seen = await run({ ZOT_PASS_ENV: "OPENAI_API_KEY, ZOTCORE_RPC_TOKEN" });
    for (const text of [seen.toModel, seen.ext, seen.hook]) {
      expect(text).toContain(SECRETS.OPENAI_API_KEY);
      expect(text).toContain(SECRETS.ZOTCORE_RPC_TOKEN);
      expect(text).not.toContain(SECRETS.ANTHROPIC_API_KEY);
      expect(text).not.toContain(SECRETS.ANTHROPIC_AUTH_TOKEN);
    }
  });
});
