// Every session record survives the trip through JSON, the schema, the writer and the reader, and
// replaying the records rebuilds the transcript, model and usage they describe.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import * as v from "valibot";
import { existsSync, readFileSync } from "node:fs";
import { SESSION_FORMAT } from "../../src/protocol/session-format.ts";
import { SessionRecord } from "../../src/protocol/session-records.ts";
import { readSessionFile } from "../../src/session/reader.ts";
import { replay } from "../../src/session/replay.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { everyRecord, header, resultsMessage, summary } from "../support/session-fixtures.ts";
import { tempDir } from "../support/zot.ts";

describe("session records", () => {
  test("every record type round-trips through JSON and the schema unchanged", () => {
    for (const record of [header, ...everyRecord]) {
      const parsed = v.parse(SessionRecord, JSON.parse(JSON.stringify(record)));
      expect(parsed).toEqual(record);
    }
  });

  test("the writer and the reader give back every record, in order, with nothing to report", () => {
    const file = join(tempDir("zot-records-"), "s.jsonl");
    const writer = SessionWriter.create(file, header);
    for (const record of everyRecord) writer.write(record);
    writer.close();
    const content = readSessionFile(file);
    expect(content.header).toEqual(header);
    expect(content.entries).toEqual(everyRecord);
    expect(content.problems).toEqual([]);
    // one line per record
    expect(readFileSync(file, "utf8").split("\n")).toHaveLength(everyRecord.length + 2);
  });

  test("replay: compaction keeps the summary and the last messages, rewind cuts back, the model and usage are the last ones", () => {
    const state = replay(header, everyRecord);
    // 3 messages; compaction keeps the last 2 after the summary; one more; rewind to 3; two results make one more
    const messageOf = (i: number) => (everyRecord[i]!.type === "message" ? everyRecord[i]!.message : undefined);
    // The compaction's message comes back marked as the summary, though the record (as files written before the mark) lacks it.
    expect(state.messages).toEqual([{ ...summary, summary: true }, messageOf(1)!, messageOf(2)!, resultsMessage]);
    expect(state.model).toBe("gpt-5");
    expect(state.provider).toBe("openai");
    expect(state.cumulative.input).toBe(300);
    expect(state.origins).toEqual([7, 1, 2, 10]);
  });

  test("a format 1 file (each tool message one message record, written when its step ended) still reads and replays", () => {
    const file = join(tempDir("zot-records-"), "old.jsonl");
    const writer = SessionWriter.create(file, { ...header, format: 1 });
    const old = everyRecord.filter((r) => r.type !== "tool_result");
    for (const record of old) writer.write(record);
    writer.close();
    const content = readSessionFile(file);
    expect(content.problems).toEqual([]);
    expect(replay(content.header, content.entries).messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
  });

  test("a file written in a newer format is refused with a sentence, not misread", () => {
    const file = join(tempDir("zot-records-"), "new.jsonl");
    SessionWriter.create(file, { ...header, format: SESSION_FORMAT + 1 }).close();
    expect(() => readSessionFile(file)).toThrow(/written by a newer zot/);
  });

  test("a header that cannot be written (here: one JSON cannot hold) leaves no empty session file behind", () => {
    const file = join(tempDir("zot-records-"), "unwritten.jsonl");
    expect(() => SessionWriter.create(file, { ...header, model: 1n } as unknown as typeof header)).toThrow();
    expect(existsSync(file)).toBe(false);
  });
});

test("replay names the model on signed thinking an older zot recorded unnamed: the model the session was on then", () => {
  const said = (text: string) => ({
    type: "message" as const,
    message: { role: "assistant" as const, content: [{ type: "thinking" as const, text, signature: `sig-${text}` }, { type: "text" as const, text: "a" }], time: "t" },
  });
  const asked = { type: "message" as const, message: { role: "user" as const, content: [{ type: "text" as const, text: "q" }], time: "t" } };
  const onSonnet = { ...header, provider: "anthropic", model: "claude-sonnet-4-5" };
  const state = replay(onSonnet, [asked, said("first"), { type: "model_change", time: "t", model: "claude-opus-4-5", provider: "anthropic" }, asked, said("second")]);
  const models = state.messages.flatMap((m) => m.content.flatMap((b) => (b.type === "thinking" ? [b.model] : [])));
  expect(models).toEqual(["claude-sonnet-4-5", "claude-opus-4-5"]);
});
