// The error codes on the wire: `error` and `turn_end` carry them through their schemas (and so
// through `zot rpc --schema`), and the documentation lists every one.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { ERROR_CODE_MEANINGS, ERROR_CODES } from "../../src/protocol/error-code.ts";
import { AgentEvent } from "../../src/protocol/events.ts";
import { rpcSchemaDocument } from "../../src/protocol/rpc-schema.ts";

const ROOT = join(import.meta.dir, "..", "..");

describe("error codes", () => {
  test("error and turn_end round-trip with a code; error needs one, and only a known one", () => {
    const error = { type: "error", message: "anthropic: HTTP 429: slow down", code: "rate_limit" } as const;
    const turnEnd = { type: "turn_end", stop: "error", error: "anthropic: HTTP 429: slow down", code: "rate_limit" } as const;
    expect(v.parse(AgentEvent, error)).toEqual(error);
    expect(v.parse(AgentEvent, turnEnd)).toEqual(turnEnd);
    expect(v.parse(AgentEvent, { type: "turn_end", stop: "end_turn" })).toEqual({ type: "turn_end", stop: "end_turn" });
    expect(v.safeParse(AgentEvent, { type: "error", message: "boom" }).success).toBe(false);
    expect(v.safeParse(AgentEvent, { ...error, code: "teapot" }).success).toBe(false);
  });

  test("the schema document names every code, with its meaning", () => {
    const doc = rpcSchemaDocument();
    for (const schema of [doc.events.error!.properties, doc.events.turn_end!.properties] as Record<string, any>[]) {
      expect(schema.code.enum).toEqual([...ERROR_CODES]);
      for (const code of ERROR_CODES) expect(schema.code.description).toContain(`${code}: ${ERROR_CODE_MEANINGS[code]}`);
    }
    expect(doc.events.error!.required).toEqual(["type", "message", "code"]);
    expect(doc.events.turn_end!.required).toEqual(["type", "stop"]);
  });

  test("docs/rpc.md's table and the README list every code", () => {
    const rpcDoc = readFileSync(join(ROOT, "docs", "rpc.md"), "utf8");
    const table = rpcDoc.slice(rpcDoc.indexOf("### Error codes"), rpcDoc.indexOf("## Message shape"));
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    for (const code of ERROR_CODES) {
      expect(table).toContain(`| \`${code}\` |`);
      expect(readme).toContain(`\`${code}\``);
    }
    expect(rpcDoc).toContain("| `error` | `message`, `code`");
    expect(readme).toContain("`error {message,code}`");
  });
});
