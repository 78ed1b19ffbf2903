// zot's built-in tools as Claude Code's hooks see them, and their rewrites coming back: names,
// argument names, bash's timeout units, Edit/MultiEdit, and fields a hook left alone keeping
// zot's own values.
import { describe, expect, test } from "bun:test";
import { fromClaudeInput, fromClaudeResponse, toClaudeCall, toClaudeResponse } from "../../src/settings-hooks/tool-mapping.ts";

const CWD = "/work/project";

/** zot's args after a hook changed `change` in Claude Code's input. */
function roundTrip(name: string, args: Record<string, unknown>, change: (input: Record<string, unknown>) => Record<string, unknown>, builtin = true) {
  const call = toClaudeCall(name, args, CWD, builtin);
  return fromClaudeInput(name, args, call, change(structuredClone(call.tool_input)), builtin);
}

describe("zot → Claude Code", () => {
  test("bash is Bash with its timeout in milliseconds; read and write take an absolute file_path; skill is Skill", () => {
    expect(toClaudeCall("bash", { command: "ls", timeout: 2.5 }, CWD, true)).toEqual({ tool_name: "Bash", tool_input: { command: "ls", timeout: 2500 } });
    expect(toClaudeCall("bash", { cmd: "ls" }, CWD, true)).toEqual({ tool_name: "Bash", tool_input: { command: "ls" } });
    expect(toClaudeCall("read", { path: "src/a.ts", offset: 10, limit: 5 }, CWD, true)).toEqual({ tool_name: "Read", tool_input: { file_path: "/work/project/src/a.ts", offset: 10, limit: 5 } });
    expect(toClaudeCall("write", { file_path: "/tmp/x", content: "hi" }, CWD, true)).toEqual({ tool_name: "Write", tool_input: { file_path: "/tmp/x", content: "hi" } });
    expect(toClaudeCall("skill", { name: "pdf" }, CWD, true)).toEqual({ tool_name: "Skill", tool_input: { skill: "pdf" } });
  });

  test("edit with one edit is Edit (old_string/new_string/replace_all), with several MultiEdit", () => {
    expect(toClaudeCall("edit", { path: "a.ts", edits: [{ old_text: "a", new_text: "b", replace_all: true }] }, CWD, true)).toEqual({
      tool_name: "Edit",
      tool_input: { file_path: "/work/project/a.ts", old_string: "a", new_string: "b", replace_all: true },
    });
    expect(toClaudeCall("edit", { path: "a.ts", edits: [{ old_text: "a", new_text: "b" }, { old_text: "c", new_text: "d" }] }, CWD, true)).toEqual({
      tool_name: "MultiEdit",
      tool_input: { file_path: "/work/project/a.ts", edits: [{ old_string: "a", new_string: "b" }, { old_string: "c", new_string: "d" }] },
    });
    // The shapes zot's edit also takes: a single edit at the top level, edits as a JSON string.
    expect(toClaudeCall("edit", { path: "a.ts", old_string: "a", new_string: "b" }, CWD, true).tool_name).toBe("Edit");
    expect(toClaudeCall("edit", { path: "a.ts", edits: JSON.stringify([{ old_text: "a", new_text: "b" }]) }, CWD, true).tool_input).toMatchObject({ old_string: "a" });
  });

  test("other tools (an extension's, mcp__…) and a non-built-in named like one keep their name and arguments", () => {
    expect(toClaudeCall("mcp__github__create_issue", { title: "x" }, CWD, false)).toEqual({ tool_name: "mcp__github__create_issue", tool_input: { title: "x" } });
    expect(toClaudeCall("bash", { command: "ls", timeout: 2 }, CWD, false)).toEqual({ tool_name: "bash", tool_input: { command: "ls", timeout: 2 } });
  });
});

describe("Claude Code → zot", () => {
  test("a changed field maps back (Bash's timeout in seconds again); a field left alone keeps zot's value, relative paths included", () => {
    expect(roundTrip("bash", { command: "ls", timeout: 3 }, (i) => ({ ...i, command: "ls -la" }))).toEqual({ command: "ls -la", timeout: 3 });
    expect(roundTrip("bash", { command: "ls" }, (i) => ({ ...i, timeout: 1500, description: "list" }))).toEqual({ command: "ls", timeout: 1.5 });
    expect(roundTrip("read", { path: "a.ts", limit: 5 }, (i) => ({ ...i, limit: 50 }))).toEqual({ path: "a.ts", limit: 50 });
    expect(roundTrip("write", { file_path: "a.ts", content: "x" }, (i) => ({ ...i, file_path: "/elsewhere/b.ts" }))).toEqual({ path: "/elsewhere/b.ts", content: "x" });
    expect(roundTrip("bash", { command: "ls", cmd_extra: 1 }, (i) => i)).toEqual({ command: "ls", cmd_extra: 1 });
  });

  test("Edit and MultiEdit rewrites become zot's edits; an untouched edit keeps zot's own items", () => {
    const args = { path: "a.ts", edits: [{ old_text: "a", new_text: "b" }] };
    expect(roundTrip("edit", args, (i) => ({ ...i, new_string: "B", replace_all: true }))).toEqual({ path: "a.ts", edits: [{ old_text: "a", new_text: "B", replace_all: true }] });
    expect(roundTrip("edit", args, (i) => ({ ...i, file_path: "/x/c.ts" }))).toEqual({ path: "/x/c.ts", edits: [{ old_text: "a", new_text: "b" }] });
    const two = { path: "a.ts", edits: [{ old_text: "a", new_text: "b" }, { old_text: "c", new_text: "d" }] };
    expect(roundTrip("edit", two, (i) => ({ ...i, edits: [(i.edits as any[])[0]] }))).toEqual({ path: "a.ts", edits: [{ old_text: "a", new_text: "b" }] });
    expect(roundTrip("edit", { path: "a.ts", old_text: "a", new_text: "b" }, (i) => ({ ...i, new_string: "z" }))).toEqual({ path: "a.ts", edits: [{ old_text: "a", new_text: "z" }] });
  });

  test("a tool that is not mapped takes the rewrite as it is", () => {
    expect(roundTrip("mcp__fs__read", { p: 1 }, (i) => ({ ...i, p: 2 }), false)).toEqual({ p: 2 });
  });
});

test("tool_response: Bash's stdout without zot's status line, the file tools' filePath, other tools' content blocks", () => {
  const text = (t: string, details: Record<string, unknown> = {}) => ({ content: [{ type: "text" as const, text: t }], is_error: false, details });
  const bash = toClaudeCall("bash", { command: "echo hi" }, CWD, true);
  expect(toClaudeResponse(bash, text("hi\n[exit 0] 0.0s", { exit_code: 0 }))).toEqual({ stdout: "hi", stderr: "", interrupted: false, isImage: false, exit_code: 0 });
  const write = toClaudeCall("write", { path: "a", content: "x" }, CWD, true);
  expect(toClaudeResponse(write, text("wrote 1 byte"))).toEqual({ filePath: "/work/project/a", content: "x", success: true, message: "wrote 1 byte" });
  expect(toClaudeResponse({ tool_name: "mcp__x__y", tool_input: {} }, text("out"))).toEqual([{ type: "text", text: "out" }]);
});

test("updatedToolOutput: read in the tool's response shape (bash's ending line kept); one that does not fit is no result", () => {
  const text = (t: string, details: Record<string, unknown> = {}) => ({ content: [{ type: "text" as const, text: t }], is_error: false, details });
  const bash = toClaudeCall("bash", { command: "cat .env" }, CWD, true);
  const original = text("API_KEY=sk-secret\n[exit 0] 0.0s", { exit_code: 0 });
  expect(fromClaudeResponse(bash, { stdout: "[redacted]", stderr: "", interrupted: false, isImage: false }, original)).toEqual({ ...original, content: [{ type: "text", text: "[redacted]\n[exit 0] 0.0s" }] });
  expect(fromClaudeResponse(bash, { stdout: "out", stderr: "warn" }, original)?.content).toEqual([{ type: "text", text: "out\nwarn\n[exit 0] 0.0s" }]);
  expect(fromClaudeResponse(bash, "[redacted]", original)).toBeUndefined();
  const read = toClaudeCall("read", { path: "a" }, CWD, true);
  expect(fromClaudeResponse(read, { type: "text", file: { filePath: "/work/project/a", content: "masked" } }, text("secret"))?.content).toEqual([{ type: "text", text: "masked" }]);
  expect(fromClaudeResponse(read, { content: "masked" }, text("secret"))).toBeUndefined();
  const mcp = { tool_name: "mcp__x__y", tool_input: {} };
  expect(fromClaudeResponse(mcp, [{ type: "text", text: "a" }, { type: "text", text: "b" }], text("secret"))?.content).toEqual([{ type: "text", text: "a" }, { type: "text", text: "b" }]);
  expect(fromClaudeResponse(mcp, { content: [{ type: "text", text: "c" }] }, text("secret"))?.content).toEqual([{ type: "text", text: "c" }]);
  expect(fromClaudeResponse(mcp, "plain", text("secret"))?.content).toEqual([{ type: "text", text: "plain" }]);
  expect(fromClaudeResponse(mcp, [{ type: "image" }], text("secret"))).toBeUndefined();
});
