// file-facts: extensions that use zot's own tools. Written with the zot SDK; zot runs this file
// itself, nothing to install.
// - the tool `file_facts {path}` reads the file with zot's `read` (ctx.callTool: call_tool with
//   this call as parent_id, so it ends with it) and answers with its size in lines and words;
// - `/facts <path>` does the same from a command (ext.callTool: no tool call to belong to);
// - `/explain <path>` answers tool_prompt: zot runs `read` into the transcript, then asks the model.
// Calls through call_tool pass zot's guards and the user's confirmation like the model's own, are
// not written to the transcript, and carry this extension's name (origin_extension) in events.
import { type CallToolResult, display, error, extension, toolPrompt } from "@zot/sdk";

const ext = extension({ name: "file-facts", version: "1.0.0" });

/** zot's read numbers its lines ("     1\tfirst line"); the facts are about the text. */
function facts(path: string, result: CallToolResult): string {
  const body = result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
  if (result.is_error) throw new Error(`could not read ${path}: ${body}`);
  const lines = body.split("\n").filter((line) => /^\s*\d+\t/.test(line)).map((line) => line.replace(/^\s*\d+\t/, ""));
  const words = lines.join(" ").split(/\s+/).filter(Boolean).length;
  const first = lines.find((line) => line.trim() !== "") ?? "(empty)";
  return `${path}: ${lines.length} lines, ${words} words; first line: ${first}`;
}

ext.tool(
  {
    name: "file_facts",
    description: "How long a text file is (lines, words) and how it starts, without putting the file into the conversation.",
    schema: { type: "object", properties: { path: { type: "string", description: "the file, relative to the project" } }, required: ["path"] },
  },
  async (args, ctx) => facts(args.path, await ctx.callTool("read", { path: args.path })),
);

ext.command("facts", "lines and words of a file: /facts <path>", async (args) => {
  if (!args) return error("usage: /facts <path>");
  return display(facts(args, await ext.callTool("read", { path: args })));
});

ext.command("explain", "read a file into the conversation and ask what it is for: /explain <path>", (args) =>
  args ? toolPrompt("read", { path: args }, `Explain what ${args} is for, in three sentences.`) : error("usage: /explain <path>"),
);

await ext.run();
