// A token count as a server sent it. Compatible servers leave counts out, send null, or send them
// as strings ("7"): read unchecked, one makes a call's cost NaN and a running total "07", and the
// session record that holds it is one a resume cannot read.
// Rule: every count a provider reads off the wire goes through here; what comes out is a
// non-negative finite number (a numeric string is read as its number), or the caller's fallback.
export function tokenCount<Fallback extends number | null>(value: unknown, fallback: Fallback): number | Fallback {
  const count = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
  return Number.isFinite(count) && count >= 0 ? count : fallback;
}
