// The apiKeyHelper's key over a run: asked again once older than CLAUDE_CODE_API_KEY_HELPER_TTL_MS,
// kept when asking again fails, one run of the command for calls that need a key at once.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiKeyHelper, ApiKeyHelperError } from "../../src/runtime/api-key-helper.ts";

/** A command printing key-<n> for its n-th run, failing from run `failFrom` on. */
function helperIn(dir: string, failFrom = 1000): string {
  const script = join(dir, "helper.sh");
  writeFileSync(script, `n=$(( $(cat count 2>/dev/null || echo 0) + 1 )); echo $n > count\n[ $n -ge ${failFrom} ] && { echo "vault sealed" >&2; exit 1; }\nsleep 0.05; echo key-$n\n`);
  return `sh ${script}`;
}

const runs = (dir: string) => Number(readFileSync(join(dir, "count"), "utf8"));

describe("ApiKeyHelper", () => {
  test("the key is asked again once older than the TTL, not before", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zot-akh-"));
    const helper = new ApiKeyHelper({ command: helperIn(dir), from: "~/.claude/settings.json", cwd: dir, env: { ...process.env, CLAUDE_CODE_API_KEY_HELPER_TTL_MS: "400" } });
    expect(await helper.start()).toBe("key-1");
    expect(await helper.current()).toBe("key-1");
    await Bun.sleep(450);
    expect(await helper.current()).toBe("key-2");
    expect(runs(dir)).toBe(2);
  });

  test("calls that need a key at once share one run; a refresh that fails keeps the key it had", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zot-akh-"));
    const helper = new ApiKeyHelper({ command: helperIn(dir, 3), from: "~/.claude/settings.json", cwd: dir, env: process.env });
    expect(await Promise.all([helper.refresh(), helper.refresh(), helper.refresh()])).toEqual(["key-1", "key-1", "key-1"]);
    expect(runs(dir)).toBe(1);
    expect(await helper.refresh()).toBe("key-2");
    expect(await helper.refresh()).toBe("key-2");
    expect(runs(dir)).toBe(3);
  });

  test("a first run that fails is an error naming the command and its words", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zot-akh-"));
    const helper = new ApiKeyHelper({ command: helperIn(dir, 1), from: "~/.claude/settings.json", cwd: dir, env: process.env });
    const failed = await helper.start().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ApiKeyHelperError);
    expect((failed as Error).message).toBe(`apiKeyHelper (~/.claude/settings.json: sh ${join(dir, "helper.sh")}) failed (exit 1): vault sealed`);
  });

  test("a refresh that fails is said once and keeps the key it had for another TTL, not asked again at every call", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zot-akh-"));
    const said: string[] = [];
    const helper = new ApiKeyHelper({ command: helperIn(dir, 2), from: "~/.claude/settings.json", cwd: dir, env: { ...process.env, CLAUDE_CODE_API_KEY_HELPER_TTL_MS: "300" }, log: (m) => said.push(m) });
    expect(await helper.start()).toBe("key-1");
    await Bun.sleep(350);
    expect(await helper.current()).toBe("key-1");
    expect(await helper.current()).toBe("key-1");
    expect(runs(dir)).toBe(2);
    expect(said).toEqual([`apiKeyHelper (~/.claude/settings.json: sh ${join(dir, "helper.sh")}) failed (exit 1): vault sealed; the key it gave before is used`]);
  });

  test("a cancelled call stops waiting for a helper that hangs; every key given is kept for redaction", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zot-akh-"));
    const script = join(dir, "slow.sh");
    writeFileSync(script, `n=$(( $(cat count 2>/dev/null || echo 0) + 1 )); echo $n > count\n[ $n -ge 2 ] && sleep 3\necho sk-ant-KEY-$n\n`);
    const helper = new ApiKeyHelper({ command: `sh ${script}`, from: "~/.claude/settings.json", cwd: dir, env: process.env });
    await helper.start();
    const cancel = new AbortController();
    const started = performance.now();
    setTimeout(() => cancel.abort(new Error("cancelled")), 200);
    const refused = await helper.refresh(cancel.signal).catch((error: unknown) => error);
    expect((refused as Error).message).toBe("cancelled");
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(helper.given).toEqual(["sk-ant-KEY-1"]);
  });
});
