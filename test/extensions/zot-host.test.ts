// ZotExtensionHost against real child processes (python3, bash, node, TypeScript run by bun):
// the handshake, registration, every frame in both directions, bad input, timeouts and crashes,
// the diagnostics channel, and events dropped for an extension that stopped reading.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadManifest } from "../../src/extensions/manifest.ts";
import { type HostDiagnostic, type HostTimeouts, ZotExtensionHost, type ZotHostOptions } from "../../src/extensions/zot-host.ts";
import { alive, eventually, programExtension, type ScriptedConfig, scriptedExtension } from "../fixtures/extensions/make.ts";
import { tempDir } from "../support/zot.ts";

/** The fields every notification carries (the manager fills them in). */
const NOTE = { session_id: "s1", cwd: "/w", sequence: 1 };

const hosts: ZotExtensionHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

function makeHost(
  dir: string,
  home: string,
  timeouts: Partial<HostTimeouts> = {},
  extra: Pick<ZotHostOptions, "onDiagnostic" | "maxBacklogBytes" | "env"> = {},
): ZotExtensionHost {
  const loaded = loadManifest(dir);
  if (!loaded.ok) throw new Error(loaded.error);
  const host = new ZotExtensionHost({
    manifest: loaded.manifest,
    dir,
    home,
    cwd: "/somewhere/project",
    provider: "scripted",
    model: "demo-model",
    zotVersion: "9.9.9",
    zotBinary: process.execPath,
    timeouts,
    ...extra,
  });
  hosts.push(host);
  return host;
}

/** A started scripted extension, its home, a file recording what it received, and its diagnostics. */
async function started(
  config: ScriptedConfig,
  timeouts: Partial<HostTimeouts> = {},
  name = "probe",
  extra: Pick<ZotHostOptions, "maxBacklogBytes"> = {},
) {
  const root = tempDir("zot-ext-");
  const home = join(root, "home");
  const record = join(root, "received.ndjson");
  const dir = scriptedExtension(root, name, { record, ...config });
  const diagnostics: HostDiagnostic[] = [];
  const host = makeHost(dir, home, timeouts, { ...extra, onDiagnostic: (d) => diagnostics.push(d) });
  await host.start();
  return { host, home, root, dir, record, diagnostics, log: () => readLog(home, name), received: () => readRecord(record) };
}

function readLog(home: string, name: string): string {
  const file = join(home, "logs", `ext-${name}.log`);
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}

/** The frames the extension recorded so far; a last line it is still writing (no newline yet) is not one. */
function readRecord(file: string): any[] {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, "utf8").split("\n");
  lines.pop();
  return lines.filter(Boolean).map((line) => JSON.parse(line));
}

const signal = () => new AbortController().signal;

describe("handshake", () => {
  test("hello → hello_ack with the run's facts; env names the extension, its dir and data dir", async () => {
    const root = tempDir("zot-ext-");
    const envfile = join(root, "env.json");
    const ext = await started({ envfile });
    expect(ext.host.state).toBe("ready");
    const ack = ext.received()[0];
    const dataDir = join(ext.home, "data", "probe");
    expect(ack).toEqual({
      type: "hello_ack",
      protocol_version: 1,
      // What zot implements, and nothing it lacks.
      capabilities: ["commands", "tools", "events", "intercept", "panels", "submit", "submit_slash", "clear_notes", "call_tool", "tool_cancel"],
      zot_version: "9.9.9",
      provider: "scripted",
      model: "demo-model",
      cwd: "/somewhere/project",
      extension_dir: ext.dir,
      data_dir: dataDir,
    });
    expect(statSync(dataDir).isDirectory()).toBe(true);
    const seen = JSON.parse(readFileSync(envfile, "utf8"));
    expect(seen.env.ZOT_EXTENSION_NAME).toBe("probe");
    expect(seen.env.ZOT_EXTENSION_DIR).toBe(ext.dir);
    expect(seen.env.ZOT_DATA_DIR).toBe(dataDir);
    expect(seen.env.BUN_BE_BUN).toBeUndefined();
    // The extension runs in its own directory.
    expect(seen.cwd).toBe(ext.dir);
  });

  test("a hello with another name is logged; the manifest's name is used", async () => {
    const ext = await started({ hello_name: "impostor", after_hello: [{ type: "register_command", name: "hi" }] });
    expect(ext.host.name).toBe("probe");
    expect(ext.host.commands().map((c) => c.name)).toEqual(["hi"]);
    expect(ext.log()).toContain('hello names the extension "impostor" but its manifest says "probe"; using "probe"');
    expect(ext.diagnostics).toEqual([
      { kind: "hello_name", message: 'hello names the extension "impostor" but its manifest says "probe"; using "probe"' },
    ]);
    expect(ext.host.hello).toEqual({ name: "impostor", version: "1.0.0", capabilities: [] });
  });

  test("the hello frame's version and capabilities are kept; a clean start reports nothing", async () => {
    const ext = await started({
      hello: false,
      before_hello: [{ type: "hello", name: "probe", version: "2.1.0", capabilities: ["images", "notes"] }],
    });
    expect(ext.host.state).toBe("ready");
    expect(ext.host.hello).toEqual({ name: "probe", version: "2.1.0", capabilities: ["images", "notes"] });
    await ext.host.stop();
    expect(ext.diagnostics).toEqual([]);
  });

  test("registration without a ready frame closes after 250 ms of silence, and says so", async () => {
    const ext = await started({ ready: false, on_ack: [{ type: "register_tool", name: "late_tool" }] });
    expect(ext.host.state).toBe("ready");
    expect(ext.host.tools().map((t) => t.name)).toEqual(["late_tool"]);
    expect(ext.log()).toContain("no ready frame; registration closed after 250 ms of silence");
    expect(ext.diagnostics).toEqual([{ kind: "no_ready", message: "no ready frame; registration closed after 250 ms of silence" }]);
  });

  test("no hello within the deadline: failed with a clear message, and the process is killed", async () => {
    const root = tempDir("zot-ext-");
    const pidfile = join(root, "pid");
    const ext = await started({ hello: false, pidfile }, { helloMs: 300 });
    expect(ext.host.state).toBe("failed");
    expect(ext.host.error).toContain(`extension "probe" sent no hello frame within 0.3 s (a program whose output is buffered sends nothing until it exits: flush after each frame, e.g. Python's print(..., flush=True)); it was stopped`);
    expect(ext.host.hello).toBeUndefined();
    const pid = Number(readFileSync(pidfile, "utf8"));
    await eventually(() => !alive(pid), "the silent extension to be killed");
    await ext.host.stop();
    // Killing it was the host's doing: the SIGTERM it took is not a second mistake.
    expect(ext.diagnostics).toEqual([{ kind: "hello_timeout", message: `extension "probe" sent no hello frame within 0.3 s (a program whose output is buffered sends nothing until it exits: flush after each frame, e.g. Python's print(..., flush=True)); it was stopped` }]);
  });

  test("a program that holds its output (Python's print to a pipe): the timeout says to flush, and the hello flushed as it is stopped is named as late, not as a second one", async () => {
    const root = tempDir("zot-ext-");
    const dir = programExtension(root, "buffered", {
      name: "run.py",
      executable: true,
      text: `#!/usr/bin/env python3\nimport json, signal, sys\nsignal.signal(signal.SIGTERM, lambda *_: sys.exit(0))\nprint(json.dumps({"type": "hello", "name": "buffered"}))\nfor line in sys.stdin:\n    pass\n`,
    });
    const diagnostics: HostDiagnostic[] = [];
    const host = makeHost(dir, join(root, "home"), { helloMs: 500 }, { onDiagnostic: (d) => diagnostics.push(d), env: { ...process.env, PYTHONUNBUFFERED: undefined } });
    await host.start();
    expect(host.error).toContain("flush after each frame, e.g. Python's print(..., flush=True)");
    await eventually(() => diagnostics.some((d) => d.kind === "late_hello"), "the late hello to be named");
    expect(diagnostics.map((d) => d.kind)).not.toContain("second_hello");
    await host.stop();
  });

  test("no hello, and lines that are not JSON before it: the message says so, and where such text belongs", async () => {
    const ext = await started({ hello: false, before_hello: ["Starting my extension v1.2...", "\u0001\u0002 binary junk"] }, { helloMs: 300 });
    expect(ext.host.state).toBe("failed");
    expect(ext.host.error).toContain(
      'extension "probe" sent no hello frame within 0.3 s (it wrote 2 lines that are not JSON: stdout is for protocol frames, anything else goes to stderr); it was stopped',
    );
    await ext.host.stop();
  });

  test("frames before hello are ignored; hello may still come", async () => {
    const ext = await started({ before_hello: [{ type: "register_command", name: "early" }, "not json at all"] });
    expect(ext.host.state).toBe("ready");
    expect(ext.host.commands()).toEqual([]);
    expect(ext.log()).toContain('"register_command" frame before hello; ignored');
    expect(ext.log()).toContain("not JSON: not json at all");
  });

  test("an extension that exits during hello fails at once with its exit code", async () => {
    const root = tempDir("zot-ext-");
    const dir = programExtension(root, "quitter", {
      name: "run.sh",
      executable: true,
      text: "#!/usr/bin/env bash\necho 'something went wrong' >&2\nexit 3\n",
    });
    const diagnostics: HostDiagnostic[] = [];
    const host = makeHost(dir, join(root, "home"), { helloMs: 60_000 }, { onDiagnostic: (d) => diagnostics.push(d) });
    await host.start();
    expect(host.state).toBe("failed");
    expect(host.error).toContain('extension "quitter" exited with code 3 before sending hello');
    expect(host.error).toContain(`(its log: ${host.logFile})`);
    expect(diagnostics).toEqual([{ kind: "exit_before_hello", message: 'extension "quitter" exited with code 3 before sending hello' }]);
    expect(readLog(join(root, "home"), "quitter")).toContain("something went wrong");
  });

  test("an extension that ends with code 0 before hello is told of the likely slip: ext.run() never called", async () => {
    const root = tempDir("zot-ext-");
    const dir = programExtension(root, "norun", { name: "run.sh", executable: true, text: "#!/usr/bin/env bash\nexit 0\n" });
    const host = makeHost(dir, join(root, "home"), { helloMs: 60_000 });
    await host.start();
    expect(host.error).toContain('extension "norun" exited with code 0 before sending hello (it ended without starting: an @zot/sdk extension calls `await ext.run()`');
  });

  test("one that zot stops before its hello (a reload) and that exits cleanly is not told it never called ext.run()", async () => {
    const root = tempDir("zot-ext-");
    const dir = programExtension(root, "slowstart", {
      name: "run.py",
      executable: true,
      text: `#!/usr/bin/env python3\nimport signal, sys\nsignal.signal(signal.SIGTERM, lambda *_: sys.exit(0))\nfor line in sys.stdin:\n    pass\n`,
    });
    const host = makeHost(dir, join(root, "home"), { helloMs: 60_000 });
    const starting = host.start();
    await Bun.sleep(200);
    await host.stop();
    await starting;
    expect(readLog(join(root, "home"), "slowstart")).not.toContain("ended without starting");
  });

  test("an extension that exits after hello, before ready (its config missing), is a failed start, said as one, with nothing of it loaded", async () => {
    const root = tempDir("zot-ext-");
    const dir = programExtension(root, "cfgext", {
      name: "run.sh",
      executable: true,
      text: `#!/usr/bin/env bash\necho '{"type":"hello","name":"cfgext"}'\necho '{"type":"register_command","name":"deploy"}'\necho 'config file missing' >&2\nexit 1\n`,
    });
    const diagnostics: HostDiagnostic[] = [];
    const host = makeHost(dir, join(root, "home"), { helloMs: 60_000 }, { onDiagnostic: (d) => diagnostics.push(d) });
    await host.start();
    expect(host.state).toBe("failed");
    expect(host.error).toContain('extension "cfgext" exited with code 1 after hello, before ready; its commands and tools are not loaded');
    expect(host.commands()).toEqual([]);
    expect(diagnostics.map((d) => d.kind)).toEqual(["exit_before_ready"]);
  });

  test("an exec that cannot run fails with a sentence naming the field", async () => {
    const root = tempDir("zot-ext-");
    const dir = programExtension(root, "noexec", { name: "run.sh", text: "#!/bin/sh\n" });
    const host = makeHost(dir, join(root, "home"));
    await host.start();
    expect(host.state).toBe("failed");
    expect(host.error).toContain('"exec" is "./run.sh"');
    expect(host.error).toContain("chmod +x");
  });
});

describe("frames from the extension", () => {
  test("garbage, unknown types, invalid frames and over-long lines are logged and skipped; the extension still works", async () => {
    const huge = JSON.stringify({ type: "notify", message: "x".repeat(5 * 1024 * 1024) });
    const ext = await started({
      after_hello: [
        "{not json",
        { type: "teleport", where: "mars" },
        { no_type: true },
        { type: "register_command", name: "has space" },
        huge,
        { type: "register_command", name: "works", description: "still here" },
      ],
      commands: { works: { action: "display", display: "ok" } },
    });
    const log = ext.log();
    expect(log).toContain("not JSON: {not json");
    expect(log).toContain('unknown frame type "teleport"; skipped');
    expect(log).toContain('a frame without a "type"; skipped');
    expect(log).toContain("invalid register_command frame (name: a command name is letters, digits, - and _); skipped");
    expect(log).toMatch(/dropped a line of \d+ bytes/);
    // Each one reaches onDiagnostic too, in order, with the words of its log line.
    expect(ext.diagnostics.map((d) => d.kind)).toEqual(["not_json", "unknown_frame", "frame_without_type", "invalid_frame", "line_too_long"]);
    expect(ext.diagnostics[3].message).toBe("invalid register_command frame (name: a command name is letters, digits, - and _); skipped");
    for (const { message } of ext.diagnostics) expect(log).toContain(`[zot] ${message}`);
    expect(ext.host.commands()).toEqual([{ name: "works", description: "still here" }]);
    expect(await ext.host.invoke("works", "", signal())).toEqual({ command: "works", extension: "probe", action: "display", text: "ok" });
  });

  test("subscribe unions across frames; unknown names are said (for ext check and doctor) without failing", async () => {
    const ext = await started({
      after_hello: [
        { type: "subscribe", events: ["turn_start", "moon_phase"], intercept: ["tool_call"] },
        { type: "subscribe", events: ["turn_end"], intercept: ["before_llm", "assistant_message"] },
      ],
    });
    expect(ext.host.subscribed("turn_start")).toBe(true);
    expect(ext.host.subscribed("turn_end")).toBe(true);
    expect(ext.host.subscribed("tool_call")).toBe(false);
    expect(ext.host.intercepts().sort()).toEqual(["assistant_message", "tool_call"]);
    // Unknown names never break the connection: logged, and kept for a protocol that may send them.
    expect(ext.log()).toContain('subscribe: event "moon_phase" is not one zot sends');
    expect(ext.log()).toContain('subscribe: "before_llm" cannot be intercepted by this zot, so this interceptor never runs');
    // Said as diagnostics too (zot ext check warns of the event, and counts the interceptor that never runs as an error).
    expect(ext.diagnostics.filter((d) => d.kind === "unknown_subscription" || d.kind === "cannot_intercept").map((d) => d.kind)).toEqual(["unknown_subscription", "cannot_intercept"]);
    expect(ext.host.state).toBe("ready");
  });

  test("notify and clear_notes reach their handlers, any time", async () => {
    const root = tempDir("zot-ext-");
    const home = join(root, "home");
    const dir = scriptedExtension(root, "noisy", {
      // Any level the original's SDK took: warning is warn, the unknown ones (debug, "") info.
      after_hello: [
        { type: "notify", level: "warn", message: "early" },
        { type: "notify", level: "warning", message: "spelled out" },
        { type: "notify", level: "debug", message: "detail" },
        { type: "notify", level: "", message: "plain" },
      ],
      commands: { ping: { eval: "{'action': 'noop'}" } },
      on_event: { session_start: [{ type: "notify", message: "started" }, { type: "clear_notes" }] },
      on_ack: [{ type: "subscribe", events: ["session_start"] }],
    });
    const host = makeHost(dir, home);
    const notes: string[] = [];
    host.onNotify((level, message) => notes.push(`${level}:${message}`));
    host.onClearNotes(() => notes.push("cleared"));
    await host.start();
    host.sendEvent({ type: "event", event: "session_start", ...NOTE });
    await eventually(() => notes.length === 6, "six notes");
    expect(notes).toEqual(["warn:early", "warn:spelled out", "info:detail", "info:plain", "info:started", "cleared"]);
  });

  test("a reply with an unknown id is logged and dropped", async () => {
    const ext = await started({ after_hello: [{ type: "tool_result", id: "nobody-asked", content: [] }] });
    expect(ext.log()).toContain('tool_result for unknown id "nobody-asked" (late, or never asked); dropped');
  });
});

describe("commands", () => {
  const commands = {
    show: { action: "display", display: "sunny" },
    ask: { eval: "{'action': 'prompt', 'prompt': 'weather in ' + f['args']}" },
    put: { action: "insert", insert: "inserted text" },
    quiet: { action: "noop" },
    broken: { action: "display", display: "ignored", error: "city not found" },
    blank: { action: "prompt", prompt: "   " },
    slow: { never: true },
  };

  test("every action, normalised; an error field wins over the action", async () => {
    const ext = await started({ after_hello: Object.keys(commands).map((name) => ({ type: "register_command", name })), commands }, { commandMs: 400 });
    const run = (name: string, args = "") => ext.host.invoke(name, args, signal());
    const base = { extension: "probe" };
    expect(await run("show")).toEqual({ ...base, command: "show", action: "display", text: "sunny" });
    expect(await run("ask", "berlin")).toEqual({ ...base, command: "ask", action: "prompt", text: "weather in berlin" });
    expect(await run("put")).toEqual({ ...base, command: "put", action: "insert", text: "inserted text" });
    expect(await run("quiet")).toEqual({ ...base, command: "quiet", action: "noop" });
    expect(await run("broken")).toEqual({ ...base, command: "broken", action: "error", text: "city not found" });
    expect(await run("blank")).toEqual({ ...base, command: "blank", action: "noop" });
    expect(await run("slow")).toEqual({ ...base, command: "slow", action: "error", text: "timed out after 0.4 s" });
    const invoked = ext.received().filter((f) => f.type === "command_invoked");
    expect(invoked[1]).toMatchObject({ name: "ask", args: "berlin" });
    // No args: the field is left out.
    expect("args" in invoked[0]).toBe(false);
  });
});

describe("tools", () => {
  const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
  const tools = {
    mixed: {
      content: [
        { type: "text", text: "two blocks" },
        { type: "image", mime_type: "image/png", data: png },
        { type: "video", url: "x" },
        { type: "text", text: "" },
      ],
    },
    bad_image: { content: [{ type: "image", mime_type: "image/png", data: "***not base64***" }] },
    svg_image: { content: [{ type: "image", mime_type: "image/svg+xml", data: Buffer.from("<svg/>").toString("base64") }] },
    text_as_png: { content: [{ type: "image", mime_type: "image/png", data: Buffer.from("not a png at all").toString("base64") }] },
    empty: { content: [] },
    failing: { content: [{ type: "text", text: "no such city" }], is_error: true },
    echo: { eval: "{'content': [{'type': 'text', 'text': 'args=' + __import__('json').dumps(f['args'], sort_keys=True)}]}" },
    slow: { never: true },
    invalid: { content: "not a list" },
    crash: { exit: 7 },
  };
  const register = Object.keys(tools).map((name) => ({ type: "register_tool", name, description: `the ${name} tool` }));

  test("results convert: images validated, unknown blocks noted, empty filled, errors kept", async () => {
    const ext = await started({ after_hello: register, tools }, { toolMs: 400 });
    const call = (name: string, args: Record<string, unknown> = {}) => ext.host.callTool(name, args, signal());
    const details = (tool: string) => ({ extension: "probe", tool });

    expect(await call("mixed")).toEqual({
      content: [
        { type: "text", text: "two blocks" },
        { type: "image", mime_type: "image/png", data: png },
        { type: "text", text: '[unknown block type "video" from extension probe]' },
      ],
      is_error: false,
      details: details("mixed"),
    });
    const bad = await call("bad_image");
    expect(bad.is_error).toBe(true);
    expect(bad.content[0]).toEqual({ type: "text", text: "extension probe/bad_image returned an undecodable image: data is not standard base64" });
    // Images the model APIs refuse would fail every later request while in the transcript: the model is told instead.
    expect(await call("svg_image")).toMatchObject({
      is_error: true,
      content: [{ type: "text", text: "extension probe/svg_image returned an image the model cannot be sent: its type image/svg+xml is none the model APIs take (image/png, image/jpeg, image/gif, image/webp)" }],
    });
    expect(await call("text_as_png")).toMatchObject({
      is_error: true,
      content: [{ type: "text", text: expect.stringContaining("returned an image the model cannot be sent: its bytes are no image (no PNG, JPEG, GIF or WebP signature at the start)") }],
    });
    expect((await call("empty")).content).toEqual([{ type: "text", text: "(extension returned no content)" }]);
    expect(await call("failing")).toMatchObject({ is_error: true, content: [{ type: "text", text: "no such city" }] });
    expect((await call("echo", { city: "Berlin", n: 2 })).content).toEqual([{ type: "text", text: 'args={"city": "Berlin", "n": 2}' }]);
    expect((await call("slow")).content).toEqual([{ type: "text", text: "extension probe/slow failed: timed out after 0.4 s" }]);
    const invalid = await call("invalid");
    expect(invalid.is_error).toBe(true);
    expect((invalid.content[0] as { text: string }).text).toStartWith("extension probe/invalid failed: it sent an invalid tool_result (content:");
    expect(ext.log()).toContain("invalid tool_result frame (content:");
  });

  test("an extension that dies mid call fails the call at once and loses its tools and commands", async () => {
    const ext = await started({ after_hello: [...register, { type: "register_command", name: "c" }], tools }, { toolMs: 60_000 });
    let changes = 0;
    ext.host.onChange(() => changes++);
    const result = await ext.host.callTool("crash", {}, signal());
    expect(result).toEqual({
      content: [{ type: "text", text: "extension probe/crash failed: the extension exited (code 7)" }],
      is_error: true,
      details: { extension: "probe", tool: "crash" },
    });
    await eventually(() => ext.host.state === "exited", "the host to see the exit");
    expect(ext.host.tools()).toEqual([]);
    expect(ext.host.commands()).toEqual([]);
    expect(changes).toBeGreaterThan(0);
    expect(ext.log()).toContain("the extension exited (code 7) while running");
    expect(ext.diagnostics.map((d) => d.kind)).toEqual(["exited"]);
    // Later calls fail at once too.
    expect((await ext.host.callTool("echo", {}, signal())).content).toEqual([
      { type: "text", text: "extension probe/echo failed: the extension exited (code 7)" },
    ]);
  });

  test("the turn's abort cancels a waiting call", async () => {
    const ext = await started({ after_hello: register, tools }, { toolMs: 60_000 });
    const controller = new AbortController();
    const pending = ext.host.callTool("slow", {}, controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect((await pending).content).toEqual([{ type: "text", text: "extension probe/slow failed: cancelled" }]);
  });
});

describe("events and interception", () => {
  test("events reach a subscriber in order, only the subscribed ones", async () => {
    const ext = await started({ after_hello: [{ type: "subscribe", events: ["turn_start", "turn_end"] }] });
    for (let step = 1; step <= 300; step++) {
      ext.host.sendEvent({ type: "event", event: "turn_start", step, ...NOTE });
      ext.host.sendEvent({ type: "event", event: "tool_call", tool_id: "t", tool_name: "read", tool_args: {}, ...NOTE });
      ext.host.sendEvent({ type: "event", event: "turn_end", stop: "end", ...NOTE });
    }
    await eventually(() => ext.received().filter((f) => f.type === "event").length === 600, "600 events");
    const events = ext.received().filter((f) => f.type === "event");
    expect(events.filter((f) => f.event === "tool_call")).toEqual([]);
    expect(events.filter((f) => f.event === "turn_start").map((f) => f.step)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(events.slice(0, 2)).toEqual([
      { type: "event", event: "turn_start", step: 1, ...NOTE },
      { type: "event", event: "turn_end", stop: "end", ...NOTE },
    ]);
  });

  test("a subscriber that stops reading never blocks the sender, and its events are dropped past the bound", async () => {
    const ext = await started(
      { stall: true, after_hello: [{ type: "subscribe", events: ["tool_call"] }] },
      { graceMs: 100, termMs: 100 },
      "probe",
      { maxBacklogBytes: 64 * 1024 },
    );
    const args = { blob: "x".repeat(1000) };
    // Far more than a pipe holds (64 KiB) plus the bound: each send returns at once all the same.
    for (let i = 0; i < 2000; i++) ext.host.sendEvent({ type: "event", event: "tool_call", tool_id: String(i), tool_name: "read", tool_args: args, ...NOTE });
    expect(ext.host.live).toBe(true);
    await ext.host.stop();
    expect(ext.host.state).toBe("stopped");
    // Reported once, when the extension went away without catching up.
    const drops = ext.diagnostics.filter((d) => d.kind === "frames_dropped");
    expect(drops).toHaveLength(1);
    expect(drops[0].message).toMatch(/^dropped \d+ event frames: the extension is not reading its stdin$/);
    expect(ext.log()).toContain(`[zot] ${drops[0].message}`);
  });

  test("intercept: the reply comes back; a crash mid intercept rejects at once and is logged", async () => {
    const ext = await started(
      {
        after_hello: [{ type: "subscribe", intercept: ["tool_call", "turn_start"] }],
        intercept: { tool_call: { block: true, reason: "nope" }, turn_start: { exit: 5 } },
      },
      { interceptMs: 60_000 },
    );
    expect(await ext.host.intercept({ event: "tool_call", tool_id: "1", tool_name: "bash", tool_args: {} }, signal())).toEqual({
      type: "event_intercept_response",
      id: expect.anything(),
      block: true,
      reason: "nope",
    });
    await expect(ext.host.intercept({ event: "turn_start", step: 1 }, signal())).rejects.toThrow("exited");
    expect(ext.log()).toContain("intercept turn_start:");
    expect(ext.host.intercepts()).toEqual([]);
  });
});

describe("a guard's malformed reply", () => {
  test("a block with another field of the wrong type still blocks (its reason kept if it is text); a malformed reply with no block fails", async () => {
    const ext = await started(
      {
        after_hello: [{ type: "subscribe", intercept: ["tool_call", "turn_start", "assistant_message"] }],
        intercept: { tool_call: { block: true, reason: 42 }, turn_start: { block: "TRUE", reason: "stop", respond: { content: "x" } }, assistant_message: { replace_text: 5 } },
      },
      { interceptMs: 60_000 },
    );
    const toolCall = await ext.host.intercept({ event: "tool_call", tool_id: "1", tool_name: "bash", tool_args: { command: "rm -rf /" } }, signal());
    expect(toolCall).toMatchObject({ type: "event_intercept_response", block: true });
    expect((toolCall as { reason: string }).reason).toStartWith("the extension blocked it in a malformed reply (reason:");
    expect(await ext.host.intercept({ event: "turn_start", step: 1 }, signal())).toMatchObject({ block: true, reason: "stop" });
    await expect(ext.host.intercept({ event: "assistant_message", text: "hi" }, signal())).rejects.toThrow("it sent an invalid event_intercept_response");
    expect(ext.log()).toContain("invalid event_intercept_response frame (reason:");
    expect(ext.log()).toContain("its block is kept, the rest dropped");
  });
});

describe("a block spelt as a word", () => {
  test("yes, on, y and 1 block as true does, in any case; no is no block (the reply is invalid, and the call is not blocked by it)", async () => {
    for (const word of ["yes", "ON", " y ", "1"]) {
      const ext = await started({ after_hello: [{ type: "subscribe", intercept: ["tool_call"] }], intercept: { tool_call: { block: word, reason: "no rm" } } }, { interceptMs: 60_000 });
      expect([word, await ext.host.intercept({ event: "tool_call", tool_id: "1", tool_name: "bash", tool_args: { command: "rm x" } }, signal())]).toEqual([
        word,
        expect.objectContaining({ block: true, reason: "no rm" }),
      ]);
    }
    const no = await started({ after_hello: [{ type: "subscribe", intercept: ["tool_call"] }], intercept: { tool_call: { block: "no" } } }, { interceptMs: 60_000 });
    await expect(no.host.intercept({ event: "tool_call", tool_id: "1", tool_name: "bash", tool_args: {} }, signal())).rejects.toThrow("it sent an invalid event_intercept_response");
  });
});

describe("stop and other runtimes", () => {
  test("stop sends shutdown and the process is gone", async () => {
    const root = tempDir("zot-ext-");
    const pidfile = join(root, "pid");
    const ext = await started({ pidfile });
    const pid = Number(readFileSync(pidfile, "utf8"));
    expect(alive(pid)).toBe(true);
    await ext.host.stop();
    expect(alive(pid)).toBe(false);
    expect(ext.received().at(-1)).toEqual({ type: "shutdown" });
    expect(ext.host.state).toBe("stopped");
  });

  test("a stubborn extension is terminated after the grace period", async () => {
    const root = tempDir("zot-ext-");
    const pidfile = join(root, "pid");
    const ext = await started({ pidfile, ignore_shutdown: true }, { graceMs: 200, termMs: 200 });
    const pid = Number(readFileSync(pidfile, "utf8"));
    await ext.host.stop();
    expect(alive(pid)).toBe(false);
    expect(ext.log()).toContain("sending SIGTERM");
    expect(ext.diagnostics.map((d) => d.kind)).toEqual(["no_exit_after_stop"]);
  });

  test("bash with a while-read loop", async () => {
    const root = tempDir("zot-ext-");
    const dir = programExtension(root, "shell", {
      name: "ext.sh",
      executable: true,
      text: [
        "#!/usr/bin/env bash",
        `echo '{"type":"hello","name":"shell","version":"0.1"}'`,
        `echo '{"type":"register_command","name":"greet","description":"say hi"}'`,
        `echo '{"type":"ready"}'`,
        "while IFS= read -r line; do",
        // Ids are strings ("1", "2", …), as the protocol documents show.
        `  id=$(printf '%s' "$line" | sed -n 's/.*"id":"\\([^"]*\\)".*/\\1/p')`,
        `  case "$line" in`,
        `    *'"type":"command_invoked"'*) echo "{\\"type\\":\\"command_response\\",\\"id\\":\\"$id\\",\\"action\\":\\"display\\",\\"display\\":\\"hi from bash\\"}" ;;`,
        `    *'"type":"shutdown"'*) exit 0 ;;`,
        "  esac",
        "done",
      ].join("\n"),
    });
    const host = makeHost(dir, join(root, "home"));
    await host.start();
    expect(host.state).toBe("ready");
    expect(await host.invoke("greet", "", signal())).toMatchObject({ action: "display", text: "hi from bash" });
  });

  test("node with readline", async () => {
    const root = tempDir("zot-ext-");
    const dir = programExtension(
      root,
      "nodey",
      {
        name: "ext.js",
        text: [
          'const rl = require("node:readline").createInterface({ input: process.stdin });',
          "const send = (f) => process.stdout.write(JSON.stringify(f) + '\\n');",
          'send({ type: "hello", name: "nodey" });',
          'send({ type: "register_tool", name: "add", schema: { type: "object", properties: { a: { type: "number" } } } });',
          'send({ type: "ready" });',
          'rl.on("line", (l) => { const f = JSON.parse(l);',
          '  if (f.type === "tool_call") send({ type: "tool_result", id: f.id, content: [{ type: "text", text: String(f.args.a + 1) }] });',
          '  if (f.type === "shutdown") process.exit(0); });',
        ].join("\n"),
      },
      { exec: "node", args: ["ext.js"] },
    );
    const host = makeHost(dir, join(root, "home"));
    await host.start();
    expect(host.tools()).toEqual([
      {
        name: "add",
        description: "",
        schema: { type: "object", properties: { a: { type: "number" } } },
        exposure: "direct",
        interactive: false,
        replay: "never",
        namespace: "nodey",
      },
    ]);
    expect((await host.callTool("add", { a: 41 }, signal())).content).toEqual([{ type: "text", text: "42" }]);
  });

  test("TypeScript run by the zot runtime (here: bun) as Bun, with BUN_BE_BUN set to start it and gone from its own environment", async () => {
    const root = tempDir("zot-ext-");
    const dir = programExtension(root, "typed", {
      name: "index.ts",
      text: [
        "const send = (f: Record<string, unknown>): void => console.log(JSON.stringify(f));",
        'send({ type: "hello", name: "typed" });',
        'send({ type: "register_command", name: "env", description: String(process.env.BUN_BE_BUN) });',
        'send({ type: "ready" });',
        "for await (const line of console) {",
        "  const f = JSON.parse(line) as { type: string; id: number; args?: string };",
        '  if (f.type === "command_invoked") send({ type: "command_response", id: f.id, action: "display", display: `ts says ${f.args}` });',
        '  if (f.type === "shutdown") process.exit(0);',
        "}",
      ].join("\n"),
    });
    const host = makeHost(dir, join(root, "home"));
    await host.start();
    expect(host.state).toBe("ready");
    expect(host.commands()).toEqual([{ name: "env", description: "undefined" }]);
    expect(await host.invoke("env", "hello", signal())).toMatchObject({ action: "display", text: "ts says hello" });
  });
});

describe("the current protocol's additions", () => {
  test("host ids are decimal strings; a reply with the id as a number is matched all the same", async () => {
    const ext = await started({
      on_ack: [{ type: "register_tool", name: "t" }, { type: "register_command", name: "c" }],
      tools: { t: { eval: "{'id': int(f['id']), 'content': [{'type': 'text', 'text': 'numeric id ' + f['id']}]}" } },
      commands: { c: { action: "display", display: "string id" } },
    });
    const result = await ext.host.callTool("t", {}, signal());
    const command = await ext.host.invoke("c", "", signal());
    const sent = ext.received().filter((f) => f.type === "tool_call" || f.type === "command_invoked");
    expect(sent.map((f) => f.id)).toEqual(["1", "2"]);
    expect(result).toMatchObject({ is_error: false, content: [{ type: "text", text: "numeric id 1" }] });
    expect(command).toMatchObject({ action: "display", text: "string id" });
  });

  test("a tool_result over the line limit fails its call at once, naming the size; the extension keeps working", async () => {
    const ext = await started({
      on_ack: [{ type: "register_tool", name: "huge" }, { type: "register_tool", name: "small" }],
      tools: {
        huge: { eval: "{'content': [{'type': 'text', 'text': 'x' * (5 * 1024 * 1024)}]}" },
        small: { content: [{ type: "text", text: "fine" }] },
      },
    });
    // A deadline far beyond the test's: only failing at once can pass.
    const result = await ext.host.callTool("huge", {}, signal());
    expect(result.is_error).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain("extension probe/huge failed: it sent an invalid tool_result (its line was 5,242,");
    expect(text).toContain("over the limit of 4 MiB a frame, and was dropped)");
    expect(await ext.host.callTool("small", {}, signal())).toMatchObject({ is_error: false, content: [{ type: "text", text: "fine" }] });
  });

  test("an over-long line that is no reply (a 5 MB notify) fails no call: the answer after it is the call's", async () => {
    const ext = await started({
      on_ack: [{ type: "register_tool", name: "chatty" }],
      tools: {
        chatty: {
          eval: "(__import__('sys').stdout.write(__import__('json').dumps({'type': 'notify', 'message': 'z' * (5 * 1024 * 1024)}) + '\\n'), {'content': [{'type': 'text', 'text': 'the answer'}]})[1]",
        },
      },
    });
    const result = await ext.host.callTool("chatty", {}, signal());
    expect(result).toMatchObject({ is_error: false, content: [{ type: "text", text: "the answer" }] });
    expect(ext.diagnostics.map((d) => d.kind)).toContain("line_too_long");
  });

  test("an over-long tool_result whose own type is written last (after its content's) still fails its call at once", async () => {
    const ext = await started(
      {
        on_ack: [{ type: "register_tool", name: "late" }],
        tools: {
          late: {
            eval: "(__import__('sys').stdout.write('{\"id\": \"' + f['id'] + '\", \"content\": [{\"type\": \"text\", \"text\": \"' + 'z' * (5 * 1024 * 1024) + '\"}], \"type\": \"tool_result\"}\\n'), {'content': []})[1]",
          },
        },
      },
      { toolMs: 20_000 },
    );
    const result = await ext.host.callTool("late", {}, signal());
    // Failed when the line was dropped, naming it, not timed out at the deadline.
    expect(result.is_error).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain("over the limit of 4 MiB a frame, and was dropped");
  });

  test("a call that runs out of time says timed_out in its details", async () => {
    const ext = await started({ on_ack: [{ type: "register_tool", name: "slow" }], tools: { slow: { never: true } } }, { toolMs: 200 });
    const result = await ext.host.callTool("slow", {}, signal());
    expect(result.is_error).toBe(true);
    expect(result.details).toMatchObject({ status: "timed_out" });
  });

  test("commands are case-insensitive: the first spelling is kept, a case-only duplicate is a conflict", async () => {
    const ext = await started({
      on_ack: [
        { type: "register_command", name: "Review" },
        { type: "register_command", name: "REVIEW" },
      ],
      commands: { Review: { action: "display", display: "reviewed" } },
    });
    expect(ext.host.commands().map((c) => c.name)).toEqual(["Review"]);
    expect(ext.host.commandName("review")).toBe("Review");
    expect(ext.diagnostics.map((d) => d.kind)).toContain("command_conflict");
    // Invoked in any case, the extension gets its own spelling.
    expect(await ext.host.invoke("rEvIeW", "", signal())).toMatchObject({ action: "display", text: "reviewed" });
    expect(ext.received().find((f) => f.type === "command_invoked").name).toBe("Review");
  });

  test("panel frames, submit and submit_slash reach their handlers; an unknown action is an error naming it", async () => {
    const ext = await started({
      on_ack: [{ type: "register_command", name: "p" }, { type: "register_command", name: "odd" }],
      commands: {
        p: { action: "open_panel", open_panel: { id: "main", title: "T", lines: ["a"] } },
        odd: { action: "teleport", prompt: "x" },
      },
      on_event: {
        session_start: [
          { type: "panel_render", panel_id: "main", lines: ["b"] },
          { type: "submit", text: "do it" },
          { type: "submit_slash", text: "/help" },
          { type: "open_panel", panel: { id: "side" } },
          { type: "panel_close", panel_id: "side" },
        ],
      },
      after_hello: [{ type: "subscribe", events: ["session_start"] }],
    });
    const ops: unknown[] = [];
    const submitted: string[] = [];
    ext.host.onPanel((op) => ops.push(op));
    ext.host.onSubmit((kind, text) => submitted.push(`${kind}:${text}`));
    expect(await ext.host.invoke("p", "", signal())).toMatchObject({ action: "open_panel", text: "T", panel: { id: "main" } });
    ext.host.sendEvent({ type: "event", event: "session_start", ...NOTE });
    await eventually(() => ops.length === 4, "four panel operations");
    expect(ops).toEqual([
      { op: "open", panel: { id: "main", title: "T", lines: ["a"] } },
      { op: "render", panel_id: "main", lines: ["b"] },
      { op: "open", panel: { id: "side" } },
      { op: "close", panel_id: "side" },
    ]);
    expect(submitted).toEqual(["submit:do it", "submit_slash:/help"]);
    expect(await ext.host.invoke("odd", "", signal())).toEqual({
      command: "odd",
      extension: "probe",
      action: "error",
      text: 'unknown action "teleport" (this zot knows prompt, tool_prompt, insert, display, open_panel, noop)',
    });
  });

  test("unknown frame types and unknown fields never break the connection", async () => {
    const ext = await started({
      on_ack: [
        { type: "register_tool", name: "t", schema: { type: "object" }, output_schema: {}, exposure: "direct", replay: "safe", future_field: 1 },
        { type: "telemetry", data: { x: 1 } },
      ],
      tools: { t: { content: [{ type: "text", text: "ok", format: "markdown" }], structured_content: { a: 1 }, activate_tools: [] } },
    });
    expect(ext.host.tools().map((t) => t.name)).toEqual(["t"]);
    expect(await ext.host.callTool("t", {}, signal())).toMatchObject({ is_error: false, content: [{ type: "text", text: "ok" }] });
    expect(ext.host.live).toBe(true);
  });

  test("a manifest's timeouts.hello gives a slow starter more time than the default", async () => {
    const root = tempDir("zot-ext-");
    const dir = scriptedExtension(root, "cold", { hello_delay: 1, on_ack: [{ type: "register_command", name: "hi" }] }, { timeouts: { hello: 3000 } });
    // The host's own deadline would give up after 300 ms; the manifest's wins.
    const host = makeHost(dir, join(root, "home"), { helloMs: 300 });
    expect(host.helloTimeoutMs).toBe(3000);
    await host.start();
    expect(host.state).toBe("ready");
    expect(host.commands().map((c) => c.name)).toEqual(["hi"]);
  });
});
