// An http settings hook's request against a real local server: the event as the body, headers
// filled only from the variables the hook allows, a 2xx body read as a command's stdout, and the
// ways it fails (a status, no server, a body that stalls past the timeout, an abort).
import { afterAll, describe, expect, test } from "bun:test";
import { runCallback } from "../../src/settings-hooks/callback-run.ts";
import { runHttp } from "../../src/settings-hooks/http-run.ts";

const seen: { headers: Record<string, string>; body: unknown }[] = [];
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const path = new URL(req.url).pathname;
    seen.push({ headers: Object.fromEntries(req.headers), body: await req.json() });
    if (path === "/stall") {
      // The status and a first byte, then nothing.
      return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode("{")) }), { status: 200 });
    }
    if (path === "/big") return new Response(JSON.stringify({ systemMessage: "x".repeat(3 * 1024 * 1024) }));
    if (path === "/text") return new Response("plain words");
    if (path === "/teapot") return new Response("short and stout\nsecond line", { status: 418 });
    if (path === "/moved") return new Response(null, { status: 302, headers: { location: "/ok" } });
    return Response.json({ decision: "block", reason: "no" });
  },
});
afterAll(() => server.stop(true));

const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;
const run = (path: string, extra: Partial<Parameters<typeof runHttp>[0]> = {}) =>
  runHttp({ url: url(path), headers: {}, allowedEnvVars: [], input: { hook_event_name: "PreToolUse" }, timeoutMs: 5000, signal: new AbortController().signal, env: {}, ...extra });

describe("runHttp", () => {
  test("the event is the JSON body; a 2xx body is exit 0's stdout; headers fill only allowed variables", async () => {
    const done = await run("/ok", {
      headers: { Authorization: "Bearer $TOKEN", "X-Both": "${TOKEN}-${SECRET}", "X-Plain": "as written" },
      allowedEnvVars: ["TOKEN"],
      env: { TOKEN: "t0k", SECRET: "hidden" },
    });
    expect(done).toMatchObject({ status: "exited", code: 0, stdout: '{"decision":"block","reason":"no"}' });
    const request = seen.at(-1)!;
    expect(request.body).toEqual({ hook_event_name: "PreToolUse" });
    expect(request.headers).toMatchObject({ "content-type": "application/json", authorization: "Bearer t0k", "x-both": "t0k-", "x-plain": "as written" });
  });

  test("a status that is not 2xx, a redirect, and no server are failures that say so", async () => {
    expect(await run("/teapot")).toMatchObject({ status: "failed", message: `${url("/teapot")} answered 418: short and stout` });
    expect(await run("/moved")).toMatchObject({ status: "failed", message: `${url("/moved")} answered 302 (a redirect, which zot does not follow for a hook)` });
    const gone = await runHttp({ url: "http://127.0.0.1:9/h", headers: {}, allowedEnvVars: [], input: {}, timeoutMs: 5000, signal: new AbortController().signal });
    expect(gone).toMatchObject({ status: "failed" });
    expect((gone as { message: string }).message).toStartWith("could not reach http://127.0.0.1:9/h: ");
  });

  test("a body that stalls past the timeout is a timeout, not an empty success; an abort is an abort", async () => {
    expect((await run("/stall", { timeoutMs: 300 })).status).toBe("timed_out");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    expect((await run("/stall", { signal: controller.signal })).status).toBe("aborted");
  });

  test("a body past 1 MiB is cut there, as a command's stdout is: a JSON answer that long is no answer, and says so; plain text is none either", async () => {
    const big = await run("/big");
    expect(big).toMatchObject({ status: "failed", message: expect.stringContaining("answered 200 with text, not a JSON object") });
    const text = await run("/text");
    expect(text).toMatchObject({ status: "failed", message: expect.stringContaining("answered 200 with text, not a JSON object (plain words)") });
  });

  test("a timeout too long for a timer (1e13 ms, 1e308) waits as long as one can, instead of failing every prompt with a RangeError", async () => {
    for (const timeoutMs of [1e13, 1e308, Number.POSITIVE_INFINITY]) {
      expect(await run("/ok", { timeoutMs })).toMatchObject({ status: "exited", code: 0 });
    }
  });
});

describe("runCallback", () => {
  test("a timeout too long for a timer is clamped, as a command hook's is", async () => {
    for (const timeoutMs of [1e13, 1e308]) {
      const done = await runCallback(async () => ({ ok: true }), { hook_event_name: "UserPromptSubmit" }, timeoutMs, new AbortController().signal);
      expect(done).toMatchObject({ status: "exited", code: 0, stdout: '{"ok":true}' });
    }
  });
});
