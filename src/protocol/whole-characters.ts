// Cutting text where a character ends: a cut between the two halves of a surrogate pair (an emoji)
// leaves a lone half, which the model APIs refuse in a request and terminals show as garbage.
// Rule: every place that cuts text by length cuts at an index this gives.

/** `at`, moved back off the second half of a surrogate pair, so no character is cut in two. */
export function wholeCharacterCut(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return at > 0 && code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}
