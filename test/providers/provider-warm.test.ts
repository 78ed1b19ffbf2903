// A provider's warm() (protocol/provider.ts) loads its SDK and makes its client while the run waits
// for a prompt, so the first call does neither: for Anthropic, OpenAI Chat and OpenAI Responses;
// without warm() nothing is loaded until a call. A client warm() failed to make is the call's to
// report, in the words the call gives without warm(), and nothing else sees it (no unhandled
// rejection, which would end Bun). Each case runs in a fresh Bun process, since this one has loaded
// the SDKs already (require.cache lists the modules a process has loaded). The connection it opens:
// test/providers/warm-connection.test.ts and test/e2e/warm-connection.test.ts.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

const PROVIDERS = [
  { name: "anthropic", sdk: "@anthropic-ai/sdk/client.mjs", madeReads: "ANTHROPIC_WEBHOOK_SIGNING_KEY", model: { id: "claude-sonnet-4-5", api: "anthropic-messages", provider: "anthropic", max_output: 100 }, make: 'import("./src/providers/anthropic.ts").then((m) => m.createAnthropicProvider({ apiKey: KEY, baseUrl: url }))' },
  { name: "openai chat", sdk: "openai/client.mjs", madeReads: "OPENAI_ORG_ID", model: { id: "gpt-4.1", api: "openai-chat", provider: "openai", max_output: 100 }, make: 'import("./src/providers/openai-chat.ts").then((m) => m.createOpenAIChatProvider({ name: "openai", apiKey: KEY, baseUrl: url }))' },
  { name: "openai responses", sdk: "openai/client.mjs", madeReads: "OPENAI_ORG_ID", model: { id: "gpt-5", api: "openai-responses", provider: "openai", max_output: 100 }, make: 'import("./src/providers/openai-responses.ts").then((m) => m.createOpenAIResponsesProvider({ apiKey: KEY, baseUrl: url }))' },
];

interface Seen { atStart: boolean; loaded: boolean; made: number; madeAfterCall: number; callError: string }

/**
 * Makes the provider in a fresh Bun, warms it or not, and says whether its SDK had loaded, how many
 * clients were made (each reads a variable of the SDK's as it is made), and what one call then said.
 * With warm() it waits for the SDK and the client as long as a loaded machine may take; without, 300 ms.
 */
async function run(provider: (typeof PROVIDERS)[number], warm: boolean, key = "k"): Promise<Seen> {
  const script = `
    const KEY = ${JSON.stringify(key)};
    let made = 0;
    const env = process.env;
    process.env = new Proxy(env, { get: (t, k) => (k === ${JSON.stringify(provider.madeReads)} && made++, Reflect.get(t, k)) });
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (r) => r.method === "HEAD" ? new Response(null) : Response.json({ error: { type: "invalid_request_error", message: "no" } }, { status: 400 }) });
    const url = "http://127.0.0.1:" + server.port;
    const loaded = () => Object.keys(require.cache).some((k) => k.endsWith(${JSON.stringify(`node_modules/${provider.sdk}`)}));
    const made0 = await ${provider.make};
    const atStart = loaded();
    const ended = new AbortController();
    if (${warm}) made0.warm(ended.signal);
    const until = Date.now() + (${warm} ? 10_000 : 300);
    while (!(loaded() && (made > 0 || KEY === "")) && Date.now() < until) await Bun.sleep(10);
    if (KEY === "") await Bun.sleep(50); // a rejection nobody handles would end this process meanwhile
    const seen = { atStart, loaded: loaded(), made };
    let callError = "";
    try {
      for await (const _ of made0.stream({ model: ${JSON.stringify(provider.model)}, messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], tools: [], system: "" }, new AbortController().signal)) {}
    } catch (error) { callError = String(error?.message ?? error); }
    ended.abort();
    server.stop(true);
    console.log(JSON.stringify({ ...seen, madeAfterCall: made, callError }));
  `;
  const proc = Bun.spawn([process.execPath, "-e", script], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`the script failed (exit ${code}): ${err}`);
  return JSON.parse(out) as Seen;
}

describe("a provider's warm()", () => {
  for (const provider of PROVIDERS) {
    test(`${provider.name}: loads the SDK and makes the client the call then uses, which making the provider does not`, async () => {
      const seen = await run(provider, true);
      expect({ ...seen, callError: undefined }).toEqual({ atStart: false, loaded: true, made: 1, madeAfterCall: 1, callError: undefined });
    }, 20_000);

    test(`${provider.name}: control: without warm() nothing is loaded or made until the call`, async () => {
      const seen = await run(provider, false);
      expect({ ...seen, callError: undefined }).toEqual({ atStart: false, loaded: false, made: 0, madeAfterCall: 1, callError: undefined });
    });
  }

  for (const provider of PROVIDERS.filter((p) => p.name.startsWith("openai"))) {
    test(`${provider.name}: a client that cannot be made (no key) is reported by the call as without warm(), and by nothing else`, async () => {
      const [warmed, cold] = await Promise.all([run(provider, true, ""), run(provider, false, "")]);
      expect(cold.callError).toContain("Missing credentials");
      expect(warmed.callError).toBe(cold.callError);
    }, 20_000);
  }
});
