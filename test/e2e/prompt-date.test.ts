// The compiled binary's system prompt carries the user's local date (config/local-date.ts reads the
// zone itself, so ICU's time zone is never set up): on either side of the date line, and under a
// POSIX TZ string, it is the date `date +%F` prints under the same TZ.
import { afterEach, expect, test } from "bun:test";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { zot } from "../support/zot.ts";

let mock: MockLlm;
afterEach(() => mock?.stop());

const glibcDate = (tz: string) => Bun.spawnSync(["date", "+%F"], { env: { TZ: tz } }).stdout.toString().trim();

test("zot -p sends the local date of TZ, as `date` reads it", async () => {
  const zones = ["Pacific/Kiritimati", "Pacific/Pago_Pago", "<+0330>-3:30", ""];
  mock = startMockLlm(zones.map(() => ({ text: "ok" })));
  for (const [i, tz] of zones.entries()) {
    const before = glibcDate(tz);
    const run = await zot(["-p", "hello", "--provider", "anthropic", "--api-key", "k", "--base-url", mock.url], { env: { TZ: tz } });
    const after = glibcDate(tz);
    expect(run.code).toBe(0);
    const system = (mock.requests[i].body as { system: { text: string }[] }).system.map((b) => b.text).join("\n");
    const date = /- Date: (\d{4}-\d\d-\d\d)/.exec(system)?.[1];
    // read before and after the run, so a run across local midnight still matches one of them
    expect({ tz, ok: date === before || date === after }).toEqual({ tz, ok: true });
  }
  // Kiritimati (+14) and Pago Pago (-11) are never on the same date: the zone was really read
  const [kiritimati, pagoPago] = mock.requests.slice(0, 2).map((r) => /- Date: (\S+)/.exec(JSON.stringify(r.body))?.[1]);
  expect(kiritimati).not.toBe(pagoPago);
});
