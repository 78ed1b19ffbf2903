// A session cut off mid-write opens with every whole record: the file truncated at every byte
// offset of its last record, a damaged line in the middle, a file that is not a session at all.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionEntry } from "../../src/protocol/session-records.ts";
import { readSessionFile, SessionFileError } from "../../src/session/reader.ts";
import { SessionWriter } from "../../src/session/writer.ts";
import { everyRecord, header } from "../support/session-fixtures.ts";
import { tempDir } from "../support/zot.ts";

const last: SessionEntry = {
  type: "message",
  message: { role: "assistant", content: [{ type: "text", text: "multi-byte: ü ✓ 🙂 at the end" }], time: "2026-11-23T10:17:00.000Z" },
};
const appended: SessionEntry = { type: "model_change", time: "2026-11-23T10:18:00.000Z", model: "gpt-5", provider: "openai" };

function writeSession(records: SessionEntry[]): string {
  const file = join(tempDir("zot-reader-"), "s.jsonl");
  const writer = SessionWriter.create(file, header);
  for (const record of records) writer.write(record);
  writer.close();
  return file;
}

describe("reading a damaged session", () => {
  test("cut at every byte offset of its last record: every whole record is kept, a torn one dropped and reported", () => {
    const file = writeSession([...everyRecord, last]);
    const whole = readFileSync(file);
    const end = whole.length;
    const start = end - Buffer.byteLength(`${JSON.stringify(last)}\n`);
    for (let cut = start; cut <= end; cut++) {
      writeFileSync(file, whole.subarray(0, cut));
      const content = readSessionFile(file);
      const lastIsWhole = cut >= end - 1; // only the newline missing still leaves a whole record
      expect(content.entries).toEqual(lastIsWhole ? [...everyRecord, last] : everyRecord);
      const torn = cut > start && !lastIsWhole;
      expect(content.problems).toEqual(torn ? [`the last record was cut off mid-write (${cut - start} bytes); it was dropped`] : []);
      expect(content.validBytes).toBe(lastIsWhole ? cut : start);

      // Appending after the damage drops the torn part for good and the file reads clean.
      const writer = SessionWriter.reopen(file, content.validBytes, content.missingNewline);
      writer.write(appended);
      writer.close();
      const after = readSessionFile(file);
      expect(after.entries).toEqual([...(lastIsWhole ? [...everyRecord, last] : everyRecord), appended]);
      expect(after.problems).toEqual([]);
    }
  });

  test("a damaged line in the middle is skipped and reported by its line number; the rest is kept", () => {
    const file = writeSession(everyRecord);
    const lines = readFileSync(file, "utf8").split("\n");
    lines[2] = lines[2]!.slice(0, 20);
    lines[4] = JSON.stringify({ type: "bookmark", name: "from a newer zot" });
    writeFileSync(file, lines.join("\n"));
    const content = readSessionFile(file);
    expect(content.entries).toEqual(everyRecord.filter((_, i) => i !== 1 && i !== 3));
    expect(content.problems).toEqual([
      "line 3: not valid JSON; skipped",
      'line 5: a "bookmark" record from a newer zot; skipped',
    ]);
  });

  test("files that are not sessions are refused with a sentence naming the file", () => {
    const dir = tempDir("zot-reader-");
    const cases: [string, string | Uint8Array, RegExp][] = [
      ["empty.jsonl", "", /empty.jsonl is empty, not a zot session/],
      ["cut-header.jsonl", JSON.stringify(header).slice(0, 30), /holds no whole record, not even its header/],
      ["notes.jsonl", '{"hello":"world"}\n', /is not a zot session: its first line is not a session header/],
      ["text.jsonl", "just some text\n", /its first line is not JSON/],
    ];
    for (const [name, body, message] of cases) {
      writeFileSync(join(dir, name), body);
      expect(() => readSessionFile(join(dir, name))).toThrow(message);
    }
    expect(() => readSessionFile(join(dir, "missing.jsonl"))).toThrow(SessionFileError);
  });

  test("a write that fails half-way (file size limit) is taken back out: the file keeps only whole records", async () => {
    const dir = tempDir("zot-reader-");
    const file = join(dir, "s.jsonl");
    const script = join(dir, "fill.ts");
    writeFileSync(
      script,
      `import { SessionWriter } from ${JSON.stringify(join(import.meta.dir, "../../src/session/writer.ts"))};
import { header } from ${JSON.stringify(join(import.meta.dir, "../support/session-fixtures.ts"))};
const writer = SessionWriter.create(process.argv[2], header);
let n = 0;
try {
  for (;;) { writer.write({ type: "message", message: { role: "user", content: [{ type: "text", text: "x".repeat(700) }], time: "t" } }); n++; }
} catch (error) { console.log(JSON.stringify({ n, error: String(error) })); }`,
    );
    // 4 KiB file size limit; SIGXFSZ ignored so the write that crosses it is cut short, then fails.
    const proc = Bun.spawn(["bash", "-c", `trap '' XFSZ; ulimit -f 4; exec "${process.execPath}" "${script}" "${file}"`], { stdout: "pipe" });
    const out = JSON.parse(await new Response(proc.stdout).text());
    expect(out.error).toContain("EFBIG");
    const content = readSessionFile(file);
    expect(content.problems).toEqual([]);
    expect(content.entries).toHaveLength(out.n);
    expect(readFileSync(file).length).toBe(content.validBytes);
  });
});
