// The RPC client under Node 20: bundled for Node by Bun (as a user's build would), run by the
// system's `node` against the compiled binary and the mock LLM. Rule: the bundle holds no
// valibot and no Bun API; if it did, node would fail to run it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { cleanEnv, ROOT, tempDir, ZOT } from "../support/zot.ts";

const NODE = Bun.which("node") ?? "node";
let bundleDir = "";

beforeAll(async () => {
  bundleDir = tempDir("zot-rpc-node-");
  const built = await Bun.build({ entrypoints: [join(ROOT, "src", "sdk", "rpc-client.ts")], target: "node", outdir: bundleDir });
  if (!built.success) throw new AggregateError(built.logs, "bundling the rpc client for node failed");
});

let mock: MockLlm | undefined;
afterAll(() => mock?.stop());

const PROGRAM = `
import { ZotRpcClient, RpcError } from "./rpc-client.js";
const zot = await ZotRpcClient.spawn({ zot: process.env.ZOT_BIN, args: process.argv.slice(2) });
const kinds = [];
const result = await zot.prompt("hello from node", { onEvent: (event) => kinds.push(event.type) });
let refused = "";
try {
  await zot.setModel("gpt-4.1");
} catch (error) {
  if (error instanceof RpcError) refused = error.command;
}
const code = await zot.close();
process.stdout.write(JSON.stringify({ text: result.text, outcome: result.outcome, last: kinds.at(-1), model: zot.info.model, refused, code }));
`;

describe("the rpc client under node", () => {
  test("the bundle has neither valibot nor Bun in it", () => {
    const bundle = readFileSync(join(bundleDir, "rpc-client.js"), "utf8");
    expect(bundle).toContain("class ZotRpcClient");
    expect(bundle).not.toContain("valibot");
    expect(bundle).not.toMatch(/\bBun\./);
  });

  test("node runs a prompt answered by the mock and prints the answer", async () => {
    mock = startMockLlm([{ text: "Node hears the mock." }]);
    writeFileSync(join(bundleDir, "main.mjs"), PROGRAM);
    const home = tempDir("zot-rpc-node-home-");
    const proc = Bun.spawn([NODE, "main.mjs", "--provider", "anthropic", "--api-key", "sk-node", "--base-url", mock.url, "--no-tools"], {
      cwd: bundleDir,
      env: cleanEnv(home, { ZOT_BIN: ZOT }),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      text: "Node hears the mock.",
      outcome: "ok",
      last: "done",
      model: "claude-sonnet-5-5",
      refused: "set_model",
      code: 0,
    });
    expect(mock.requests[0].body.messages[0].content.at(-1).text).toBe("hello from node");
  });
});
