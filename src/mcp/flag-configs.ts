// `--mcp-config`, as Claude Code takes it: MCP servers for this run only, from a JSON file or from
// the JSON itself on the command line, shaped as `.mcp.json` is (`{"mcpServers": {…}}`).
// Rule: what the user names on the command line must be read whole or the run does not start:
// a file that cannot be read, is not JSON or holds no "mcpServers" object is an error naming it
// (the files zot finds on its own only warn). Its servers are the user's own choice for this run,
// so no workspace trust is asked about them.
import path from "node:path";
import { errorText } from "../protocol/error-text.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import { readRegularFile } from "../config/regular-file.ts";
import { errnoWords } from "../protocol/errno-words.ts";

/** One `--mcp-config` value, read. */
export interface FlagMcpConfig {
  /** how messages name it: `--mcp-config servers.json`, `--mcp-config JSON #2` */
  label: string;
  /** the file's path; undefined for JSON given on the command line */
  file: string | undefined;
  /** its `mcpServers` object */
  servers: Record<string, unknown>;
}

/** The `--mcp-config` values in order; throws an Error whose message names the bad one. */
export function readFlagMcpConfigs(values: readonly string[], cwd: string): FlagMcpConfig[] {
  return values.map((value, index) => readOne(value, index + 1, cwd));
}

function readOne(value: string, position: number, cwd: string): FlagMcpConfig {
  if (value.trim() === "") throw new Error("--mcp-config needs a file or JSON text, not an empty value");
  const inline = /^\s*[{[]/.test(value);
  const file = inline ? undefined : path.resolve(cwd, value);
  // A value as long as a file (JSON that does not start with { or [) is named by its start, not echoed whole.
  const long = value.length > 120;
  const label = inline ? `--mcp-config JSON #${position}` : `--mcp-config ${long ? `${value.slice(0, 100)}… (${value.length.toLocaleString("en-US")} characters)` : value}`;
  let text = value;
  if (file) {
    try {
      // A pipe is read: the user named it (`--mcp-config <(jq …)`).
      text = readRegularFile(file, "utf8", { pipes: true });
    } catch (error) {
      throw new Error(`${label}: cannot read ${long ? "it" : file} (${errnoWords(error)})`);
    }
  }
  let data: unknown;
  try {
    // A byte order mark (Windows editors write one) is not the JSON's.
    data = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new Error(`${label}: not valid JSON (${errorText(error)})`);
  }
  if (!isJsonObject(data) || !isJsonObject(data.mcpServers)) {
    throw new Error(`${label}: must hold {"mcpServers": {"<name>": {…}}}, as .mcp.json does`);
  }
  return { label, file, servers: data.mcpServers };
}
