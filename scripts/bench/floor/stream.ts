// The stream floor (scripts/bench floor): a compiled Bun program that reads the same Anthropic
// stream zot --json reads and writes one JSON line per text delta, as zot's text_delta events.
// Rule: the least work for that output (SSE split, JSON.parse, JSON.stringify, buffered writes).
// Compiled with zot's flags, which start the JIT reluctant (--compile-jit-policy) until zot's start
// is over; the floor has no start to get over, so it runs at the normal policy from its first line.
Bun.unsafe.setJITPolicy(1);
const [baseUrl] = process.argv.slice(2);
const response = await fetch(`${baseUrl}/v1/messages`, {
  method: "POST",
  headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" },
  body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 1024, stream: true, messages: [{ role: "user", content: "go" }] }),
});
const writer = Bun.stdout.writer();
let carry = "";
const decoder = new TextDecoder();
for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
  const lines = (carry + decoder.decode(chunk, { stream: true })).split("\n");
  carry = lines.pop() ?? "";
  for (const line of lines) {
    if (!line.startsWith("data: ")) continue;
    const event = JSON.parse(line.slice(6));
    if (event.type === "content_block_delta" && event.delta?.type === "text_delta") {
      writer.write(`${JSON.stringify({ type: "text_delta", delta: event.delta.text })}\n`);
    }
  }
  await writer.flush();
}
await writer.end();

export {};
