// `zot rpc` with a client that stops reading its stdout: zot stops producing (the bash command
// waits on its pipe, the model stream is not read) and stops reading commands, so its memory stays
// bounded; once the client reads again, the same output arrives whole. Memory is the kernel's peak
// (VmHWM) of the zot process; the waits are guards, nothing here measures time.
import { afterEach, expect, test } from "bun:test";
import type { FileSink, Subprocess } from "bun";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, tempDir, ZOT } from "../support/zot.ts";

const PEAK_LIMIT_MB = 200;
/** How long the client leaves stdout unread: zot must be holding back by then, whatever it does. */
const UNREAD_MS = 3000;

let proc: Subprocess<"pipe", "pipe", "inherit"> | undefined;
afterEach(() => {
  // The whole pipeline: it leads its own process group.
  if (proc && proc.exitCode === null) process.kill(-proc.pid, "SIGKILL");
  proc = undefined;
});

/**
 * `zot rpc` whose stdout goes into a pipe nobody reads until open() is called: a shell pipeline
 * whose reader first waits on a FIFO, then copies everything to the test. (The test's own pipe
 * would not do: Bun reads a child's stdout into memory even when the script does not.)
 */
function startRpc(script: unknown, cwd: string, options: { home?: string; args?: string[] } = {}) {
  const file = join(cwd, "script.json");
  writeFileSync(file, JSON.stringify(script));
  const gate = join(cwd, "gate");
  Bun.spawnSync(["mkfifo", gate]);
  const zot = [ZOT, "rpc", "--no-ext", "--script", file, ...(options.args ?? [])].map((arg) => `'${arg}'`).join(" ");
  const shell = Bun.spawn(["sh", "-c", `${zot} | { read -r _ < '${gate}'; exec cat; }`], {
    cwd,
    env: cleanEnv(options.home ?? tempDir("zot-home-")),
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
    detached: true,
  });
  proc = shell;
  return {
    shell,
    /** zot's own pid (the shell's child running dist/zot) */
    zotPid(): number {
      for (const entry of readdirSync("/proc")) {
        if (!/^\d+$/.test(entry)) continue;
        try {
          const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
          const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
          if (ppid === shell.pid && readFileSync(`/proc/${entry}/cmdline`, "utf8").startsWith(ZOT)) return Number(entry);
        } catch {
          // gone meanwhile
        }
      }
      throw new Error("zot is not running under the shell");
    },
    /** the client starts reading */
    open(): void {
      writeFileSync(gate, "go\n");
    },
  };
}

function send(stdin: FileSink, text: string): void {
  stdin.write(text);
  stdin.flush();
}

function peakMb(pid: number): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
}

/** Reads stdout to the end, handing each line to `each`. */
async function readLines(stdout: ReadableStream<Uint8Array>, each: (line: string) => boolean): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of stdout) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (each(line)) return;
    }
  }
}

test("300 MB of bash output to a client that does not read: the command waits, zot stays small, then all of it arrives", async () => {
  const cwd = tempDir("zot-cwd-");
  const bytes = 300_000_000;
  const finished = join(cwd, "finished");
  const command = `yes "$(printf '%099d' 0)" | head -c ${bytes}; touch ${finished}`;
  const rpc = startRpc([{ tool_calls: [{ name: "bash", args: { command } }] }, { text: "done" }], cwd);
  send(rpc.shell.stdin, '{"type":"prompt","message":"go"}\n');
  const until = Date.now() + UNREAD_MS;
  while (Date.now() < until && !existsSync(finished)) await Bun.sleep(50);
  const zot = rpc.zotPid();
  expect(existsSync(finished)).toBe(false);
  expect(peakMb(zot)).toBeLessThan(PEAK_LIMIT_MB);

  rpc.open();
  let streamed = 0;
  let saved: string | undefined;
  await readLines(rpc.shell.stdout, (line) => {
    if (line.startsWith('{"type":"tool_progress"')) streamed += (JSON.parse(line) as { text: string }).text.length;
    else if (line.startsWith('{"type":"tool_result"')) saved = /the full output is in (\S+)/.exec(line)?.[1];
    return line === '{"type":"done"}';
  });
  if (saved) rmSync(saved, { force: true });
  expect(streamed).toBe(bytes);
  expect(existsSync(finished)).toBe(true);
  expect(peakMb(zot)).toBeLessThan(PEAK_LIMIT_MB);
  rpc.shell.stdin.end();
  expect(await rpc.shell.exited).toBe(0);
}, 60_000);

test("300 pipelined get_messages of a 1 MB transcript to a client that does not read: zot stops reading commands, then answers all", async () => {
  const cwd = tempDir("zot-cwd-");
  const chars = 1_000_000;
  // The 1 MB transcript: a session recorded by -p, which rpc --continue resumes.
  const home = tempDir("zot-home-");
  const script = join(cwd, "answer.json");
  writeFileSync(script, JSON.stringify([{ text: "z".repeat(chars), chunk_size: 65_536 }]));
  const recorded = Bun.spawnSync([ZOT, "-p", "go", "--no-ext", "--script", script], { cwd, env: cleanEnv(home) });
  expect(recorded.exitCode).toBe(0);
  const rpc = startRpc([{ text: "unused" }], cwd, { home, args: ["--continue"] });
  const count = 300;
  let commands = "";
  for (let i = 0; i < count; i++) commands += `{"type":"get_messages","id":"m${i}"}\n`;
  send(rpc.shell.stdin, commands);
  await Bun.sleep(UNREAD_MS);
  const zot = rpc.zotPid();
  expect(peakMb(zot)).toBeLessThan(PEAK_LIMIT_MB);

  rpc.open();
  let answered = 0;
  let whole = 0;
  await readLines(rpc.shell.stdout, (line) => {
    if (!line.includes('"command":"get_messages"')) return false;
    const response = JSON.parse(line) as { id: string; data: { messages: { content: { text?: string }[] }[] } };
    expect(response.id).toBe(`m${answered}`);
    answered++;
    if (response.data.messages.at(-1)?.content.some((block) => block.text?.length === chars)) whole++;
    return answered === count;
  });
  expect(whole).toBe(count);
  expect(peakMb(zot)).toBeLessThan(PEAK_LIMIT_MB);
  rpc.shell.stdin.end();
  expect(await rpc.shell.exited).toBe(0);
}, 60_000);
