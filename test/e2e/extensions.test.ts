// Extensions through the compiled binary: slash commands from -p and --json, notes, tools in the
// loop, interception a user can see, crashes, --ext / --no-ext, and bash, node and TypeScript
// extensions (the TypeScript one run by the zot binary itself).
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { programExtension, scriptedExtension } from "../fixtures/extensions/make.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { trustDir, trustedProject } from "../support/trust.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";
import { VERSION } from "../../src/version.ts";

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];

/** The text of the newest user message of an Anthropic request (prompt or tool results). */
function lastUserText(body: any): string {
  const content = body.messages.at(-1).content;
  return typeof content === "string" ? content : JSON.stringify(content);
}

function weather(parent: string, extra: Record<string, unknown> = {}) {
  const commands = {
    weather: { eval: "{'action': 'display', 'display': f['args'].capitalize() + ': sunny'}" },
    ask: { eval: "{'action': 'prompt', 'prompt': 'What is the weather in ' + f['args'] + '?'}" },
    draft: { action: "insert", insert: "draft text" },
    quiet: { action: "noop" },
    broken: { action: "display", error: "city not found" },
  };
  return scriptedExtension(parent, "weather", {
    after_hello: Object.keys(commands).map((name) => ({ type: "register_command", name })),
    commands,
    ...extra,
  });
}

describe("slash commands from -p", () => {
  test("display: printed on stdout, no model call", async () => {
    const { cwd, home } = trustedProject("zot-e2e-ext-");
    weather(join(cwd, ".zot", "extensions"));
    mock = startMockLlm([]);
    const run = await zot(["-p", "/weather berlin", ...anthropic(mock)], { cwd, home });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("Berlin: sunny\n");
    expect(run.code).toBe(0);
    expect(mock.requests).toHaveLength(0);
  });

  test("prompt: the command's prompt is the turn", async () => {
    const { cwd, home } = trustedProject("zot-e2e-ext-");
    weather(join(cwd, ".zot", "extensions"));
    mock = startMockLlm([{ text: "Foggy in Oslo." }]);
    const run = await zot(["-p", "/ask Oslo", ...anthropic(mock)], { cwd, home });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Foggy in Oslo.\n");
    expect(lastUserText(mock.requests[0].body)).toContain("What is the weather in Oslo?");
    expect(lastUserText(mock.requests[0].body)).not.toContain("/ask");
  });

  test("insert: printed on stdout (there is no editor); noop: nothing; error: stderr and exit 1", async () => {
    const { cwd, home } = trustedProject("zot-e2e-ext-");
    weather(join(cwd, ".zot", "extensions"));
    const insert = await zot(["-p", "/draft", "--provider", "scripted"], { cwd, home });
    expect([insert.code, insert.stdout]).toEqual([0, "draft text\n"]);
    const noop = await zot(["-p", "/quiet", "--provider", "scripted"], { cwd, home });
    expect([noop.code, noop.stdout, noop.stderr]).toEqual([0, "", ""]);
    const error = await zot(["-p", "/broken", "--provider", "scripted"], { cwd, home });
    expect(error.code).toBe(1);
    expect(error.stdout).toBe("");
    expect(error.stderr).toBe("zot: /broken (extension weather): city not found\n");
  });

  test("a /word that is no registered command goes to the model as a prompt", async () => {
    const { cwd, home } = trustedProject("zot-e2e-ext-");
    weather(join(cwd, ".zot", "extensions"));
    mock = startMockLlm([{ text: "Let me look." }]);
    const run = await zot(["-p", "/etc/hosts is broken", ...anthropic(mock)], { cwd, home });
    expect(run.code).toBe(0);
    expect(lastUserText(mock.requests[0].body)).toContain("/etc/hosts is broken");
    mock.push({ text: "Unknown command, so a prompt." });
    const unknown = await zot(["-p", "/nosuchcommand now", ...anthropic(mock)], { cwd, home });
    expect(unknown.stdout).toBe("Unknown command, so a prompt.\n");
    expect(lastUserText(mock.requests[1].body)).toContain("/nosuchcommand now");
  });

  test("one of the TUI's own commands (/model, /jump) is not sent to the model: stderr says what does it in a script, exit 1", async () => {
    mock = startMockLlm([{ text: "never" }]);
    for (const prompt of ["/model opus", "/jump 2"]) {
      const run = await zot(["-p", prompt, ...anthropic(mock)]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`/${prompt.slice(1).split(" ")[0]} is a command of zot's interactive TUI and does nothing here, so it was not sent to the model`);
    }
    expect(mock.requests).toHaveLength(0);
  });
});

describe("--json", () => {
  test("a command is a command_result event; a prompt answer is followed by its turn; notes are ext_notify events", async () => {
    const { cwd, home } = trustedProject("zot-e2e-ext-");
    weather(join(cwd, ".zot", "extensions"), {
      on_ack: [{ type: "notify", level: "warn", message: "api key expires soon" }],
    });
    const display = await zot(["--json", "/weather paris", "--provider", "scripted"], { cwd, home });
    expect(display.code).toBe(0);
    const events = ndjson(display.stdout);
    expect(events).toContainEqual({ type: "ext_notify", extension: "weather", level: "warn", message: "api key expires soon" });
    expect(events).toContainEqual({ type: "command_result", command: "weather", extension: "weather", action: "display", text: "Paris: sunny" });
    expect(events.some((e) => e.type === "turn_start")).toBe(false);
    // Every unit of work ends with done, one that never reached the model too; rpc's ext_display is not in --json.
    expect(events.at(-1)).toEqual({ type: "done" });
    expect(events.some((e) => e.type === "ext_display")).toBe(false);

    mock = startMockLlm([{ text: "Rainy." }]);
    const prompt = await zot(["--json", "/ask Rome", ...anthropic(mock)], { cwd, home });
    const types = ndjson(prompt.stdout).map((e) => e.type);
    expect(types.indexOf("command_result")).toBeLessThan(types.indexOf("user_message"));
    expect(types.at(-1)).toBe("done");

    const error = await zot(["--json", "/broken", "--provider", "scripted"], { cwd, home });
    expect(error.code).toBe(1);
    expect(ndjson(error.stdout)).toContainEqual({ type: "command_result", command: "broken", extension: "weather", action: "error", text: "city not found" });
    expect(ndjson(error.stdout).at(-1)).toEqual({ type: "done" });
    expect(error.stderr).toContain("zot: /broken (extension weather): city not found");
  });
});

describe("notes, tools and interception", () => {
  test("notify in -p goes to stderr as [ext] level: message, its escapes dropped", async () => {
    const { cwd, home } = trustedProject("zot-e2e-ext-");
    scriptedExtension(join(cwd, ".zot", "extensions"), "noisy", {
      on_ack: [{ type: "subscribe", events: ["turn_end"] }, { type: "notify", message: "hello there" }, { type: "notify", message: "a \x1b]52;c;UFdORUQ=\x07b\x1b]0;TITLE\x07c" }],
      on_event: { turn_end: [{ type: "notify", level: "error", message: "turn over" }] },
    });
    mock = startMockLlm([{ text: "Answer." }]);
    const run = await zot(["-p", "hi", ...anthropic(mock)], { cwd, home });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Answer.\n");
    expect(run.stderr).toContain("[noisy] info: hello there\n");
    // its escapes (the clipboard, the title) are not written to the terminal stderr is
    expect(run.stderr).toContain("[noisy] info: a bc\n");
  });

  test("an extension tool in the loop; a crash mid call reaches the model at once as an error", async () => {
    const { cwd, home } = trustedProject("zot-e2e-ext-");
    scriptedExtension(join(cwd, ".zot", "extensions"), "weather", {
      after_hello: [
        { type: "register_tool", name: "forecast", description: "weather for a city", schema: { type: "object", properties: { city: { type: "string" } } } },
        { type: "register_tool", name: "explode" },
      ],
      tools: {
        forecast: { eval: "{'content': [{'type': 'text', 'text': f['args']['city'] + ': 16C fog'}]}" },
        explode: { exit: 1 },
      },
    });
    mock = startMockLlm([
      { tool_calls: [{ name: "forecast", args: { city: "Berlin" } }] },
      { tool_calls: [{ name: "explode", args: {} }] },
      { text: "Done: {{last_tool_result}}" },
    ]);
    const run = await zot(["--json", "weather?", ...anthropic(mock)], { cwd, home });
    expect(run.code).toBe(0);
    expect(mock.requests[0].body.tools.map((t: any) => t.name)).toEqual(["bash", "edit", "explode", "forecast", "read", "skill", "write"]);
    const results = ndjson(run.stdout).filter((e) => e.type === "tool_result");
    expect(results[0]).toMatchObject({ name: "forecast", extension: "weather", is_error: false, content: [{ type: "text", text: "Berlin: 16C fog" }] });
    expect(results[1]).toMatchObject({
      name: "explode",
      extension: "weather",
      is_error: true,
      content: [{ type: "text", text: "extension weather/explode failed: the extension exited (code 1)" }],
    });
    expect(lastUserText(mock.requests[2].body)).toContain("the extension exited (code 1)");
  });

  test("a turn_start block: the reason on stderr in -p, in turn_end and error events in --json", async () => {
    const { cwd, home } = trustedProject("zot-e2e-ext-");
    scriptedExtension(join(cwd, ".zot", "extensions"), "hours", {
      after_hello: [{ type: "subscribe", intercept: ["turn_start"] }],
      intercept: { turn_start: { block: true, reason: "outside business hours" } },
    });
    mock = startMockLlm([]);
    const print = await zot(["-p", "hi", ...anthropic(mock)], { cwd, home });
    expect(print.code).toBe(1);
    expect(print.stderr).toContain("zot: turn blocked by hours: outside business hours");
    const json = await zot(["--json", "hi", ...anthropic(mock)], { cwd, home });
    expect(json.code).toBe(1);
    const events = ndjson(json.stdout);
    expect(events).toContainEqual({ type: "turn_end", stop: "error", error: "outside business hours", code: "blocked" });
    expect(events).toContainEqual({ type: "error", message: "turn blocked by hours: outside business hours", code: "blocked" });
    expect(events).toContainEqual({ type: "intercept", participant: "hours", stage: "turn_start", action: "block", reason: "outside business hours" });
    expect(mock.requests).toHaveLength(0);
  });

  test("replace_text changes the -p answer; a blocked tool call's reason reaches the model", async () => {
    const { cwd, home } = trustedProject("zot-e2e-ext-");
    scriptedExtension(join(cwd, ".zot", "extensions"), "guard", {
      after_hello: [{ type: "subscribe", intercept: ["tool_call", "assistant_message"] }],
      intercept: {
        tool_call: { block: true, reason: "no shell today" },
        assistant_message: { eval: "{'replace_text': f['text'].replace('hunter2', '[redacted]')}" },
      },
    });
    mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: "touch made-it" } }] }, { text: "The password is hunter2." }]);
    const run = await zot(["-p", "go", ...anthropic(mock)], { cwd, home });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("The password is [redacted].\n");
    expect(existsSync(join(cwd, "made-it"))).toBe(false);
    expect(lastUserText(mock.requests[1].body)).toContain("no shell today");
    // --json: the intercept event names the change without repeating what was masked.
    mock = startMockLlm([{ text: "The password is hunter2." }]);
    const json = await zot(["--json", "go", ...anthropic(mock)], { cwd, home });
    const intercept = ndjson(json.stdout).find((e) => e.type === "intercept" && e.stage === "assistant_message");
    expect(intercept).toMatchObject({ action: "modify", before: "the model's text (24 characters), not repeated", after: "The password is [redacted]." });
    expect(JSON.stringify(ndjson(json.stdout).filter((e) => e.type === "intercept" || e.type === "assistant_message"))).not.toContain("hunter2");
  });

  test("respond answers for a built-in tool only with allow_builtin_respond (else the command runs, as it would be confirmed)", async () => {
    const results: string[] = [];
    for (const manifest of [{}, { allow_builtin_respond: true }]) {
      const { cwd, home } = trustedProject("zot-e2e-ext-");
      scriptedExtension(
        join(cwd, ".zot", "extensions"),
        "cache",
        { after_hello: [{ type: "subscribe", intercept: ["tool_call"] }], intercept: { tool_call: { respond: { content: [{ type: "text", text: "cached output" }] } } } },
        manifest,
      );
      mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: "touch made-it && echo real output" } }] }, { text: "ok" }]);
      const run = await zot(["-p", "go", ...anthropic(mock)], { cwd, home });
      expect(run.code).toBe(0);
      results.push(`${existsSync(join(cwd, "made-it"))} ${lastUserText(mock.requests[1].body).includes("cached output") ? "cached" : "real"}`);
      if (!manifest.allow_builtin_respond) expect(readFileSync(join(home, "logs", "ext-cache.log"), "utf8")).toContain('respond for zot\'s built-in tool "bash" is not allowed');
      await mock.stop();
      mock = undefined;
    }
    expect(results).toEqual(["true real", "false cached"]);
  });
});

describe("frames as the original zot (Go) read them", () => {
  test("a guard's block with reason null blocks rm -rf (null is absent, as the original read it); null fields elsewhere are absent too", async () => {
    const { cwd, home } = trustedProject("zot-e2e-ext-");
    const victim = join(cwd, "victim");
    mkdirSync(victim);
    scriptedExtension(join(cwd, ".zot", "extensions"), "pyguard", {
      after_hello: [
        { type: "subscribe", events: null, intercept: ["tool_call"] },
        { type: "register_tool", name: "nil_schema", description: null, schema: null },
      ],
      intercept: { tool_call: { eval: "{'block': 'rm ' in str(f), 'reason': None, 'modified_args': None}" } },
      tools: { nil_schema: { content: [{ type: "text", text: "from a nil schema", data: null }], is_error: null } },
    });
    mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: `rm -rf ${victim}` } }] }, { tool_calls: [{ name: "nil_schema", args: {} }] }, { text: "done" }]);
    const run = await zot(["-p", "go", ...anthropic(mock)], { cwd, home });
    expect(run.code).toBe(0);
    expect(existsSync(victim)).toBe(true);
    expect(lastUserText(mock.requests[1].body)).toContain("blocked by pyguard");
    expect(mock.requests[0].body.tools.find((tool: any) => tool.name === "nil_schema")?.input_schema).toEqual({ type: "object", properties: {} });
    expect(lastUserText(mock.requests[2].body)).toContain("from a nil schema");
    expect(run.stderr).not.toContain("invalid");
  });
});

describe("which extensions load", () => {
  test("--ext wins over an installed extension of the same name; --no-ext (and --no-extensions) keeps --ext", async () => {
    const home = tempDir("zot-e2e-home-");
    const cwd = tempDir("zot-e2e-ext-");
    const installed = { after_hello: [{ type: "register_command", name: "who" }], commands: { who: { action: "display", display: "installed" } } };
    scriptedExtension(join(home, "extensions"), "who", installed);
    scriptedExtension(join(home, "extensions"), "extra", { after_hello: [{ type: "register_command", name: "extra" }], commands: { extra: { action: "display", display: "extra ran" } } });
    const work = scriptedExtension(cwd, "who", { ...installed, commands: { who: { action: "display", display: "work copy" } } }, {}, "work-copy");

    expect((await zot(["-p", "/who", "--provider", "scripted"], { home, cwd })).stdout).toBe("installed\n");
    expect((await zot(["-p", "/who", "-e", work, "--provider", "scripted"], { home, cwd })).stdout).toBe("work copy\n");
    expect((await zot(["-p", "/extra", "--ext", work, "--provider", "scripted"], { home, cwd })).stdout).toBe("extra ran\n");
    for (const flag of ["--no-ext", "--no-extensions"]) {
      const run = await zot(["-p", "/extra", flag, "--ext", work, "--script", writeScript(cwd, "a prompt, not a command")], { home, cwd });
      expect(run.stdout).toBe("a prompt, not a command\n");
      expect((await zot(["-p", "/who", flag, "--ext", work, "--provider", "scripted"], { home, cwd })).stdout).toBe("work copy\n");
    }
  });

  test("a broken manifest is a warning naming the file and field; the others still load", async () => {
    const { cwd, home } = trustedProject("zot-e2e-ext-");
    const dirs = join(cwd, ".zot", "extensions");
    weather(dirs);
    scriptedExtension(dirs, "bad", {}, { exec: "" });
    const run = await zot(["-p", "/weather rome", "--provider", "scripted"], { cwd, home });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Rome: sunny\n");
    expect(run.stderr).toContain(`zot: ${join(dirs, "bad", "extension.json")}: "exec"`);
  });

  test("--version, --help and --list-models start no extension", async () => {
    const { cwd, home } = trustedProject("zot-e2e-ext-");
    const count = join(cwd, "count");
    scriptedExtension(join(cwd, ".zot", "extensions"), "counter", { countfile: count });
    for (const args of [["--version"], ["--help"], ["--list-models"], ["-v", "-p"]]) {
      const run = await zot(args, { cwd, home });
      expect(run.code).toBe(0);
    }
    expect(existsSync(count)).toBe(false);
    await zot(["-p", "hi", "--provider", "scripted"], { cwd, home });
    expect(readFileSync(count, "utf8")).toBe("1");
  });
});

describe("extensions in other languages", () => {
  test("bash (while read, with garbage lines), node and TypeScript run by the zot binary, side by side", async () => {
    const cwd = tempDir("zot-e2e-ext-");
    const dirs = join(cwd, ".zot", "extensions");
    const home = tempDir("zot-e2e-home-");
    trustDir(home, cwd);
    programExtension(dirs, "shell", {
      name: "ext.sh",
      executable: true,
      text: [
        "#!/usr/bin/env bash",
        `echo '{"type":"hello","name":"shell"}'`,
        "echo 'this is not json'",
        `echo '{"type":"frobnicate"}'`,
        `echo '{"type":"register_command","name":"sh"}'`,
        `echo '{"type":"ready"}'`,
        "while IFS= read -r line; do",
        `  id=$(printf '%s' "$line" | sed -n 's/.*"id":"\\([^"]*\\)".*/\\1/p')`,
        `  case "$line" in *command_invoked*) echo "{\\"type\\":\\"command_response\\",\\"id\\":\\"$id\\",\\"action\\":\\"display\\",\\"display\\":\\"bash ok\\"}" ;; esac`,
        "done",
      ].join("\n"),
    });
    programExtension(
      dirs,
      "nodey",
      {
        name: "ext.cjs",
        text: [
          'const rl = require("node:readline").createInterface({ input: process.stdin });',
          "const send = (f) => process.stdout.write(JSON.stringify(f) + '\\n');",
          'send({ type: "hello", name: "nodey" }); send({ type: "register_command", name: "nd" }); send({ type: "ready" });',
          'rl.on("line", (l) => { const f = JSON.parse(l); if (f.type === "command_invoked") send({ type: "command_response", id: f.id, action: "display", display: "node ok " + process.version.startsWith("v") }); });',
        ].join("\n"),
      },
      { exec: "node", args: ["ext.cjs"] },
    );
    programExtension(dirs, "typed", {
      name: "main.ts",
      text: [
        "const send = (f: Record<string, unknown>): void => console.log(JSON.stringify(f));",
        'send({ type: "hello", name: "typed" });',
        'send({ type: "register_command", name: "ts" });',
        'send({ type: "ready" });',
        // What the script starts with this very binary is zot again (BUN_BE_BUN is not passed on).
        'const started = require("node:child_process").execFileSync(process.execPath, ["--version"]).toString().trim();',
        "for await (const line of console) {",
        "  const f = JSON.parse(line) as { type: string; id: number };",
        '  if (f.type === "command_invoked") send({ type: "command_response", id: f.id, action: "display", display: `ts ok ${typeof Bun}, ${started}, ${process.env.BUN_BE_BUN}` });',
        "}",
      ].join("\n"),
    });
    const outputs: string[] = [];
    for (const command of ["/sh", "/nd", "/ts"]) {
      const run = await zot(["-p", command, "--provider", "scripted"], { cwd, home });
      expect(run.stderr).toBe("");
      outputs.push(run.stdout);
    }
    expect(outputs).toEqual(["bash ok\n", "node ok true\n", `ts ok object, zot ${VERSION}, undefined\n`]);
    const log = readFileSync(join(home, "logs", "ext-shell.log"), "utf8");
    expect(log).toContain("not JSON: this is not json");
    expect(log).toContain('unknown frame type "frobnicate"; skipped');
  });
});

describe("a relative ZOT_HOME", () => {
  test("a TypeScript extension on @zot/sdk starts, and its data directory is absolute and exists where it runs", async () => {
    const cwd = tempDir("zot-e2e-relhome-");
    const ext = programExtension(tempDir("zot-e2e-relext-"), "where", {
      name: "main.ts",
      text: [
        'import { existsSync } from "node:fs";',
        'import { display, extension } from "@zot/sdk";',
        'const ext = extension({ name: "where" });',
        'ext.command("where", "where things are", () => { const d = process.env.ZOT_DATA_DIR ?? ""; return display(`${d} ${d.startsWith("/")} ${existsSync(d)} ${process.env.ZOT_HOME}`); });',
        "await ext.run();",
      ].join("\n"),
    });
    const run = await zot(["-p", "/where", "--provider", "scripted", "--ext", ext], { cwd, env: { ZOT_HOME: "zh" } });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(`${join(cwd, "zh", "data", "where")} true true ${join(cwd, "zh")}\n`);
  });
});

function writeScript(dir: string, text: string): string {
  const file = join(dir, `script-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, `${JSON.stringify({ text })}\n`);
  return file;
}
