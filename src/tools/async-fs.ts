// node:fs/promises for the file tools, loaded when one of them first runs instead of with the
// tools: no start uses it, and loading it cost each start ~0.3 ms and ~0.2 MB (200 interleaved
// `zot -p` runs of the built binary).
// Rule: src imports node:fs/promises only through this (types aside), so a start never loads it.
export const loadFsPromises = () => import("node:fs/promises");
