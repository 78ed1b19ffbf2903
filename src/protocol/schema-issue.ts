// How a valibot issue reads to a user who has to fix a file (models.json, a script).
// Rule: valibot's own message, except where its wording misleads.
import type * as v from "valibot";

/** Valibot's message, except for a missing field, where its wording ("Invalid key") misleads. */
export function describeIssue(issue: v.BaseIssue<unknown>): string {
  return issue.input === undefined && issue.received === "undefined" ? "this field is required" : issue.message;
}

/** Where an issue is, as a user writes it: `images[0].data`; "" for the value itself. */
export function issuePath(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).reduce<string>((name, item) => {
    const key = item.key as string | number;
    return typeof key === "number" ? `${name}[${key}]` : name ? `${name}.${key}` : key;
  }, "");
}
