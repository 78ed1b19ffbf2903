// What zot reads of Claude Code's ~/.claude.json: its MCP servers (the top-level `mcpServers`, and
// per folder `mcpServers` and `disabledMcpjsonServers`). Claude Code keeps every folder's history in
// that file, often megabytes, and parsing it cost every start ~10 ms; the part zot reads is kept in
// $ZOT_HOME/cache/claude-mcp.json with the file's size, modification time and inode.
// Rule: the kept view is used only while the file's size, mtime and inode are the ones it was made
// from; anything else (a change, a broken file, no cache) reads the file whole. A cache that cannot
// be read or written is ignored, never an error.
import { mkdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../config/write-file-atomic.ts";
import { isJsonObject, type JsonObject } from "../protocol/json-object.ts";
import { readJsonFile } from "./json-file.ts";

const CACHE_FILE = path.join("cache", "claude-mcp.json");

/** Claude Code's file as readMcpConfig reads it: the MCP parts only, from the cache when it is current. */
export function readClaudeConfig(file: string, home: string): { data?: JsonObject; problem?: string } {
  let stamp: string;
  try {
    const stat = statSync(file, { bigint: true });
    stamp = `${stat.size}:${stat.mtimeNs}:${stat.ino}`;
  } catch {
    // Missing or unreadable: the reader says which.
    return readJsonFile(file);
  }
  const cacheFile = path.join(home, CACHE_FILE);
  const kept = readCache(cacheFile);
  if (kept && kept.file === file && kept.stamp === stamp) return { data: kept.view };
  const read = readJsonFile(file);
  if (!read.data) return read;
  const view = mcpView(read.data);
  try {
    mkdirSync(path.dirname(cacheFile), { recursive: true });
    writeFileAtomic(cacheFile, JSON.stringify({ file, stamp, view }), 0o600);
  } catch {}
  return { data: view };
}

/** The parts of the file zot reads; an empty server list or refusal list is left out (reading it gives nothing). */
export function mcpView(data: JsonObject): JsonObject {
  const view: JsonObject = {};
  if (data.mcpServers !== undefined) view.mcpServers = data.mcpServers;
  const projects: JsonObject = {};
  if (isJsonObject(data.projects)) {
    for (const [dir, entry] of Object.entries(data.projects)) {
      if (!isJsonObject(entry)) continue;
      const kept: JsonObject = {};
      if (entry.mcpServers !== undefined && !isEmptyObject(entry.mcpServers)) kept.mcpServers = entry.mcpServers;
      if (Array.isArray(entry.disabledMcpjsonServers) && entry.disabledMcpjsonServers.length > 0) kept.disabledMcpjsonServers = entry.disabledMcpjsonServers;
      if (Object.keys(kept).length > 0) projects[dir] = kept;
    }
  }
  if (Object.keys(projects).length > 0) view.projects = projects;
  return view;
}

function isEmptyObject(value: unknown): boolean {
  return isJsonObject(value) && Object.keys(value).length === 0;
}

function readCache(cacheFile: string): { file: string; stamp: string; view: JsonObject } | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(cacheFile, "utf8"));
    if (isJsonObject(value) && typeof value.file === "string" && typeof value.stamp === "string" && isJsonObject(value.view)) {
      return { file: value.file, stamp: value.stamp, view: value.view };
    }
  } catch {}
  return undefined;
}
