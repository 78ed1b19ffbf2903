// The one-shot floor's reading of an Anthropic answer (scripts/bench floor): the body split into
// lines and each `data:` line parsed, the text deltas joined. Rule: the least reading that gives the
// answer's text; the floor and its SDK reference share it, so they differ only in how they send.
export async function answerText(body: AsyncIterable<Uint8Array>): Promise<string> {
  let text = "";
  let carry = "";
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    const lines = (carry + decoder.decode(chunk, { stream: true })).split("\n");
    carry = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.startsWith("data: ")) continue;
      const event = JSON.parse(line.slice(6));
      if (event.type === "content_block_delta" && event.delta?.type === "text_delta") text += event.delta.text;
    }
  }
  return text;
}
