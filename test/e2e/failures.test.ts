// What a user sees when things go wrong: provider errors, retries, broken streams, missing keys,
// max steps, interrupts. Each gets a clear message and the documented exit code.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { alive, running } from "../support/process-state.ts";
import { cleanEnv, ndjson, tempDir, ZOT, zot } from "../support/zot.ts";

let mock: MockLlm;
afterEach(() => mock?.stop());

const anthropic = (m: MockLlm) => ["--provider", "anthropic", "--api-key", "k", "--base-url", m.url];


describe("provider failures", () => {
  test("500s are retried as often as CLAUDE_CODE_MAX_RETRIES allows, then a clear error and exit 1", async () => {
    const fail = { error: { message: "internal trouble", status: 500 } };
    mock = startMockLlm([fail, fail, fail]);
    const run = await zot(["-p", "hi", ...anthropic(mock)], { env: { CLAUDE_CODE_MAX_RETRIES: "2" } });
    expect(run.code).toBe(1);
    expect(mock.requests).toHaveLength(3);
    expect(run.stderr).toContain("(retry 2 of 2)");
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("500");
    expect(run.stderr).toContain("internal trouble");
    expect(run.stderr).not.toContain("    at "); // no stack trace without --debug
  });

  test("a 429 with retry-after is retried and then succeeds", async () => {
    mock = startMockLlm([{ error: { message: "slow down", status: 429, retry_after: 0 } }, { text: "made it" }]);
    const run = await zot(["-p", "hi", ...anthropic(mock)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("made it\n");
    expect(mock.requests).toHaveLength(2);
  });

  test("a 401 is not retried, and says where the rejected key came from", async () => {
    mock = startMockLlm([{ error: { message: "invalid x-api-key", status: 401 } }, { text: "never" }]);
    const run = await zot(["-p", "hi", ...anthropic(mock)]);
    expect(run.code).toBe(1);
    expect(mock.requests).toHaveLength(1);
    expect(run.stderr).toBe("zot: anthropic rejected the API key from --api-key (401 authentication_error: invalid x-api-key); check it\n");

    const home = tempDir("zot-home-");
    writeFileSync(join(home, "auth.json"), JSON.stringify({ openai: { api_key: "sk-old" } }), { mode: 0o600 });
    const rejected = { error: { message: "Incorrect API key provided", status: 401 } };
    mock.turns.splice(0, mock.turns.length, rejected, rejected);
    const fromEnv = await zot(["-p", "hi", "--provider", "anthropic", "--base-url", mock.url], { env: { ANTHROPIC_API_KEY: "sk-env" } });
    expect(fromEnv.stderr).toBe(
      "zot: anthropic rejected the API key from ANTHROPIC_API_KEY (401 authentication_error: Incorrect API key provided); check it, or pass --api-key\n",
    );
    const fromFile = await zot(["-p", "hi", "--provider", "openai", "--model", "gpt-4.1", "--base-url", `${mock.url}/v1`], { home });
    expect(fromFile.stderr).toBe(
      `zot: openai rejected the API key from ${join(home, "auth.json")} (401 invalid_api_key: Incorrect API key provided); check it, or pass --api-key\n`,
    );
    expect(mock.requests.slice(1).map((r) => r.headers.authorization ?? r.headers["x-api-key"])).toEqual(["Bearer sk-env", "Bearer sk-old"]);
  });

  test("an overload as the stream's first word (after the 200) is retried, as one before the 200 is; once the answer has begun it is not", async () => {
    mock = startMockLlm([{ error: "Overloaded" }, { text: "after the retry" }]);
    const run = await zot(["-p", "hi", ...anthropic(mock)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("after the retry\n");
    expect(run.stderr).toMatch(/zot: anthropic: the model stopped with an error: Overloaded; retrying in (5\d\d|6[0-2]\d) ms \(retry 1 of 10\)/);
    expect(mock.requests).toHaveLength(2);
    await mock.stop();
    mock = startMockLlm([{ text: "half of the answer", error: "Overloaded" }, { text: "never played" }]);
    const begun = await zot(["-p", "hi", ...anthropic(mock)]);
    expect(begun.code).toBe(1);
    expect(begun.stderr).not.toContain("retrying");
    expect(mock.requests).toHaveLength(1);
  });

  test("an overload that lasts a few seconds is ridden out: 529s backed off from half a second, then the answer", async () => {
    const busy = { error: { message: "Overloaded", status: 529 } };
    mock = startMockLlm([busy, busy, busy, { text: "once the overload passed" }]);
    const started = performance.now();
    const run = await zot(["-p", "hi", ...anthropic(mock)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("once the overload passed\n");
    expect(mock.requests).toHaveLength(4);
    // 0.5 + 1 + 2 s, each up to a quarter more.
    expect(performance.now() - started).toBeGreaterThanOrEqual(3400);
    expect(run.stderr.split("\n").filter(Boolean).map((l) => l.replace(/retrying in [\d.]+ m?s/, "retrying in …"))).toEqual([
      "zot: anthropic: HTTP 529: Overloaded; retrying in … (retry 1 of 10)",
      "zot: anthropic: HTTP 529: Overloaded; retrying in … (retry 2 of 10)",
      "zot: anthropic: HTTP 529: Overloaded; retrying in … (retry 3 of 10)",
    ]);
  });

  test("CLAUDE_CODE_MAX_RETRIES=0, as a script that retries by itself sets it: a 529 fails at once; a 400 is never retried", async () => {
    mock = startMockLlm([{ error: { message: "Overloaded", status: 529 } }, { text: "never" }]);
    const run = await zot(["-p", "hi", ...anthropic(mock)], { env: { CLAUDE_CODE_MAX_RETRIES: "0" } });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("zot: anthropic: HTTP 529: Overloaded\n");
    expect(mock.requests).toHaveLength(1);
    await mock.stop();
    mock = startMockLlm([{ error: { message: "bad field", status: 400 } }, { text: "never" }]);
    const refused = await zot(["-p", "hi", ...anthropic(mock)]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).not.toContain("retrying");
    expect(mock.requests).toHaveLength(1);
  });

  test("a rate limit that names its wait in its words is retried after it: a 429 on Chat Completions, an error event on Responses; one too long is said at once", async () => {
    const openai = (m: MockLlm, model: string) => ["-p", "hi", "--provider", "openai", "--api-key", "k", "--base-url", `${m.url}/v1`, "--model", model];
    mock = startMockLlm([{ error: { status: 429, message: "Rate limit reached for gpt-4.1 on tokens per min (TPM): Limit 30000. Please try again in 1.5s." } }, { text: "waited" }]);
    const started = performance.now();
    const chat = await zot(openai(mock, "gpt-4.1"));
    expect(chat.code).toBe(0);
    expect(chat.stdout).toBe("waited\n");
    expect(chat.stderr).toEndWith("Please try again in 1.5s; retrying in 1.5 s (retry 1 of 10)\n");
    expect(performance.now() - started).toBeGreaterThanOrEqual(1450);
    await mock.stop();
    mock = startMockLlm([{ error: "Rate limit reached for gpt-5 on tokens per min (TPM). Please try again in 400ms." }, { text: "waited" }]);
    const responses = await zot(openai(mock, "gpt-5"));
    expect(responses.code).toBe(0);
    expect(responses.stderr).toContain("; retrying in 400 ms (retry 1 of 10)");
    await mock.stop();
    mock = startMockLlm([{ error: "Rate limit reached for gpt-5 on requests per day (RPD). Please try again in 7m12s." }, { text: "never" }]);
    const daily = await zot(openai(mock, "gpt-5"));
    expect(daily.code).toBe(1);
    expect(daily.stderr).toEndWith("Please try again in 7m12s; the server asks to wait 432 s before trying again (zot waits up to 60 s by itself)\n");
    expect(mock.requests).toHaveLength(1);
  });

  test("a proxy from HTTP_PROXY that is not running is named as what could not be reached, not the base URL", async () => {
    mock = startMockLlm([{ text: "never reached" }]);
    // Both spellings, so a proxy of the machine the tests run on cannot take their place; nothing exempted.
    const dead = "http://127.0.0.1:9";
    const run = await zot(["-p", "hi", ...anthropic(mock)], { env: { http_proxy: dead, HTTP_PROXY: dead, no_proxy: "", NO_PROXY: "", CLAUDE_CODE_MAX_RETRIES: "0" } });
    expect(run.code).toBe(1);
    expect(mock.requests).toHaveLength(0);
    expect(run.stderr).toStartWith(`zot: anthropic: cannot reach the proxy ${dead} (http_proxy) that zot goes through to ${mock.url} (`);
    expect(run.stderr).toEndWith("); check that the proxy runs and http_proxy names it, or connect directly: unset http_proxy, or set NO_PROXY=127.0.0.1\n");
  });

  test("--json: error and turn_end carry the failure's code beside its sentence", async () => {
    mock = startMockLlm([{ error: { message: "slow down", status: 429, retry_after: 90 } }, { text: "never" }]);
    const run = await zot(["--json", "hi", ...anthropic(mock)]);
    expect(run.code).toBe(1);
    const events = ndjson(run.stdout);
    const sentence = "anthropic: HTTP 429: slow down; the server asks to wait 90 s before trying again (zot waits up to 60 s by itself)";
    expect(events.find((e) => e.type === "turn_end")).toEqual({ type: "turn_end", stop: "error", error: sentence, code: "rate_limit" });
    expect(events.slice(-2)).toEqual([{ type: "error", message: sentence, code: "rate_limit" }, { type: "done" }]);
  });

  test("a malformed stream is an error, not a crash; --json still ends with error and done", async () => {
    mock = startMockLlm([{ text: "this stream will break in the middle of its events", fault: "malformed" }]);
    const run = await zot(["--json", "hi", ...anthropic(mock)]);
    expect(run.code).toBe(1);
    const events = ndjson(run.stdout);
    expect(events.at(-1)).toEqual({ type: "done" });
    expect(events.at(-2)).toMatchObject({ type: "error", code: "bad_response" });
    expect(events.find((e) => e.type === "turn_end").stop).toBe("error");
    expect(run.stderr).toStartWith("zot: ");
    expect(run.stderr).not.toContain("    at ");
  });

  test("a connection dropped mid-stream is an error and is not retried", async () => {
    mock = startMockLlm([{ text: "a long answer that gets cut off by the network somewhere", fault: "disconnect" }, { text: "never" }]);
    const run = await zot(["-p", "hi", ...anthropic(mock)]);
    expect(run.code).toBe(1);
    expect(mock.requests).toHaveLength(1);
  });

  test("--auto-compact 0.85, the Agent SDK's fraction, is a usage error saying to write 85 (it compacted before nearly every call as 0.85%)", async () => {
    for (const [value, percent] of [["0.85", "85"], ["0.5", "50"]]) {
      const run = await zot(["-p", "hi", "--provider", "scripted", "--auto-compact", value!]);
      expect([value, run.code]).toEqual([value, 2]);
      expect(run.stderr).toContain(`--auto-compact takes a percent of the context window from 1 to 100, not a fraction: for ${percent}%, write --auto-compact ${percent}`);
    }
    expect((await zot(["-p", "hi", "--provider", "scripted", "--auto-compact", "1"])).code).toBe(0);
  });

  test("--max-steps stops a looping model with exit 1", async () => {
    mock = startMockLlm([
      { tool_calls: [{ name: "bash", args: { command: "true" } }] },
      { tool_calls: [{ name: "bash", args: { command: "true" } }] },
    ]);
    const run = await zot(["-p", "loop", "--max-steps", "1", ...anthropic(mock)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('max steps (1) exceeded: the model was still calling tools; send "go on" to let it continue, or allow more steps (--max-steps)');
    expect(mock.requests).toHaveLength(1);
    const json = await zot(["--json", "loop", "--max-steps", "1", ...anthropic(mock)]);
    expect(ndjson(json.stdout).slice(-2)).toEqual([{ type: "error", message: 'max steps (1) exceeded: the model was still calling tools; send "go on" to let it continue, or allow more steps (--max-steps)', code: "max_steps" }, { type: "done" }]);
  });
});

describe("credentials", () => {
  test("a missing key is one line naming the variable and the flag, exit 2", async () => {
    const run = await zot(["-p", "hi", "--provider", "anthropic"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("ANTHROPIC_API_KEY");
    expect(run.stderr).toContain("--api-key");
    const openai = await zot(["-p", "hi", "--provider", "openai"]);
    expect(openai.code).toBe(2);
    expect(openai.stderr).toContain("OPENAI_API_KEY");
  });

  test("the key comes from the environment, then auth.json", async () => {
    mock = startMockLlm([{ text: "env ok" }, { text: "file ok" }]);
    const fromEnv = await zot(["-p", "hi", "--provider", "anthropic", "--base-url", mock.url], { env: { ANTHROPIC_API_KEY: "sk-env" } });
    expect(fromEnv.stdout).toBe("env ok\n");
    expect(JSON.stringify(mock.requests[0].headers)).toContain("sk-env");

    const home = tempDir("zot-home-");
    await Bun.write(`${home}/auth.json`, JSON.stringify({ anthropic: { api_key: "sk-file" } }));
    (await import("node:fs")).chmodSync(`${home}/auth.json`, 0o600);
    const fromFile = await zot(["-p", "hi", "--provider", "anthropic", "--base-url", mock.url], { home });
    expect(fromFile.stdout).toBe("file ok\n");
    expect(JSON.stringify(mock.requests[1].headers)).toContain("sk-file");
  });
});

describe("interrupts", () => {
  test("SIGINT during a bash tool: exit 130 and the command's whole process group is gone", async () => {
    const cwd = tempDir("zot-int-");
    mock = startMockLlm([
      { tool_calls: [{ name: "bash", args: { command: "sleep 60 & echo $! > child.pid; sleep 60" } }] },
      { text: "never reached" },
    ]);
    const proc = Bun.spawn([ZOT, "-p", "run it", ...anthropic(mock)], {
      cwd,
      env: cleanEnv(tempDir("zot-home-")),
      stdout: "pipe",
      stderr: "pipe",
    });
    const deadline = Date.now() + 10_000;
    while (!existsSync(`${cwd}/child.pid`) && Date.now() < deadline) await Bun.sleep(20);
    const child = Number(readFileSync(`${cwd}/child.pid`, "utf8"));
    expect(alive(child)).toBe(true);
    proc.kill("SIGINT");
    expect(await proc.exited).toBe(130);
    // Gone, or a zombie nobody has reaped yet (PID 1 here may take its time, or never): nothing runs.
    let gone = false;
    for (let i = 0; i < 50 && !gone; i++) {
      gone = !running(child);
      if (!gone) await Bun.sleep(50);
    }
    expect(gone).toBe(true);
    expect(mock.requests).toHaveLength(1);
  });

  test("SIGINT while the model streams: exit 130, --json ends with turn_end aborted and done", async () => {
    mock = startMockLlm([{ text: "x".repeat(400), chunk_size: 1, chunk_delay_ms: 20 }]);
    const proc = Bun.spawn([ZOT, "--json", "hi", ...anthropic(mock)], {
      cwd: tempDir(),
      env: cleanEnv(tempDir("zot-home-")),
      stdout: "pipe",
      stderr: "pipe",
    });
    const reader = proc.stdout.getReader();
    let out = "";
    while (!out.includes("text_delta")) out += new TextDecoder().decode((await reader.read()).value);
    proc.kill("SIGINT");
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    expect(await proc.exited).toBe(130);
    const events = ndjson(out);
    expect(events.slice(-2)).toEqual([{ type: "turn_end", stop: "aborted" }, { type: "done" }]);
  });
});

describe("output that cannot be written", () => {
  // /dev/full fails every write with ENOSPC, as a full disk does: the answer is lost, which is no
  // reader done with the stream (that one, a closed pipe, still ends the run quietly).
  test("--json, --output-format json and rpc writing to a full disk exit 1 and say so; a reader that went away is still exit 0", async () => {
    const home = tempDir("zot-full-home-");
    const script = join(tempDir("zot-full-script-"), "turns.json");
    writeFileSync(script, JSON.stringify([{ text: "the answer" }]));
    const shell = async (line: string) => {
      const proc = Bun.spawn(["bash", "-c", line], { env: cleanEnv(home, { ZOT, SCRIPT: script }), stdout: "pipe", stderr: "pipe", cwd: tempDir("zot-full-cwd-") });
      const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
      await proc.exited;
      return { stdout, stderr };
    };
    for (const mode of ['--json go', '-p go --output-format json', '-p go --output-format stream-json --verbose']) {
      const run = await shell(`"$ZOT" ${mode} --provider scripted --script "$SCRIPT" > /dev/full; echo "rc=$?"`);
      expect([mode, run.stdout]).toEqual([mode, "rc=1\n"]);
      expect(run.stderr).toContain("ENOSPC");
    }
    const rpc = await shell(`echo '{"id":1,"type":"prompt","message":"go"}' | "$ZOT" rpc --provider scripted --script "$SCRIPT" > /dev/full; echo "rc=$?"`);
    expect(rpc.stdout).toBe("rc=1\n");
    expect(rpc.stderr).toContain("the output could not be written (ENOSPC");
    const gone = await shell(`echo '{"id":1,"type":"prompt","message":"go"}' | "$ZOT" rpc --provider scripted --script "$SCRIPT" | head -c 5 > /dev/null; echo "rc=\${PIPESTATUS[1]}"`);
    expect(gone.stdout).toBe("rc=0\n");
    expect(gone.stderr).not.toContain("could not be written");
  });
});

test("a working directory whose name is not valid UTF-8 is named as that, not blamed on a --cwd nobody gave", async () => {
  const parent = tempDir("zot-utf8-");
  const proc = Bun.spawn(["bash", "-c", `mkdir "$PARENT/bad"$'\\xff'"name" && cd "$PARENT/bad"$'\\xff'"name" && "$ZOT" -p hi --provider scripted; echo "rc=$?"`], {
    env: cleanEnv(tempDir("zot-utf8-home-"), { ZOT, PARENT: parent }),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  expect(stdout).toBe("rc=2\n");
  expect(stderr).toContain("the working directory's name is not valid UTF-8");
  expect(stderr).not.toContain("--cwd /");
});

test("-p says a provider's error and a hook's reason as plain text: no escape sequence of theirs (OSC 52 on the clipboard, a title) reaches the terminal", async () => {
  const dir = tempDir("zot-escapes-");
  const script = join(dir, "turns.jsonl");
  writeFileSync(script, `${JSON.stringify({ error: { message: "upstream said \u001b]52;c;ZWNobyBwd25lZA==\u0007\u001b]0;TITLE\u0007 no", status: 500 } })}\n`);
  const run = await zot(["-p", "go", "--script", script]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("upstream said");
  expect(run.stderr).not.toContain("\u001b");
  expect(run.stderr).not.toContain("\u0007");
});
