// node:fs/promises for the file tools, loaded when one of them first runs instead of with the
// tools: no start uses it, and loading it cost each start ~0.3 ms and ~0.2 MB (scripts/bench floor).
export const asyncFs = () => import("node:fs/promises");
