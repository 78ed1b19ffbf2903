// How a valibot issue reads to a user who has to fix a file (models.json, a script).
// Rule: valibot's own message, except where its wording misleads, and never a value that may be a
// credential: a key written where an object belongs (`"anthropic": "sk-ant-…"` in auth.json) must
// not be printed on stderr, where logs and screen recordings keep it.
import type * as v from "valibot";
import { wholeCharacterCut } from "./whole-characters.ts";

export interface IssueOptions {
  /**
   * How a received string is repeated. "all": none is (auth.json: any string in it may be a key).
   * "likely": none that is likely a credential: one where an object belongs (a key pasted in place
   * of its entry), one shaped as a token, or a long one that is no word. Absent: valibot's message
   * as it is (an rpc client's or an extension author's own value is theirs to see).
   */
  secrets?: "all" | "likely";
}

/** Prefixes of the credentials people paste: API keys, tokens, JWTs. */
const CREDENTIAL = /^(?:sk-|sk_|pk_|rk_|ghp_|gho_|ghs_|github_pat_|glpat-|xox[abpr]-|AKIA|AIza|eyJ|Bearer\s)/i;

/** Whether a received string may be repeated in a message under `options`. */
function showable(issue: v.BaseIssue<unknown>, text: string, options: IssueOptions): boolean {
  if (options.secrets === undefined) return true;
  if (options.secrets === "all") return false;
  // Where an object (an entry) belongs, a string is most often the key itself.
  if (/Object|Record/.test(issue.expected ?? "")) return false;
  if (CREDENTIAL.test(text.trim())) return false;
  // A slip of a word (a mode, "yes") is what to fix, and shown; anything longer and not a word is not.
  return text.length <= 16 || /^[A-Za-z][A-Za-z .'_-]*$/.test(text);
}

/** Received strings longer than this are cut in a message: a 200 KB value is no 200 KB error. */
const SHOWN_MAX = 120;

/** Valibot's message, except for a missing field, where its wording ("Invalid key") misleads, and without a string that may be a secret. */
export function describeIssue(issue: v.BaseIssue<unknown>, options: IssueOptions = {}): string {
  if (issue.input === undefined && issue.received === "undefined") return "this field is required";
  if (typeof issue.input === "string" && issue.message.includes(issue.received)) {
    if (!showable(issue, issue.input, options)) {
      return issue.message.replace(issue.received, () => `a string of ${(issue.input as string).length} characters (not shown: it may be a secret)`);
    }
    if (issue.received.length > SHOWN_MAX) {
      // A function, so a `$&` in the value is not read as a replacement pattern.
      const shown = `${issue.received.slice(0, wholeCharacterCut(issue.received, SHOWN_MAX))}…" (${issue.input.length} characters)`;
      return issue.message.replace(issue.received, () => shown);
    }
  }
  return issue.message;
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
export function firstIssue(issues: readonly v.BaseIssue<unknown>[], prefix = "", options: IssueOptions = {}): { path: string; message: string } {
  const issue = issues[0];
  const base = prefix.replace(/\.$/, "");
  if (!issue) return { path: base, message: "it does not match what was expected" };
  const path = issuePath(issue);
  if (!path) return { path: base, message: describeIssue(issue, options) };
  return { path: path.startsWith("[") ? `${base}${path}` : `${prefix}${path}`, message: describeIssue(issue, options) };
}

/** The first issue as one phrase: `images[0].data: this field is required`, or the message alone for the value itself. */
export function issueSentence(issues: readonly v.BaseIssue<unknown>[], prefix = "", options: IssueOptions = {}): string {
  const { path, message } = firstIssue(issues, prefix, options);
  return path ? `${path}: ${message}` : message;
}
