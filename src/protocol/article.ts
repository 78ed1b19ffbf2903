// "a" or "an" before a word, as it is said: an anthropic model, an openai one, a google one.

/** "an" before a vowel, "a" otherwise. */
export function article(word: string): string {
  return /^[aeiou]/i.test(word) ? "an" : "a";
}
