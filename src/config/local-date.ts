// The local calendar date of an instant, found without waking ICU: the first local-time call of a
// Bun process (`Date#getFullYear` and friends) sets up ICU's time zone, ~5 ms of a one-shot start.
// We read the zone as glibc does (TZ, else /etc/localtime; a TZif file, else a POSIX TZ string),
// take the UTC offset in effect, and format with the UTC getters, which never touch ICU.
// Rule: never a wrong date, never a throw. Whatever this file cannot read with certainty (no file,
// Windows, a malformed file, a rule it cannot parse, leap-second zones) falls back to Date's own
// local getters, which are right, only slower.
import { readFileSync } from "node:fs";

const ZONEINFO = "/usr/share/zoneinfo";

/** YYYY-MM-DD of `now` in the user's time zone (`tz` as the TZ variable says; undefined: unset). */
export function localDate(now: Date, tz: string | undefined = timeZoneVariable()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const offset = utcOffsetAt(now, tz);
  if (offset === undefined) return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  const local = new Date(now.getTime() + offset * 1000);
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
}

/** TZ as the process got it: undefined when unset, "" when set but empty (Bun reads that as undefined). */
export function timeZoneVariable(env: Record<string, string | undefined> = process.env): string | undefined {
  const value = env.TZ;
  if (value !== undefined) return value;
  return Object.keys(env).includes("TZ") ? "" : undefined;
}

/**
 * Seconds east of UTC in effect at `now` in the zone `tz` names (POSIX/glibc: unset →
 * /etc/localtime; "" → UTC; `[:]name` → a TZif file under /usr/share/zoneinfo or an absolute path,
 * else a POSIX TZ string), or undefined when that cannot be known for certain.
 */
export function utcOffsetAt(now: Date, tz: string | undefined): number | undefined {
  const seconds = Math.floor(now.getTime() / 1000);
  if (process.platform === "win32" || !Number.isFinite(seconds)) return undefined;
  try {
    if (tz === undefined) return tzifOffset(readFileSync("/etc/localtime"), seconds);
    const name = tz.startsWith(":") ? tz.slice(1) : tz;
    if (name === "") return 0;
    if (name.split("/").includes("..")) return undefined;
    const bytes = readZoneFile(name.startsWith("/") ? name : `${ZONEINFO}/${name}`);
    if (bytes) return tzifOffset(bytes, seconds);
    const rule = parsePosixTz(name);
    return rule && ruleOffset(rule, seconds);
  } catch {
    return undefined;
  }
}

function readZoneFile(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    // No such file (or a directory): glibc then reads the name as a POSIX TZ string.
    return undefined;
  }
}

interface TzifHeader {
  version: number;
  isutcnt: number;
  isstdcnt: number;
  leapcnt: number;
  timecnt: number;
  typecnt: number;
  charcnt: number;
}

/** The offset a TZif file (RFC 8536, v1–v4) gives for `seconds`; a malformed file throws or gives undefined. */
function tzifOffset(bytes: Uint8Array, seconds: number): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = (at: number): TzifHeader => {
    if (at + 44 > bytes.length || view.getUint32(at) !== 0x545a6966 /* "TZif" */) throw new Error("not TZif");
    const count = (i: number) => view.getUint32(at + 20 + 4 * i);
    return { version: bytes[at + 4], isutcnt: count(0), isstdcnt: count(1), leapcnt: count(2), timecnt: count(3), typecnt: count(4), charcnt: count(5) };
  };
  const blockLength = (h: TzifHeader, timeSize: number) =>
    h.timecnt * (timeSize + 1) + h.typecnt * 6 + h.charcnt + h.leapcnt * (timeSize + 4) + h.isstdcnt + h.isutcnt;

  let h = header(0);
  let at = 44;
  let timeSize = 4;
  if (h.version >= 0x32 /* "2" and later carry a 64-bit block and a footer */) {
    at += blockLength(h, 4);
    h = header(at);
    at += 44;
    timeSize = 8;
  }
  // Leap-second ("right/") zones count seconds differently; a file with no types is broken.
  if (h.leapcnt > 0 || h.typecnt === 0) return undefined;
  const end = at + blockLength(h, timeSize);
  if (end > bytes.length) return undefined;
  const indices = at + h.timecnt * timeSize;
  const types = indices + h.timecnt;
  const transition = (i: number) => (timeSize === 8 ? Number(view.getBigInt64(at + 8 * i)) : view.getInt32(at + 4 * i));
  const utoff = (type: number) => {
    if (type >= h.typecnt) throw new Error("bad type index");
    return view.getInt32(types + 6 * type);
  };

  // How many transitions are at or before `seconds` (they are sorted).
  let lo = 0;
  let hi = h.timecnt;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (transition(mid) <= seconds) lo = mid + 1;
    else hi = mid;
  }
  if (lo === h.timecnt && timeSize === 8) {
    // After the last transition (or in a file with none), the footer's TZ string rules.
    if (bytes[end] !== 0x0a) return undefined;
    const close = bytes.indexOf(0x0a, end + 1);
    if (close < 0) return undefined;
    let footer = "";
    for (let i = end + 1; i < close; i++) footer += String.fromCharCode(bytes[i]);
    if (footer !== "") {
      const rule = parsePosixTz(footer);
      return rule && ruleOffset(rule, seconds);
    }
  }
  // Before the first transition, the first type (RFC 8536 §3.2); otherwise the last one passed.
  return utoff(lo === 0 ? 0 : bytes[indices + lo - 1]);
}

interface PosixTz {
  /** seconds east of UTC */
  std: number;
  dst?: { offset: number; start: Change; end: Change };
}
/** A day rule (Jn, n or Mm.w.d) and the local time of day of the change, in seconds (may be < 0 or > 24 h). */
interface Change {
  day: string;
  time: number;
}

const NAME = "(?:[A-Za-z]{3,}|<[A-Za-z0-9+-]{3,}>)";
const HMS = "[+-]?\\d{1,3}(?::\\d{1,2}(?::\\d{1,2})?)?";
const CHANGE = `(J\\d{1,3}|\\d{1,3}|M\\d{1,2}\\.\\d\\.\\d)(?:/(${HMS}))?`;
/** std offset [dst [offset] [,start[/time],end[/time]]] */
const POSIX_TZ = new RegExp(`^${NAME}(${HMS})(?:(${NAME})(${HMS})?(?:,${CHANGE},${CHANGE})?)?$`);

/** A POSIX TZ string (with RFC 8536's extensions), or undefined when it is not one. */
function parsePosixTz(text: string): PosixTz | undefined {
  const match = POSIX_TZ.exec(text);
  if (!match) return undefined;
  const [, std, dstName, dst, startDay, startTime, endDay, endTime] = match;
  const stdEast = -hms(std, 24);
  if (Number.isNaN(stdEast)) return undefined;
  if (dstName === undefined) return { std: stdEast };
  // A DST name with no rule takes tzcode's default, the US rule (glibc's posixrules file, dropped by tzcode).
  const dstEast = dst === undefined ? stdEast + 3600 : -hms(dst, 24);
  const start = { day: startDay ?? "M3.2.0", time: startTime === undefined ? 7200 : hms(startTime, 167) };
  const end = { day: endDay ?? "M11.1.0", time: endTime === undefined ? 7200 : hms(endTime, 167) };
  if ([dstEast, start.time, end.time].some(Number.isNaN) || !validDay(start.day) || !validDay(end.day)) return undefined;
  return { std: stdEast, dst: { offset: dstEast, start, end } };
}

/** [+-]hh[:mm[:ss]] in seconds, or NaN when out of range. */
function hms(text: string, maxHours: number): number {
  const sign = text[0] === "-" ? -1 : 1;
  const [h, m = 0, s = 0] = (text[0] === "-" || text[0] === "+" ? text.slice(1) : text).split(":").map(Number);
  return h > maxHours || m > 59 || s > 59 ? Number.NaN : sign * (h * 3600 + m * 60 + s);
}

function validDay(day: string): boolean {
  if (day.startsWith("M")) {
    const [m, w, d] = day.slice(1).split(".").map(Number);
    return m >= 1 && m <= 12 && w >= 1 && w <= 5 && d <= 6;
  }
  return day.startsWith("J") ? Number(day.slice(1)) >= 1 && Number(day.slice(1)) <= 365 : Number(day) <= 365;
}

/** The offset a POSIX TZ rule gives for `seconds` since the epoch. */
function ruleOffset(rule: PosixTz, seconds: number): number {
  const { dst } = rule;
  if (!dst) return rule.std;
  // The changes of the years around `seconds` (a change's time may push it into the next or
  // previous year), in order; the last one at or before `seconds` is in effect. On a tie, the later
  // year's change wins (`J365/25,0/0`-style DST all year).
  const year = new Date(seconds * 1000).getUTCFullYear();
  let offset = rule.std;
  for (const y of [year - 1, year, year + 1]) {
    // The start is given in standard time, the end in daylight time.
    const start = { at: dayStart(dst.start.day, y) + dst.start.time - rule.std, offset: dst.offset };
    const end = { at: dayStart(dst.end.day, y) + dst.end.time - dst.offset, offset: rule.std };
    for (const change of start.at <= end.at ? [start, end] : [end, start]) {
      if (change.at <= seconds) offset = change.offset;
    }
  }
  return offset;
}

/** Seconds since the epoch of 00:00 (UTC) of a rule's day in `year`: Jn (1–365, no Feb 29), n (0–365), Mm.w.d. */
function dayStart(day: string, year: number): number {
  if (day.startsWith("M")) {
    const [month, week, weekday] = day.slice(1).split(".").map(Number);
    const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
    let date = 1 + ((weekday - first + 7) % 7) + (week - 1) * 7;
    while (date > daysInMonth) date -= 7; // week 5 means the last
    return Date.UTC(year, month - 1, date) / 1000;
  }
  const isLeap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const julian = Number(day.slice(1));
  const index = day.startsWith("J") ? julian - 1 + (isLeap && julian >= 60 ? 1 : 0) : Number(day);
  return Date.UTC(year, 0, 1 + index) / 1000;
}
