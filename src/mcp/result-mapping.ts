// An MCP tool result (`tools/call`) as the model sees it: text stays text, images stay images,
// embedded resources become their text (a base64 `blob` of a textual type that is UTF-8 too, an
// image blob an image, another blob a file the model can read, named with its type and size: the
// caller's saveBlob), links and audio become one line saying what they are, structured content reaches the model as JSON when the result has no content blocks
// (servers put the same data in both, and the model should not read it twice), and `isError` is
// the result's error flag. A resource (`resources/read`) maps as an embedded resource does, and as
// the text a prompt's `@server:uri` attaches.
// Rule: whatever the server returns, the model gets a well-formed result of bounded size (text
// over MAX_MCP_OUTPUT_TOKENS, as Claude Code names it, is cut with a note saying so); the full
// structured content stays in the result's details for the UI.
import type { ToolResultContent } from "../protocol/messages.ts";
import type { ToolResult } from "../protocol/tool.ts";

/** Claude Code's default limit on an MCP tool's output, in tokens (about four characters each). */
export const DEFAULT_MAX_OUTPUT_TOKENS = 25_000;
const CHARS_PER_TOKEN = 4;
/** Base64 characters of one image over which it is described instead of sent (about 3.75 MB of image). */
const MAX_IMAGE_CHARS = 5 * 1024 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The result as the SDK hands it over (`content`, `structuredContent`, `isError`), read defensively: servers send what they send. */
export type McpCallResult = Record<string, unknown>;

export interface MappingOptions {
  server: string;
  tool: string;
  /** MAX_MCP_OUTPUT_TOKENS; default 25,000 */
  maxOutputTokens?: number;
  /** keeps a binary blob where the model can read it (blob-files.ts); without it the blob is one line */
  saveBlob?: (bytes: Uint8Array, mimeType: string | undefined) => { path: string } | { why: string };
}

export function mapToolResult(result: McpCallResult, options: MappingOptions): ToolResult {
  const content: ToolResultContent[] = [];
  const blocks = Array.isArray(result.content) ? result.content : [];
  for (const block of blocks) content.push(...mapBlock(block, options));
  const structured = result.structuredContent;
  if (structured !== undefined && structured !== null && content.length === 0) {
    content.push({ type: "text", text: JSON.stringify(structured) });
  }
  if (content.length === 0) content.push({ type: "text", text: "(the tool returned no content)" });
  const limit = (options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS) * CHARS_PER_TOKEN;
  return {
    content: boundText(content, limit, options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS),
    is_error: result.isError === true,
    details: { mcp_server: options.server, mcp_tool: options.tool, ...(structured !== undefined ? { structured_content: structured } : {}) },
  };
}

/** A resource's contents (`resources/read`) as the model reads them: each part as an embedded resource of a tool result is. */
export function mapResourceContents(contents: readonly unknown[], options: MappingOptions): ToolResult {
  const mapped = mapToolResult({ content: contents.map((resource) => ({ type: "resource", resource })) }, options);
  if (contents.length === 0) mapped.content = [{ type: "text", text: "(the resource has no content)" }];
  return mapped;
}

/** A resource's contents as one text to attach to a prompt: its text parts, or why it has none to give (a binary part, too big). */
export function resourceAsText(contents: readonly unknown[], maxBytes: number): { text: string } | { why: string } {
  const texts: string[] = [];
  for (const part of contents) {
    const record = (part ?? {}) as { text?: unknown; blob?: unknown; mimeType?: unknown };
    const text = typeof record.text === "string" ? record.text : blobText(record.blob, str(record.mimeType));
    if (text === undefined) return { why: `it is not text (${str(record.mimeType) ?? "binary"}); the model can still read it with ReadMcpResourceTool` };
    texts.push(text);
  }
  const text = texts.join("\n");
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) return { why: `it is ${Math.round(bytes / 1024)} KB, over the ${maxBytes / 1024} KB attached at most; the model can still read it with ReadMcpResourceTool` };
  return { text };
}

function mapBlock(block: unknown, options: MappingOptions): ToolResultContent[] {
  if (block === null || typeof block !== "object") return [{ type: "text", text: `[a content block that is not an object: ${JSON.stringify(block)}]` }];
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case "text":
      return typeof b.text === "string" && b.text !== "" ? [{ type: "text", text: b.text }] : [];
    case "image":
      return [imageBlock(b.data, b.mimeType)];
    case "audio":
      return [{ type: "text", text: `[audio (${str(b.mimeType) ?? "unknown type"}, ${size(b.data)}) that zot cannot pass to the model]` }];
    case "resource": {
      const resource = (b.resource ?? {}) as Record<string, unknown>;
      const uri = str(resource.uri) ?? "(no uri)";
      if (typeof resource.text === "string") return [{ type: "text", text: `[resource ${uri}]\n${resource.text}` }];
      const mime = str(resource.mimeType);
      const text = blobText(resource.blob, mime);
      if (text !== undefined) return [{ type: "text", text: `[resource ${uri}]\n${text}` }];
      if (mime?.startsWith("image/") && typeof resource.blob === "string") return [{ type: "text", text: `[resource ${uri}]` }, imageBlock(resource.blob, mime)];
      const bytes = blobBytes(resource.blob);
      const saved = bytes && options.saveBlob?.(bytes, mime);
      const what = typeof resource.blob === "string" && !bytes ? (mime ?? "binary") : `${mime ?? "binary"}, ${size(resource.blob)}`;
      if (saved && "path" in saved) return [{ type: "text", text: `[resource ${uri} (${what}) saved to ${saved.path}]` }];
      const why = saved ? `, not saved: ${saved.why}` : typeof resource.blob === "string" && !bytes ? ", its data is not base64" : "";
      return [{ type: "text", text: `[resource ${uri} (${what})${why}]` }];
    }
    case "resource_link": {
      const parts = [str(b.name), str(b.description), str(b.mimeType)].filter(Boolean).join(", ");
      return [{ type: "text", text: `[resource link ${str(b.uri) ?? "(no uri)"}${parts ? `: ${parts}` : ""}]` }];
    }
    default:
      return [{ type: "text", text: `[content of type ${JSON.stringify(b.type ?? null)} that zot does not know]` }];
  }
}

/** Types whose bytes are text (a `; charset=` after them is allowed). */
const TEXTUAL = /^(text\/[^;]+|application\/(json|xml|yaml|x-yaml|toml|x-toml|javascript|x-javascript|ecmascript|typescript|x-typescript|sql|graphql|x-sh|x-shellscript|x-ndjson|[\w.+-]+\+(json|xml|yaml)))\s*(;.*)?$/i;

/** A blob's bytes as text when its type is textual and they are UTF-8; undefined otherwise. */
export function blobText(blob: unknown, mimeType: string | undefined): string | undefined {
  if (!mimeType || !TEXTUAL.test(mimeType)) return undefined;
  const bytes = blobBytes(blob);
  if (!bytes) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** A base64 blob's bytes; undefined when it is not base64. */
function blobBytes(blob: unknown): Uint8Array | undefined {
  if (typeof blob !== "string") return undefined;
  const clean = blob.replace(/\s+/g, "");
  if (clean.length % 4 !== 0 || !BASE64.test(clean)) return undefined;
  return Buffer.from(clean, "base64");
}

function imageBlock(data: unknown, mimeType: unknown): ToolResultContent {
  const mime = str(mimeType);
  if (!mime || !/^image\/[A-Za-z0-9.+-]+$/.test(mime)) return { type: "text", text: `[an image without a valid mimeType (${JSON.stringify(mimeType ?? null)})]` };
  const clean = typeof data === "string" ? data.replace(/\s+/g, "") : "";
  if (clean.length === 0 || clean.length % 4 !== 0 || !BASE64.test(clean)) return { type: "text", text: `[an image (${mime}) whose data is not base64]` };
  if (clean.length > MAX_IMAGE_CHARS) return { type: "text", text: `[an image (${mime}, ${size(clean)}) too large to pass to the model]` };
  return { type: "image", mime_type: mime, data: clean };
}

/** Cuts the text blocks once their total passes `limit` characters, with one note saying so. */
function boundText(content: ToolResultContent[], limit: number, tokens: number): ToolResultContent[] {
  let total = 0;
  for (const block of content) if (block.type === "text") total += block.text.length;
  if (total <= limit) return content;
  const out: ToolResultContent[] = [];
  let left = limit;
  for (const block of content) {
    if (block.type !== "text") {
      out.push(block);
      continue;
    }
    if (left <= 0) continue;
    out.push({ type: "text", text: block.text.slice(0, left) });
    left -= block.text.length;
  }
  out.push({
    type: "text",
    text: `[output cut: the tool returned ${total} characters, more than the ${tokens}-token limit (MAX_MCP_OUTPUT_TOKENS); ask the tool for less, e.g. a range or a filter]`,
  });
  return out;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function size(data: unknown): string {
  if (typeof data !== "string") return "no data";
  const clean = data.replace(/\s+/g, "");
  const bytes = Math.max(0, Math.floor((clean.length * 3) / 4) - (clean.match(/=*$/)?.[0].length ?? 0));
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}
