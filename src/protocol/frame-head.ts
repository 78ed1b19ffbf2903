// What the first bytes of a frame too long to read still say: its "type" and "id", which every SDK
// and client writes near the start. Rule: read with patterns, never parsed (the frame is cut), so
// the answer to a dropped line can still name the call it was (rpc commands, extension replies).

/** The `type` and `id` fields found in the head of a cut JSON frame; a numeric id is a number. */
export function frameHead(head: string): { type?: string; id?: string | number } {
  const type = /"type"\s*:\s*"([A-Za-z_]+)"/.exec(head)?.[1];
  const found = /"id"\s*:\s*(?:"((?:[^"\\]|\\.)*)"|(-?\d+)(?=\s*[,}]))/.exec(head);
  let id: string | number | undefined;
  if (found?.[1] !== undefined) id = unescaped(found[1]);
  else if (found?.[2] !== undefined && Number.isSafeInteger(Number(found[2]))) id = Number(found[2]);
  return { ...(type !== undefined ? { type } : {}), ...(id !== undefined ? { id } : {}) };
}

function unescaped(text: string): string {
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text;
  }
}
