// The argument schemas of the built-in tools: what the model may send each one, with the limits
// they name. Rule: nothing here but valibot schemas and their constants, so the build turns them
// into the JSON Schema the model sees (tools/builtin-parameters.ts, a macro) without loading a tool;
// each schema is built on its first use (a tool's first call), not by every start of zot.
import * as v from "valibot";

/** The value `build` makes on the first call, the same one after. */
function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

/** Most lines one read returns. */
export const READ_MAX_LINES = 2000;
/** How many tools one tool_search activates by default, and at most. */
export const SEARCH_DEFAULT_RESULTS = 5;
export const SEARCH_MAX_RESULTS = 20;

export const readArgs = once(() =>
  v.object({
    path: v.pipe(v.string(), v.minLength(1), v.description("File to read, relative to the working directory (or absolute).")),
    offset: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(0), v.description("1-based line number to start at. Default 1.")),
    ),
    limit: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.description(`Maximum number of lines to return. Default and maximum ${READ_MAX_LINES}.`),
      ),
    ),
  }),
);

export const writeArgs = once(() =>
  v.object({
    path: v.pipe(
      v.string(),
      v.minLength(1),
      v.description("File to write, relative to the working directory (or absolute)."),
    ),
    content: v.pipe(v.string(), v.description("The complete new content of the file.")),
  }),
);

export const editItem = once(() =>
  v.object({
    old_text: v.pipe(
      v.string(),
      v.description("Exact text to replace, copied from the file without read's line-number prefixes. Must match once."),
    ),
    new_text: v.pipe(v.string(), v.description("Text to put in its place.")),
    replace_all: v.optional(
      v.pipe(v.boolean(), v.description("Replace every occurrence instead of requiring exactly one. Default false.")),
    ),
  }),
);

export const editArgs = once(() =>
  v.object({
    path: v.pipe(v.string(), v.minLength(1), v.description("File to edit, relative to the working directory (or absolute).")),
    edits: v.pipe(
      v.array(editItem()),
      v.minLength(1),
      v.description("Replacements, all matched against the file as it is now; they must not overlap."),
    ),
  }),
);

export const bashArgs = once(() =>
  v.object({
    command: v.pipe(v.string(), v.minLength(1), v.description("The command to run with bash -c.")),
    timeout: v.optional(
      v.pipe(
        v.number(),
        v.gtValue(0),
        v.description("Seconds after which the command and everything it started are killed. Default: no timeout."),
      ),
    ),
  }),
);

export const skillArgs = once(() =>
  v.object({
    name: v.pipe(v.string(), v.minLength(1), v.description("Name of the skill to load, exactly as listed in the system prompt.")),
  }),
);

export const searchArgs = once(() =>
  v.object({
    query: v.pipe(
      v.string(),
      v.minLength(1),
      v.description('Words to look for in the tools\' names and descriptions ("github pull request"), or "select:name1,name2" to activate tools by exact name.'),
    ),
    max_results: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(SEARCH_MAX_RESULTS), v.description(`How many tools to activate at most (default ${SEARCH_DEFAULT_RESULTS}).`))),
  }),
);

export const listResourcesArgs = once(() =>
  v.object({
    server: v.optional(v.pipe(v.string(), v.minLength(1), v.description("Only this MCP server's resources (default: every server's)."))),
  }),
);

export const readResourceArgs = once(() =>
  v.object({
    server: v.pipe(v.string(), v.minLength(1), v.description("The MCP server that has the resource, as ListMcpResourcesTool names it.")),
    uri: v.pipe(v.string(), v.minLength(1), v.description("The resource's URI, as ListMcpResourcesTool lists it.")),
  }),
);
