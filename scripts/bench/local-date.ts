// `scripts/bench local-date` (issue 17): the first local-time call of a Bun process sets up ICU's
// time zone; local-date.ts reads the zone file itself instead. A probe compiled with zot's flags
// times, in fresh processes interleaved, `new Date().getFullYear()`, `getUTCFullYear()` and
// localDate(), each followed by a getFullYear() (which pays ICU's set-up unless the first call did).
// Rule: numbers are printed, never asserted; a probe whose date disagrees with Date throws.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMPILE_FLAGS } from "../compile-flags.ts";

interface Probe {
  which: string;
  value: number | string;
  firstMs: number;
  thenMs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(3)} ms`;

export async function localDateBench(rounds = 20): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "zot-bench-local-date-"));
  const probe = join(dir, "probe");
  const build = Bun.spawnSync([process.execPath, "build", ...COMPILE_FLAGS, join(import.meta.dir, "local-date", "probe.ts"), "--outfile", probe]);
  if (build.exitCode !== 0) throw new Error(`compiling the local-date probe failed: ${build.stderr.toString()}`);
  const kinds = ["getFullYear", "getUTCFullYear", "localDate"];
  for (const tz of [undefined, "Europe/Paris"]) {
    const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...(tz ? { TZ: tz } : {}) };
    const runs = new Map<string, Probe[]>(kinds.map((k) => [k, []]));
    for (let i = 0; i < rounds + 2; i++) {
      for (const which of kinds) {
        const run = Bun.spawnSync([probe, which], { env });
        if (run.exitCode !== 0) throw new Error(`probe ${which} failed: ${run.stderr.toString()}`);
        const result: Probe = JSON.parse(run.stdout.toString());
        if (i >= 2) runs.get(which)?.push(result);
      }
    }
    const dates = runs.get("localDate")!.map((r) => String(r.value));
    const years = runs.get("getFullYear")!.map((r) => String(r.value));
    if (dates.some((d, i) => !d.startsWith(`${years[i]}-`))) throw new Error(`localDate disagrees with Date: ${dates[0]} vs ${years[0]}`);
    console.log(`local-date first call in a fresh compiled process, TZ ${tz ?? "unset (/etc/localtime)"}, median of ${rounds}:`);
    for (const which of kinds) {
      const r = runs.get(which)!;
      console.log(`  ${which.padEnd(15)} ${ms(median(r.map((x) => x.firstMs))).padStart(10)}; a getFullYear() after it ${ms(median(r.map((x) => x.thenMs)))}`);
    }
  }
}
