// A server's URL zot sends requests to (--base-url, ANTHROPIC_BASE_URL / OPENAI_BASE_URL /
// OLLAMA_HOST, models.json's baseUrl). Rule: http:// or https:// and nothing else, checked where it
// is given: a typo is said there, naming the place, not found later as a network error after retries.

/** Whether `text` is an http:// or https:// URL. */
export function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === "http:" || protocol === "https:";
}

/** The usage error of a base URL that is no http(s) URL, naming where it was given (`--base-url`, the variable). */
export function notHttpUrlText(place: string, value: string): string {
  return `${place} takes the server's URL, http:// or https:// (as https://api.anthropic.com or http://localhost:11434); got "${value}"`;
}
