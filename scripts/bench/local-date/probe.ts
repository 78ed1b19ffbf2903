// The local-date probe (scripts/bench local-date): a compiled program that times one first call in
// a fresh process — `new Date().getFullYear()` (ICU sets up its time zone), `getUTCFullYear()`, or
// local-date.ts's localDate — and then a getFullYear() after it, which still pays ICU's set-up if
// the first call did not wake ICU. Rule: one measured call per process, printed as JSON.
import { localDate } from "../../../src/config/local-date.ts";

const which = process.argv[2];
const started = performance.now();
const value =
  which === "getFullYear" ? new Date().getFullYear() : which === "getUTCFullYear" ? new Date().getUTCFullYear() : localDate(new Date());
const firstMs = performance.now() - started;
const after = performance.now();
new Date().getFullYear();
const thenMs = performance.now() - after;
console.log(JSON.stringify({ which, value, firstMs, thenMs }));
