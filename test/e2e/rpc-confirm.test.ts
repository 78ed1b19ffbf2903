// The rpc client as the one who confirms tool calls: once it says so in hello, a call the
// confirmation gate would put to the TUI's user (--no-yolo, a permission rule's ask) reaches it as
// a confirm_request event and its confirm command answers; through the compiled binary with the
// mock LLM speaking the Anthropic wire.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rpcFixture } from "../support/rpc-process.ts";
import { trustDir } from "../support/trust.ts";
import { tempDir } from "../support/zot.ts";

const fixture = rpcFixture();
const bash = (id: string, command: string) => ({ id, name: "bash", args: { command } });

describe("confirm over rpc", () => {
  test("--no-yolo: each call waits for the client's answer; yes runs it, no tells the model why", async () => {
    const cwd = tempDir("zot-rpc-confirm-");
    const rpc = fixture.start([{ tool_calls: [bash("t1", "touch yes.txt"), bash("t2", "touch no.txt")] }, { text: "done" }], ["--no-yolo"], { cwd });
    expect((await rpc.call({ type: "hello", confirm: true })).data).toMatchObject({ confirm: true });
    // Said once, it holds: a later hello says the client is still asked.
    expect((await rpc.call({ type: "hello", confirm: false })).data).toMatchObject({ confirm: true });
    const from = rpc.lines.length;
    await rpc.call({ type: "prompt", message: "make the files" });
    const first = (await rpc.waitFor((l) => l.type === "confirm_request", from)).line;
    expect(first).toMatchObject({ call_id: "t1", tool: "bash", args: { command: "touch yes.txt" }, preview: "touch yes.txt" });
    expect(existsSync(join(cwd, "yes.txt"))).toBe(false);
    expect(await rpc.call({ type: "confirm", request_id: first.request_id, answer: "yes" })).toMatchObject({ success: true });
    const second = (await rpc.waitFor((l) => l.type === "confirm_request" && l.request_id !== first.request_id, from)).line;
    expect(second).toMatchObject({ call_id: "t2" });
    await rpc.call({ type: "confirm", request_id: second.request_id, answer: "no", reason: "not that one" });
    const events = await rpc.eventsUntilDone(from);
    expect(existsSync(join(cwd, "yes.txt"))).toBe(true);
    expect(existsSync(join(cwd, "no.txt"))).toBe(false);
    const results = events.filter((e) => e.type === "tool_result");
    expect(results.map((e) => [e.id, e.is_error])).toEqual([["t1", false], ["t2", true]]);
    expect(results[1].content[0].text).toBe("the user declined: not that one");
    // An answer to a request that is no longer waiting is an error naming it.
    expect(await rpc.call({ type: "confirm", request_id: first.request_id, answer: "yes" })).toMatchObject({
      success: false,
      error: `confirm: no confirm_request "${first.request_id}" is waiting (it was answered, or its turn ended)`,
    });
  });

  test("a permission rule's ask reaches the client with the rule named, even with confirmations off", async () => {
    const cwd = tempDir("zot-rpc-confirm-");
    const home = tempDir("zot-rpc-confirm-home-");
    trustDir(home, cwd);
    mkdirSync(join(cwd, ".claude"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "settings.json"), JSON.stringify({ permissions: { ask: ["Bash(touch *)"] } }));
    const rpc = fixture.start([{ tool_calls: [bash("t1", "touch asked.txt")] }, { text: "done" }], [], { cwd, home, env: { HOME: tempDir("zot-rpc-user-") } });
    await rpc.call({ type: "hello", confirm: true });
    const from = rpc.lines.length;
    await rpc.call({ type: "prompt", message: "go" });
    const asked = (await rpc.waitFor((l) => l.type === "confirm_request", from)).line;
    expect(asked.why).toBe('the permission rule "Bash(touch *)" (.claude/settings.json) asks');
    await rpc.call({ type: "confirm", request_id: asked.request_id, answer: "yes" });
    await rpc.eventsUntilDone(from);
    expect(existsSync(join(cwd, "asked.txt"))).toBe(true);
  });

  test("a request left waiting when the client closes stdin is refused, said with confirm_cancelled; zot finishes the turn and exits 0", async () => {
    const cwd = tempDir("zot-rpc-confirm-");
    const rpc = fixture.start([{ tool_calls: [bash("t1", "touch never.txt")] }, { text: "gave up" }], ["--no-yolo"], { cwd });
    await rpc.call({ type: "hello", confirm: true });
    const from = rpc.lines.length;
    await rpc.call({ type: "prompt", message: "go" });
    const asked = (await rpc.waitFor((l) => l.type === "confirm_request", from)).line;
    expect(await rpc.close()).toBe(0);
    expect(rpc.lines.find((l) => l.type === "confirm_cancelled")).toEqual({ type: "confirm_cancelled", request_id: asked.request_id, reason: "the client closed stdin" });
    expect(rpc.lines.find((l) => l.type === "tool_result")).toMatchObject({ id: "t1", is_error: true });
    expect(existsSync(join(cwd, "never.txt"))).toBe(false);
    expect(rpc.lines.some((l) => l.type === "done")).toBe(true);
  });

  test("an abort while a request waits cancels it; without hello's confirm --no-yolo refuses as before; dontAsk asks nobody", async () => {
    const cwd = tempDir("zot-rpc-confirm-");
    const rpc = fixture.start([{ tool_calls: [bash("t1", "touch a.txt")] }], ["--no-yolo"], { cwd });
    await rpc.call({ type: "hello", confirm: true });
    const from = rpc.lines.length;
    await rpc.call({ type: "prompt", message: "go" });
    const asked = (await rpc.waitFor((l) => l.type === "confirm_request", from)).line;
    await rpc.call({ type: "abort" });
    expect((await rpc.waitFor((l) => l.type === "confirm_cancelled", from)).line).toEqual({ type: "confirm_cancelled", request_id: asked.request_id, reason: "its turn ended" });
    await rpc.eventsUntilDone(from);
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);

    const plain = fixture.start([{ tool_calls: [bash("t1", "touch b.txt")] }, { text: "ok" }], ["--no-yolo"], { cwd });
    const events = await plain.prompt("go");
    expect(events.some((e) => e.type === "confirm_request")).toBe(false);
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ is_error: true });
    expect(plain.stderr).toContain('unless the client answers confirm_request events: send {"type":"hello","confirm":true}');

    const nobody = fixture.start([], ["--permission-mode", "dontAsk"], { cwd });
    expect((await nobody.call({ type: "hello", confirm: true })).data).toMatchObject({ confirm: false });
  });
});
