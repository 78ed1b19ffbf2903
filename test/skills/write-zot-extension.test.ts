// The built-in write-zot-extension skill against the protocol it teaches: every frame type in
// src/protocol/ext-frames.ts has a JSON example in the skill, every field of every frame is
// named, and so are the events, intercepts, command actions, notify levels and turn_end stop
// values. A frame or field added to the protocol fails this test until the skill explains it.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type * as v from "valibot";
import { StopReason } from "../../src/protocol/events.ts";
import {
  CommandAction,
  EXT_EVENTS,
  EXT_INTERCEPTS,
  ExtToHostFrame,
  HostToExtFrame,
  NotifyLevel,
  PROTOCOL_VERSION,
} from "../../src/protocol/ext-frames.ts";

const src = join(import.meta.dir, "../../src");
const skill = readFileSync(join(src, "skills/builtin/write-zot-extension/SKILL.md"), "utf8");
const framesSource = readFileSync(join(src, "protocol/ext-frames.ts"), "utf8");

type FrameSchema = v.ObjectSchema<v.ObjectEntries, undefined>;
const frames = [...ExtToHostFrame.options, ...HostToExtFrame.options] as unknown as FrameSchema[];
const frameType = (schema: FrameSchema) => (schema.entries.type as v.LiteralSchema<string, undefined>).literal;

test("the frame unions hold every `type` literal written in ext-frames.ts", () => {
  // Read the file too, so a frame schema defined but left out of both unions is still caught.
  const written = [...framesSource.matchAll(/type: v\.literal\("([a-z_]+)"\)/g)].map((m) => m[1]).sort();
  expect(written.length).toBeGreaterThan(10);
  expect(frames.map(frameType).sort()).toEqual(written);
});

test("every frame type has a JSON example in the skill", () => {
  const missing = frames.map(frameType).filter((type) => !skill.includes(`"type":"${type}"`));
  expect(missing).toEqual([]);
});

test("every field of every frame is named in the skill", () => {
  const missing: string[] = [];
  for (const schema of frames) {
    for (const field of Object.keys(schema.entries)) {
      if (!skill.includes(`"${field}"`)) missing.push(`${frameType(schema)}.${field}`);
    }
  }
  expect(missing).toEqual([]);
});

test("every event has an example, every intercept a row, every action, level and stop value a mention", () => {
  expect(EXT_EVENTS.filter((event) => !skill.includes(`"event":"${event}"`))).toEqual([]);
  expect(EXT_INTERCEPTS.filter((name) => !skill.includes(`| \`${name}\` |`))).toEqual([]);
  expect(CommandAction.options.filter((action) => !skill.includes(`- \`${action}\`:`))).toEqual([]);
  const levels = NotifyLevel.options;
  expect(levels.filter((level) => !skill.includes(`\`${level}\``))).toEqual([]);
  expect(StopReason.options.filter((stop) => !skill.includes(`\`${stop}\``))).toEqual([]);
  expect(skill).toContain(`"protocol_version":${PROTOCOL_VERSION}`);
});

test("the timeouts, log location, discovery folders and SDK calls the skill promises are stated", () => {
  const facts = [
    "5 s",
    "250 ms",
    "60 s",
    "30 s",
    "$ZOT_HOME/logs/ext-<name>.log",
    "--ext PATH",
    "./.zot/extensions/<name>/",
    "$ZOT_HOME/extensions/<name>/",
    '"priority"',
    "const ext = extension({",
    "ext.command(",
    "ext.tool(",
    "ext.on(",
    "ext.interceptToolCall(",
    "ext.interceptTurnStart(",
    "ext.interceptAssistantMessage(",
    "ext.notify(",
    "ext.clearNotes()",
    "openPanel({",
    "ext.openPanel(",
    "ext.renderPanel(",
    "ext.closePanel(",
    "ext.onPanelKey(",
    "ext.onPanelResize(",
    "ext.onPanelClose(",
    "ext.submit(",
    "ext.submitSlash(",
    "origin_extension",
    "ext.run()",
    "--provider scripted --script turns.jsonl",
    ...["list", "install", "remove", "enable", "disable", "logs", "new", "check"].map((sub) => `zot ext ${sub}`),
  ];
  // Collected, not asserted one by one, so a failure names the missing facts instead of the whole file.
  expect(facts.filter((fact) => !skill.includes(fact))).toEqual([]);
  expect(/import \{[^}]*\bextension\b[^}]*\} from "@zot\/sdk"/.test(skill)).toBe(true);
});

test("the JSON examples in the skill are valid frames", async () => {
  const valibot = await import("valibot");
  const lines = skill.split("\n").filter((line) => line.startsWith('{"type":'));
  expect(lines.length).toBeGreaterThan(20);
  for (const line of lines) {
    const value = JSON.parse(line) as { type: string };
    const toHost = valibot.safeParse(ExtToHostFrame, value);
    const toExt = valibot.safeParse(HostToExtFrame, value);
    if (!toHost.success && !toExt.success) throw new Error(`not a valid frame in SKILL.md: ${line}`);
  }
});
