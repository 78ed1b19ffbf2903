// How a schema's complaint about a user's file reads: the place and what was wrong, never a string
// that may be a credential (stderr ends up in CI logs and screen recordings).
import { expect, test } from "bun:test";
import * as v from "valibot";
import { describeIssue, issueSentence } from "../../src/protocol/schema-issue.ts";

const Entry = v.object({ providers: v.record(v.string(), v.object({ baseUrl: v.optional(v.string()) })), mode: v.optional(v.picklist(["auto", "manual"])) });
const issuesOf = (value: unknown) => {
  const parsed = v.safeParse(Entry, value);
  if (parsed.success) throw new Error("expected issues");
  return parsed.issues;
};

test("a key where an object belongs is described by its length, not repeated", () => {
  const sentence = issueSentence(issuesOf({ providers: { openai: "sk-proj-ANOTHER-SECRET-KEY" } }));
  expect(sentence).toBe('providers.openai: Invalid type: Expected Object but received a string of 26 characters (not shown: it may be a secret)');
});

test("a long string, or one shaped as a token, is not repeated; a short word is, since it is what to fix", () => {
  expect(issueSentence(issuesOf({ providers: { x: "a".repeat(40) } }))).not.toContain("aaaa");
  expect(issueSentence(issuesOf({ providers: { x: "ghp_short" } }))).not.toContain("ghp_short");
  expect(issueSentence(issuesOf({ providers: {}, mode: "autom" }))).toBe('mode: Invalid type: Expected ("auto" | "manual") but received "autom"');
});

test("hideStrings repeats no string at all", () => {
  const [issue] = issuesOf({ providers: {}, mode: "autom" });
  expect(describeIssue(issue, { hideStrings: true })).toBe('Invalid type: Expected ("auto" | "manual") but received a string of 5 characters (not shown: it may be a secret)');
});
