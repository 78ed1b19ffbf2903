// Text that comes with a prompt without being the prompt: what was piped into `zot -p "…"`.
// Rule: the model gets the context first, marked as stdin, then what the user asked; a slash
// command is recognised in what the user typed, never in the context.
/** The prompt the model gets: the piped text as context, then what the user asked. */
export function promptWithContext(prompt: string, context: string | undefined): string {
  if (!context) return prompt;
  if (!prompt) return context;
  return `<stdin>\n${context}\n</stdin>\n\n${prompt}`;
}
