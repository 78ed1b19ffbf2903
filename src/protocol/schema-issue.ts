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

/**
 * The first issue, its place and its message apart. `prefix` is where the checked value sits in
 * its file (`providers.ollama.models[2].`); the path goes after it.
 */
export function firstIssue(issues: readonly v.BaseIssue<unknown>[], prefix = ""): { path: string; message: string } {
  const issue = issues[0];
  const base = prefix.replace(/\.$/, "");
  if (!issue) return { path: base, message: "it does not match what was expected" };
  const path = issuePath(issue);
  if (!path) return { path: base, message: describeIssue(issue) };
  return { path: path.startsWith("[") ? `${base}${path}` : `${prefix}${path}`, message: describeIssue(issue) };
}

/** The first issue as one phrase: `images[0].data: this field is required`, or the message alone for the value itself. */
export function issueSentence(issues: readonly v.BaseIssue<unknown>[], prefix = ""): string {
  const { path, message } = firstIssue(issues, prefix);
  return path ? `${path}: ${message}` : message;
}
