// A path or URI inside a double-quoted attribute of the blocks zot writes into what the model is
// sent (`<file path="…">`, `<memory-file path="…">`). Rule: `&` and `"` are escaped, so the
// attribute ends where its closing quote is and reads back as it was.

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}

export function unescapeAttribute(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&amp;/g, "&");
}
