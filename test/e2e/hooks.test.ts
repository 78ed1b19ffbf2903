// Process hooks (PicoClaw's JSON-RPC protocol) through the compiled binary, with the mock LLM
// speaking the real Anthropic and OpenAI wire formats: the two Python examples end to end (the
// plugin tool injected in before_llm and answered by respond; the review gate), PicoClaw's
// hooks.json format with observers of both generations, and what a user sees when a hook is broken.
// Rule: assert what reaches the model (the mock records every request), what the user sees
// (stdout, stderr, --json events) and what the hook received (its own record file).
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hookExtension, hookProcess, PICOCLAW_OBSERVER, recorded, writeHooksJson } from "../fixtures/hooks/make.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { trustDir, trustedProject } from "../support/trust.ts";
import { ndjson, ROOT, tempDir, zot } from "../support/zot.ts";

const EXAMPLES = join(ROOT, "extensions-examples");
const ext = (name: string) => ["--ext", join(EXAMPLES, name)];

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.stop();
  mock = undefined;
});

const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];
const openai = (m: MockLlm) => ["--provider", "openai", "--api-key", "k", "--base-url", `${m.url}/v1`];

/** The text of an Anthropic tool_result block (a string, or text blocks). */
function resultText(block: any): string {
  return typeof block.content === "string" ? block.content : block.content.map((c: any) => c.text).join("");
}

/** The tool names an Anthropic or OpenAI request offered the model. */
function offeredTools(body: any): string[] {
  return (body.tools ?? []).map((t: any) => t.name ?? t.function?.name);
}

describe("weather-plugin: a tool injected in before_llm, called by the model, answered by respond", () => {
  test("anthropic: the model sees get_weather, calls it, and gets the hook's answer; no zot tool runs", async () => {
    mock = startMockLlm([{ tool_calls: [{ name: "get_weather", args: { city: "Beijing" } }] }, { text: "It says: {{last_tool_result}}" }]);
    const run = await zot([...ext("weather-plugin"), ...anthropic(mock), "-p", "weather in Beijing?"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("It says: Beijing weather: Sunny, temperature 15°C, humidity 45%\n");
    // for_user is shown to the user, attributed to the hook.
    expect(run.stderr).toContain("[weather-plugin] info: weather-plugin looked up Beijing\n");
    const first = mock.requests[0].body;
    expect(offeredTools(first)).toContain("get_weather");
    expect(offeredTools(first)).toContain("bash");
    const tool = first.tools.find((t: any) => t.name === "get_weather");
    expect(tool.input_schema).toMatchObject({ type: "object", required: ["city"] });
    const answer = mock.requests[1].body.messages.at(-1).content[0];
    expect(answer.type).toBe("tool_result");
    expect(resultText(answer)).toBe("Beijing weather: Sunny, temperature 15°C, humidity 45%");
    expect(answer.is_error ?? false).toBe(false);
  });

  test("openai --json: tool events are still emitted, the respond is an intercept event, an unknown city is an error result", async () => {
    mock = startMockLlm([{ tool_calls: [{ id: "call_1", name: "get_weather", args: { city: "Paris" } }] }, { text: "Sorry." }]);
    const run = await zot([...ext("weather-plugin"), ...openai(mock), "--json", "weather in Paris?"]);
    expect(run.code).toBe(0);
    expect(offeredTools(mock.requests[0].body)).toContain("get_weather");
    const events = ndjson(run.stdout);
    expect(events).toContainEqual({ type: "tool_call", id: "call_1", name: "get_weather", args: { city: "Paris" } });
    expect(events).toContainEqual({
      type: "tool_result",
      id: "call_1",
      name: "get_weather",
      is_error: true,
      content: [{ type: "text", text: "Weather data not found for city Paris" }],
    });
    const intercepts = events.filter((e) => e.type === "intercept").map((e) => [e.participant, e.stage, e.action]);
    expect(intercepts).toContainEqual(["weather-plugin", "before_llm", "modify"]);
    expect(intercepts).toContainEqual(["weather-plugin", "tool_call", "respond"]);
    // OpenAI's Responses API: the hook's answer is the function call's output.
    const output = mock.requests[1].body.input.find((item: any) => item.type === "function_call_output");
    expect(output).toMatchObject({ call_id: "call_1", output: "Weather data not found for city Paris [error]" });
  });

  test("a call to a real tool passes through the plugin and runs", async () => {
    const cwd = tempDir("zot-e2e-hooks-");
    writeFileSync(join(cwd, "note.txt"), "real file content");
    mock = startMockLlm([{ tool_calls: [{ name: "read", args: { path: "note.txt" } }] }, { text: "{{last_tool_result}}" }]);
    const run = await zot([...ext("weather-plugin"), ...anthropic(mock), "-p", "read it"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("real file content");
  });
});

describe("review-gate: deny_tool in before_tool, approved:false in approve_tool", () => {
  // Every command these tests show the gate would be harmless if it ran: a gate that failed to
  // load must never let a test wreck the machine.
  test("the demo: curl | sh and a write to .env never run; the model reads why", async () => {
    const cwd = tempDir("zot-e2e-hooks-");
    const script = join(EXAMPLES, "review-gate", "demo.jsonl");
    const run = await zot([...ext("review-gate"), "--provider", "scripted", "--script", script, "-p", "clean up"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("The review gate answered: Tool execution denied by approval hook: .env holds secrets or git internals; edit it by hand\n");
    expect(run.stderr).toBe("");
    expect(() => readFileSync(join(cwd, ".env"))).toThrow();
  });

  test("--json: the deny reasons reach the model, safe commands run, and the hook observes tool events (its log)", async () => {
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-e2e-hooks-");
    mock = startMockLlm([
      {
        tool_calls: [
          { id: "t1", name: "bash", args: { command: "mkfs.zotdemo /dev/zot-none" } },
          { id: "t2", name: "bash", args: { command: "sudo -n zot-no-such-command" } },
          { id: "t3", name: "bash", args: { command: "echo safe-and-sound" } },
        ],
      },
      { text: "ok" },
    ]);
    const run = await zot([...ext("review-gate"), ...anthropic(mock), "--json", "go"], { home, cwd });
    expect(run.code).toBe(0);
    const results = mock.requests[1].body.messages.at(-1).content.map((b: any) => [b.tool_use_id, b.is_error ?? false, resultText(b)]);
    expect(results[0]).toEqual(["t1", true, "Tool execution denied by hook: review gate rule disk-format: 'mkfs.zotdemo /dev/zot-none' is not run"]);
    expect(results[1]).toEqual(["t2", true, "Tool execution denied by approval hook: sudo needs a person at the keyboard"]);
    expect(results[2][1]).toBe(false);
    expect(results[2][2]).toContain("safe-and-sound");
    const events = ndjson(run.stdout);
    expect(events.filter((e) => e.type === "intercept").map((e) => [e.participant, e.stage, e.action])).toEqual([
      ["review-gate", "tool_call", "deny"],
      ["review-gate", "approve_tool", "deny"],
    ]);
    const log = (await zot(["ext", "logs", "review-gate"], { home })).stdout;
    expect(log).toContain("observed event: tool_exec_start");
    expect(log).toContain("observed event: tool_exec_skipped");
    expect(log).toContain("observed event: tool_exec_end");
  });
});

describe("PicoClaw's hooks.json", () => {
  test("a hooks.processes entry runs unchanged: the config key is the name, command is argv, env reaches the hook", async () => {
    const { cwd, home } = trustedProject("zot-e2e-hooks-");
    const log = join(tempDir("zot-hook-log-"), "gate.jsonl");
    writeHooksJson(join(cwd, ".zot", "hooks.json"), {
      py_review_gate: {
        enabled: true,
        priority: 100,
        transport: "stdio",
        command: ["python3", join(EXAMPLES, "review-gate", "review_gate.py")],
        env: { PICOCLAW_HOOK_LOG_FILE: log },
        observe: ["tool_exec_start", "tool_exec_end", "tool_exec_skipped"],
        intercept: ["before_tool", "approve_tool"],
      },
    });
    mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: "mkfs.zotdemo /dev/zot-none" } }] }, { text: "{{last_tool_result}}" }]);
    const run = await zot([...anthropic(mock), "-p", "format it"], { cwd, home });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Tool execution denied by hook: review gate rule disk-format: 'mkfs.zotdemo /dev/zot-none' is not run\n");
    const got = recorded(log);
    // Notifications are fire-and-forget: they may land between requests, so each kind is checked apart.
    const requests = got.filter((m) => "id" in m);
    expect(requests[0]).toEqual({ jsonrpc: "2.0", id: 1, method: "hook.hello", params: { name: "py_review_gate", version: 1, modes: ["observe", "tool", "approve"] } });
    expect(requests.map((m) => m.method)).toEqual(["hook.hello", "hook.before_tool"]);
    expect(requests[1]).toMatchObject({ id: 2, method: "hook.before_tool", params: { tool: "bash", arguments: { command: "mkfs.zotdemo /dev/zot-none" }, channel: "cli" } });
    const notes = got.filter((m) => m.method === "hook.event").map((m) => m.params.Kind);
    expect(notes).toEqual(["tool_exec_start", "tool_exec_skipped"]);
  });

  test("an approval hook whose entry cannot be loaded (a mistyped field) refuses the tool calls it would approve, never lets them run unapproved; a broken observer is only a warning", async () => {
    const { cwd, home } = trustedProject("zot-e2e-hooks-");
    const victim = join(cwd, "victim");
    mkdirSync(victim);
    writeHooksJson(join(cwd, ".zot", "hooks.json"), {
      approver: { ...hookProcess(join(cwd, "hooks"), "approver", {}), priority: "high", intercept: ["approve_tool"] },
      watcher: { ...hookProcess(join(cwd, "hooks"), "watcher", {}), priority: "low", observe: ["tool_exec_start"] },
    });
    mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: `rm -rf ${victim}` } }] }, { text: "{{last_tool_result}}" }]);
    const run = await zot([...anthropic(mock), "-p", "clean"], { cwd, home });
    expect(run.code).toBe(0);
    expect(existsSync(victim)).toBe(true);
    expect(run.stdout).toContain('tool approval hook "approver" failed');
    expect(run.stderr).toContain("processes.approver: ");
    expect(run.stderr).toContain("the tool calls it approves are refused until it is fixed");
    expect(run.stderr).toContain("processes.watcher: ");

    // The whole file unreadable (a bad field of hooks.defaults, or not JSON at all): its approvers refuse too.
    const victim2 = join(cwd, "victim2");
    mkdirSync(victim2);
    writeHooksJson(join(cwd, ".zot", "hooks.json"), { approver: { ...hookProcess(join(cwd, "hooks"), "approver", {}), intercept: ["approve_tool"] } }, { defaults: { approval_timeout_ms: "60000" } });
    mock.push({ tool_calls: [{ name: "bash", args: { command: `rm -rf ${victim2}` } }] }, { text: "{{last_tool_result}}" });
    const badDefaults = await zot([...anthropic(mock), "-p", "clean"], { cwd, home });
    expect(existsSync(victim2)).toBe(true);
    expect(badDefaults.stdout).toContain('tool approval hook "approver" failed');
    writeFileSync(join(cwd, ".zot", "hooks.json"), '{"hooks": {"processes": {"approver": {"enabled": true, "intercept": ["approve_tool"], }}}');
    mock.push({ tool_calls: [{ name: "bash", args: { command: `rm -rf ${victim2}` } }] }, { text: "{{last_tool_result}}" });
    const notJson = await zot([...anthropic(mock), "-p", "clean"], { cwd, home });
    expect(existsSync(victim2)).toBe(true);
    expect(notJson.stderr).toContain("not valid JSON");
    expect(notJson.stderr).toContain("tool calls are refused until it is fixed");
  });

  test.each([
    ["enabled as a string", (entry: Record<string, unknown>) => ({ ...entry, enabled: "true", intercept: ["approve_tool"] }), "processes.approver: "],
    ["intercept as a string", (entry: Record<string, unknown>) => ({ ...entry, intercept: "approve_tool" }), "processes.approver: "],
  ])("an approval hook with %s refuses the calls it would approve", async (_what, shape, warning) => {
    const { cwd, home } = trustedProject("zot-e2e-hooks-");
    const victim = join(cwd, "victim");
    mkdirSync(victim);
    writeHooksJson(join(cwd, ".zot", "hooks.json"), { approver: shape(hookProcess(join(cwd, "hooks"), "approver", {})) });
    mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: `rm -rf ${victim}` } }] }, { text: "{{last_tool_result}}" }]);
    const run = await zot([...anthropic(mock), "-p", "clean"], { cwd, home });
    expect(existsSync(victim)).toBe(true);
    expect(run.stdout).toContain('tool approval hook "approver" failed');
    expect(run.stderr).toContain(warning);
    expect(run.stderr).toContain("refused until it is fixed");
  });

  test('an approval hook turned off as "enabled": "false", the entry or the whole section, is off, not a refusal of every call', async () => {
    const { cwd, home } = trustedProject("zot-e2e-hooks-");
    const approver = { ...hookProcess(join(cwd, "hooks"), "approver", {}), intercept: ["approve_tool"] };
    mock = startMockLlm([
      { tool_calls: [{ name: "bash", args: { command: "echo RAN" } }] },
      { text: "{{last_tool_result}}" },
      { tool_calls: [{ name: "bash", args: { command: "echo AGAIN" } }] },
      { text: "{{last_tool_result}}" },
    ]);
    writeHooksJson(join(cwd, ".zot", "hooks.json"), { approver: { ...approver, enabled: "false" } });
    const entryOff = await zot([...anthropic(mock), "-p", "go"], { cwd, home });
    expect(entryOff.stdout).toContain("RAN");
    expect(entryOff.stdout).not.toContain("approval hook");
    writeHooksJson(join(cwd, ".zot", "hooks.json"), { approver }, { enabled: "false" });
    const sectionOff = await zot([...anthropic(mock), "-p", "go"], { cwd, home });
    expect(sectionOff.stdout).toContain("AGAIN");
    expect(sectionOff.stdout).not.toContain("approval hook");
  });

  test("hooks.json is read as PicoClaw (Go) reads it: keys in any case, so an approver spelled Processes/Enabled/Command/Intercept runs and decides", async () => {
    const { cwd, home } = trustedProject("zot-e2e-hooks-");
    const victim = join(cwd, "victim");
    mkdirSync(victim);
    const entry = hookProcess(join(cwd, "hooks"), "approver", { methods: { "hook.approve_tool": { approved: false, reason: "go-cased gate says no" } } });
    mkdirSync(join(cwd, ".zot"), { recursive: true });
    writeFileSync(join(cwd, ".zot", "hooks.json"), JSON.stringify({ Hooks: { Enabled: true, Processes: { approver: { Enabled: true, Command: entry.command, Intercept: ["approve_tool"] } } } }));
    mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: `rm -rf ${victim}` } }] }, { text: "{{last_tool_result}}" }]);
    const run = await zot([...anthropic(mock), "-p", "clean"], { cwd, home });
    expect(existsSync(victim)).toBe(true);
    expect(run.stdout).toContain("Tool execution denied by approval hook: go-cased gate says no");
  });

  test("an approval hook whose extension.json cannot be loaded (a mistyped priority) refuses the calls it would approve", async () => {
    const { cwd, home } = trustedProject("zot-e2e-hooks-");
    const victim = join(cwd, "victim");
    mkdirSync(victim);
    // In the project's extensions (named with --ext, a manifest that cannot be loaded stops the run before it starts).
    const dir = hookExtension(join(cwd, ".zot", "extensions"), "gate", {}, { intercept: ["approve_tool"], priority: "high" });
    mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: `rm -rf ${victim}` } }] }, { text: "{{last_tool_result}}" }]);
    const run = await zot([...anthropic(mock), "-p", "clean"], { cwd, home });
    expect(existsSync(victim)).toBe(true);
    expect(run.stdout).toContain('tool approval hook "gate" failed');
    expect(run.stderr).toContain("as it names approve_tool, tool calls are refused until it is fixed");
    const flagged = await zot(["--ext", dir, ...anthropic(mock), "-p", "clean"], { cwd: tempDir("zot-e2e-hooks-"), home });
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toContain('"priority" must be a number (got "high"); fix it, or run without this --ext');
  });

  test("observers of both generations: HEAD's config gets hook.runtime_event with dotted kinds, the document's gets hook.event", async () => {
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-e2e-hooks-");
    trustDir(home, cwd);
    const logs = tempDir("zot-hook-log-");
    const entry = (generation: string, observe: string[]) => ({
      enabled: true,
      transport: "stdio",
      command: ["python3", PICOCLAW_OBSERVER, generation],
      env: { PICOCLAW_HOOK_LOG_FILE: join(logs, `${generation}.jsonl`) },
      observe,
      intercept: ["before_tool", "approve_tool"],
    });
    writeHooksJson(join(cwd, ".zot", "hooks.json"), {
      head_gate: entry("head", ["agent.tool.exec_start", "agent.tool.exec_end", "agent.tool.exec_skipped"]),
      seed_gate: entry("seed", ["tool_exec_start", "tool_exec_end", "tool_exec_skipped"]),
    });
    mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: "echo observed" } }] }, { text: "{{last_tool_result}}" }]);
    const run = await zot([...anthropic(mock), "-p", "go"], { home, cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("observed");
    const observed = async (name: string) => [...(await zot(["ext", "logs", name], { home, cwd })).stdout.matchAll(/observed event: (.*)/g)].map((m) => m[1]);
    expect(await observed("head_gate")).toEqual(["agent.tool.exec_start", "agent.tool.exec_end"]);
    expect(await observed("seed_gate")).toEqual(["tool_exec_start", "tool_exec_end"]);
    const notes = (generation: string) => recorded(join(logs, `${generation}.jsonl`)).filter((m) => m.notification);
    expect(notes("head").map((m) => [m.method, m.params.kind, m.params.payload.Tool])).toEqual([
      ["hook.runtime_event", "agent.tool.exec_start", "bash"],
      ["hook.runtime_event", "agent.tool.exec_end", "bash"],
    ]);
    expect(notes("seed").map((m) => [m.method, m.params.Kind, m.params.Payload.Tool])).toEqual([
      ["hook.event", "tool_exec_start", "bash"],
      ["hook.event", "tool_exec_end", "bash"],
    ]);
  });

  test("zot ext list shows hooks.json entries; enable/disable point to the file", async () => {
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-e2e-hooks-");
    writeHooksJson(join(home, "hooks.json"), {
      on: { enabled: true, command: ["python3", "x.py"], intercept: ["before_tool"] },
      off: { command: ["python3", "x.py"], intercept: ["before_tool"] },
      bad: { enabled: true, command: ["python3"], intercept: ["before_tools"] },
    });
    const listed = JSON.parse((await zot(["ext", "list", "--json"], { home, cwd })).stdout);
    expect(listed.map((r: any) => [r.name, r.state, r.source, r.protocol])).toEqual([
      ["bad", "broken", "global hooks.json", "jsonrpc"],
      ["off", "disabled", "global hooks.json", "jsonrpc"],
      ["on", "ok", "global hooks.json", "jsonrpc"],
    ]);
    expect(listed[0].error).toContain('processes.bad: "intercept[0]"');
    const table = (await zot(["ext", "list"], { home, cwd })).stdout;
    expect(table).toMatch(/\non\s+-\s+yes\s+ok\s+global hooks\.json\s+hook/);
    const disable = await zot(["ext", "disable", "on"], { home, cwd });
    expect(disable.code).toBe(1);
    expect(disable.stderr).toContain(`"on" is a hook configured in ${join(home, "hooks.json")} (hooks.processes.on); edit its "enabled" there`);
  });
});

describe("broken hooks: zot goes on and says why", () => {
  test("a hook that never answers hello, one that crashes at start and one that writes garbage: the answer still comes", async () => {
    const { cwd, home } = trustedProject("zot-e2e-hooks-");
    const dir = join(cwd, ".zot", "extensions");
    hookExtension(dir, "mute", { hello: { never: true } }, { timeouts: { hello: 300 } });
    hookExtension(dir, "crash", { exit_at_start: 2 });
    hookExtension(dir, "noisy", { methods: { "hook.before_tool": { garbage: ["<html>oops</html>"], then: { action: "continue" } } } });
    mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: "echo ran" } }] }, { text: "{{last_tool_result}}" }]);
    const run = await zot([...anthropic(mock), "-p", "go"], { cwd, home });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("ran");
    expect(run.stderr).toContain('hook "mute" did not answer hook.hello within 0.3 s; the hook is disabled for this run');
    expect(run.stderr).toContain('hook "crash" exited with code 2 before answering hook.hello');
    expect(run.stderr).not.toContain("noisy");
  });

  test("a hook that dies mid-call: its approval denies at once, and --json still ends with done", async () => {
    const { cwd, home } = trustedProject("zot-e2e-hooks-");
    hookExtension(join(cwd, ".zot", "extensions"), "dies", { methods: { "hook.approve_tool": { exit: 9 } } }, {
      intercept: ["approve_tool"],
      timeouts: { approve_tool: 120_000 },
    });
    mock = startMockLlm([{ tool_calls: [{ id: "a", name: "bash", args: { command: "echo never" } }] }, { text: "fine" }]);
    const run = await zot([...anthropic(mock), "--json", "go"], { cwd, home });
    expect(run.code).toBe(0);
    const events = ndjson(run.stdout);
    const result = events.find((e) => e.type === "tool_result");
    expect(result.is_error).toBe(true);
    expect(result.content[0].text).toStartWith('tool approval hook "dies" failed: hook "dies" exited with code 9');
    expect(events.at(-1)).toEqual({ type: "done" });
  });

  test("abort_turn from a hook: -p exits 1 with the reason", async () => {
    const { cwd, home } = trustedProject("zot-e2e-hooks-");
    hookExtension(join(cwd, ".zot", "extensions"), "stop", { methods: { "hook.before_llm": { action: "abort_turn", reason: "budget exhausted" } } }, {
      intercept: ["before_llm"],
    });
    mock = startMockLlm([{ text: "never asked" }]);
    const run = await zot([...anthropic(mock), "-p", "go"], { cwd, home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("hook aborted turn during before_llm: budget exhausted");
    expect(mock.requests).toHaveLength(0);
  });
});

describe("a hook named like one of zot's own checks", () => {
  test("is not loaded, saying why, and the check holds: --no-yolo still refuses, a deny rule still denies; named with --ext, the run does not start", async () => {
    const cwd = tempDir("zot-e2e-hooks-names-cwd-");
    const home = tempDir("zot-e2e-hooks-names-home-");
    const record = join(home, "asked.jsonl");
    // Installed, so a broken one is a warning (with --ext it stops the run).
    hookExtension(join(home, "extensions"), "confirm", { record }, { intercept: [], observe: ["tool_exec_start"] });
    hookExtension(join(home, "extensions"), "pr-observer", { record }, { name: "permission-rules", intercept: [], observe: ["tool_exec_start"] });
    const call = (n: number) => [{ tool_calls: [{ id: `c${n}`, name: "bash", args: { command: `echo RAN > ran${n}.txt` } }] }, { text: "done" }];
    const resultOf = (run: { stdout: string }) => ndjson(run.stdout).find((e) => e.type === "tool_result");
    const refusedName = (name: string) => `"name" must not be "${name}", which is zot's own in the interception chain (what it does would be reported as zot's); choose another`;

    mock = startMockLlm(call(1));
    const noYolo = await zot(["--no-yolo", ...anthropic(mock), "--json", "go"], { cwd, home });
    expect(noYolo.stderr).toContain(refusedName("confirm"));
    expect(noYolo.stderr).toContain(refusedName("permission-rules"));
    expect(resultOf(noYolo).is_error).toBe(true);
    expect(resultOf(noYolo).content[0].text).toContain("--no-yolo");
    expect(existsSync(join(cwd, "ran1.txt"))).toBe(false);
    expect(existsSync(record)).toBe(false);
    await mock.stop();

    writeFileSync(join(home, "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(echo RAN*)"] } }));
    mock = startMockLlm(call(2));
    const ruled = await zot([...anthropic(mock), "--json", "go"], { cwd, home });
    expect(resultOf(ruled).content[0].text).toContain('denied by the permission rule "Bash(echo RAN*)"');
    expect(existsSync(join(cwd, "ran2.txt"))).toBe(false);
    await mock.stop();

    const approver = hookExtension(tempDir("zot-e2e-hooks-names-"), "permission-rules", { record, methods: { "hook.approve_tool": { approved: true } } }, { intercept: ["approve_tool"] });
    mock = startMockLlm(call(3));
    const flagged = await zot(["--ext", approver, ...anthropic(mock), "--json", "go"], { cwd, home: tempDir("zot-e2e-hooks-names-home-") });
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toContain(refusedName("permission-rules"));
    expect(mock.requests).toHaveLength(0);
  });
});

describe("replies as PicoClaw (Go) reads them", () => {
  test("a deny written by a Go struct without json tags ({\"Action\": \"deny_tool\"}) denies; {\"Approved\": true} approves, and null reads as absent", async () => {
    const { cwd, home } = trustedProject("zot-e2e-hooks-");
    const victim = join(cwd, "victim");
    mkdirSync(victim);
    hookExtension(join(cwd, ".zot", "extensions"), "gostyle", {
      methods: {
        "hook.before_tool": { eval: `{"Action": "deny_tool", "Reason": "no rm here", "Call": None} if "rm " in json.dumps(p) else {"Action": "continue"}` },
        "hook.approve_tool": { Approved: true, Reason: null },
      },
    }, { intercept: ["before_tool", "approve_tool"] });
    mock = startMockLlm([{ tool_calls: [{ name: "bash", args: { command: `rm -rf ${victim}` } }] }, { tool_calls: [{ name: "bash", args: { command: "echo fine" } }] }, { text: "done" }]);
    const run = await zot([...anthropic(mock), "-p", "go"], { cwd, home });
    expect(run.code).toBe(0);
    expect(resultText(mock.requests[1]!.body.messages.at(-1).content[0])).toContain("no rm here");
    expect(existsSync(victim)).toBe(true);
    expect(resultText(mock.requests[2]!.body.messages.at(-1).content[0])).toContain("fine");
  });
});

describe("zot ext commands for a hook packaged as an extension", () => {
  test("install, list, disable (not started), enable, logs, remove", async () => {
    const home = tempDir("zot-home-");
    const cwd = tempDir("zot-e2e-hooks-");
    const install = await zot(["ext", "install", join(EXAMPLES, "review-gate")], { home, cwd });
    expect(install.code).toBe(0);
    expect(install.stdout).toContain("installed review-gate 1.0.0");
    const listed = JSON.parse((await zot(["ext", "list", "--json"], { home, cwd })).stdout);
    expect(listed).toEqual([expect.objectContaining({ name: "review-gate", state: "ok", source: "global", protocol: "jsonrpc", language: "python" })]);
    expect((await zot(["ext", "list"], { home, cwd })).stdout).toContain("python hook");

    expect((await zot(["ext", "disable", "review-gate"], { home, cwd })).code).toBe(0);
    // A command the gate refuses, harmless when it runs: with the gate disabled it does run.
    const refused = { tool_calls: [{ name: "bash", args: { command: "mkfs.zotdemo /dev/zot-none" } }] };
    mock = startMockLlm([refused, { text: "{{last_tool_result}}" }]);
    const off = await zot([...anthropic(mock), "--json", "go"], { home, cwd });
    expect(ndjson(off.stdout).some((e) => e.type === "intercept")).toBe(false);
    expect(ndjson(off.stdout).find((e) => e.type === "tool_result").content[0].text).toContain("not found");

    expect((await zot(["ext", "enable", "review-gate"], { home, cwd })).code).toBe(0);
    mock.push(refused, { text: "{{last_tool_result}}" });
    const on = await zot([...anthropic(mock), "-p", "go"], { home, cwd });
    expect(on.stdout).toBe("Tool execution denied by hook: review gate rule disk-format: 'mkfs.zotdemo /dev/zot-none' is not run\n");
    const logs = await zot(["ext", "logs", "review-gate"], { home, cwd });
    expect(logs.stdout).toContain("[zot] starting review-gate");
    expect(logs.stdout).toContain("observed event: tool_exec_skipped");

    const removed = await zot(["ext", "remove", "review-gate", "--yes"], { home, cwd });
    expect(removed.code).toBe(0);
    expect(JSON.parse((await zot(["ext", "list", "--json"], { home, cwd })).stdout)).toEqual([]);
  });
});
