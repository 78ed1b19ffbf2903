// The one-shot floor (scripts/bench floor): a compiled Bun program that makes the same single
// streamed Anthropic Messages request zot -p makes, prints the answer's text and exits. Rule: the
// least a program must do for that answer (fetch, SSE split, JSON.parse of each data line), so
// zot's ratio to it is the cost of everything else.
// Compiled with zot's flags, which start the JIT reluctant (--compile-jit-policy) until zot's start
// is over; the floor has no start to get over, so it runs at the normal policy from its first line.
import { answerText } from "./answer-text.ts";

Bun.unsafe.setJITPolicy(1);
const [baseUrl] = process.argv.slice(2);
const response = await fetch(`${baseUrl}/v1/messages`, {
  method: "POST",
  headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" },
  body: JSON.stringify({
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    stream: true,
    messages: [{ role: "user", content: "hello" }],
  }),
});
const text = await answerText(response.body as AsyncIterable<Uint8Array>);
await Bun.write(Bun.stdout, `${text}\n`);

export {};
