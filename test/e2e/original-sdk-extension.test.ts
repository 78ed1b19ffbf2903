// An extension written the way the original zot's Go SDK writes them (test/fixtures/extensions/
// go_sdk_style.py: string-typed ids, registration only after hello_ack, a guard interceptor, a
// panel) through every path of the compiled binary: its command in -p, its tool called by the
// model, its interceptor blocking a dangerous bash call, its panel in -p, --json and rpc, and the
// notifications it subscribed to. With numeric ids such an extension decodes nothing: its
// interceptor never answers, and the rule for a silent interceptor is to allow.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES } from "../fixtures/extensions/make.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { RpcProcess } from "../support/rpc-process.ts";
import { trustDir } from "../support/trust.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";

let mock: MockLlm | undefined;
let rpc: RpcProcess | undefined;
afterEach(async () => {
  await rpc?.close();
  rpc = undefined;
  await mock?.stop();
  mock = undefined;
});

const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];

/** A project with the guard installed in .zot/extensions; `record` receives every host frame. */
function project(): { cwd: string; home: string; record: string; log: () => string } {
  const cwd = tempDir("zot-gosdk-");
  const home = tempDir("zot-gosdk-home-");
  trustDir(home, cwd);
  const record = join(cwd, "received.ndjson");
  const dir = join(cwd, ".zot", "extensions", "guard");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "guard", exec: "python3", args: [join(FIXTURES, "go_sdk_style.py"), record] }));
  const logFile = join(home, "logs", "ext-guard.log");
  return { cwd, home, record, log: () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "") };
}

const received = (file: string): any[] => (existsSync(file) ? ndjson(readFileSync(file, "utf8")) : []);

describe("an extension on the original's Go SDK", () => {
  test("hello_ack comes first; every id zot sends is a string; its command (any case) runs in -p", async () => {
    const p = project();
    const run = await zot(["-p", "/guard-status", "--provider", "scripted"], { cwd: p.cwd, home: p.home });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    // Registered as "Guard-Status": commands are case-insensitive and reach it under its own spelling.
    expect(run.stdout).toBe(`guard for ${p.cwd}: blocked 0 (none)\n`);
    const frames = received(p.record);
    expect(frames[0].type).toBe("hello_ack");
    expect(frames[0].capabilities).toContain("panels");
    expect(frames[0].capabilities).toEqual(expect.arrayContaining(["call_tool", "tool_cancel"]));
    const invoked = frames.find((f) => f.type === "command_invoked");
    expect(invoked).toMatchObject({ name: "Guard-Status" });
    expect(typeof invoked.id).toBe("string");
    expect(p.log()).not.toContain("cannot decode");
  });

  test("its interceptor blocks rm -rf at once, its tool answers the model, and its notifications carry the protocol's fields", async () => {
    const p = project();
    writeFileSync(join(p.cwd, "victim"), "keep me");
    mock = startMockLlm([
      { tool_calls: [{ name: "bash", args: { command: "rm -rf victim" } }] },
      { tool_calls: [{ name: "guard_note", args: { note: "tried rm" } }] },
      { text: "Done: {{last_tool_result}}" },
    ]);
    const run = await zot(["-p", "clean up", ...anthropic(mock)], { cwd: p.cwd, home: p.home });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Done: noted: tried rm\n");
    // The block came from the extension's answer (its reason), not from a timeout that allows.
    expect(existsSync(join(p.cwd, "victim"))).toBe(true);
    const toolResults = mock.requests[1].body.messages.at(-1).content;
    expect(JSON.stringify(toolResults)).toContain("rm -rf is not allowed here");
    expect(p.log()).not.toContain("timed out");
    expect(p.log()).not.toContain("cannot decode");

    const frames = received(p.record);
    expect(frames.filter((f) => "id" in f).every((f) => typeof f.id === "string")).toBe(true);
    const events = frames.filter((f) => f.type === "event");
    for (const e of events) {
      expect(typeof e.session_id).toBe("string");
      expect(e.cwd).toBe(p.cwd);
      expect(typeof e.sequence).toBe("number");
    }
    const names = events.map((e) => e.event);
    expect(names[0]).toBe("session_start");
    expect(names).toContain("user_prompt_submit");
    expect(names.at(-1)).toBe("session_end");
    expect(events.find((e) => e.event === "user_prompt_submit").text).toBe("clean up");
    // A finished answer ends with stop "end", as the original sent it.
    expect(events.filter((e) => e.event === "turn_end").map((e) => e.stop)).toEqual(["tool_use", "tool_use", "end"]);
    const decisions = events.filter((e) => e.event === "permission_decision");
    expect(decisions.map((d) => [d.tool_name, d.decision, d.source])).toEqual([
      ["bash", "denied", "policy"],
      ["guard_note", "approved", "yolo"],
    ]);
    const results = events.filter((e) => e.event === "tool_result");
    expect(results.map((r) => [r.tool_name, r.status, r.executed])).toEqual([
      ["bash", "blocked", false],
      ["guard_note", "completed", true],
    ]);
    expect(results[1].result).toEqual({ content: [{ type: "text", text: "noted: tried rm" }], is_error: false });
    expect(events.find((e) => e.event === "session_end").reason).toBe("shutdown");
    const sequence = events.map((e) => e.sequence);
    expect(sequence.every((n, i) => i === 0 || n > sequence[i - 1])).toBe(true);
  });

  test("its panel: -p prints the first render as text, --json emits panel_open", async () => {
    const p = project();
    const printed = await zot(["-p", "/todo", "--provider", "scripted"], { cwd: p.cwd, home: p.home });
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe("Todos\n> write the tests\n  ship it\n\nup/down move, esc close\n");

    const json = await zot(["--json", "/todo", "--provider", "scripted"], { cwd: p.cwd, home: p.home });
    expect(json.code).toBe(0);
    const events = ndjson(json.stdout);
    expect(events.find((e) => e.type === "panel_open")).toEqual({
      type: "panel_open",
      extension: "guard",
      panel_id: "todos-main",
      title: "Todos",
      lines: ["> write the tests", "  ship it"],
      footer: "up/down move, esc close",
    });
    expect(events.find((e) => e.type === "command_result")).toMatchObject({ command: "todo", action: "open_panel", text: "Todos" });
  });

  test("rpc: run_command opens the panel as an event; the extension's command list is case-preserving", async () => {
    const p = project();
    rpc = RpcProcess.start([], { cwd: p.cwd, home: p.home });
    const commands = await rpc.call({ type: "get_commands" });
    expect(commands.data.commands.map((c: any) => c.name)).toEqual(expect.arrayContaining(["Guard-Status", "todo"]));
    const answer = await rpc.call({ type: "run_command", name: "TODO" });
    expect(answer.success).toBe(true);
    const { line } = await rpc.waitFor((l) => l.type === "panel_open", 0, "panel_open");
    expect(line).toMatchObject({ extension: "guard", panel_id: "todos-main", lines: ["> write the tests", "  ship it"] });
  });
});
