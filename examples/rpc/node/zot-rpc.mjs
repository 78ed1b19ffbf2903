#!/usr/bin/env node
// A reference client for `zot rpc` in Node (20 or newer), no dependencies; docs/rpc.md describes
// the protocol. One readline loop owns zot's stdout: responses settle the promise waiting on
// their id, events go to one queue that prompt() and compact() drain until `done`.
// Rule: unknown events pass through as plain objects, so a newer zot never breaks this client.
//
//   node zot-rpc.mjs "what is in this directory?" --provider anthropic
//
// runs one prompt and prints the answer. ZOT_BIN names the zot executable (default: zot on PATH);
// arguments after the prompt go to `zot rpc`; with ZOTCORE_RPC_TOKEN set, hello sends it.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

/** A command zot answered with success:false. */
export class ZotRpcError extends Error {
  constructor(command, message) {
    super(`${command}: ${message}`);
    this.command = command;
  }
}

/** zot's stdout closed (it exited) while something was still waiting for it. */
export class ZotExited extends Error {
  constructor(code, reason) {
    super(reason ?? `zot rpc exited with code ${code}`);
    this.code = code;
    /** zot could not be started at all (not found, not executable) */
    this.neverStarted = reason !== undefined;
  }
}

/** One `zot rpc` process: one cwd, one model, one transcript. */
export class ZotRpc {
  #child;
  #nextId = 1;
  #waiting = new Map(); // id -> {resolve, reject}
  #events = []; // events nobody has taken yet
  #wakeEvents = null; // resolves when an event arrives or zot exits
  #exit; // Promise of zot's exit code
  #exitCode = null; // set once zot has exited
  #startError; // why zot could not be started at all

  constructor({ args = [], zot = process.env.ZOT_BIN || "zot", cwd, env } = {}) {
    // zot's stderr is left to the terminal: its start-up errors and warnings reach the user. Its
    // own process group: Ctrl+C reaches this client, which aborts the turn over the wire.
    this.#child = spawn(zot, ["rpc", ...args], { cwd, env, stdio: ["pipe", "pipe", "inherit"], detached: true });
    this.#child.stdin.on("error", () => {}); // a closed pipe shows up as the exit below
    this.#exit = new Promise((resolve) => {
      this.#child.on("error", (error) => {
        this.#startError = `cannot start ${zot}: ${error.code ?? error.message}; set ZOT_BIN or put zot on PATH`;
        resolve(127);
      });
      this.#child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
    const lines = createInterface({ input: this.#child.stdout, crlfDelay: Infinity });
    lines.on("line", (line) => line.trim() && this.#receiveLine(line));
    this.#exit.then((code) => {
      for (const { reject } of this.#waiting.values()) reject(new ZotExited(code, this.#startError));
      this.#waiting.clear();
      this.#exitCode = code;
      this.#wake();
    });
  }

  #receiveLine(line) {
    let frame;
    try {
      frame = JSON.parse(line);
    } catch {
      // zot writes only protocol lines; say so if that ever breaks
      return console.error(`zot-rpc: not a JSON line from zot: ${line.slice(0, 200)}`);
    }
    this.#receive(frame);
  }

  #receive(frame) {
    if (frame.type !== "response") {
      this.#events.push(frame);
      return this.#wake();
    }
    const waiter = this.#waiting.get(frame.id);
    if (!waiter) return console.error(`zot-rpc: unexpected response: ${JSON.stringify(frame)}`);
    this.#waiting.delete(frame.id);
    if (frame.success) waiter.resolve(frame.data);
    else waiter.reject(new ZotRpcError(frame.command, frame.error));
  }

  #wake() {
    this.#wakeEvents?.();
    this.#wakeEvents = null;
  }

  /** Sends a command with a fresh numeric id; resolves with its data, rejects on success:false. */
  request(type, fields = {}) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (this.#exitCode !== null || this.#child.exitCode !== null || this.#child.stdin.destroyed) {
        return this.#exit.then((code) => reject(new ZotExited(code, this.#startError)));
      }
      this.#waiting.set(id, { resolve, reject });
      this.#child.stdin.write(`${JSON.stringify({ id, type, ...fields })}\n`);
    });
  }

  /** Protocol version, zot version, provider and model. Required first when zot has a token. */
  hello(token = process.env.ZOTCORE_RPC_TOKEN) {
    return this.request("hello", token ? { token } : {});
  }

  /** Starts a prompt (waiting while another runs); resolves to an async iterator of its events, `done` last. */
  async prompt(message, images) {
    await this.request("prompt", images?.length ? { message, images } : { message });
    return this.#eventsUntilDone();
  }

  /** Summarises the transcript; its events are compact_start … compact_done, then done. */
  async compact(instructions) {
    await this.request("compact", instructions ? { instructions } : {});
    return this.#eventsUntilDone();
  }

  /** Cancels the running prompt or compact; its events end with turn_end aborted, then done. */
  abort() {
    return this.request("abort");
  }

  state() {
    return this.request("get_state");
  }

  /** Reasoning of later prompts: off, minimum, low, medium, high, xhigh or max; refused while busy. Resolves to {reasoning, applied}. */
  setReasoning(level) {
    return this.request("set_reasoning", { reasoning: level });
  }

  async messages() {
    return (await this.request("get_messages")).messages;
  }

  async *#eventsUntilDone() {
    for (;;) {
      const event = this.#events.shift();
      if (event) {
        yield event;
        if (event.type === "done") return;
        continue;
      }
      if (this.#exitCode !== null) throw new ZotExited(this.#exitCode, this.#startError);
      await new Promise((resolve) => (this.#wakeEvents = resolve));
    }
  }

  /**
   * Closes zot's stdin: zot finishes the prompts it was sent, stops its extensions and exits 0
   * (abort() first to stop a running one). Resolves to its exit code; after `timeoutMs` (default:
   * none) zot is killed.
   */
  async close(timeoutMs) {
    this.#child.stdin.end();
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => this.#child.kill("SIGKILL"), timeoutMs);
    const code = await this.#exit;
    clearTimeout(timer);
    return code;
  }
}

export const textOf = (content) =>
  content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n");

/** Runs one prompt; reports tool calls on stderr; resolves to {answer, failure}. */
export async function runPrompt(client, message) {
  let answer = "";
  let failure = null;
  for await (const event of await client.prompt(message)) {
    if (event.type === "tool_call") console.error(`[tool] ${event.name} ${JSON.stringify(event.args)}`);
    else if (event.type === "tool_result") console.error(`[${event.is_error ? "error" : "result"}] ${textOf(event.content)}`);
    else if (event.type === "assistant_message") answer = textOf(event.content);
    else if (event.type === "error") failure = event.message;
    else if (event.type === "turn_end" && (event.stop === "error" || event.stop === "aborted")) failure ??= event.error || event.stop;
    // The turn went on after an error (an automatic compaction that failed) and ended well.
    else if (event.type === "turn_end") failure = null;
  }
  return { answer, failure };
}

async function main(argv) {
  if (argv.length === 0 || argv[0] === "-h" || argv[0] === "--help") {
    console.error("usage: zot-rpc.mjs PROMPT [zot rpc flags...]   (ZOT_BIN picks the zot binary)");
    return 2;
  }
  const client = new ZotRpc({ args: argv.slice(1) });
  let interrupted = false;
  process.on("SIGINT", () => {
    interrupted = true;
    client.abort().catch(() => {}); // the events go on to turn_end aborted and done
  });
  try {
    await client.hello();
    const { answer, failure } = await runPrompt(client, argv[0]);
    await client.close();
    if (answer) console.log(answer);
    if (interrupted) return 130;
    if (failure) console.error(`zot-rpc: ${failure}`);
    return failure ? 1 : 0;
  } catch (error) {
    if (error instanceof ZotExited) {
      const why = error.neverStarted ? error.message : `${error.message} before answering (its message is above)`;
      console.error(`zot-rpc: ${why}`);
      return error.code || 1;
    }
    console.error(`zot-rpc: ${error.message}`);
    await client.close();
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exitCode = await main(process.argv.slice(2));
}
