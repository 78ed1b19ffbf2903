// The stream floor on the OpenAI Chat Completions wire (scripts/bench floor): the same program as
// stream.ts, reading the Chat Completions stream zot's openai route reads. Rule: the same least
// work, so the floor's own Chat/Anthropic ratio shows what the wire costs any client,
// beside zot's ratio between its two routes.
// Compiled with zot's flags, which start the JIT reluctant (--compile-jit-policy) until zot's start
// is over; the floor has no start to get over, so it runs at the normal policy from its first line.
Bun.unsafe.setJITPolicy(1);
const [baseUrl] = process.argv.slice(2);
const response = await fetch(`${baseUrl}/v1/chat/completions`, {
  method: "POST",
  headers: { "content-type": "application/json", authorization: "Bearer k" },
  body: JSON.stringify({ model: "gpt-4.1", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "go" }] }),
});
const writer = Bun.stdout.writer();
let carry = "";
const decoder = new TextDecoder();
for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
  const lines = (carry + decoder.decode(chunk, { stream: true })).split("\n");
  carry = lines.pop() ?? "";
  for (const line of lines) {
    if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
    const content = JSON.parse(line.slice(6)).choices?.[0]?.delta?.content;
    if (content) writer.write(`${JSON.stringify({ type: "text_delta", delta: content })}\n`);
  }
  await writer.flush();
}
await writer.end();

export {};
