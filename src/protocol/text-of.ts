// The text of content blocks, joined by newlines: what a message "says" (the -p answer, an
// assistant_message interceptor's text, compaction); and text on one line, for listings. Rule: no valibot here, so code bundled for
// Node (the RPC client) can use the same rule as the rest of zot.

/** The text blocks of a message (transcript or wire form) joined by newlines; other blocks are skipped. */
export function textOf(blocks: readonly { type: string; text?: string }[]): string {
  return blocks.flatMap((b) => (b.type === "text" && typeof b.text === "string" ? [b.text] : [])).join("\n");
}

/** Whitespace runs (newlines included) as one space, trimmed: a prompt in a one-line listing. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
