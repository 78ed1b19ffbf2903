// `zot rpc` concurrency and lifecycle through the compiled binary: abort mid-stream, a queued
// second prompt, commands answered while a turn streams, clear/set_model refused while busy, and
// how the process ends with an extension that must get shutdown: stdin closed (the accepted prompts
// still finish, as `echo … | zot rpc` needs), an abort before it, SIGTERM/SIGINT and stdout closed (at once).
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { alive, eventually, scriptedExtension } from "../fixtures/extensions/make.ts";
import { anthropicMock, type RpcProcess, rpcFixture, type Turns } from "../support/rpc-process.ts";
import { requestViolations } from "../support/provider-rules.ts";
import { cleanEnv, ndjson, tempDir, ZOT, zot } from "../support/zot.ts";

const fixture = rpcFixture();

/** A turn that streams for a long while (about 64 bytes every 50 ms). */
const SLOW = { text: "word ".repeat(2000), chunk_size: 5, chunk_delay_ms: 50 };
/** A turn that streams for a second or two, then ends. */
const MEDIUM = { text: "word ".repeat(40), chunk_size: 5, chunk_delay_ms: 20 };

const start = (turns: Turns, extra: string[] = [], cwd?: string): RpcProcess => fixture.start(turns, extra, cwd ? { cwd } : {});

describe("an answer that ends with a call it does not wait for", () => {
  const providers: Record<string, (url: string) => string[]> = {
    anthropic: anthropicMock,
    "openai chat": (url) => ["--provider", "openai", "--api-key", "k", "--base-url", `${url}/v1`, "--model", "gpt-4.1"],
    "openai responses": (url) => ["--provider", "openai", "--api-key", "k", "--base-url", `${url}/v1`, "--model", "gpt-5"],
  };
  for (const [name, provider] of Object.entries(providers)) {
    test(`${name}: a call cut at the output limit is answered as not run, and the next prompt's request is one the API accepts`, async () => {
      const cwd = tempDir("zot-cwd-");
      const cut = {
        text: "Let me write the file.",
        tool_calls: [
          { id: "call_whole", name: "bash", args: { command: "echo whole" } },
          { id: "call_cut", name: "write", args: { path: "big.txt", content: "half of it" } },
        ],
        stop: "length" as const,
      };
      const r = fixture.start([cut, { text: "Splitting it." }], ["--no-ext"], { provider, cwd });
      const from = r.lines.length;
      await r.call({ type: "prompt", message: "write it" });
      const events = await r.eventsUntilDone(from);
      const [whole, result] = events.filter((e) => e.type === "tool_result");
      expect(result).toMatchObject({ id: "call_cut", is_error: true, status: "cancelled" });
      expect(result.content[0].text).toContain("cut at the output limit while this call was being written");
      // The call before it was whole: it did not run, but nothing says its arguments were cut.
      expect(whole).toMatchObject({ id: "call_whole", is_error: true, status: "cancelled" });
      expect(whole.content[0].text).toBe("not run: the answer was cut at the output limit after this call, and a cut answer runs none of its calls; make the call again");
      expect(events.at(-2)).toEqual({ type: "turn_end", stop: "length" });
      expect(existsSync(join(cwd, "big.txt"))).toBe(false);

      const next = r.lines.length;
      await r.call({ type: "prompt", message: "go on" });
      expect((await r.eventsUntilDone(next)).at(-2)).toEqual({ type: "turn_end", stop: "end_turn" });
      const request = fixture.mock.requests[1]!;
      expect(requestViolations(request)).toEqual([]);
      expect(JSON.stringify(request.body)).toContain("not run: the answer was cut at the output limit");
      expect(await r.close()).toBe(0);
    });
  }
});

describe("while a turn streams", () => {
  test("abort: turn_end aborted, then done; the transcript keeps the partial text and the next prompt runs", async () => {
    const r = start([SLOW, { text: "Next." }], ["--no-ext"]);
    const from = r.lines.length;
    await r.call({ type: "prompt", message: "talk" });
    await r.waitFor((l) => l.type === "text_delta", from, "the first text_delta");
    expect(await r.call({ type: "abort", id: "stop" })).toEqual({ type: "response", id: "stop", command: "abort", success: true });
    const events = await r.eventsUntilDone(from);
    const tail = events.slice(-2);
    expect(tail).toEqual([{ type: "turn_end", stop: "aborted" }, { type: "done" }]);
    expect(events.some((e) => e.type === "error")).toBe(false);
    const state = (await r.call({ type: "get_state" })).data;
    expect(state).toMatchObject({ busy: false, queued: 0 });
    const [, partial] = (await r.call({ type: "get_messages" })).data.messages;
    expect(partial.role).toBe("assistant");
    expect(partial.content[0].text.length).toBeGreaterThan(0);
    expect(SLOW.text.startsWith(partial.content[0].text)).toBe(true);
    expect(partial.content[0].text.length).toBeLessThan(SLOW.text.length);

    const next = r.lines.length;
    await r.call({ type: "prompt", message: "again" });
    expect((await r.eventsUntilDone(next)).at(-2)).toEqual({ type: "turn_end", stop: "end_turn" });
    expect(await r.close()).toBe(0);
  });

  test("other commands are answered at once; clear and set_model are refused while busy or queued", async () => {
    // Extensions discovered (there are none), so reload_extensions is possible when idle.
    const r = start([SLOW, { text: "Second." }]);
    const from = r.lines.length;
    await r.call({ type: "prompt", message: "first" });
    await r.waitFor((l) => l.type === "text_delta", from, "the first text_delta");
    r.send({ type: "prompt", message: "second", id: "p2" });
    expect((await r.call({ type: "ping" })).data).toEqual({ pong: true });
    const state = (await r.call({ type: "get_state" })).data;
    expect(state).toMatchObject({ busy: true, queued: 1, message_count: 1 });
    for (const command of [{ type: "clear" }, { type: "set_model", model: "claude-haiku-4-5" }, { type: "reload_extensions" }]) {
      const refused = await r.call(command);
      expect(refused.success).toBe(false);
      expect(refused.error).toStartWith("agent is busy: cannot ");
      expect(refused.error).toEndWith("; send abort or wait for done");
    }
    // None of them arrived in the middle of nothing: the turn is still streaming.
    expect(r.lines.slice(from).some((l) => l.type === "done")).toBe(false);
    await r.call({ type: "abort" });
    await r.waitFor((l) => l.id === "p2", from, "the queued prompt's started response");
    const doneLines = () => r.lines.filter((l) => l.type === "done").length;
    await eventually(() => doneLines() === 2, "both turns to end");
    expect((await r.call({ type: "get_state" })).data).toMatchObject({ model: "claude-sonnet-5-5", message_count: 4 });
    expect(await r.close()).toBe(0);
  });

  test("a queued prompt waits: its started response comes after the first prompt's done, and abort leaves it alone", async () => {
    const r = start([SLOW, { text: "The second answer." }], ["--no-ext"]);
    const from = r.lines.length;
    r.send({ type: "prompt", message: "first", id: "p1" });
    r.send({ type: "prompt", message: "second", id: "p2" });
    await r.waitFor((l) => l.type === "text_delta", from, "the first text_delta");
    expect(r.lines.some((l) => l.id === "p2")).toBe(false);
    r.send({ type: "abort" });
    const second = await r.waitFor((l) => l.id === "p2", from, "the second started response");
    expect(second.line).toEqual({ type: "response", id: "p2", command: "prompt", success: true, data: { started: true } });
    const firstDone = r.lines.findIndex((l, i) => i >= from && l.type === "done");
    expect(firstDone).toBeGreaterThan(-1);
    expect(firstDone).toBeLessThan(second.index);
    const events = await r.eventsUntilDone(second.index);
    expect(events[0]).toMatchObject({ type: "user_message", content: [{ type: "text", text: "second" }] });
    expect(events.find((e) => e.type === "assistant_message").content).toEqual([{ type: "text", text: "The second answer." }]);
    expect(fixture.mock.requests).toHaveLength(2);
    expect(await r.close()).toBe(0);
  });
});

describe("the end of the process", () => {
  test("stdin closed mid-turn: the running prompt and the queued one both finish, then the extension gets shutdown, exit 0", async () => {
    const cwd = tempDir("zot-rpc-cwd-");
    const record = join(cwd, "received.ndjson");
    const pidfile = join(cwd, "ext.pid");
    const extDir = scriptedExtension(tempDir("zot-rpc-ext-"), "watcher", { record, pidfile });
    const r = start([MEDIUM, { text: "The queued answer." }], ["--no-ext", "--ext", extDir], cwd);
    const from = r.lines.length;
    r.send({ type: "prompt", message: "talk", id: "p1" });
    r.send({ type: "prompt", message: "queued", id: "p2" });
    await r.waitFor((l) => l.type === "text_delta", from, "the first text_delta");
    const pid = Number(readFileSync(pidfile, "utf8"));
    expect(alive(pid)).toBe(true);
    expect(await r.close()).toBe(0);
    const first = await r.eventsUntilDone(from);
    expect(first.filter((e) => e.type === "text_delta").map((e) => e.delta).join("")).toBe(MEDIUM.text);
    expect(first.at(-2)).toEqual({ type: "turn_end", stop: "end_turn" });
    const second = await r.waitFor((l) => l.id === "p2", from, "the queued prompt's started response");
    const events = await r.eventsUntilDone(second.index);
    expect(events.find((e) => e.type === "assistant_message").content).toEqual([{ type: "text", text: "The queued answer." }]);
    expect(events.at(-2)).toEqual({ type: "turn_end", stop: "end_turn" });
    expect(r.lines.at(-1)).toEqual({ type: "done" });
    expect(fixture.mock.requests).toHaveLength(2);
    expect(readFileSync(record, "utf8")).toContain('"type": "shutdown"');
    expect(alive(pid)).toBe(false);
    expect(r.stderr).toBe("");
  });

  test("echo '{prompt}' | zot rpc: the whole answer, then done, then exit 0", async () => {
    const mock = fixture.llm([{ text: "The whole answer, streamed in pieces.", chunk_size: 4, chunk_delay_ms: 5 }]);
    const line = JSON.stringify({ id: "1", type: "prompt", message: "hi" });
    const proc = Bun.spawn(["sh", "-c", `echo '${line}' | "$ZOT" rpc "$@"`, "sh", ...anthropicMock(mock.url), "--no-ext"], {
      cwd: tempDir("zot-rpc-cwd-"),
      env: cleanEnv(tempDir("zot-rpc-home-"), { ZOT }),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const lines = ndjson(stdout);
    expect(lines[0]).toEqual({ type: "response", id: "1", command: "prompt", success: true, data: { started: true } });
    expect(lines.filter((l) => l.type === "text_delta").map((l) => l.delta).join("")).toBe("The whole answer, streamed in pieces.");
    expect(lines.slice(-2)).toEqual([{ type: "turn_end", stop: "end_turn" }, { type: "done" }]);
  });

  test("abort before stdin closes still aborts at once; the prompt queued behind it runs, then exit 0", async () => {
    const r = start([SLOW, { text: "After the abort." }], ["--no-ext"]);
    const from = r.lines.length;
    r.send({ type: "prompt", message: "talk", id: "p1" });
    r.send({ type: "prompt", message: "next", id: "p2" });
    await r.waitFor((l) => l.type === "text_delta", from, "the first text_delta");
    r.send({ type: "abort", id: "stop" });
    expect(await r.close()).toBe(0);
    const first = await r.eventsUntilDone(from);
    expect(first.slice(-2)).toEqual([{ type: "turn_end", stop: "aborted" }, { type: "done" }]);
    expect(first.filter((e) => e.type === "text_delta").map((e) => e.delta).join("").length).toBeLessThan(SLOW.text.length);
    expect(r.lines).toContainEqual({ type: "response", id: "stop", command: "abort", success: true });
    const second = await r.waitFor((l) => l.id === "p2", from, "the queued prompt's started response");
    const events = await r.eventsUntilDone(second.index);
    expect(events.find((e) => e.type === "assistant_message").content).toEqual([{ type: "text", text: "After the abort." }]);
  });

  test("a prompt and an abort in one pipe: the prompt is aborted, done, exit 0", async () => {
    const mock = fixture.llm([SLOW]);
    const stdin = `${JSON.stringify({ type: "prompt", message: "talk", id: 1 })}\n${JSON.stringify({ type: "abort", id: 2 })}\n`;
    const run = await zot(["rpc", ...anthropicMock(mock.url), "--no-ext"], { stdin });
    expect(run.code).toBe(0);
    const lines = ndjson(run.stdout);
    expect(lines).toContainEqual({ type: "response", id: 2, command: "abort", success: true });
    expect(lines.slice(-2)).toEqual([{ type: "turn_end", stop: "aborted" }, { type: "done" }]);
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    test(`${signal} after stdin closed, mid-turn: the turn is aborted at once, exit 130`, async () => {
      const r = start([SLOW, { text: "never asked" }], ["--no-ext"]);
      const from = r.lines.length;
      r.send({ type: "prompt", message: "talk", id: "p1" });
      r.send({ type: "prompt", message: "queued", id: "p2" });
      await r.waitFor((l) => l.type === "text_delta", from, "the first text_delta");
      const closed = r.close();
      await r.waitFor((l) => l.type === "text_delta", r.lines.length, "the turn going on after stdin closed");
      r.kill(signal);
      expect(await closed).toBe(130);
      const after = r.lines.slice(from).filter((l) => l.type !== "text_delta");
      expect(after.slice(-2)).toEqual([{ type: "turn_end", stop: "aborted" }, { type: "done" }]);
      expect(r.lines.some((l) => l.id === "p2")).toBe(false);
      expect(fixture.mock.requests).toHaveLength(1);
    });
  }

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    test(`${signal} mid-turn: turn_end aborted and done are written, the extension gets shutdown, exit 130`, async () => {
      const cwd = tempDir("zot-rpc-cwd-");
      const record = join(cwd, "received.ndjson");
      const extDir = scriptedExtension(tempDir("zot-rpc-ext-"), "watcher", { record });
      const r = start([SLOW], ["--no-ext", "--ext", extDir], cwd);
      const from = r.lines.length;
      await r.call({ type: "prompt", message: "talk" });
      await r.waitFor((l) => l.type === "text_delta", from, "the first text_delta");
      r.kill(signal);
      expect(await r.exited()).toBe(130);
      const after = r.lines.slice(from).filter((l) => l.type !== "text_delta");
      expect(after.slice(-2)).toEqual([{ type: "turn_end", stop: "aborted" }, { type: "done" }]);
      expect(readFileSync(record, "utf8")).toContain('"type": "shutdown"');
    });
  }

  for (const stdinToo of [false, true]) {
    const what = stdinToo ? "stdin closed, then stdout too" : "the client stops reading stdout";
    test(`${what} mid-turn: the turn is aborted, no stack traces, the extension gets shutdown, exit 0`, async () => {
      const cwd = tempDir("zot-rpc-cwd-");
      const record = join(cwd, "received.ndjson");
      const extDir = scriptedExtension(tempDir("zot-rpc-ext-"), "watcher", { record });
      const mock = fixture.llm([stdinToo ? SLOW : { text: "word ".repeat(20_000), chunk_size: 1 }]);
      const proc = Bun.spawn([ZOT, "rpc", ...anthropicMock(mock.url), "--no-ext", "--ext", extDir], {
        cwd,
        env: cleanEnv(tempDir("zot-rpc-home-")),
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
      });
      proc.stdin.write('{"type":"prompt","message":"talk"}\n');
      proc.stdin.flush();
      if (stdinToo) proc.stdin.end();
      const reader = proc.stdout.getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toContain('"started":true');
      await reader.cancel();
      expect(await proc.exited).toBe(0);
      const stderr = await new Response(proc.stderr).text();
      expect(stderr).not.toContain("EPIPE");
      // Had the turn gone on, SLOW would have streamed for minutes and the test timed out.
      expect(readFileSync(record, "utf8")).toContain('"type": "shutdown"');
    });
  }

  for (const waiting of ["a long tool runs", "a confirmation waits"] as const) {
    test(`the client closes stdout while ${waiting} and nothing is written, stdin still open: zot sees it without a write, aborts the turn, exit 0`, async () => {
      const cwd = tempDir("zot-rpc-cwd-");
      const confirm = waiting === "a confirmation waits";
      const mock = fixture.llm([{ tool_calls: [{ id: "t1", name: "bash", args: { command: "sleep 60; touch ran.txt" } }] }, { text: "never asked" }]);
      const proc = Bun.spawn([ZOT, "rpc", ...anthropicMock(mock.url), "--no-ext", ...(confirm ? ["--no-yolo"] : [])], {
        cwd,
        env: cleanEnv(tempDir("zot-rpc-home-")),
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
      });
      if (confirm) proc.stdin.write('{"type":"hello","confirm":true}\n');
      proc.stdin.write('{"type":"prompt","message":"go"}\n');
      proc.stdin.flush();
      const reader = proc.stdout.getReader();
      let seen = "";
      const until = confirm ? '"type":"confirm_request"' : '"type":"tool_call"';
      while (!seen.includes(until)) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`zot closed stdout before ${until}: ${seen}`);
        seen += new TextDecoder().decode(chunk.value);
      }
      await reader.cancel();
      // Without a look at stdout zot would wait for the 60 s command, or for good on the answer.
      const guard = Bun.sleep(10_000).then(() => "still running");
      const outcome = await Promise.race([proc.exited, guard]);
      if (outcome === "still running") proc.kill("SIGKILL");
      expect(outcome).toBe(0);
      expect(await new Response(proc.stderr).text()).not.toContain("EPIPE");
      expect(existsSync(join(cwd, "ran.txt"))).toBe(false);
      expect(mock.requests).toHaveLength(1);
    }, 20_000);
  }

  test("stdin closed while idle: exit 0 at once, nothing on stderr", async () => {
    const r = start([], ["--no-ext"]);
    await r.call({ type: "ping" });
    expect(await r.close()).toBe(0);
    expect(r.stderr).toBe("");
  });
});
