// Folding the answers of hooks that ran in parallel: continue:false over everything, deny over
// ask over allow, reasons and contexts in settings order, rewrites composed field by field.
import { describe, expect, test } from "bun:test";
import { applyRewrites, combine } from "../../src/settings-hooks/combine.ts";
import type { HookAnswer } from "../../src/settings-hooks/hook-output.ts";
import type { SettingsHook } from "../../src/settings-hooks/settings-file.ts";

const hook = { handler: { type: "command", command: "h" } } as SettingsHook;
const answer = (parts: Omit<HookAnswer, "hook">): HookAnswer => ({ hook, ...parts });

describe("combine", () => {
  test("any block wins over ask and allow; ask over allow; reasons and contexts keep settings order", () => {
    const denied = combine([answer({ permission: "allow" }), answer({ block: "no" }), answer({ permission: "ask", permissionReason: "why" }), answer({ block: "never" })]);
    expect(denied).toMatchObject({ blocks: ["no", "never"], ask: true, allow: false });
    expect(combine([answer({ permission: "allow" }), answer({ permission: "ask" })])).toMatchObject({ ask: true, allow: false });
    expect(combine([answer({ permission: "allow" }), answer({ context: "a" }), answer({ context: "b" })])).toMatchObject({ allow: true, contexts: ["a", "b"] });
    expect(combine([answer({ stop: "halt" }), answer({ stop: "second" })]).stop).toBe("halt");
    expect(combine([answer({ failure: "broke" })])).toEqual({ blocks: [], ask: false, askReasons: [], allow: false, rewrites: [], contexts: [] });
  });
});

describe("applyRewrites", () => {
  const original = { command: "ls", timeout: 1000 };
  test("each rewrite's changes apply on the previous result; a later rewrite of the same field wins", () => {
    expect(applyRewrites(original, [{ command: "ls -a", timeout: 1000 }, { command: "ls", timeout: 5000 }])).toEqual({ command: "ls -a", timeout: 5000 });
    expect(applyRewrites(original, [{ command: "one" }, { command: "two" }])).toEqual({ command: "two", timeout: 1000 });
    expect(applyRewrites(original, [{ description: "new field" }])).toEqual({ ...original, description: "new field" });
  });
  test("rewrites that change nothing are no rewrite", () => {
    expect(applyRewrites(original, [])).toBeUndefined();
    expect(applyRewrites(original, [{ ...original }, { command: "ls" }])).toBeUndefined();
  });
});
