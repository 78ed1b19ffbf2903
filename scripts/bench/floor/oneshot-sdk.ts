// A reference beside the one-shot floor (scripts/bench floor): the floor's program with its request
// made as zot makes it, through the official Anthropic SDK (DESIGN.md names it): BaseAnthropic and
// client.post, the body read as the floor reads it (answer-text.ts). Rule: the floor plus the SDK
// and nothing else, so zot's ratio to this is what zot adds over the floor and the SDK it must use.
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { answerText } from "./answer-text.ts";

const [baseUrl] = process.argv.slice(2);
const client = new BaseAnthropic({ apiKey: "k", baseURL: baseUrl, maxRetries: 0, logLevel: "off" });
const body = { model: "claude-sonnet-4-5", max_tokens: 1024, stream: true, messages: [{ role: "user", content: "hello" }] };
const response = await client.post("/v1/messages", { body, stream: true }).asResponse();
// As zot: the SDK is loaded, and the request built and sent, at the start's reluctant JIT policy
// (zot's compile flags); the body is read at the normal one, the floor's, from the answer's opening.
Bun.unsafe.setJITPolicy(1);
const text = await answerText(response.body as unknown as AsyncIterable<Uint8Array>);
await Bun.write(Bun.stdout, `${text}\n`);

export {};
