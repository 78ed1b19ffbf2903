// How deep a JSON value nests, for what zot must walk later with recursion (a tool's schema is
// copied and serialised for every request). Rule: measured without recursion, so a value deep
// enough to overflow the stack is found instead of overflowing it.

/** How deep a tool's input schema may nest (objects and lists); real ones stay under 20. */
export const MAX_SCHEMA_DEPTH = 64;

/** Whether `value` nests objects and lists deeper than `limit`. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
