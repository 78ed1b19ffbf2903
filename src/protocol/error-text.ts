// The words of anything thrown, for the sentences zot builds around a failure.
// Rule: an Error gives its message (never its stack; --debug shows stacks), anything else its
// string form.
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
