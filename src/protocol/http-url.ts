// A server's URL zot sends requests to (--base-url, models.json's baseUrl). Rule: http:// or
// https:// and nothing else, checked where it is given: a typo is said there, naming the place,
// not found later as a network error after retries.

/** Whether `text` is an http:// or https:// URL. */
export function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === "http:" || protocol === "https:";
}
