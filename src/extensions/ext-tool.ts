// A tool an extension registered, as a plain `Tool` the agent can call, and the conversion of an
// extension's content blocks into a ToolResult. Rule: whatever the extension sends (or fails to
// send), the model gets a well-formed result: bad images and unknown blocks become text notes,
// nothing becomes "(extension returned no content)", and failures are is_error sentences.
import type { ExtBlock } from "../protocol/ext-frames.ts";
import type { ToolResultContent } from "../protocol/messages.ts";
import type { Tool, ToolResult } from "../protocol/tool.ts";

/** What the adapter needs from the extension's host. */
export interface ToolCaller {
  /** the extension's (manifest) name */
  readonly name: string;
  /** never throws: failures come back as is_error results */
  callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult>;
}

export interface ExtToolDef {
  name: string;
  description: string;
  /** JSON Schema of the arguments; an empty object schema when the extension sent none */
  schema: Record<string, unknown>;
}

export function extensionTool(caller: ToolCaller, def: ExtToolDef): Tool {
  return {
    name: def.name,
    description: def.description,
    parameters: def.schema,
    extension: caller.name,
    execute: (args, ctx) => caller.callTool(def.name, args, ctx.signal),
  };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Converts an extension's `tool_result` content into what the model sees. */
export function toolResultFromExt(
  extension: string,
  tool: string,
  blocks: readonly ExtBlock[],
  isError: boolean,
): ToolResult {
  const content: ToolResultContent[] = [];
  let error = isError;
  for (const block of blocks) {
    if (block.type === "text") {
      if (block.text) content.push({ type: "text", text: block.text });
    } else if (block.type === "image") {
      const problem = imageProblem(block);
      if (problem) {
        error = true;
        content.push({ type: "text", text: `extension ${extension}/${tool} returned an undecodable image: ${problem}` });
      } else {
        content.push({ type: "image", mime_type: block.mime_type ?? "", data: (block.data ?? "").replace(/\s+/g, "") });
      }
    } else {
      content.push({ type: "text", text: `[unknown block type "${block.type}" from extension ${extension}]` });
    }
  }
  if (content.length === 0) content.push({ type: "text", text: "(extension returned no content)" });
  return { content, is_error: error, details: { extension, tool } };
}

function imageProblem(block: ExtBlock): string | undefined {
  if (!block.mime_type || !/^image\/[A-Za-z0-9.+-]+$/.test(block.mime_type)) {
    return `mime_type must be an image type like "image/png" (got ${JSON.stringify(block.mime_type ?? null)})`;
  }
  const data = (block.data ?? "").replace(/\s+/g, "");
  if (data.length === 0) return "data is empty";
  if (data.length % 4 !== 0 || !BASE64.test(data)) return "data is not standard base64";
  return undefined;
}

/** A failed call as the model sees it: `extension weather/weather failed: timed out after 60 s`. */
export function toolFailure(extension: string, tool: string, why: string): ToolResult {
  return {
    content: [{ type: "text", text: `extension ${extension}/${tool} failed: ${why}` }],
    is_error: true,
    details: { extension, tool },
  };
}
