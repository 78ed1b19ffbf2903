// Figures of the extension host services (issue 15): a call_tool round trip of `read` through an
// extension (p50 ≤ 2 ms), and what 500 deferred tools cost a request that activates none, against
// the same 500 registered directly (request size, and time). Rule: printed, never asserted.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "../../src/core/agent.ts";
import { ExtensionManager } from "../../src/extensions/manager.ts";
import type { ModelRequest, Provider, ProviderBatch } from "../../src/protocol/provider.ts";
import { readTool } from "../../src/tools/read.ts";
import { VERSION } from "../../src/version.ts";
import { startMockLlm } from "../../test/support/mock-llm.ts";
import { testModel } from "../../test/support/test-model.ts";

const ZOT = join(import.meta.dir, "..", "..", "dist", "zot");

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms3 = (x: number) => `${x.toFixed(3)} ms`;
const verdict = (value: number, target: number) => (value <= target ? "met" : "MISSED");

/** A TS SDK extension whose `/bench n` makes n call_tool reads of bench.txt, one after another, and answers with each round trip's ms. */
const TS_CALLER = [
  `import { display, extension } from "@zot/sdk";`,
  `const ext = extension({ name: "caller-ts", version: "1.0.0" });`,
  `ext.command("bench-ts", "n call_tool reads", async (args) => {`,
  `  const times: number[] = [];`,
  `  for (let i = 0; i < Number(args); i++) {`,
  `    const t0 = performance.now();`,
  `    const result = await ext.callTool("read", { path: "bench.txt" });`,
  `    times.push(performance.now() - t0);`,
  `    if (result.is_error) return display("error: " + JSON.stringify(result.content));`,
  `  }`,
  `  return display(JSON.stringify(times));`,
  `});`,
  `await ext.run();`,
].join("\n");

/** The same in python3, raw protocol. */
const PY_CALLER = [
  "import json, sys, time",
  "def send(frame):",
  "    sys.stdout.write(json.dumps(frame) + '\\n')",
  "    sys.stdout.flush()",
  "send({'type': 'hello', 'name': 'caller-py', 'version': '1.0.0', 'capabilities': ['commands', 'call_tool']})",
  "send({'type': 'register_command', 'name': 'bench-py', 'description': 'n call_tool reads'})",
  "send({'type': 'ready'})",
  "lines = iter(sys.stdin)",
  "for line in lines:",
  "    frame = json.loads(line)",
  "    if frame.get('type') == 'command_invoked':",
  "        times = []",
  "        for i in range(int(frame.get('args', '1'))):",
  "            t0 = time.perf_counter()",
  "            send({'type': 'call_tool', 'id': 'c%d' % i, 'name': 'read', 'args': {'path': 'bench.txt'}})",
  "            while True:",
  "                reply = json.loads(next(lines))",
  "                if reply.get('type') == 'tool_result' and reply.get('id') == 'c%d' % i:",
  "                    break",
  "            times.append((time.perf_counter() - t0) * 1000)",
  "        send({'type': 'command_response', 'id': frame['id'], 'action': 'display', 'display': json.dumps(times)})",
  "    elif frame.get('type') == 'shutdown':",
  "        break",
].join("\n");

function hostOptions(home: string, cwd: string, env: Record<string, string>) {
  return { home, cwd, provider: "scripted", model: "bench", zotVersion: VERSION, zotBinary: ZOT, env, explicit: [], noDiscovery: false, projectTrusted: false };
}

const idleProvider: Provider = {
  name: "bench",
  async *stream(): AsyncGenerator<never> {
    throw new Error("the call_tool bench never calls the model");
  },
};

// In process, as zot runs it: the extension's call_tool frame in, the tool_call stage, the
// approvers, `read`, after_tool, the bounded tool_result frame out; timed by the extension itself.
export async function callToolBench(env: Record<string, string>): Promise<void> {
  const calls = 2000;
  const warm = 200;
  const home = mkdtempSync(join(tmpdir(), "zot-bench-calltool-"));
  const cwd = mkdtempSync(join(tmpdir(), "zot-bench-calltool-cwd-"));
  writeFileSync(join(cwd, "bench.txt"), "one line of text to read\nand a second\n");
  for (const [name, file, text, manifest] of [
    ["caller-ts", "index.ts", TS_CALLER, { exec: "./index.ts" }],
    ["caller-py", "main.py", PY_CALLER, { exec: "python3", args: ["main.py"] }],
  ] as const) {
    const dir = join(home, "extensions", name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, file), `${text}\n`);
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name, version: "1.0.0", ...manifest }));
  }
  const manager = new ExtensionManager();
  const report = await manager.load(hostOptions(home, cwd, env));
  try {
    if (report.ready !== 2) throw new Error(`${report.ready} of 2 extensions came up: ${report.warnings.join("; ")}`);
    const agent = new Agent({ provider: idleProvider, model: testModel({ id: "bench" }), tools: [readTool], system: "", cwd });
    manager.attach(agent);
    for (const [label, command] of [
      ["TS SDK run by dist/zot", "bench-ts"],
      ["python3, raw protocol", "bench-py"],
    ] as const) {
      const answer = await manager.runCommand(command, String(warm + calls), new AbortController().signal);
      if (answer.action !== "display" || !answer.text.startsWith("[")) throw new Error(`/${command} failed: ${JSON.stringify(answer)}`);
      const times = (JSON.parse(answer.text) as number[]).slice(warm);
      console.log(
        `call-tool read round trip, ${label}: p50 ${ms3(pct(times, 0.5))} (target ≤ 2 ms: ${verdict(pct(times, 0.5), 2)}), p90 ${ms3(pct(times, 0.9))}, p99 ${ms3(pct(times, 0.99))} (${calls} calls after ${warm} warm-up, timed by the extension)`,
      );
    }
  } finally {
    await manager.stop();
  }
}

/** A python extension registering `count` tools, deferred or direct. */
function manyTools(home: string, name: string, count: number, exposure: "deferred" | "direct"): void {
  const dir = join(home, "extensions", name);
  mkdirSync(dir, { recursive: true });
  const script = [
    "import json, sys",
    "def send(frame):",
    "    sys.stdout.write(json.dumps(frame) + '\\n')",
    `send({'type': 'hello', 'name': ${JSON.stringify(name)}, 'version': '1.0.0'})`,
    `for i in range(${count}):`,
    "    send({'type': 'register_tool', 'name': 'mcp_tool_%03d' % i, 'description': 'Tool %d of a large MCP server: does one specific thing with the remote service and returns its JSON answer.' % i,",
    "          'schema': {'type': 'object', 'properties': {'id': {'type': 'string', 'description': 'the object id'}, 'limit': {'type': 'integer'}}, 'required': ['id']},",
    `          'exposure': ${JSON.stringify(exposure)}})`,
    "send({'type': 'ready'})",
    "sys.stdout.flush()",
    "for line in sys.stdin:",
    "    if json.loads(line).get('type') == 'shutdown':",
    "        break",
  ].join("\n");
  writeFileSync(join(dir, "main.py"), `${script}\n`);
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name, version: "1.0.0", exec: "python3", args: ["main.py"] }));
}

/** A provider that records when the agent hands it the request, and the request. */
function timingProvider(): Provider & { calledAt: number[]; requests: ModelRequest[] } {
  const calledAt: number[] = [];
  const requests: ModelRequest[] = [];
  return {
    name: "bench",
    calledAt,
    requests,
    async *stream(request): AsyncIterable<ProviderBatch> {
      calledAt.push(performance.now());
      requests.push(request);
      yield [{ type: "done", content: [{ type: "text", text: "ok" }], stop: "end_turn" }];
    },
  };
}

// 500 deferred tools vs the same 500 direct vs none: (1) the bytes of the request the compiled
// binary sends the model (the mock records it) and the whole `zot -p` run; (2) in process, the time
// from prompt() to the provider getting its request (what the agent spends on the tool list).
export async function deferredToolsBench(env: Record<string, string>): Promise<void> {
  const count = 500;
  const homes = {
    none: mkdtempSync(join(tmpdir(), "zot-bench-none-")),
    empty: mkdtempSync(join(tmpdir(), "zot-bench-empty-")),
    deferred: mkdtempSync(join(tmpdir(), "zot-bench-deferred-")),
    direct: mkdtempSync(join(tmpdir(), "zot-bench-direct-")),
  };
  manyTools(homes.empty, "mcp", 0, "direct");
  manyTools(homes.deferred, "mcp", count, "deferred");
  manyTools(homes.direct, "mcp", count, "direct");
  const cwd = mkdtempSync(join(tmpdir(), "zot-bench-deferred-cwd-"));

  const runs = 15;
  const mock = startMockLlm();
  const size: Record<string, number> = {};
  const wall: Record<string, number[]> = { none: [], empty: [], deferred: [], direct: [] };
  try {
    for (let i = 0; i < runs + 2; i++) {
      for (const key of ["none", "empty", "deferred", "direct"] as const) {
        mock.push({ text: "ok" });
        const from = mock.requests.length;
        const t0 = performance.now();
        const proc = Bun.spawn([ZOT, "-p", "hi", "--provider", "anthropic", "--api-key", "k", "--base-url", mock.url], {
          cwd,
          env: { ...env, ZOT_HOME: homes[key] },
          stdout: "pipe",
          stderr: "pipe",
        });
        const out = await new Response(proc.stdout).text();
        if ((await proc.exited) !== 0 || out !== "ok\n") throw new Error(`zot -p with ${key} failed: ${await new Response(proc.stderr).text()}`);
        if (i >= 2) wall[key].push(performance.now() - t0);
        size[key] = JSON.stringify(mock.requests[from].body).length;
        const tools = mock.requests[from].body.tools?.length ?? 0;
        if (key === "direct" && tools < count) throw new Error(`only ${tools} tools were offered directly`);
        if (key === "deferred" && tools > 10) throw new Error(`${tools} tools offered with ${count} deferred`);
      }
    }
  } finally {
    await mock.stop();
  }
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  const med = (xs: number[]) => pct(xs, 0.5);
  console.log(`deferred-tools request size (anthropic, zot -p): no extension ${kb(size.none)}, ${count} deferred ${kb(size.deferred)}, the same ${count} direct ${kb(size.direct)}`);
  console.log(
    `deferred-tools zot -p wall time, median of ${runs}: no extension ${med(wall.none).toFixed(1)} ms, the python extension with no tools ${med(wall.empty).toFixed(1)} ms, ${count} deferred ${med(wall.deferred).toFixed(1)} ms, ${count} direct ${med(wall.direct).toFixed(1)} ms`,
  );

  // In process: prompt() until the provider has the request, with the extension attached.
  for (const key of ["deferred", "direct"] as const) {
    const manager = new ExtensionManager();
    await manager.load(hostOptions(homes[key], cwd, env));
    try {
      const provider = timingProvider();
      const agent = new Agent({ provider, model: testModel({ id: "bench" }), tools: [readTool], system: "You are zot.", cwd });
      manager.attach(agent);
      const times: number[] = [];
      for (let i = 0; i < 220; i++) {
        agent.clear();
        const t0 = performance.now();
        await agent.prompt({ text: "hi" }, new AbortController().signal);
        if (i >= 20) times.push(provider.calledAt.at(-1)! - t0);
      }
      const offered = provider.requests.at(-1)?.tools.length ?? 0;
      console.log(`deferred-tools in process, prompt() → the provider has the request, ${count} ${key} (${offered} tools offered): p50 ${ms3(pct(times, 0.5))}, p90 ${ms3(pct(times, 0.9))} (200 prompts after 20 warm-up)`);
    } finally {
      await manager.stop();
    }
  }
}
