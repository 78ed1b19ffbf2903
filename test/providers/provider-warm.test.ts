// A provider's warm() (protocol/provider.ts) loads its SDK while the run waits for a prompt, so the
// first call does not: for Anthropic, OpenAI Chat and OpenAI Responses; without warm() the SDK
// stays unloaded until a call. Each case runs in a fresh Bun process, since this one has loaded the
// SDKs already (require.cache lists the modules a process has loaded). The connection it opens:
// test/providers/warm-connection.test.ts and test/e2e/warm-connection.test.ts.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

const PROVIDERS = [
  { name: "anthropic", sdk: "@anthropic-ai/sdk/client.mjs", make: 'import("./src/providers/anthropic.ts").then((m) => m.createAnthropicProvider({ apiKey: "k", baseUrl: url }))' },
  { name: "openai chat", sdk: "openai/client.mjs", make: 'import("./src/providers/openai-chat.ts").then((m) => m.createOpenAIChatProvider({ name: "openai", apiKey: "k", baseUrl: url }))' },
  { name: "openai responses", sdk: "openai/client.mjs", make: 'import("./src/providers/openai-responses.ts").then((m) => m.createOpenAIResponsesProvider({ apiKey: "k", baseUrl: url }))' },
];

/** Makes the provider in a fresh Bun, warms it or not, and says whether its SDK had loaded then and 300 ms after. */
async function sdkLoaded(provider: (typeof PROVIDERS)[number], warm: boolean): Promise<{ atStart: boolean; after: boolean }> {
  const script = `
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(null) });
    const url = "http://127.0.0.1:" + server.port;
    const loaded = () => Object.keys(require.cache).some((k) => k.endsWith(${JSON.stringify(`node_modules/${provider.sdk}`)}));
    const made = await ${provider.make};
    const atStart = loaded();
    const ended = new AbortController();
    if (${warm}) made.warm(ended.signal);
    const until = Date.now() + 300;
    while (!loaded() && Date.now() < until) await Bun.sleep(10);
    ended.abort();
    server.stop(true);
    console.log(JSON.stringify({ atStart, after: loaded() }));
  `;
  const proc = Bun.spawn([process.execPath, "-e", script], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`the script failed (exit ${code}): ${err}`);
  return JSON.parse(out) as { atStart: boolean; after: boolean };
}

describe("a provider's warm()", () => {
  for (const provider of PROVIDERS) {
    test(`${provider.name}: loads the SDK, which making the provider does not`, async () => {
      expect(await sdkLoaded(provider, true)).toEqual({ atStart: false, after: true });
    });

    test(`${provider.name}: control: without warm() the SDK stays unloaded`, async () => {
      expect(await sdkLoaded(provider, false)).toEqual({ atStart: false, after: false });
    });
  }
});
