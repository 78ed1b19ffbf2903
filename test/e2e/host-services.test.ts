// The host services of the current extension protocol through the compiled binary, each with a
// real extension in two languages: python3 speaking the raw protocol (fixtures/extensions/
// host_services.py) and TypeScript on the SDK run by zot itself (host_services.ts). The model is
// the wire-level mock, so what zot sent it (tools offered, system prompt, transcript) is asserted.
// Rule: every failure rule is exercised, not only the happy path: a chain that repeats a tool, an
// unknown parent_id, an interactive tool where nobody can interact, a non-string system prompt,
// an unknown exposure.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, scriptedExtension } from "../fixtures/extensions/make.ts";
import { anthropicMock, type RpcProcess, rpcFixture } from "../support/rpc-process.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";

/** The one line the fixture's runs print: its "bogus" tool (exposure "sideways") is skipped, and the run says so. */
const SKIPPED_TOOL_NOTE = '[svc] warn: tool "bogus" has unknown exposure "sideways", skipped (known: direct, deferred, codemode, model-only)\n';

const fixture = rpcFixture();

type Language = "python" | "typescript";

/** The svc extension in `language`, with its config; a project with notes.txt and secret.txt. */
function setup(language: Language, config: Record<string, unknown> = {}) {
  const root = tempDir("zot-svc-");
  const cwd = join(root, "project");
  const home = join(root, "home");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(cwd, "notes.txt"), "first line of notes\nsecond line\n");
  writeFileSync(join(cwd, "secret.txt"), "do not read\n");
  const dir = join(root, "svc");
  mkdirSync(dir);
  const record = join(root, "record.ndjson");
  writeFileSync(join(dir, "config.json"), JSON.stringify({ record, ...config }));
  const manifest =
    language === "python"
      ? { name: "svc", exec: "python3", args: [join(FIXTURES, "host_services.py"), "config.json"] }
      : { name: "svc", exec: join(FIXTURES, "host_services.ts"), args: [join(dir, "config.json")] };
  writeFileSync(join(dir, "extension.json"), JSON.stringify(manifest));
  const log = () => {
    const file = join(home, "logs", "ext-svc.log");
    return existsSync(file) ? readFileSync(file, "utf8") : "";
  };
  const recorded = () => (existsSync(record) ? ndjson(readFileSync(record, "utf8")) : []);
  return { root, cwd, home, dir, ext: ["--ext", dir], log, recorded };
}

const toolNames = (request: { body: any }) => (request.body.tools ?? []).map((t: any) => t.name).sort();
const resultText = (request: { body: any }) => JSON.stringify(request.body.messages.at(-1).content);
const systemText = (request: { body: any }) => {
  const system = request.body.system;
  if (system === undefined) return "";
  return typeof system === "string" ? system : system.map((b: any) => b.text).join("");
};

for (const language of ["python", "typescript"] as const) {
  describe(`${language}: deferred tools`, () => {
    test("a deferred tool is not offered (nor named in the system prompt) until a tool result activates it; an unknown exposure skips the tool, with a diagnostic", async () => {
      const s = setup(language);
      const mock = fixture.llm([
        { tool_calls: [{ name: "finder", args: {} }] },
        { tool_calls: [{ name: "deep_tool", args: {} }] },
        { text: "done: {{last_tool_result}}" },
      ]);
      const run = await zot([...s.ext, "-p", "find it", ...anthropicMock(mock.url)], { cwd: s.cwd, home: s.home });
      expect(run.stderr).toBe(SKIPPED_TOOL_NOTE);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("done: # deep result\n");
      const [first, second] = mock.requests;
      expect(toolNames(first)).toEqual(["ask_user", "bash", "edit", "finder", "lookup", "loop_a", "loop_b", "read", "skill", "write"]);
      expect(systemText(first)).not.toContain("deep_tool");
      expect(toolNames(second)).toContain("deep_tool");
      expect(toolNames(second)).not.toContain("bogus");
      // The model gets the text; the markdown hint stays in zot.
      expect(resultText(mock.requests[2])).toContain('"content":"# deep result"');
      expect(resultText(mock.requests[2])).not.toContain("markdown");
      expect(s.log()).toContain('tool "bogus" has unknown exposure "sideways", skipped');
      expect(s.log()).toContain('activate_tools: no tool named "no_such_tool"; ignored');
    });
  });

  describe(`${language}: call_tool`, () => {
    test("a tool runs another through the interception chain (origin_extension in the events and the audit trail), not into the transcript; a chain that repeats a tool is refused", async () => {
      const s = setup(language);
      // A guard that blocks reading secret.txt, whoever asks.
      const guard = scriptedExtension(s.root, "guard", {
        after_hello: [{ type: "subscribe", intercept: ["tool_call"] }],
        intercept: {
          tool_call: { eval: '{"block": True, "reason": "secret.txt is off limits"} if f.get("tool_name") == "read" and f.get("tool_args", {}).get("path") == "secret.txt" else {}' },
        },
      });
      const mock = fixture.llm([
        { tool_calls: [{ name: "lookup", args: { path: "notes.txt" } }] },
        { tool_calls: [{ name: "lookup", args: { path: "secret.txt" } }] },
        { tool_calls: [{ name: "loop_a", args: {} }] },
        { text: "ok" },
      ]);
      const run = await zot([...s.ext, "--ext", guard, "--json", "go", ...anthropicMock(mock.url)], { cwd: s.cwd, home: s.home });
      expect(run.code).toBe(0);
      expect(resultText(mock.requests[1])).toContain("lookup:      1\\tfirst line of notes");
      expect(resultText(mock.requests[2])).toContain("lookup failed: secret.txt is off limits");
      expect(resultText(mock.requests[3])).toContain("a call chain may not name a tool twice (loop_a → loop_b → loop_a)");
      // The transcript holds the model's calls only.
      const sent = JSON.stringify(mock.requests[3].body.messages);
      expect(sent).not.toContain('"name":"read"');
      expect(sent).not.toContain('"name":"loop_b"');

      const events = ndjson(run.stdout);
      const reads = events.filter((e) => e.type === "tool_call" && e.name === "read");
      expect(reads.map((e) => [e.args.path, e.origin_extension])).toEqual([
        ["notes.txt", "svc"],
        ["secret.txt", "svc"],
      ]);
      expect(events.find((e) => e.type === "tool_result" && e.id === reads[1].id)).toMatchObject({ is_error: true, status: "blocked", origin_extension: "svc" });
      expect(events.find((e) => e.type === "intercept" && e.participant === "guard")).toMatchObject({ stage: "tool_call", action: "deny", origin_extension: "svc" });
    });

    test("call_tool outside any tool call (from a command) runs; a parent_id that names no running call fails", async () => {
      const s = setup(language);
      const run = await zot([...s.ext, "--provider", "scripted", "-p", "/callread notes.txt"], { cwd: s.cwd, home: s.home });
      expect(run.stderr).toBe(SKIPPED_TOOL_NOTE);
      expect(run.stdout).toBe("callread:      1\tfirst line of notes\n");
      if (language === "python") {
        // The SDK always ties a nested call to the one it handles; raw frames can get it wrong.
        const orphan = await zot([...s.ext, "--provider", "scripted", "-p", "/orphan"], { cwd: s.cwd, home: s.home });
        expect(orphan.stdout).toBe('call_tool read: parent_id "no-such-call" names no tool_call this extension is handling (unknown, or already over)\n');
      }
    });
  });

  describe(`${language}: interactive tools`, () => {
    test("are refused with a tool error where nobody can interact (-p), without reaching the extension", async () => {
      const s = setup(language);
      const mock = fixture.llm([{ tool_calls: [{ name: "ask_user", args: {} }] }, { text: "{{last_tool_result}}" }]);
      const run = await zot([...s.ext, "-p", "ask", ...anthropicMock(mock.url)], { cwd: s.cwd, home: s.home });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("extension svc/ask_user failed: it is an interactive tool (it waits for a person), and this run (zot -p, --json or rpc) has nobody to interact with");
      if (language === "python") expect(s.recorded().some((f) => f.type === "tool_call")).toBe(false);
    });
  });

  describe(`${language}: tool_prompt`, () => {
    test("a command's tool_prompt runs the tool into the transcript, then the prompt as a turn that sees its output", async () => {
      const s = setup(language);
      const mock = fixture.llm([{ text: "summary of {{last_tool_result}}" }]);
      const run = await zot([...s.ext, "-p", "/peek notes.txt", ...anthropicMock(mock.url)], { cwd: s.cwd, home: s.home });
      expect(run.stderr).toBe(SKIPPED_TOOL_NOTE);
      expect(run.code).toBe(0);
      const messages = mock.requests[0].body.messages;
      expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
      expect(JSON.stringify(messages[0].content)).toContain("Summarize notes.txt");
      expect(messages[1].content).toEqual([{ type: "tool_use", id: expect.stringMatching(/^call_ext_[0-9a-f]{32}$/), name: "read", input: { path: "notes.txt" } }]);
      expect(JSON.stringify(messages[2].content)).toContain("first line of notes");
      expect(run.stdout).toContain("summary of");
    });
  });

  describe(`${language}: before_agent_start`, () => {
    test("rewrites the system prompt before the first model call, in the audit trail; again after a model switch, clear, a session switch and a reload", async () => {
      const s = setup(language, { agent_start: "append" });
      const mock = fixture.llm([{ text: "one" }]);
      const json = await zot([...s.ext, "--json", "hi", ...anthropicMock(mock.url)], { cwd: s.cwd, home: s.home });
      expect(json.code).toBe(0);
      const rule = (n: number) => `HOUSE RULE (${language}) #${n}: answer in one line.`;
      expect(systemText(mock.requests[0])).toEndWith(`\n${rule(1)}`);
      expect(systemText(mock.requests[0])).toStartWith("You are zot");
      const recording = ndjson(json.stdout).find((e) => e.type === "session");
      const sessionId = recording?.id;
      expect(typeof sessionId).toBe("string");
      // The session's audit trail keeps the rewrite, like every interception.
      const records = ndjson(readFileSync(recording.file, "utf8"));
      expect(records.find((r) => r.type === "intercept")).toMatchObject({ participant: "svc", stage: "before_agent_start", action: "modify" });
      const audit = ndjson(json.stdout).find((e) => e.type === "intercept");
      expect(audit).toMatchObject({ participant: "svc", stage: "before_agent_start", action: "modify" });
      expect(audit.after).toContain(rule(1));

      const before = mock.requests.length;
      mock.push(...Array.from({ length: 5 }, () => ({ text: "ok" })));
      const rpc = fixture.spawn([...s.ext, ...anthropicMock(mock.url), "--model", "claude-sonnet-4-5"], { cwd: s.cwd, home: s.home });
      const prompt = () => promptToDone(rpc);
      await prompt();
      expect((await rpc.call({ type: "set_model", model: "claude-haiku-4-5" })).success).toBe(true);
      await prompt();
      expect((await rpc.call({ type: "run_command", name: "clear" })).success).toBe(true);
      await prompt();
      expect((await rpc.call({ type: "resume_session", session: sessionId })).success).toBe(true);
      await prompt();
      expect((await rpc.call({ type: "reload_extensions" })).success).toBe(true);
      await prompt();
      const rules = mock.requests.slice(before).map((r) => systemText(r).split("\n").at(-1));
      // Each pass starts from zot's own prompt: one rule, never two; a reload starts a new process.
      expect(rules).toEqual([rule(1), rule(2), rule(3), rule(4), rule(1)]);
      for (const r of mock.requests.slice(before)) expect(systemText(r).split("HOUSE RULE").length).toBe(2);
    });

    test("a SessionStart hook's context stays after the rewritten prompt, through a model switch", async () => {
      const s = setup(language, { agent_start: "append" });
      // The user's own settings (they run without trust): SessionStart adds context to the system prompt.
      writeFileSync(
        join(s.home, "settings.json"),
        JSON.stringify({ hooks: { SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "echo the build command is make ci" }] }] } }),
      );
      const mock = fixture.llm([{ text: "one" }, { text: "two" }]);
      const rpc = fixture.spawn([...s.ext, ...anthropicMock(mock.url), "--model", "claude-sonnet-4-5"], { cwd: s.cwd, home: s.home });
      const prompt = () => promptToDone(rpc);
      await prompt();
      expect((await rpc.call({ type: "set_model", model: "claude-haiku-4-5" })).success).toBe(true);
      await prompt();
      for (const request of mock.requests) {
        const system = systemText(request);
        expect(system).toContain(`HOUSE RULE (${language})`);
        expect(system).toEndWith("# Context from SessionStart hooks\n\nthe build command is make ci");
      }
    });

    test('"" removes the prompt; a non-string answer keeps it, with a diagnostic in the log and a warning', async () => {
      const removed = setup(language, { agent_start: "remove" });
      const mock = fixture.llm([{ text: "ok" }]);
      const run = await zot([...removed.ext, "-p", "hi", ...anthropicMock(mock.url)], { cwd: removed.cwd, home: removed.home });
      expect(run.code).toBe(0);
      expect(systemText(mock.requests[0])).toBe("");

      const s = language === "python" ? setup(language, { agent_start: "number" }) : rawTypescriptNumber();
      mock.push({ text: "ok" });
      const kept = await zot([...s.ext, "-p", "hi", ...anthropicMock(mock.url)], { cwd: s.cwd, home: s.home });
      expect(kept.code).toBe(0);
      expect(systemText(mock.requests[1])).toStartWith("You are zot");
      const warning = 'before_agent_start: system_prompt must be a string ("" removes the prompt; leave it out to keep it), not number; the prompt is kept as it was';
      expect(kept.stderr).toContain(`[svc] warn: ${warning}`);
      expect(s.log()).toContain(warning);
    });
  });
}

/** A TypeScript extension without the SDK (which refuses to send a non-string prompt) that answers 42. */
function rawTypescriptNumber() {
  const s = setup("typescript");
  writeFileSync(
    join(s.dir, "raw.ts"),
    [
      'const send = (frame: object) => process.stdout.write(JSON.stringify(frame) + "\\n");',
      'send({ type: "hello", name: "svc", version: "1.0.0" });',
      'send({ type: "subscribe", intercept: ["before_agent_start"] });',
      'send({ type: "ready" });',
      "for await (const line of console) {",
      "  const frame = JSON.parse(line);",
      '  if (frame.type === "event_intercept") send({ type: "event_intercept_response", id: frame.id, system_prompt: 42 });',
      '  if (frame.type === "shutdown") process.exit(0);',
      "}",
    ].join("\n"),
  );
  writeFileSync(join(s.dir, "extension.json"), JSON.stringify({ name: "svc", exec: "./raw.ts" }));
  return s;
}


/** A prompt over rpc, accepted, and its turn to the end. */
async function promptToDone(rpc: RpcProcess): Promise<void> {
  const from = rpc.lines.length;
  expect((await rpc.call({ type: "prompt", message: "hi" })).success).toBe(true);
  await rpc.waitFor((l) => l.type === "done", from, "done");
}
describe("zot ext doctor", () => {
  test("names the skipped tool, the deferred one, the ready state and the log path; exit 1 on a protocol error", async () => {
    const s = setup("python");
    const installed = join(s.home, "extensions", "svc");
    mkdirSync(join(s.home, "extensions"), { recursive: true });
    writeFileSync(join(s.dir, "extension.json"), JSON.stringify({ name: "svc", exec: "python3", args: [join(FIXTURES, "host_services.py"), join(s.dir, "config.json")] }));
    await Bun.$`cp -r ${s.dir} ${installed}`.quiet();
    const run = await zot(["ext", "doctor"], { cwd: s.cwd, home: s.home });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`svc (global, ${installed})`);
    expect(run.stdout).toContain("state:      ready");
    expect(run.stdout).toContain("tools:      lookup, loop_a, loop_b, finder, deep_tool (deferred), ask_user (interactive)");
    expect(run.stdout).toContain('problem: tool "bogus" has unknown exposure "sideways", skipped');
    expect(run.stdout).toContain(`log:        ${join(s.home, "logs", "ext-svc.log")}`);
  });
});

describe("zot rpc --schema", () => {
  test("covers every frame of the extension protocol, both directions, with the host services' fields", async () => {
    const { ExtToHostFrame, HostToExtFrame } = await import("../../src/protocol/ext-frames.ts");
    const doc = JSON.parse((await zot(["rpc", "--schema"])).stdout).extension;
    expect(doc.protocol_version).toBe(1);
    expect(Object.keys(doc.to_host).sort()).toEqual(ExtToHostFrame.options.map((o) => o.entries.type.literal).sort());
    expect(Object.keys(doc.to_extension).sort()).toEqual(HostToExtFrame.options.map((o) => o.entries.type.literal).sort());
    expect(doc.to_host.call_tool.required).toEqual(["type", "id", "name"]);
    expect(Object.keys(doc.to_host.register_tool.properties)).toEqual(expect.arrayContaining(["exposure", "deferred", "interactive", "output_schema", "namespace", "replay"]));
    expect(Object.keys(doc.to_host.tool_result.properties)).toEqual(expect.arrayContaining(["activate_tools", "structured_content"]));
    expect(doc.to_extension.tool_cancel.required).toEqual(["type", "id"]);
    expect(doc.to_extension.tool_result.required).toEqual(["type", "id", "name", "content"]);
    expect(doc.to_extension.event_intercept.properties.event.enum).toContain("before_agent_start");
  });
});

describe("python: headless modes", () => {
  test("rpc refuses an interactive tool too", async () => {
    const s = setup("python");
    const rpc = fixture.start([{ tool_calls: [{ name: "ask_user", args: {} }] }, { text: "ok" }], s.ext, { cwd: s.cwd, home: s.home });
    const events = await rpc.prompt("ask");
    expect(events.find((e) => e.type === "tool_result" && e.name === "ask_user")).toMatchObject({ is_error: true });
    expect(JSON.stringify(events.find((e) => e.type === "tool_result"))).toContain("it is an interactive tool");
  });
});

describe("an aborted turn's nested call_tool", () => {
  test("its tool_result comes before that turn's done, not among the next prompt's events sent right behind the abort", async () => {
    const root = tempDir("zot-nested-abort-");
    const dir = join(root, "nester");
    mkdirSync(dir);
    // On its tool's call, runs bash under it (parent_id) and answers once bash answers.
    writeFileSync(
      join(dir, "nester.py"),
      [
        "import json, sys",
        "def send(f):",
        "    sys.stdout.write(json.dumps(f) + '\\n'); sys.stdout.flush()",
        "send({'type': 'hello', 'name': 'nester', 'version': '1', 'capabilities': ['tools', 'tool_cancel', 'call_tool']})",
        "send({'type': 'register_tool', 'name': 'nest', 'description': 'runs a slow bash', 'schema': {'type': 'object', 'properties': {}}})",
        "send({'type': 'ready'})",
        "for line in sys.stdin:",
        "    f = json.loads(line)",
        "    if f.get('type') == 'tool_call':",
        "        send({'type': 'call_tool', 'id': 'n-' + f['id'], 'name': 'bash', 'args': {'command': 'sleep 30'}, 'parent_id': f['id']})",
        "    elif f.get('type') == 'tool_result' and f.get('id', '').startswith('n-'):",
        "        send({'type': 'tool_result', 'id': f['id'][2:], 'content': [{'type': 'text', 'text': 'nested over'}]})",
        "    elif f.get('type') == 'shutdown':",
        "        break",
      ].join("\n"),
    );
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "nester", exec: "python3", args: [join(dir, "nester.py")] }));
    const rpc = fixture.start([{ tool_calls: [{ name: "nest", args: {} }] }, { text: "the next answer" }], ["--ext", dir], { cwd: tempDir("zot-nested-cwd-"), home: tempDir("zot-nested-home-") });
    const from = rpc.lines.length;
    await rpc.call({ type: "prompt", message: "go" });
    await rpc.waitFor((line) => line.type === "tool_call" && line.name === "bash" && line.origin_extension === "nester", from, "the nested bash call");
    rpc.send({ id: "stop", type: "abort" });
    rpc.send({ id: "next", type: "prompt", message: "next" });
    const first = await rpc.eventsUntilDone(from);
    const nested = first.find((e) => e.type === "tool_call" && e.name === "bash")!;
    expect(first.find((e) => e.type === "tool_result" && e.id === nested.id)).toMatchObject({ origin_extension: "nester", is_error: true });
    const { index } = await rpc.waitFor((line) => line.type === "response" && line.id === "next", from);
    const second = await rpc.eventsUntilDone(index);
    expect(second.filter((e) => e.type === "tool_result")).toEqual([]);
    expect(second.find((e) => e.type === "assistant_message")).toMatchObject({ content: [{ type: "text", text: "the next answer" }] });
  });
});
