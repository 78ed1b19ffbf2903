// Opens the connection a provider's next call will take while zot waits for someone to ask (the
// TUI's first prompt, an rpc client's): by the time the prompt comes, DNS, TCP and TLS are done,
// and the first answer skips those round trips (1–3 of them, 50–300 ms to a distant API).
// Rule: fire and forget. A failure is never reported (the call itself says what is wrong, in the
// user's words), and nothing it starts holds zot's exit.
// How: one HEAD request to the origin through the model connections' pool (model-connections.ts),
// which leaves its connection there for the call. No key is sent; the answer, a status with no
// body, is dropped. Bun's fetch.preconnect would open a connection without a request, but only in
// the pool of the global fetch, not in a FetchSession's (and in Bun 1.4.5 it throws for a URL on
// its scheme's default port, https://api.anthropic.com's).
import { modelFetch } from "./model-connections.ts";

/** How long a HEAD may take before it is dropped (the call then opens its own connection). */
const WARM_LIMIT_MS = 10_000;

/** Whether two base URLs (undefined: the provider's default) are on one server: scheme, host and port. */
export function sameOrigin(a: string | undefined, b: string | undefined): boolean {
  if (a === b) return true;
  try {
    return a !== undefined && b !== undefined && new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/** Starts opening a connection to `baseUrl`'s origin and returns at once; `signal` ends a HEAD still waiting. */
export function warmConnection(baseUrl: string, signal: AbortSignal): void {
  let origin: string;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    return; // the call reports an unusable URL in its own words
  }
  if (!origin.startsWith("http:") && !origin.startsWith("https:")) return;
  const limit = AbortSignal.any([signal, AbortSignal.timeout(WARM_LIMIT_MS)]);
  modelFetch(`${origin}/`, { method: "HEAD", redirect: "manual", signal: limit }).then(
    (response) => response.body?.cancel().catch(() => {}),
    () => {},
  );
}
