// The local date without ICU (src/config/local-date.ts). The oracles: glibc (GNU `date`), which reads
// the same zone files and TZ strings and must agree exactly, and Bun's own Date, which must agree
// wherever its ICU data and the system's tzdata say the same. What local-date cannot read falls
// back to Date's local getters: never a wrong date, never a throw.
import { afterEach, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { localDate, timeZoneVariable, utcOffsetAt } from "../../src/config/local-date.ts";

const ZONEINFO = "/usr/share/zoneinfo";
const hasZoneinfo = fs.existsSync(path.join(ZONEINFO, "Europe", "Paris"));
if (!hasZoneinfo) console.warn("local-date.test: /usr/share/zoneinfo is missing (Debian: tzdata); the zone-file tests are skipped");

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "zot-local-date-"));
const savedTz = timeZoneVariable();
afterEach(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});
process.on("exit", () => fs.rmSync(tmp, { recursive: true, force: true }));

/** Every TZif file name under /usr/share/zoneinfo, but right/ (leap seconds, left to Date) and posix/ (links to the same files). */
function zoneNames(dir = ZONEINFO): string[] {
  const names: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (dir === ZONEINFO && (entry.name === "right" || entry.name === "posix")) continue;
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat?.isDirectory()) names.push(...zoneNames(file));
    else if (stat?.isFile() && fs.readFileSync(file).subarray(0, 4).toString("latin1") === "TZif") names.push(path.relative(ZONEINFO, file));
  }
  return names.sort();
}

interface Answer {
  date: string;
  /** seconds east of UTC */
  offset: number;
}

/** glibc's local date and offset for each instant under each TZ value: one bash, one `date` per value. */
function glibc(tzValues: string[], instants: number[]): Map<string, Answer[]> {
  const instantsFile = path.join(tmp, `instants-${instants.length}-${instants[0]}`);
  fs.writeFileSync(instantsFile, instants.map((ms) => `@${ms / 1000}\n`).join(""));
  const script = `while IFS= read -r z; do TZ="$z" date -f "$1" '+%F %::z' || exit 1; done`;
  const run = Bun.spawnSync(["bash", "-c", script, "bash", instantsFile], { stdin: Buffer.from(tzValues.map((z) => `${z}\n`).join("")) });
  expect(run.exitCode).toBe(0);
  const lines = run.stdout.toString().trimEnd().split("\n");
  expect(lines.length).toBe(tzValues.length * instants.length);
  const answers = new Map<string, Answer[]>();
  tzValues.forEach((z, i) => {
    answers.set(
      z,
      lines.slice(i * instants.length, (i + 1) * instants.length).map((line) => {
        const [date, zone] = line.split(" ");
        const [h, m, s] = zone.slice(1).split(":").map(Number);
        return { date, offset: (zone[0] === "-" ? -1 : 1) * (h * 3600 + m * 60 + s) };
      }),
    );
  });
  return answers;
}

/** Python's zoneinfo reading a TZif file (RFC 8536's reading where glibc's differs: a footer with no transitions, DST all year). */
function pythonZoneinfo(file: string, instants: number[]): Answer[] {
  const code = [
    "import sys, json",
    "from zoneinfo import ZoneInfo",
    "from datetime import datetime, timezone",
    "zone = ZoneInfo.from_file(open(sys.argv[1], 'rb'))",
    "local = [datetime.fromtimestamp(s, timezone.utc).astimezone(zone) for s in json.loads(sys.argv[2])]",
    "print(json.dumps([{'date': d.date().isoformat(), 'offset': int(d.utcoffset().total_seconds())} for d in local]))",
  ].join("\n");
  const run = Bun.spawnSync(["python3", "-c", code, file, JSON.stringify(instants.map((ms) => ms / 1000))]);
  expect(run.stderr.toString()).toBe("");
  return JSON.parse(run.stdout.toString());
}

const ours = (tz: string | undefined, ms: number): Answer => ({ date: localDate(new Date(ms), tz), offset: utcOffsetAt(new Date(ms), tz) ?? Number.NaN });

/** What Bun's Date says under the zone process.env.TZ names. */
function bunDate(ms: number): Answer {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return { date: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`, offset: -d.getTimezoneOffset() * 60 };
}

const minute = 60_000;
const utc = (iso: string) => Date.parse(iso);
/** UTC instants of 2026 DST changes (zdump): US, EU, Sydney, NZ, Santiago, Lord Howe (30 min), Havana, Cairo, Beirut and Jerusalem (near local midnight), Casablanca, Chisinau; and 2045 ones, past the fat files' tables. */
const TRANSITIONS = [
  "2026-03-08T07:00Z", "2026-11-01T06:00Z", "2026-03-29T01:00Z", "2026-10-25T01:00Z", "2026-04-04T16:00Z", "2026-10-03T16:00Z",
  "2026-04-04T14:00Z", "2026-09-26T14:00Z", "2026-04-05T03:00Z", "2026-09-06T04:00Z", "2026-04-04T15:00Z", "2026-10-03T15:30Z",
  "2026-03-08T05:00Z", "2026-11-01T05:00Z", "2026-04-23T22:00Z", "2026-10-29T21:00Z", "2026-03-28T22:00Z", "2026-10-24T21:00Z",
  "2026-03-27T00:00Z", "2026-10-24T23:00Z", "2026-02-15T02:00Z", "2026-03-22T02:00Z", "2026-03-29T00:00Z", "2026-10-25T00:00Z",
  "2045-03-26T01:00Z", "2045-11-05T06:00Z", "2045-04-02T03:00Z", "2045-09-03T04:00Z",
].map(utc);

function zoneInstants(): number[] {
  const now = Math.floor(Date.now() / 1000) * 1000;
  const instants = [now, utc("1970-01-01T00:00Z"), utc("1999-12-31T23:30Z"), utc("2038-02-01T00:00Z"), utc("2050-07-01T00:00Z")];
  for (let months = -12; months <= 12; months++) {
    const d = new Date(now);
    d.setUTCMonth(d.getUTCMonth() + months);
    if (months !== 0) instants.push(d.getTime());
  }
  for (const at of TRANSITIONS) for (const m of [-59, -30, -1, 0, 1, 30, 59]) instants.push(at + m * minute);
  return instants;
}

describe.skipIf(!hasZoneinfo)("every zone file", () => {
  const zones = hasZoneinfo ? zoneNames() : [];
  const instants = zoneInstants();
  // What we say and what glibc says for every zone and instant, worked out once for both tests.
  let table: Map<string, Array<{ ours: Answer; glibc: Answer }>> | undefined;
  const answers = () => {
    if (table) return table;
    const reference = glibc(zones, instants);
    table = new Map(zones.map((zone) => [zone, instants.map((ms, i) => ({ ours: ours(zone, ms), glibc: reference.get(zone)![i] }))]));
    return table;
  };

  test("agrees exactly with glibc reading the same file: date and offset, at every instant", () => {
    expect(zones.length).toBeGreaterThan(300);
    const wrong: string[] = [];
    for (const [zone, rows] of answers()) {
      rows.forEach((row, i) => {
        if (row.ours.date !== row.glibc.date || row.ours.offset !== row.glibc.offset) {
          wrong.push(`${zone} ${new Date(instants[i]).toISOString()}: ${JSON.stringify(row.ours)}, glibc ${JSON.stringify(row.glibc)}`);
        }
      });
    }
    expect(wrong.slice(0, 20)).toEqual([]);
  });

  test("agrees with Bun's own Date under that TZ, except where Bun's ICU data and the system's tzdata differ", () => {
    // Assigning process.env.TZ switches Bun's Date to that zone, but a name ICU does not know
    // leaves the previous zone in place: those (Factory, posixrules, localtime) are checked against glibc only.
    const known = zones.filter((zone) => {
      try {
        new Intl.DateTimeFormat("en-US", { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    });
    expect(known.length).toBeGreaterThan(300);
    const unexplained: string[] = [];
    let dataDrift = 0;
    for (const zone of known) {
      process.env.TZ = zone;
      answers().get(zone)!.forEach((row, i) => {
        const runtime = bunDate(instants[i]);
        // getTimezoneOffset drops an offset's seconds (LMT): compare whole minutes
        const agrees = (a: Answer) => a.date === runtime.date && Math.abs(a.offset - runtime.offset) < 60;
        if (agrees(row.ours)) return;
        // A difference is the data's only when glibc, reading the same file, says what we say.
        if (!agrees(row.glibc) && row.glibc.date === row.ours.date && row.glibc.offset === row.ours.offset) dataDrift++;
        else unexplained.push(`${zone} ${new Date(instants[i]).toISOString()}: ${JSON.stringify(row.ours)}, Bun ${JSON.stringify(runtime)}`);
      });
    }
    expect(unexplained.slice(0, 20)).toEqual([]);
    // The data may drift at a few instants (zones whose rules changed between the two releases), not more.
    expect(dataDrift).toBeLessThan((known.length * instants.length) / 100);
  });

  test("TZ forms name the same file: `name`, `:name`, an absolute path; `..` is refused", () => {
    const ms = utc("2026-07-01T20:00Z");
    expect(ours("Asia/Tokyo", ms)).toEqual({ date: "2026-07-02", offset: 9 * 3600 });
    expect(ours(":Asia/Tokyo", ms)).toEqual({ date: "2026-07-02", offset: 9 * 3600 });
    expect(ours(`${ZONEINFO}/Asia/Tokyo`, ms)).toEqual({ date: "2026-07-02", offset: 9 * 3600 });
    expect(ours(":America/Los_Angeles", ms)).toEqual({ date: "2026-07-01", offset: -7 * 3600 });
    expect(utcOffsetAt(new Date(ms), "../zoneinfo/Asia/Tokyo")).toBeUndefined();
    expect(utcOffsetAt(new Date(ms), `${ZONEINFO}/../zoneinfo/Asia/Tokyo`)).toBeUndefined();
    // a leap-second zone is left to Date
    if (fs.existsSync(`${ZONEINFO}/right/Asia/Tokyo`)) expect(utcOffsetAt(new Date(ms), "right/Asia/Tokyo")).toBeUndefined();
  });

  test("TZ unset reads /etc/localtime (checked in a bubblewrap with its own /etc, where bwrap works)", () => {
    const bwrapWorks = (() => {
      try {
        return Bun.spawnSync(["bwrap", "--dev-bind", "/", "/", "--tmpfs", "/etc", "--", "true"]).exitCode === 0;
      } catch {
        return false; // not installed
      }
    })();
    if (!bwrapWorks) console.warn("local-date.test: bubblewrap does not work here; /etc/localtime is checked only as this machine has it");
    const zone = bwrapWorks ? "Asia/Tokyo" : undefined;
    const code = `
      const { localDate, utcOffsetAt } = await import(${JSON.stringify(path.resolve(import.meta.dir, "../../src/config/local-date.ts"))});
      const now = new Date(${utc("2026-07-01T20:00Z")});
      console.log(JSON.stringify([localDate(now), utcOffsetAt(now, undefined), -now.getTimezoneOffset() * 60, now.getDate()]));`;
    const sandbox = zone ? ["bwrap", "--dev-bind", "/", "/", "--tmpfs", "/etc", "--symlink", `${ZONEINFO}/${zone}`, "/etc/localtime", "--"] : [];
    const env: Record<string, string> = { ...(process.env as Record<string, string>) };
    delete env.TZ;
    const run = Bun.spawnSync([...sandbox, process.execPath, "-e", code], { env });
    expect(run.stderr.toString()).toBe("");
    const [date, offset, runtimeOffset, runtimeDay] = JSON.parse(run.stdout.toString());
    expect(offset).toBe(runtimeOffset);
    expect(Number(date.slice(8))).toBe(runtimeDay);
    if (zone) expect([date, offset]).toEqual(["2026-07-02", 9 * 3600]);
  });
});

describe("POSIX TZ strings with no file of that name", () => {
  // Dense instants over 2026–2028 (every 4 hours 10 minutes, so every hour of the day is met; 2028
  // is a leap year, where Jn and n differ) and around each known change: glibc must agree at every one.
  const instants: number[] = [];
  for (let ms = utc("2026-01-01T00:00Z"); ms < utc("2029-01-01T00:00Z"); ms += 250 * minute) instants.push(ms);
  for (const at of TRANSITIONS) for (const m of [-61, -59, -1, 0, 1, 59, 61]) instants.push(at + m * minute);

  const strings = [
    "XYZ-3", // no DST, east of UTC
    "<+0330>-3:30", // angle-bracketed name, minutes
    "<-0245>2:45:30", // seconds, west
    "CET-1CEST,M3.5.0,M10.5.0/3", // Mm.w.d, week 5 = last
    "AAA5BBB,M3.2.0,M11.1.0", // the US rule spelled out
    "IST-1GMT0,M10.5.0,M3.5.0/1", // negative DST (Dublin), southern-style order
    "<-03>3<-02>,M3.5.0/-2,M10.5.0/-1", // negative change times (Nuuk)
    "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", // Lord Howe: a 30-minute DST, southern
    "JJJ-10KKK-11:15,J60/12,J300/0", // Jn: Feb 29 never counts
    "NNN3:30OOO2,59/1:30:15,300/167", // n: zero-based, Feb 29 counts; hour 167
    "PPP-2QQQ,M4.5.5/0,M10.5.4/24", // Cairo-style: last Friday at 0, last Thursday at 24
  ];

  test.each(strings)("%s agrees with glibc at every instant", (tz) => {
    const expected = glibc([tz], instants).get(tz)!;
    const wrong = instants.flatMap((ms, i) => {
      const got = ours(tz, ms);
      return got.date === expected[i].date && got.offset === expected[i].offset ? [] : [`${new Date(ms).toISOString()}: ${JSON.stringify(got)}, glibc ${JSON.stringify(expected[i])}`];
    });
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  test("DST all year (RFC 8536's `EST5EDT4,0/0,J365/25`, hour 25) holds across New Year, as Python's zoneinfo reads it", () => {
    // glibc computes each year's changes alone and so falls back to standard time for the hours
    // between New Year in UTC and New Year in local time; RFC 8536 and Python's zoneinfo do not.
    const tz = "EST5EDT4,0/0,J365/25";
    const file = path.join(tmp, "all-year-dst");
    fs.writeFileSync(file, tzif(3, [], [-5 * 3600], tz));
    expect(instants.map((ms) => ours(tz, ms))).toEqual(pythonZoneinfo(file, instants));
    expect(ours(tz, utc("2026-01-01T03:00Z"))).toEqual({ date: "2025-12-31", offset: -4 * 3600 });
  });

  test("a DST name with no rule takes tzcode's default, the US rule", () => {
    // glibc would take the rule from its posixrules file (and shifts it oddly); tzcode and Bun
    // dropped posixrules. The date differs from glibc's only in the hours of November's change.
    const spelled = instants.map((ms) => ours("AAA5BBB,M3.2.0,M11.1.0", ms));
    expect(instants.map((ms) => ours("AAA5BBB", ms))).toEqual(spelled);
  });

  test("an empty TZ (and a bare `:`) is UTC, as glibc and Bun read it", () => {
    const ms = utc("2026-07-01T23:30Z");
    expect(ours("", ms)).toEqual({ date: "2026-07-01", offset: 0 });
    expect(ours(":", ms)).toEqual({ date: "2026-07-01", offset: 0 });
    // Bun reads an empty TZ as undefined but keeps the key: still "set, empty", not "unset"
    const variable = (env: Record<string, string>) =>
      Bun.spawnSync([process.execPath, "-e", `const m = await import(${JSON.stringify(path.resolve(import.meta.dir, "../../src/config/local-date.ts"))}); console.log(JSON.stringify(m.timeZoneVariable() ?? "unset"))`], { env }).stdout.toString().trim();
    const { TZ: _, ...rest } = process.env as Record<string, string>;
    expect(variable({ ...rest, TZ: "" })).toBe('""');
    expect(variable(rest)).toBe('"unset"');
    expect(variable({ ...rest, TZ: "Asia/Tokyo" })).toBe('"Asia/Tokyo"');
  });

  test("what is neither a file nor a TZ string is left to Date", () => {
    for (const tz of ["Nowhere/Zone", "UTC+", "AB-3", "XYZ-25", "XYZ-3ABC,M13.1.0,M10.5.0", "XYZ-3ABC,M3.5.7,M10.5.0", "XYZ-3ABC,J0,J365"]) {
      expect(utcOffsetAt(new Date(), tz)).toBeUndefined();
    }
  });
});

/** A TZif file: version 1 (32-bit data only) or 2+ (a 32-bit block, the 64-bit block and the footer). */
function tzif(version: 1 | 2 | 3, transitions: Array<[number, number]>, types: number[], footer = ""): Buffer {
  const designations = "LMT\0";
  const block = (timeSize: 4 | 8) => {
    const header = Buffer.alloc(44);
    header.write("TZif", 0, "latin1");
    header[4] = version === 1 ? 0 : 0x30 + version;
    [types.length, types.length, 0, transitions.length, types.length, designations.length].forEach((n, i) => header.writeUInt32BE(n, 20 + 4 * i));
    const data = Buffer.alloc(transitions.length * (timeSize + 1) + types.length * 6 + designations.length + types.length * 2);
    let at = 0;
    for (const [time] of transitions) at = timeSize === 8 ? data.writeBigInt64BE(BigInt(time), at) : data.writeInt32BE(time, at);
    for (const [, type] of transitions) at = data.writeUInt8(type, at);
    for (const offset of types) at = data.writeUInt8(0, data.writeUInt8(0, data.writeInt32BE(offset, at)));
    data.write(designations, at, "latin1");
    return Buffer.concat([header, data]);
  };
  if (version === 1) return block(4);
  return Buffer.concat([block(4), block(8), Buffer.from(`\n${footer}\n`, "latin1")]);
}

describe("hand-made TZif files", () => {
  const write = (name: string, bytes: Buffer) => {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, bytes);
    return file;
  };
  const jan2026 = utc("2026-01-01T00:00Z");
  const instants = [utc("1969-06-01T00:00Z"), utc("2025-12-31T23:00Z"), jan2026 - 1000, jan2026, jan2026 + 1000, utc("2026-06-01T22:30Z"), utc("2040-06-01T22:30Z")];
  // before 2026: +01:00; from 2026: -05:00
  const transitions: Array<[number, number]> = [[jan2026 / 1000, 1]];
  const types = [3600, -5 * 3600];

  test("a v1-only file: its transitions, the first type before them, the last after them; as glibc reads it", () => {
    const file = write("v1", tzif(1, transitions, types));
    const expected = glibc([file], instants).get(file)!;
    expect(instants.map((ms) => ours(file, ms))).toEqual(expected);
    expect(instants.map((ms) => ours(file, ms))).toEqual(pythonZoneinfo(file, instants));
    expect(ours(file, utc("2040-06-01T22:30Z"))).toEqual({ date: "2040-06-01", offset: -5 * 3600 });
    expect(ours(file, utc("2025-12-31T23:00Z"))).toEqual({ date: "2026-01-01", offset: 3600 });
  });

  test("a slim file: no transitions, only a footer rule; and a v3 footer after the table; as Python's zoneinfo reads them", () => {
    // RFC 8536: with no transitions the footer rules every instant (glibc reads type 0 instead;
    // zic never writes such a file with a DST rule, so real zones agree either way).
    const slim = write("slim", tzif(2, [], [3600], "CET-1CEST,M3.5.0,M10.5.0/3"));
    // its last type agrees with the footer at the last transition, as zic writes them
    const v3 = write("v3", tzif(3, transitions, [3600, -4 * 3600], "EST5EDT4,0/0,J365/25"));
    expect(instants.map((ms) => ours(slim, ms))).toEqual(pythonZoneinfo(slim, instants));
    expect(instants.map((ms) => ours(v3, ms))).toEqual(pythonZoneinfo(v3, instants));
    expect(ours(slim, utc("2026-06-01T22:30Z"))).toEqual({ date: "2026-06-02", offset: 7200 });
    expect(ours(v3, utc("2040-06-01T22:30Z"))).toEqual({ date: "2040-06-01", offset: -4 * 3600 });
  });

  test("a corrupted or truncated file falls back to Date, without throwing", () => {
    const good = tzif(2, transitions, types, "EST5");
    const broken = {
      truncated: good.subarray(0, good.length - 30),
      "header only": good.subarray(0, 44),
      "not TZif": Buffer.from("hello, this is not a zone file at all, really not".repeat(3)),
      empty: Buffer.alloc(0),
      "bad type index": tzif(1, [[0, 7]], types),
      "unparseable footer": tzif(2, transitions, types, "EST5EDT,M13.9.9"),
      "no footer newline": good.subarray(0, good.length - 1),
    };
    // Date's local getters under Tokyo, where the UTC date is a day behind
    process.env.TZ = "Asia/Tokyo";
    const ms = utc("2026-05-06T20:00Z");
    for (const [name, bytes] of Object.entries(broken)) {
      const file = write(name.replace(/ /g, "-"), bytes);
      expect({ name, offset: utcOffsetAt(new Date(ms), file) }).toEqual({ name, offset: undefined });
      expect({ name, date: localDate(new Date(ms), file) }).toEqual({ name, date: "2026-05-07" });
    }
  });

  test("a zone it can read never touches Date's local getters (the point: ICU stays asleep)", () => {
    const file = write("never-local", tzif(2, [], [9 * 3600], "<+09>-9"));
    const local = ["getFullYear", "getMonth", "getDate", "getTimezoneOffset"] as const;
    const saved = local.map((name) => Date.prototype[name]);
    for (const name of local) {
      Date.prototype[name] = () => {
        throw new Error(`${name} was called`);
      };
    }
    try {
      expect(localDate(new Date(utc("2026-05-06T20:00Z")), file)).toBe("2026-05-07");
      expect(localDate(new Date(utc("2026-05-06T20:00Z")), "<+0330>-3:30")).toBe("2026-05-06");
      expect(localDate(new Date(utc("2026-05-06T20:30Z")), "<+0330>-3:30")).toBe("2026-05-07");
    } finally {
      local.forEach((name, i) => {
        Date.prototype[name] = saved[i] as never;
      });
    }
  });
});
