// A tool an extension registered, as a plain `Tool` the agent can call, and the conversion of an
// extension's content blocks into a ToolResult. Rule: whatever the extension sends (or fails to
// send), the model gets a well-formed result: bad images and unknown blocks become text notes,
// nothing becomes "(extension returned no content)", and failures are is_error sentences. An
// interactive tool is refused, never sent, where nobody can interact.
import type { ExtBlock, ToolExposure, ToolReplay } from "../protocol/ext-frames.ts";
import type { ToolResultContent } from "../protocol/messages.ts";
import type { Tool, ToolResult } from "../protocol/tool.ts";
import { unsendableImage } from "../protocol/sendable-images.ts";

/** What the adapter needs from the extension's host. */
export interface ToolCaller {
  /** the extension's (manifest) name */
  readonly name: string;
  /**
   * never throws: failures come back as is_error results. `chain`: the tool names of the call chain
   * this call ends (the model's call is just [tool]), which a call_tool made while handling it extends
   */
  callTool(def: ExtToolDef, args: Record<string, unknown>, signal: AbortSignal, chain: readonly string[]): Promise<ToolResult>;
}

/** What the run says about offering and running extension tools. */
export interface ToolPolicy {
  /** whether the model is offered the tool in its next request (a deferred tool once activated) */
  offered(def: ExtToolDef, extension: string): boolean;
  /** whether a person can answer an interactive tool here (the TUI), not -p, --json or rpc */
  interactive(): boolean;
}

export interface ExtToolDef {
  name: string;
  description: string;
  /** JSON Schema of the arguments; an empty object schema when the extension sent none */
  schema: Record<string, unknown>;
  /** how it is offered (register_tool's exposure, or deferred) */
  exposure: ToolExposure;
  /** waits for a person: no reply deadline; refused where nobody can interact */
  interactive: boolean;
  /** kept for durable hosts; this zot has none */
  replay: ToolReplay;
  /** discovery context for programmatic callers (the extension's name unless it said) */
  namespace: string;
  namespaceDescription?: string;
  namespaceInstructions?: string;
  /** JSON Schema of its structured_content */
  outputSchema?: unknown;
}

export function extensionTool(caller: ToolCaller, def: ExtToolDef, policy?: ToolPolicy): Tool {
  return {
    name: def.name,
    description: def.description,
    parameters: def.schema,
    extension: caller.name,
    ...(policy ? { offered: () => policy.offered(def, caller.name) } : {}),
    execute: async (args, ctx) => {
      if (def.interactive && policy && !policy.interactive()) {
        return toolFailure(caller.name, def.name, "it is an interactive tool (it waits for a person), and this run (zot -p, --json or rpc) has nobody to interact with; it runs in the TUI");
      }
      return caller.callTool(def, args, ctx.signal, ctx.origin?.chain ?? [def.name]);
    },
  };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Converts an extension's `tool_result` content into what the model sees. */
export function toolResultFromExt(
  extension: string,
  tool: string,
  blocks: readonly ExtBlock[],
  isError: boolean,
  structured?: unknown,
): ToolResult {
  const content: ToolResultContent[] = [];
  let error = isError;
  for (const block of blocks) {
    if (block.type === "text") {
      // format is a display hint the session keeps; the providers send the model the text alone.
      if (block.text) content.push({ type: "text", text: block.text, ...(block.format ? { format: block.format } : {}) });
    } else if (block.type === "image") {
      const problem = imageProblem(block);
      const image = { mime_type: block.mime_type ?? "", data: (block.data ?? "").replace(/\s+/g, "") };
      // One the APIs refuse would stand in every later request: the model is told what it was instead.
      const unsendable = problem === undefined ? unsendableImage(image) : undefined;
      if (problem || unsendable) {
        error = true;
        const what = problem ? `an undecodable image: ${problem}` : `an image the model cannot be sent: ${unsendable}`;
        content.push({ type: "text", text: `extension ${extension}/${tool} returned ${what}` });
      } else {
        content.push({ type: "image", ...image });
      }
    } else {
      content.push({ type: "text", text: `[unknown block type "${block.type}" from extension ${extension}]` });
    }
  }
  if (content.length === 0) content.push({ type: "text", text: "(extension returned no content)" });
  return { content, is_error: error, details: { extension, tool, ...(structured !== undefined ? { structured_content: structured } : {}) } };
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
