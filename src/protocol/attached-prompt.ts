// The mark between what a person typed and the files and MCP resources their @mentions attached
// (conversation/file-mentions.ts writes it). Rule: anything that shows a prompt back as typed (a
// session listing's first prompt) cuts it here, so the attached content never passes for the prompt.

/** The line between the typed prompt and the attached files. */
export const ATTACHED_MARK = "[files the user attached with @, as they are now]";

/** The prompt as typed: the text before the attachments, if any. */
export function typedPart(text: string): string {
  const at = text.indexOf(`\n\n${ATTACHED_MARK}\n`);
  return at === -1 ? text : text.slice(0, at);
}
