// A TypeScript extension on @zot/sdk with a panel (test/fixtures/extensions/todo_panel.ts), run by
// the compiled binary in -p and --json: a command's openPanel answer, a panel opened, redrawn and
// closed from a tool, and an interceptor that knows which extension asked for a call. Its keys,
// submit and submitSlash need a person at the terminal: test/e2e/tui-sdk-panels.test.ts.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { sdkTodoPanelExtension } from "../fixtures/extensions/make.ts";
import { ndjson, tempDir, zot } from "../support/zot.ts";

function todo(): string[] {
  const parent = tempDir("zot-sdk-panel-");
  return ["--no-ext", "--ext", sdkTodoPanelExtension(parent, join(parent, "frames.jsonl"))];
}

function script(turns: object[]): string[] {
  const file = join(tempDir("zot-script-"), "script.jsonl");
  writeFileSync(file, turns.map((turn) => JSON.stringify(turn)).join("\n"));
  return ["--provider", "scripted", "--script", file];
}

const firstRender = {
  title: "Todo (3 open)",
  lines: ["› [ ] buy milk", "  [ ] write tests", "  [ ] ship zot"],
  footer: "↑/↓ move · x toggle · enter pick · q close",
};

describe("an extension on @zot/sdk opens a panel", () => {
  test("-p: a command that answers openPanel prints the panel's first render", async () => {
    const run = await zot([...todo(), "--provider", "scripted", "-p", "/todo"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${firstRender.title}\n${firstRender.lines.join("\n")}\n\n${firstRender.footer}\n`);
  });

  test("--json: the command's result is open_panel, and panel_open carries the whole panel", async () => {
    const run = await zot([...todo(), "--provider", "scripted", "--json", "/todo"]);
    expect(run.code).toBe(0);
    const events = ndjson(run.stdout);
    expect(events.find((e) => e.type === "command_result")).toEqual({ type: "command_result", command: "todo", extension: "todo", action: "open_panel", text: firstRender.title });
    expect(events.find((e) => e.type === "panel_open")).toEqual({ type: "panel_open", extension: "todo", panel_id: "todo", ...firstRender });
  });

  test("--json: a tool opens, redraws and closes a panel at any time", async () => {
    const run = await zot([...todo(), ...script([{ tool_calls: [{ name: "todo_flash", args: {} }] }, { text: "{{last_tool_result}}" }]), "--json", "flash it"]);
    expect(run.code).toBe(0);
    const events = ndjson(run.stdout);
    expect(events.filter((e) => e.type.startsWith("panel_"))).toEqual([
      { type: "panel_open", extension: "todo", panel_id: "flash", title: "Flash", lines: ["one"], footer: "" },
      { type: "panel_render", extension: "todo", panel_id: "flash", title: "Flash", lines: ["two"], footer: "done" },
      { type: "panel_close", extension: "todo", panel_id: "flash", reason: "extension" },
    ]);
    expect(events.filter((e) => e.type === "assistant_message").at(-1)?.content).toEqual([{ type: "text", text: "flashed" }]);
  });

  test("-p: its interceptor refuses the read it asked for itself, by origin_extension", async () => {
    const cwd = tempDir("zot-cwd-");
    writeFileSync(join(cwd, "notes.txt"), "secret notes\n");
    const run = await zot([...todo(), "--provider", "scripted", "-p", "/peek notes.txt"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("refused: todo refuses calls asked for by todo\n");
  });
});
