// Reading one MCP configuration file ($ZOT_HOME/mcp.json, .mcp.json, ~/.claude.json) as a JSON
// object. Rule: a missing file is nothing; one that cannot be read, is not JSON or is not an object
// is a sentence naming the file and saying its servers are not started.
import { errorText } from "../protocol/error-text.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import { readRegularFile } from "../config/regular-file.ts";

/** A JSON object file: missing is nothing; unreadable, broken or not an object is a problem named. */
export function readJsonFile(file: string): { data?: Record<string, unknown>; problem?: string } {
  let text: string;
  try {
    text = readRegularFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return {};
    return { problem: `cannot read ${file} (${code === "EISDIR" ? "it is a directory" : (code ?? errorText(error))}); its MCP servers are not started` };
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
  return { data };
}
