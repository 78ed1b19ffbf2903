// The binary content an MCP server returns (a resource's base64 `blob` that is neither text nor an
// image) kept where the model can read it, as Claude Code saves it: `$TMPDIR/zot-mcp-blob-<hex>.<ext>`,
// mode 0600, named in the result with its type and size. Rule: bounded like the bash outputs beside
// them (tools/bash-output-files.ts sweeps both under one budget), and one blob over
// MCP_BLOB_MAX_BYTES is not saved at all: the result says so.
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomHex } from "../protocol/random-hex.ts";
import { BASH_OUTPUT_BUDGET_BYTES, BASH_OUTPUT_MAX_AGE_MS, sweepOutputFiles } from "../tools/bash-output-files.ts";

/** The largest blob saved (an answer itself is read up to 32 MiB). */
export const MCP_BLOB_MAX_BYTES = 16 * 1024 * 1024;

/** Saves `bytes` of type `mimeType`: its path, or why it was not saved. */
export function saveBlob(bytes: Uint8Array, mimeType: string | undefined): { path: string } | { why: string } {
  if (bytes.length > MCP_BLOB_MAX_BYTES) return { why: `over the ${MCP_BLOB_MAX_BYTES / (1024 * 1024)} MB zot saves` };
  const dir = tmpdir();
  sweepOutputFiles({ dir, maxAgeMs: BASH_OUTPUT_MAX_AGE_MS, budgetBytes: BASH_OUTPUT_BUDGET_BYTES, roomBytes: bytes.length, now: Date.now() });
  const path = join(dir, `zot-mcp-blob-${randomHex(6)}.${extension(mimeType)}`);
  try {
    writeFileSync(path, bytes, { mode: 0o600, flag: "wx" });
    return { path };
  } catch (error) {
    return { why: `it could not be saved (${(error as NodeJS.ErrnoException).code ?? "error"})` };
  }
}

/** `application/pdf` → pdf; a subtype that is no short plain word → bin. */
function extension(mimeType: string | undefined): string {
  const subtype = mimeType?.split(";")[0]?.split("/")[1]?.trim().toLowerCase();
  return subtype && /^[a-z0-9]{1,8}$/.test(subtype) ? subtype : "bin";
}
