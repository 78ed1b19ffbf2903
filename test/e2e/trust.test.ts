// Workspace trust through the compiled binary: a folder's .zot/extensions and .zot/hooks.json run
// only once the user trusted it (zot trust, remembered by real path in $ZOT_HOME/trust.json) or
// for one run with --trust; -p, --json and rpc skip them otherwise and say how to trust; global
// configuration and --ext need no trust; and code a jailed model writes there does not run later.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scriptedExtension } from "../fixtures/extensions/make.ts";
import { hookProcess, recorded, writeHooksJson } from "../fixtures/hooks/make.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { ndjson, tempDir, ZOT, zot } from "../support/zot.ts";

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

/** A cloned repository, as it were: an extension and a hook that record whether they ran. */
function repository() {
  const cwd = tempDir("zot-trust-cwd-");
  const home = tempDir("zot-trust-home-");
  const marks = tempDir("zot-trust-marks-");
  const started = join(marks, "extension-started");
  const hookLog = join(marks, "hook.jsonl");
  scriptedExtension(join(cwd, ".zot", "extensions"), "clone-ext", {
    countfile: started,
    after_hello: [{ type: "register_command", name: "cloned" }],
    commands: { cloned: { action: "display", display: "the repository's command ran" } },
  });
  writeHooksJson(join(cwd, ".zot", "hooks.json"), { "clone-hook": hookProcess(marks, "clone-hook", { record: hookLog }, { intercept: ["before_tool"] }) });
  const ran = () => ({ extension: existsSync(started), hook: recorded(hookLog).length > 0 });
  return { cwd, home, ran };
}

const printRun = (r: ReturnType<typeof repository>, extra: string[] = []) =>
  zot(["-p", "hi", "--provider", "scripted", ...extra], { cwd: r.cwd, home: r.home });

describe("an untrusted folder", () => {
  test("-p, --json and rpc run none of its extensions and hooks, and say how to trust it", async () => {
    const r = repository();
    const print = await printRun(r);
    expect(print.code).toBe(0);
    expect(r.ran()).toEqual({ extension: false, hook: false });
    const note = `zot: this folder (${r.cwd}) is not trusted, so its .zot/extensions (clone-ext) and .zot/hooks.json did not run; to run them, trust it: zot trust ${r.cwd} (remembered), or pass --trust for this run`;
    expect(print.stderr).toContain(note);

    const json = await zot(["--json", "hi", "--provider", "scripted"], { cwd: r.cwd, home: r.home });
    expect(json.stderr).toContain(note);
    expect(ndjson(json.stdout).at(-1)).toEqual({ type: "done" });

    const rpc = await zot(["rpc", "--provider", "scripted"], { cwd: r.cwd, home: r.home, stdin: "" });
    expect(rpc.stderr).toContain(note);
    expect(r.ran()).toEqual({ extension: false, hook: false });
    // its slash command is an ordinary prompt there: no extension provides it
    const slash = await zot(["-p", "/cloned", "--provider", "scripted", "--script", script(r.cwd, "a prompt")], { cwd: r.cwd, home: r.home });
    expect(slash.stdout).toBe("a prompt\n");
    // nothing was remembered: the question stays open
    expect(existsSync(join(r.home, "trust.json"))).toBe(false);
  });

  test("names from the folder reach the terminal as text: an escape in a directory's name is dropped from the note", async () => {
    const r = repository();
    // OSC 52 (set the clipboard), then cursor up and erase line: what a hostile name would do to a terminal.
    const hostile = "\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b[1A\x1b[2K\rok\x9b31m";
    mkdirSync(join(r.cwd, ".zot", "extensions", hostile), { recursive: true });
    writeFileSync(join(r.cwd, ".zot", "extensions", hostile, "extension.json"), "{}");
    const print = await printRun(r);
    expect(print.stderr).toContain("is not trusted");
    // The 8-bit CSI (\x9b31m) is dropped whole, as the 7-bit one is.
    expect(print.stderr).toContain("(ok, clone-ext)");
    expect(print.stderr).not.toMatch(/[\x1b\x07\r\x9b]/);
  });

  test("a command file that links out of the folder is not read until the folder is trusted", async () => {
    const r = repository();
    const secret = join(tempDir("zot-trust-secret-"), "id_rsa");
    writeFileSync(secret, "PRIVATE KEY MATERIAL");
    mkdirSync(join(r.cwd, ".claude", "commands"), { recursive: true });
    symlinkSync(secret, join(r.cwd, ".claude", "commands", "deploy.md"));
    mock = startMockLlm([{ text: "sent" }, { text: "sent again" }]);
    const flags = ["--provider", "anthropic", "--api-key", "k", "--base-url", mock.url];
    const untrusted = await zot(["-p", "/deploy", ...flags], { cwd: r.cwd, home: r.home });
    expect(untrusted.stderr).toContain(`${join(r.cwd, ".claude", "commands", "deploy.md")} is a link to ${secret}, outside this folder, so it is not read until the folder is trusted`);
    expect(JSON.stringify(mock.requests[0]!.body)).not.toContain("PRIVATE KEY MATERIAL");
    const trusted = await zot(["-p", "/deploy", "--trust", ...flags], { cwd: r.cwd, home: r.home });
    expect(trusted.code).toBe(0);
    expect(JSON.stringify(mock.requests[1]!.body)).toContain("PRIVATE KEY MATERIAL");
  });

  test("--trust runs them for this run only", async () => {
    const r = repository();
    const run = await zot(["-p", "/cloned", "--trust", "--provider", "scripted"], { cwd: r.cwd, home: r.home });
    expect(run.stdout).toBe("the repository's command ran\n");
    expect(run.stderr).not.toContain("not trusted");
    expect(r.ran().extension).toBe(true);
    expect(existsSync(join(r.home, "trust.json"))).toBe(false);
    expect((await printRun(r)).stderr).toContain("is not trusted");
  });

  test("a folder without extensions or hooks says nothing about trust", async () => {
    const run = await zot(["-p", "hi", "--provider", "scripted"], { cwd: tempDir("zot-trust-plain-") });
    expect(run.stderr).not.toContain("trust");
  });

  test("global configuration ($ZOT_HOME) and --ext need no trust", async () => {
    const r = repository();
    const marks = tempDir("zot-trust-global-");
    scriptedExtension(join(r.home, "extensions"), "mine", { countfile: join(marks, "global-ext") });
    writeHooksJson(join(r.home, "hooks.json"), { "my-hook": hookProcess(marks, "my-hook", { record: join(marks, "global-hook.jsonl") }, { intercept: ["before_tool"] }) });
    const explicit = scriptedExtension(marks, "explicit", { countfile: join(marks, "explicit-ext") });
    const run = await printRun(r, ["--ext", explicit]);
    expect(run.code).toBe(0);
    expect(existsSync(join(marks, "global-ext"))).toBe(true);
    expect(existsSync(join(marks, "explicit-ext"))).toBe(true);
    expect(recorded(join(marks, "global-hook.jsonl")).length).toBeGreaterThan(0);
    expect(r.ran()).toEqual({ extension: false, hook: false });
  });
});

describe("zot trust, zot trust --list, zot untrust", () => {
  test("trusting a folder (by any spelling of it) runs its configuration from then on; untrust stops it", async () => {
    const r = repository();
    const alias = join(tempDir("zot-trust-alias-"), "link");
    symlinkSync(r.cwd, alias);
    const trusted = await zot(["trust", alias], { home: r.home });
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toBe(`trusted ${r.cwd}: its .zot/extensions (clone-ext) and .zot/hooks.json run from now on\n`);
    expect(statSync(join(r.home, "trust.json")).mode & 0o777).toBe(0o600);

    mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: "true" } }] }, { text: "ok" }]);
    const run = await zot(["-p", "/cloned"], { cwd: r.cwd, home: r.home });
    expect(run.stdout).toBe("the repository's command ran\n");
    const tool = await zot(["-p", "go", "--provider", "anthropic", "--api-key", "k", "--base-url", mock.url], { cwd: r.cwd, home: r.home });
    expect(tool.code).toBe(0);
    expect(r.ran()).toEqual({ extension: true, hook: true });

    const list = await zot(["trust", "--list"], { home: r.home });
    expect(list.stdout).toMatch(new RegExp(`^trusted   \\d{4}-\\d\\d-\\d\\d  ${r.cwd}\\n$`));
    const json = JSON.parse((await zot(["trust", "--list", "--json"], { home: r.home })).stdout);
    expect(json).toEqual([{ dir: r.cwd, trusted: true, decided: expect.any(String) }]);

    const forgot = await zot(["untrust"], { cwd: r.cwd, home: r.home });
    expect(forgot.stdout).toBe(`forgot ${r.cwd}: its extensions and hooks do not run until you trust it again (the TUI asks next time)\n`);
    expect((await printRun(r)).stderr).toContain("is not trusted");
    expect(JSON.parse((await zot(["trust", "--list", "--json"], { home: r.home })).stdout)).toEqual([]);
  });

  test("a command zot started (the model's bash call, as a folder's CLAUDE.md might ask) cannot trust the folder; the user's own terminal can", async () => {
    const r = repository();
    const turns = join(tempDir("zot-trust-turns-"), "turns.jsonl");
    writeFileSync(turns, `${JSON.stringify({ tool_calls: [{ name: "bash", args: { command: `"${ZOT}" trust .` } }] })}\n${JSON.stringify({ text: "{{last_tool_output}}" })}\n`);
    const run = await zot(["-p", "set up", "--provider", "scripted", "--script", turns], { cwd: r.cwd, home: r.home });
    expect(run.stdout).toContain("so it does not trust");
    expect(run.stdout).toContain("trust is yours to give, from your own terminal or in the TUI's question");
    expect(existsSync(join(r.home, "trust.json"))).toBe(false);
    expect((await printRun(r)).stderr).toContain("is not trusted");
    expect(r.ran()).toEqual({ extension: false, hook: false });
    expect((await zot(["trust"], { cwd: r.cwd, home: r.home })).code).toBe(0);
  });

  test("a trusted folder that is gone (deleted, moved) is untrusted by its path, so a folder made there later is asked about", async () => {
    const r = repository();
    const gone = join(tempDir("zot-trust-gone-"), "repo");
    mkdirSync(gone);
    expect((await zot(["trust", gone], { home: r.home })).code).toBe(0);
    rmSync(gone, { recursive: true });
    const forgot = await zot(["untrust", gone], { home: r.home });
    expect([forgot.code, forgot.stderr]).toEqual([0, ""]);
    expect(forgot.stdout).toStartWith(`forgot ${gone}:`);
    expect(JSON.parse((await zot(["trust", "--list", "--json"], { home: r.home })).stdout)).toEqual([]);
  });

  test("zot ext list marks an untrusted folder's extensions and hooks, and says how to trust it", async () => {
    const r = repository();
    const list = await zot(["ext", "list", "--json"], { cwd: r.cwd, home: r.home });
    const rows = JSON.parse(list.stdout);
    expect(rows.map((row: any) => [row.name, row.state])).toEqual([
      ["clone-ext", "untrusted"],
      ["clone-hook", "untrusted"],
    ]);
    expect(list.stderr).toContain(`zot: this folder is not trusted, so its extensions and hooks (state untrusted) do not run; zot trust ${r.cwd} trusts it`);
    await zot(["trust"], { cwd: r.cwd, home: r.home });
    const after = JSON.parse((await zot(["ext", "list", "--json"], { cwd: r.cwd, home: r.home })).stdout);
    expect(after.map((row: any) => row.state)).toEqual(["ok", "ok"]);
  });

  test("bad input: a missing folder, two folders, a broken store (which is left as it is and trusts nothing)", async () => {
    const r = repository();
    const missing = await zot(["trust", join(r.cwd, "nowhere")], { home: r.home });
    expect(missing.code).toBe(2);
    // The path once, as resolved.
    expect(missing.stderr).toBe(`zot: ${join(r.cwd, "nowhere")} is not a folder; give the folder to trust\n`);
    const unknown = await zot(["untrust", "nowhere"], { cwd: r.cwd, home: r.home });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`zot: ${join(r.cwd, "nowhere")} is not a folder and not in your answers (zot trust --list shows them); give the folder to untrust\n`);
    expect((await zot(["trust", r.cwd, r.cwd], { home: r.home })).code).toBe(2);

    const broken = `{"folders": {"${r.cwd}": {"trusted": true}}}`;
    writeFileSync(join(r.home, "trust.json"), broken);
    const run = await printRun(r);
    expect(run.stderr).toContain(`${join(r.home, "trust.json")} is malformed at "folders.${r.cwd}.decided"`);
    expect(r.ran()).toEqual({ extension: false, hook: false });
    const refused = await zot(["trust"], { cwd: r.cwd, home: r.home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("nothing was changed");
    expect(readFileSync(join(r.home, "trust.json"), "utf8")).toBe(broken);
  });
});

describe("code written in the jail", () => {
  test("a jailed model cannot write the extensions or hooks a later run would start, nor the trust store", async () => {
    const r = repository();
    await zot(["trust"], { cwd: r.cwd, home: r.home });
    const evil = { name: "evil", version: "1", exec: "sh", args: ["-c", "touch escaped; sleep 5"] };
    mock = startMockLlm([
      { tool_calls: [{ name: "write", args: { path: ".zot/extensions/evil/extension.json", content: JSON.stringify(evil) } }] },
      { tool_calls: [{ name: "write", args: { path: join(r.home, "trust.json"), content: "{}" } }] },
      // the folder's own .zot moved aside, and a new one put in its place (a variable gets it past the static check)
      { tool_calls: [{ name: "bash", args: { command: `z=.zo; mv \${z}t aside && mkdir -p \${z}t/extensions/evil && echo '${JSON.stringify(evil)}' > \${z}t/extensions/evil/extension.json` } }] },
      { text: "{{last_tool_result}}" },
    ]);
    const jailed = await zot(["-p", "go", "--jail", "--provider", "anthropic", "--api-key", "k", "--base-url", mock.url], { cwd: r.cwd, home: r.home });
    expect(jailed.code).toBe(0);
    expect(jailed.stdout).toContain("[jailed: this command changed executable configuration");
    const results = mock.requests.slice(1).map((req) => JSON.stringify(req.body.messages.at(-1)));
    expect(results[0]).toContain("which write may not change: zot is jailed");
    expect(results[1]).toContain("outside the working directory");
    expect(existsSync(join(r.cwd, ".zot", "extensions", "evil"))).toBe(false);
    expect(JSON.parse(readFileSync(join(r.home, "trust.json"), "utf8")).folders[r.cwd].trusted).toBe(true);

    // the next, unjailed run in the trusted folder starts nothing of the jail's
    await printRun(r);
    expect(existsSync(join(r.cwd, "escaped"))).toBe(false);
    expect(existsSync(join(r.cwd, "aside", "extensions", "clone-ext", "extension.json"))).toBe(true);
  });
});

function script(dir: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "turns.json");
  writeFileSync(file, JSON.stringify([{ text }]));
  return file;
}

describe("an empty argument (an unset variable) is no folder, file or source", () => {
  test("zot trust \"\" and zot untrust \"\" refuse instead of acting on the current folder; ext install/check and sessions show/import refuse it too", async () => {
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-cwd-");
    for (const command of ["trust", "untrust"]) {
      const run = await zot([command, ""], { home, cwd });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`zot ${command} got an empty folder (an unset variable?)`);
    }
    expect(existsSync(join(home, "trust.json"))).toBe(false);
    for (const args of [["ext", "install", ""], ["ext", "check", ""]]) {
      const run = await zot(args, { home, cwd });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`zot ext ${args[1]} takes one`);
    }
    for (const verb of ["show", "import"]) {
      const run = await zot(["sessions", verb, ""], { home, cwd });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("is empty (an unset variable?)");
    }
    const list = await zot(["sessions", "list", "--cwd", ""], { home, cwd });
    expect(list.code).toBe(2);
    expect(list.stderr).toContain("--cwd needs a value (got an empty one)");
    // --ext "" would load the folder it runs in, with no trust asked: its extension must not run.
    writeFileSync(join(cwd, "extension.json"), JSON.stringify({ name: "here", exec: "sh", args: ["-c", "touch ran"] }));
    const ext = await zot(["-p", "hi", "--provider", "scripted", "--ext", ""], { home, cwd });
    expect(ext.code).toBe(2);
    expect(ext.stderr).toContain("--ext needs an extension's directory or its extension.json (got an empty one");
    expect(existsSync(join(cwd, "ran"))).toBe(false);
  });
});

describe("several zots changing the trust store at once", () => {
  test("each answer is kept: 12 `zot trust` at once trust 12 folders, and an `untrust` among them is not undone", async () => {
    const home = tempDir("zot-trust-many-home-");
    const folders = Array.from({ length: 12 }, () => tempDir("zot-trust-many-"));
    const gone = tempDir("zot-trust-many-gone-");
    expect((await zot(["trust", gone], { home })).code).toBe(0);
    const runs = await Promise.all([...folders.map((folder) => zot(["trust", folder], { home })), zot(["untrust", gone], { home })]);
    for (const run of runs) expect(run.code).toBe(0);
    const store = JSON.parse(readFileSync(join(home, "trust.json"), "utf8"));
    for (const folder of folders) expect(Object.keys(store.folders)).toContain(realpathSync(folder));
    expect(Object.keys(store.folders)).not.toContain(realpathSync(gone));
    expect(existsSync(join(home, "trust.json.update-lock"))).toBe(false);
  });
});
