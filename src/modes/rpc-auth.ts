// The ZOTCORE_RPC_TOKEN check of `zot rpc`. Rule: the comparison takes the same time whatever the
// guess, so the token cannot be found a byte at a time.
import { createHash, timingSafeEqual } from "node:crypto";

/** Whether `given` is the token; both are hashed first so their lengths never show. */
export function tokenMatches(token: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(token), digest(given));
}
