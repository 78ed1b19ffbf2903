// The connections zot's model calls travel on: one keep-alive pool (a Bun.FetchSession) that every
// provider's SDK client and the warm-up (warm-connection.ts) share, so a later call, a warm-up's
// connection and a switch to another model on the same server all take one open connection.
// Rule: a connection left idle for a minute is closed, so it is not there for a call after a
// longer pause. Bun's own pool keeps an idle connection for 5 minutes, longer than some networks
// keep an idle flow: Azure's outbound NAT forgets one after 4 minutes without telling either end,
// so a prompt typed after such a pause would be written onto a connection nobody reads, and wait
// for the silence limit (10 minutes, silence-limit.ts) before its retry. After a minute's pause
// the call opens a new connection instead, as most HTTP clients would (Go and reqwest keep one
// 90 s, Node's and Python's 4–5 s). ZOT_CONNECTION_IDLE_SECONDS, in zot's own environment, sets
// the minute for the whole process (a network that forgets sooner). Bun's timer moves in 4-second
// steps: a connection closes up to 8 seconds after the limit, and no limit is shorter than 4.
// A program embedding zot that replaced the global fetch (a mock, a tracer) does not see the model
// calls: they go through this pool. The stream driver says when each model call opens and ends, so
// a warm-up can tell whether the pool may have closed its connection (connection-warmer.ts).

import { decodedBody } from "./body-encoding.ts";

const DEFAULT_IDLE_SECONDS = 60;

let session: Bun.FetchSession | undefined;
/** model calls under way, and when the last one ended (performance.now()) */
let callsOpen = 0;
let lastCallEnded = performance.now();

/** The seconds an idle connection is kept for the next call. */
export function connectionIdleSeconds(env: Record<string, string | undefined> = process.env): number {
  const set = Number(env.ZOT_CONNECTION_IDLE_SECONDS);
  return Number.isFinite(set) && set > 0 ? set : DEFAULT_IDLE_SECONDS;
}

/**
 * fetch() over the model connections' pool: what the SDK clients are given, and the warm-up uses.
 * The body is decoded by zot, not by Bun (body-encoding.ts).
 */
export async function modelFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  session ??= new Bun.FetchSession({ keepAlive: { idleTimeout: connectionIdleSeconds() } });
  return decodedBody(await session.fetch(input, { ...init, decompress: false }));
}

/** A model call began: its connection is in use until modelCallEnded. */
export function modelCallBegan(): void {
  callsOpen++;
}

/** A model call ended (answered, failed or aborted): its connection idles from now. */
export function modelCallEnded(): void {
  callsOpen = Math.max(0, callsOpen - 1);
  lastCallEnded = performance.now();
}

/** How long no model call has been under way (0 while one is): the pool's connections idle that long at least. */
export function modelCallsIdleMs(): number {
  return callsOpen > 0 ? 0 : performance.now() - lastCallEnded;
}
