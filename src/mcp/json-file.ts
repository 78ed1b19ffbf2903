// Reading one MCP configuration file ($ZOT_HOME/mcp.json, .mcp.json, ~/.claude.json) as a JSON
// object. Rule: a missing file is nothing; one that cannot be read, is not JSON or is not an object
// is a sentence naming the file and saying its servers are not started.
import { errorText } from "../protocol/error-text.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import { readRegularFile } from "../config/regular-file.ts";
import { errnoWords } from "../protocol/errno-words.ts";

/**
 * A JSON object file: missing is nothing; unreadable, broken or not an object is a problem named.
 * `lossy`: bytes that are no UTF-8 were read as U+FFFD (fine to read by, not to write back).
 */
export function readJsonFile(file: string): { data?: Record<string, unknown>; problem?: string; lossy?: true } {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return {};
    return { problem: `cannot read ${file} (${errnoWords(error)}); its MCP servers are not started` };
  }
  let text: string;
  let lossy = false;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    text = bytes.toString("utf8");
    lossy = true;
  }
  if (!text.trim()) return {};
  let data: unknown;
  try {
    // A byte order mark (Windows editors write one) is not the JSON's.
    data = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    return { problem: `${file} is not valid JSON (${errorText(error)}); its MCP servers are not started until it is fixed` };
  }
  if (!isJsonObject(data)) return { problem: `${file} must hold a JSON object ({"mcpServers": {…}}); its MCP servers are not started` };
  return lossy ? { data, lossy } : { data };
}
