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

const likely = { secrets: "likely" } as const;

test("secrets likely: a string where an object belongs is never repeated, however short (the key pasted in place of its entry)", () => {
  expect(issueSentence(issuesOf({ providers: { openai: "sk-proj-ANOTHER-SECRET-KEY" } }), "", likely)).toBe(
    "providers.openai: Invalid type: Expected Object but received a string of 26 characters (not shown: it may be a secret)",
  );
  expect(issueSentence(issuesOf({ providers: { azure: "0123456789abcdef0123456789abcdef" } }), "", likely)).not.toContain("0123");
  expect(issueSentence(issuesOf({ providers: { x: "hunter2" } }), "", likely)).not.toContain("hunter2");
});

test("secrets likely: elsewhere a token-shaped or long string that is no word is not repeated; a word's slip is, since it is what to fix", () => {
  const mode = (value: string) => issueSentence(issuesOf({ providers: {}, mode: value }), "", likely);
  expect(mode("0123456789abcdef0123456789abcdef")).not.toContain("0123");
  expect(mode("ghp_short")).not.toContain("ghp_short");
  expect(mode("autom")).toBe('mode: Invalid type: Expected ("auto" | "manual") but received "autom"');
  expect(mode("automatic-with-questions")).toContain('received "automatic-with-questions"');
});

test("secrets: all repeats no string at all; without the option valibot's message stands (a program's own value is its author's to see)", () => {
  const [issue] = issuesOf({ providers: {}, mode: "autom" });
  const [long] = issuesOf({ providers: { x: "0123456789abcdef0123456789abcdef" } });
  expect(describeIssue(long)).toContain('received "0123456789abcdef0123456789abcdef"');
  expect(describeIssue(issue, { secrets: "all" })).toBe('Invalid type: Expected ("auto" | "manual") but received a string of 5 characters (not shown: it may be a secret)');
});

test("a long value of a program's own is cut, never repeated whole (a 200 KB value is no 200 KB error); a word with an underscore is a word", () => {
  const [long] = issuesOf({ providers: {}, mode: "x".repeat(200_000) });
  const said = describeIssue(long);
  expect(said.length).toBeLessThan(400);
  expect(said).toContain("(200000 characters)");
  expect(issueSentence(issuesOf({ providers: {}, mode: "anthropic_messages_api" }), "", likely)).toContain('received "anthropic_messages_api"');
});

test("a value full of $& is cut too, not read as a replacement pattern that repeats the message", () => {
  const [issue] = issuesOf({ providers: {}, mode: "$&".repeat(100_000) });
  expect(describeIssue(issue).length).toBeLessThan(400);
  const [secret] = issuesOf({ providers: { x: "$&".repeat(100_000) } });
  expect(describeIssue(secret, { secrets: "likely" }).length).toBeLessThan(400);
});
