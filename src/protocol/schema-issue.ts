// How a valibot issue reads to a user who has to fix a file (models.json, a script).
// Rule: valibot's own message, except where its wording misleads.
import type * as v from "valibot";

/** Valibot's message, except for a missing field, where its wording ("Invalid key") misleads. */
export function describeIssue(issue: v.BaseIssue<unknown>): string {
  return issue.input === undefined && issue.received === "undefined" ? "this field is required" : issue.message;
}
