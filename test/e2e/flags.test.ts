// Every flag of the command line, as a user types it, through the compiled binary.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { cleanEnv, tempDir, ZOT, zot } from "../support/zot.ts";

let mock: MockLlm;
afterEach(() => mock?.stop());

const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];
const systemText = (body: any) => body.system.map((b: any) => b.text).join("\n");

describe("information flags", () => {
  test("--version and -v print the version", async () => {
    const pkg = await Bun.file(`${import.meta.dir}/../../package.json`).json();
    for (const flag of ["--version", "-v"]) {
      const run = await zot([flag]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`zot ${pkg.version}\n`);
    }
  });

  test("--help lists every flag", async () => {
    const run = await zot(["--help"]);
    expect(run.code).toBe(0);
    for (const flag of ["--print", "--json", "--provider", "--model", "--api-key", "--base-url", "--system-prompt",
      "--append-system-prompt", "--reasoning", "--cwd", "--no-tools", "--tools", "--max-steps", "--list-models", "--script"]) {
      expect(run.stdout).toContain(flag);
    }
  });

  test("--list-models into a pipe prints the original zot's lines, which programs written for it parse (zot-chrome-operator's pattern), a model without a name under its id", async () => {
    const home = tempDir("zot-home-");
    await Bun.write(`${home}/models.json`, JSON.stringify({ providers: { ollama: { models: [{ id: "qwen-local", contextWindow: 65536 }] } } }));
    const run = await zot(["--list-models"], { home });
    const [header, ...rows] = run.stdout.trimEnd().split("\n");
    expect(header).toBe("provider   model id                       context  max-out  reasoning  source        name");
    const pattern = /^(\S+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(✓)?\s*\s+(\S+)\s+(.+)$/;
    const parsed = rows.map((row) => pattern.exec(row));
    expect(parsed.every(Boolean)).toBe(true);
    expect([...parsed.find((m) => m![2] === "qwen-local")!].slice(1) as unknown[]).toEqual(["ollama", "qwen-local", "65536", "8192", undefined, "user", "qwen-local"]);
    expect(parsed.find((m) => m![2] === "claude-sonnet-4-5")![5]).toBe("✓");
  });

  test("the original zot's providers zot does not have are refused with what to use instead (its rpc clients start zot rpc --provider kimi)", async () => {
    for (const [provider, instead] of [
      ["openai-codex", "zot has no ChatGPT subscription sign-in; use --provider openai with an API key"],
      ["deepseek", "--provider openai --base-url https://api.deepseek.com/v1"],
      ["kimi", "--provider openai --base-url https://api.moonshot.ai/v1"],
    ]) {
      for (const args of [["-p", "hi", "--provider", provider!], ["rpc", "--provider", provider!]]) {
        const run = await zot(args);
        expect([args.join(" "), run.code]).toEqual([args.join(" "), 2]);
        expect(run.stderr).toContain(`--provider must be one of anthropic, openai, ollama, scripted (got "${provider}"): `);
        expect(run.stderr).toContain(instead!);
      }
    }
  });

  test("--list-models in a terminal is the table for a person: short sizes and prices", async () => {
    const { PtySession } = await import("../support/pty.ts");
    const session = new PtySession([ZOT, "--list-models"], { cols: 160, rows: 60, env: cleanEnv(tempDir("zot-home-")) });
    expect(await session.proc.exited).toBe(0);
    expect(session.output).toContain("$in/M");
    expect(session.output).toMatch(/claude-sonnet-4-5 +\S+ +64K/);
  });

  test("--list-models prints the catalog with prices, and models.json adds to it", async () => {
    const home = tempDir("zot-home-");
    await Bun.write(
      `${home}/models.json`,
      JSON.stringify({ providers: { ollama: { models: [{ id: "qwen-local", contextWindow: 65536 }] } } }),
    );
    const run = await zot(["--list-models"], { home });
    expect(run.code).toBe(0);
    for (const id of ["claude-sonnet-4-5", "claude-opus-4-5", "gpt-5", "gpt-4.1", "qwen-local"]) expect(run.stdout).toContain(id);
    const only = await zot(["--list-models", "--provider", "openai"], { home });
    expect(only.stdout).toContain("gpt-5");
    expect(only.stdout).not.toContain("claude-sonnet-4-5");
  });

  test("--list-models --provider ollama with none configured says how to use and list them", async () => {
    const home = tempDir("zot-home-");
    const run = await zot(["--list-models", "--provider", "ollama"], { home });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("--provider ollama --model llama3.2");
    expect(run.stderr).toContain(`${home}/models.json`);
  });
});

describe("bad usage exits 2 with a message naming what is valid", () => {
  test("an unknown flag", async () => {
    const run = await zot(["-p", "hi", "--modle", "x"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown flag "--modle"');
    expect(run.stderr).toContain("--model");
  });

  test("a --base-url that is no http(s) URL, and an empty --model, --cwd or --provider, stop before the start", async () => {
    for (const [flags, message] of [
      [["--base-url", "notaurl"], '--base-url takes the server\'s URL, http:// or https:// (as https://api.anthropic.com or http://localhost:11434); got "notaurl"'],
      [["--base-url", "ftp://host"], "--base-url takes the server's URL"],
      [["--model", ""], "--model needs a value (got an empty one)"],
      [["--cwd", " "], "--cwd needs a value (got an empty one)"],
      [["--provider", ""], '--provider must be one of anthropic, openai, ollama, scripted (got "")'],
    ] as const) {
      const run = await zot(["-p", "hi", "--api-key", "k", ...flags]);
      expect([flags, run.code]).toEqual([flags, 2]);
      expect(run.stderr).toContain(`zot: ${message}`);
    }
  });

  test("a base URL variable without its scheme, or a models.json baseUrl, is judged as --base-url is: the same sentence, exit 2, before the key", async () => {
    for (const [env, message] of [
      [{ OPENAI_BASE_URL: "127.0.0.1:1234/v1", OPENAI_API_KEY: "k" }, 'OPENAI_BASE_URL takes the server\'s URL, http:// or https:// (as https://api.anthropic.com or http://localhost:11434); got "127.0.0.1:1234/v1"'],
      // No key at all: the variable is what is wrong first.
      [{ OPENAI_BASE_URL: "localhost:1234/v1" }, 'OPENAI_BASE_URL takes the server\'s URL, http:// or https:// (as https://api.anthropic.com or http://localhost:11434); got "localhost:1234/v1"'],
    ] as const) {
      const run = await zot(["-p", "hi", "--model", "gpt-4.1"], { env });
      expect([env, run.code]).toEqual([env, 2]);
      expect(run.stderr).toBe(`zot: ${message}\n`);
    }
    const anthropic = await zot(["-p", "hi"], { env: { ANTHROPIC_BASE_URL: "localhost:8080", ANTHROPIC_API_KEY: "k" } });
    expect([anthropic.code, anthropic.stderr]).toEqual([2, 'zot: ANTHROPIC_BASE_URL takes the server\'s URL, http:// or https:// (as https://api.anthropic.com or http://localhost:11434); got "localhost:8080"\n']);
    // --base-url wins over the variable, which is then not read.
    const flag = await zot(["-p", "hi", "--base-url", "http://127.0.0.1:9", "--provider", "scripted"], { env: { ANTHROPIC_BASE_URL: "localhost:8080" } });
    expect(flag.stderr).not.toContain("ANTHROPIC_BASE_URL");
    const home = tempDir("zot-flags-models-");
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { openai: { models: [{ id: "qwen-local", baseUrl: "127.0.0.1:1234/v1" }] } } }));
    const models = await zot(["-p", "hi", "--model", "qwen-local", "--provider", "openai"], { home, env: { OPENAI_API_KEY: "k" } });
    expect(models.code).toBe(2);
    expect(models.stderr).toContain(`zot: ${join(home, "models.json")}: field "providers.openai.models[0].baseUrl" takes the server's URL, http:// or https://`);
    expect(models.stderr).not.toContain("api.openai.com");
  });

  test("--ext naming a folder that is not there (a guard's name mistyped) stops the run before any tool runs", async () => {
    const cwd = tempDir("zot-flags-ext-");
    const turns = join(cwd, "turns.json");
    writeFileSync(turns, JSON.stringify([{ tool_calls: [{ name: "bash", args: { command: "touch ran" } }] }, { text: "done" }]));
    for (const mode of [["-p", "go"], ["--json", "go"]]) {
      const run = await zot(["-e", "./gaurd", ...mode, "--provider", "scripted", "--script", turns], { cwd });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`--ext ./gaurd: ${join(cwd, "gaurd")} does not exist`);
    }
    expect(existsSync(join(cwd, "ran"))).toBe(false);
    // There, but no extension: an empty folder, a plain file, a manifest that is not JSON.
    mkdirSync(join(cwd, "empty"));
    writeFileSync(join(cwd, "notes.txt"), "x");
    mkdirSync(join(cwd, "broken"));
    writeFileSync(join(cwd, "broken", "extension.json"), "{ broken");
    for (const [ext, message] of [
      ["./empty", `${join(cwd, "empty")} has no extension.json, so it is no extension`],
      ["./notes.txt", `${join(cwd, "notes.txt")} is a file, not an extension`],
      ["./broken", `${join(cwd, "broken", "extension.json")} cannot be read as JSON`],
    ]) {
      const run = await zot(["-e", ext!, "-p", "go", "--provider", "scripted", "--script", turns], { cwd });
      expect([ext, run.code]).toEqual([ext, 2]);
      expect(run.stderr).toContain(message!);
    }
    expect(existsSync(join(cwd, "ran"))).toBe(false);
  });

  test("a prompt that starts with \"-\" is said as typed, with how to pass it (after --), which works", async () => {
    const refused = await zot(["-p", "-v is broken"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`zot: "-v is broken" is not a flag; a prompt that starts with "-" goes after --, which ends the flags: zot -p -- '-v is broken'\n`);
    const long = await zot(["-p", "--verbose flag is missing"]);
    expect(long.stderr).toContain(`"--verbose flag is missing" is not a flag`);
    mock = startMockLlm([{ text: "fixed" }]);
    const run = await zot(["-p", ...anthropic(mock), "--", "-v is broken"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("fixed\n");
    expect(JSON.stringify(mock.requests[0]!.body.messages)).toContain('"-v is broken"');
  });

  test("an unknown provider lists the valid ones", async () => {
    const run = await zot(["-p", "hi", "--provider", "gemini"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("anthropic, openai, ollama, scripted");
  });

  test("a model the catalog does not know is sent as asked, with one note naming models.json", async () => {
    mock = startMockLlm([{ text: "new model says hi" }]);
    const run = await zot(["-p", "hi", ...anthropic(mock), "--model", "claude-9"]);
    expect(run.code).toBe(0);
    expect(mock.requests[0].body.model).toBe("claude-9");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain('model "claude-9" is not in zot\'s catalog');
    expect(run.stderr).toContain("models.json");
  });

  test("--script with another provider is an error, whether or not the file exists", async () => {
    for (const file of ["/definitely/missing.jsonl", "/dev/null"]) {
      const run = await zot(["-p", "hi", "--provider", "anthropic", "--api-key", "k", "--script", file]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("--script plays the scripted provider");
    }
  });

  test("bad values for --reasoning, --max-steps, --tools, --cwd", async () => {
    const cases: [string[], string][] = [
      [["--reasoning", "extreme"], "low, medium, high, xhigh, max"],
      [["--max-steps", "0"], "--max-steps"],
      [["--max-steps", "abc"], "--max-steps"],
      [["--tools", "read,grep"], '"grep"'],
      [["--tools", "Read,Grep"], 'unknown tool "Grep" (Grep is a tool of Claude Code\'s that zot does not have: zot searches with bash (rg, grep)); built-in tools are read, write, edit, bash, skill (by Claude Code\'s names: Read, Write, Edit or MultiEdit, Bash, Skill)'],
      // Each tool its own hint: WebFetch is fetched with bash, a Task is no search at all.
      [["--tools", "WebFetch,Task,TodoWrite"], "(WebFetch, Task, TodoWrite are tools of Claude Code's that zot does not have: WebFetch: zot fetches a page with bash (curl); Task: zot runs no sub-agents; TodoWrite: zot keeps no to-do list)"],
      [["--cwd", "/definitely/not/here"], "not a directory"],
      [["--model"], "--model needs a value"],
    ];
    for (const [args, message] of cases) {
      const run = await zot(["-p", "hi", "--provider", "scripted", ...args]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
    }
  });

  test("no prompt at all", async () => {
    const run = await zot(["-p"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("no prompt");
  });

  test("in a terminal (the TUI's path) a bad flag is still a usage error, before anything is drawn", async () => {
    let screen = "";
    const proc = Bun.spawn([ZOT, "--max-steps", "0"], {
      env: cleanEnv(tempDir("zot-home-")),
      terminal: { cols: 100, rows: 10, data: (_t, data) => { screen += new TextDecoder().decode(data); } },
    });
    expect(await proc.exited).toBe(2);
    await Bun.sleep(50);
    expect(screen).toContain("--max-steps must be a positive whole number");
    expect(screen).not.toContain("\x1b[?2026h");
  });
});

describe("flags that shape the request", () => {
  test("--system-prompt replaces the identity; --append-system-prompt adds, repeatably, in order", async () => {
    mock = startMockLlm([{ text: "a" }, { text: "b" }]);
    await zot(["-p", "hi", ...anthropic(mock), "--system-prompt", "You are a pirate."]);
    const replaced = systemText(mock.requests[0].body);
    expect(replaced).toStartWith("You are a pirate.");
    expect(replaced).not.toContain("You are zot");

    await zot(["-p", "hi", ...anthropic(mock), "--append-system-prompt", "FIRST-EXTRA", "--append-system-prompt", "SECOND-EXTRA"]);
    const appended = systemText(mock.requests[1].body);
    expect(appended).toContain("FIRST-EXTRA");
    expect(appended.indexOf("FIRST-EXTRA")).toBeLessThan(appended.indexOf("SECOND-EXTRA"));
  });

  test("$ZOT_HOME/SYSTEM.md replaces the default identity; AGENTS.md from the cwd is included", async () => {
    mock = startMockLlm([{ text: "a" }]);
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-cwd-");
    await Bun.write(`${home}/SYSTEM.md`, "Custom identity from SYSTEM.md");
    await Bun.write(`${cwd}/AGENTS.md`, "Always run the linter.");
    await zot(["-p", "hi", ...anthropic(mock)], { home, cwd });
    const system = systemText(mock.requests[0].body);
    expect(system).toStartWith("Custom identity from SYSTEM.md");
    expect(system).toContain("Always run the linter.");
    expect(system).toContain(realpathSync(cwd));
  });

  test("--no-tools sends no tools; --tools sends only those", async () => {
    mock = startMockLlm([{ text: "a" }, { text: "b" }]);
    await zot(["-p", "hi", ...anthropic(mock), "--no-tools"]);
    expect(mock.requests[0].body.tools ?? []).toEqual([]);
    await zot(["-p", "hi", ...anthropic(mock), "--tools", "read,bash"]);
    expect(mock.requests[1].body.tools.map((t: any) => t.name)).toEqual(["bash", "read"]);
  });

  test("--reasoning on a model zot does not know to reason is said on stderr, not dropped silently; models.json's reasoning turns it on", async () => {
    mock = startMockLlm([{ text: "a" }, { text: "b" }]);
    const home = tempDir("zot-home-");
    const ollama = ["--provider", "ollama", "--model", "deepseek-r1", "--base-url", `${mock.url}/v1`, "--reasoning", "high"];
    const plain = await zot(["-p", "think", ...ollama], { home });
    expect(plain.stderr).toContain("--reasoning high is not sent: deepseek-r1 is not one zot knows to reason");
    expect(mock.requests[0].body.reasoning_effort).toBeUndefined();
    writeFileSync(join(home, "models.json"), JSON.stringify({ providers: { ollama: { models: [{ id: "deepseek-r1", reasoning: true }] } } }));
    const told = await zot(["-p", "think", ...ollama], { home });
    expect(told.stderr).not.toContain("is not sent");
    expect(mock.requests[1].body.reasoning_effort).toBe("high");
  });

  test("--reasoning max on an OpenAI model is sent as high, and stderr says so; a Claude model takes it as it is", async () => {
    mock = startMockLlm([{ text: "a" }, { text: "b" }]);
    const openai = await zot(["-p", "think", "--provider", "openai", "--api-key", "k", "--base-url", `${mock.url}/v1`, "--reasoning", "max"]);
    expect(openai.stderr).toContain("--reasoning max is sent to gpt-6.1-sol as high");
    expect(mock.requests[0].body.reasoning).toEqual({ effort: "high", summary: "auto" });
    const claude = await zot(["-p", "think", ...anthropic(mock), "--reasoning", "max"]);
    expect(claude.stderr).not.toContain("--reasoning");
    expect(mock.requests[1].body.output_config).toEqual({ effort: "max" });
  });

  test("the original zot's reasoning words, as its rpc clients pass them: off asks for no level, minimum is low, maximum is max (zot rpc --reasoning off starts)", async () => {
    mock = startMockLlm([{ text: "a" }, { text: "b" }, { text: "c" }, { text: "d" }, { text: "e" }]);
    // off asks for no level: the request is the one without --reasoning (the model's own default).
    await zot(["-p", "hi", ...anthropic(mock), "--reasoning", "off"]);
    await zot(["-p", "hi", ...anthropic(mock)]);
    const shape = (body: any) => ({ thinking: body.thinking, output_config: body.output_config });
    expect(shape(mock.requests[0].body)).toEqual(shape(mock.requests[1].body));
    expect(mock.requests[0].body.output_config).toBeUndefined();
    await zot(["-p", "hi", ...anthropic(mock), "--reasoning", "maximum"]);
    expect(mock.requests[2].body.output_config).toEqual({ effort: "max" });
    await zot(["-p", "hi", ...anthropic(mock), "--reasoning", "minimum"]);
    expect(mock.requests[3].body.output_config).toEqual({ effort: "low" });
    // --effort, Claude Code's name for it, takes the same words
    expect((await zot(["-p", "hi", ...anthropic(mock), "--effort", "maximum"])).code).toBe(0);
    expect(mock.requests[4].body.output_config).toEqual({ effort: "max" });
    for (const word of ["off", "minimum", "maximum"]) {
      const rpc = await zot(["rpc", ...anthropic(mock), "--reasoning", word], { stdin: `${JSON.stringify({ id: "1", type: "ping" })}\n` });
      expect([word, rpc.code]).toEqual([word, 0]);
      expect(rpc.stdout).toContain('"command":"ping","success":true');
    }
  });

  test("--reasoning turns on thinking for a reasoning model: a budget for one that takes it, output_config.effort for an adaptive one (the default)", async () => {
    mock = startMockLlm([{ thinking: "hmm", text: "a" }, { text: "b" }, { thinking: "hmm", text: "c" }, { text: "d" }]);
    await zot(["-p", "hi", ...anthropic(mock), "--model", "claude-sonnet-4-6", "--reasoning", "medium"]);
    expect(mock.requests[0].body.thinking).toEqual({ type: "enabled", budget_tokens: 8192 });
    expect(mock.requests[0].body.output_config).toBeUndefined();
    await zot(["-p", "hi", ...anthropic(mock), "--model", "claude-sonnet-4-6"]);
    expect(mock.requests[1].body.thinking).toBeUndefined();
    // The default, claude-sonnet-5-5, refuses a budget: the level is its effort. It thinks unasked
    // (summarized, dropping a thinking block whose prefix changed), so only the effort says a level was asked.
    const adaptive = { type: "adaptive", display: "summarized", block_binding: { prefix_mismatch_behavior: "drop_block" } };
    await zot(["-p", "hi", ...anthropic(mock), "--reasoning", "medium"]);
    expect(mock.requests[2].body).toMatchObject({ model: "claude-sonnet-5-5", thinking: adaptive, output_config: { effort: "medium" } });
    expect(mock.requests[2].body.thinking).toEqual(adaptive);
    await zot(["-p", "hi", ...anthropic(mock)]);
    expect(mock.requests[3].body.thinking).toEqual(adaptive);
    expect(mock.requests[3].body.output_config).toBeUndefined();
  });

  test("--cwd is where tools run", async () => {
    const dir = tempDir("zot-elsewhere-");
    mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: "pwd" } }] }, { text: "{{last_tool_result}}" }]);
    const run = await zot(["-p", "where?", ...anthropic(mock), "--cwd", dir]);
    expect(run.stdout).toContain(realpathSync(dir));
  });

  test("--model picks the model; --script plays a scripted conversation", async () => {
    mock = startMockLlm([{ text: "a" }]);
    await zot(["-p", "hi", ...anthropic(mock), "--model", "claude-haiku-4-5"]);
    expect(mock.requests[0].body.model).toBe("claude-haiku-4-5");

    const dir = tempDir("zot-script-");
    await Bun.write(`${dir}/turns.jsonl`, [
      JSON.stringify({ tool_calls: [{ name: "bash", args: { command: "echo scripted-tool-ran" } }] }),
      JSON.stringify({ text: "Result: {{last_tool_result}}" }),
    ].join("\n"));
    const run = await zot(["-p", "go", "--script", `${dir}/turns.jsonl`]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("scripted-tool-ran");
  });

  test("a broken --script file is reported with its line, exit 2", async () => {
    const dir = tempDir("zot-script-");
    await Bun.write(`${dir}/bad.jsonl`, `{"text":"ok"}\n{"text": 5}\n`);
    const run = await zot(["-p", "go", "--script", `${dir}/bad.jsonl`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("bad.jsonl");
    expect(run.stderr).toContain("2");
  });
});

// A user the password database does not know (a container's arbitrary uid), with HOME unset: as root
// this suite can be that user through setpriv; as another user it cannot, and the test is skipped.
const canBeNobodyKnown = process.getuid?.() === 0 && Bun.which("setpriv") !== null;
test.skipIf(!canBeNobodyKnown)("with HOME unset and no password entry, zot says so and how to fix it (exit 2), not a runtime error", () => {
  const base = tempDir("zot-nohome-");
  chmodSync(base, 0o755);
  const binary = join(base, "zot");
  copyFileSync(ZOT, binary);
  chmodSync(binary, 0o755);
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
  const run = Bun.spawnSync(["setpriv", "--reuid=54321", "--regid=54321", "--clear-groups", binary, "-p", "hi", "--provider", "scripted"], { cwd: base, env, stdout: "pipe", stderr: "pipe" });
  expect(run.exitCode).toBe(2);
  const sentence = "cannot tell your home directory: HOME is not set and user 54321 has no entry in the password database; set HOME (HOME=/some/dir zot …)";
  expect(run.stderr.toString()).toBe(`zot: ${sentence}\n`);
  // Help needs no home.
  const help = Bun.spawnSync(["setpriv", "--reuid=54321", "--regid=54321", "--clear-groups", binary, "--help"], { cwd: base, env, stdout: "pipe", stderr: "pipe" });
  expect(help.exitCode).toBe(0);
  expect(help.stdout.toString()).toContain("zot -p");
  // A script reading --json still gets its error and done.
  const json = Bun.spawnSync(["setpriv", "--reuid=54321", "--regid=54321", "--clear-groups", binary, "--json", "hi", "--provider", "scripted"], { cwd: base, env, stdout: "pipe", stderr: "pipe" });
  expect(json.stdout.toString()).toBe(`${JSON.stringify({ type: "error", message: sentence, code: "not_started" })}\n{"type":"done"}\n`);
});

describe("what Codex and pi users type", () => {
  test("their flags and commands stop with zot's way (exit 2, nothing sent to a model); Codex's -c key=value is not taken for --continue", async () => {
    mock = startMockLlm(Array.from({ length: 6 }, () => ({ text: "answered" })));
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-cwd-");
    await zot(["-p", "an earlier, unrelated conversation", ...anthropic(mock)], { home, cwd });
    const cases: [string[], string][] = [
      [["-c", "model=o3", "fix the failing test"], "-c model=o3 reads as Codex's config override"],
      [["--full-auto", "-p", "go"], "--full-auto is Codex's, and zot does not take it: zot runs tool calls unasked by default"],
      [["-s", "read-only", "-p", "go"], "-s is Codex's (--sandbox), and zot does not take it: --jail confines"],
      [["-p", "go", "-o", "out.txt"], 'zot -p prints the final answer on stdout: zot -p "…" > FILE'],
      [["--mode", "json", "go"], "--mode is pi's, and zot does not take it: --json streams zot's events"],
      [["resume", "--last"], "--last is Codex's (resume --last), and zot does not take it: zot -c continues the newest session"],
      [["exec", "summarize the repository"], "`exec` is Codex's command; zot -p \"…\" prints the answer"],
      [["install", "npm:@someone/pi-tools"], "`install` is pi's command; zot's extensions are zot ext install"],
      [["login"], "`login` is Codex's and pi's command"],
      [["-p", "--thinking", "banana", "go"], "--thinking takes pi's levels (off, minimal, low, medium, high, xhigh)"],
    ];
    // A prompt that is one of their words, and a flag's value that looks like one of their flags, are not theirs.
    for (const args of [["-p", "review"], ["-p", "list"], ["-p", "update"], ["-p", "go", "--append-system-prompt=-a"]]) {
      const run = await zot([...args, ...anthropic(mock)], { home, cwd });
      expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 0, stderr: "" });
    }
    const value = await zot(["-p", "go", "--append-system-prompt", "-a", ...anthropic(mock)], { home, cwd });
    expect(value.stderr).toContain("write --append-system-prompt=-a"); // zot's own answer, not "-a is Codex's"
    for (const [args, said] of cases) {
      const run = await zot([...args, ...anthropic(mock)], { home, cwd });
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr).toContain(said);
    }
    expect(mock.requests).toHaveLength(5); // the first run, then the four prompts above
  });

  test("pi's --thinking <level> asks for thinking as --reasoning does; Claude Code's --thinking modes are accepted", async () => {
    mock = startMockLlm([{ text: "a" }, { text: "b" }, { text: "c" }]);
    await zot(["-p", "go", "--thinking", "high", ...anthropic(mock), "--model", "claude-sonnet-4-5"]);
    await zot(["-p", "go", "--reasoning", "high", ...anthropic(mock), "--model", "claude-sonnet-4-5"]);
    expect(mock.requests[0]!.body.thinking).toEqual(mock.requests[1]!.body.thinking);
    expect(mock.requests[0]!.body.thinking).toMatchObject({ type: "enabled" });
    const claude = await zot(["-p", "go", "--thinking", "adaptive", ...anthropic(mock), "--model", "claude-sonnet-4-5"]);
    expect(claude.code).toBe(0);
    expect(mock.requests[2]!.body.thinking).toBeUndefined();
    const both = await zot(["-p", "go", "--thinking", "high", "--reasoning", "low", ...anthropic(mock)]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--reasoning and --thinking are the same setting; give one");
  });
});
