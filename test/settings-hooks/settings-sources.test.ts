// Which settings files' hooks hold: all of them, in settings order, unless disableAllHooks is true in
// the file of highest precedence that says it at all, as Claude Code reads it.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SettingsSource } from "../../src/settings-hooks/settings-file.ts";
import { SettingsHooksSources } from "../../src/settings-hooks/settings-sources.ts";
import { tempDir } from "../support/zot.ts";

/** The user's file and the project's (lowest precedence first), with these contents; the commands that hold, and what was said. */
function holding(user: Record<string, unknown>, project: Record<string, unknown>) {
  const dir = tempDir("zot-hook-sources-");
  mkdirSync(join(dir, "p"), { recursive: true });
  const sources: SettingsSource[] = [
    { file: join(dir, "user.json"), label: "~/.claude/settings.json", scope: "user" },
    { file: join(dir, "p", "settings.json"), label: ".claude/settings.json", scope: "project" },
  ];
  const hook = (command: string) => ({ Stop: [{ hooks: [{ type: "command", command }] }] });
  writeFileSync(sources[0]!.file, JSON.stringify({ hooks: hook("user-hook"), ...user }));
  writeFileSync(sources[1]!.file, JSON.stringify({ hooks: hook("project-hook"), ...project }));
  const said: string[] = [];
  const hooks = new SettingsHooksSources(sources, (message) => said.push(message)).current();
  return { commands: hooks.map((h) => (h.handler.type === "command" ? h.handler.command : "")), said };
}

test("disableAllHooks: the project's false overrides the user's true; the project's true turns all off; unsaid, everything runs", () => {
  expect(holding({ disableAllHooks: true }, { disableAllHooks: false }).commands).toEqual(["user-hook", "project-hook"]);
  const off = holding({ disableAllHooks: false }, { disableAllHooks: true });
  expect(off.commands).toEqual([]);
  expect(off.said).toEqual(['.claude/settings.json: "disableAllHooks": true, so no settings hook runs']);
  const userOff = holding({ disableAllHooks: true }, {});
  expect(userOff.commands).toEqual([]);
  expect(userOff.said).toEqual(['~/.claude/settings.json: "disableAllHooks": true, so no settings hook runs']);
  expect(holding({}, {})).toEqual({ commands: ["user-hook", "project-hook"], said: [] });
});
