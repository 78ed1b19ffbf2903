// The sessions of a working directory as a forest: each fork under the session it was forked
// from. Rule: a fork whose parent is not among them (deleted, imported from elsewhere) is a root;
// roots keep the listing's order (newest first), children the order they were made in.
import type { SessionSummary } from "./list.ts";

export interface SessionNode {
  session: SessionSummary;
  children: SessionNode[];
}

export function sessionForest(sessions: readonly SessionSummary[]): SessionNode[] {
  const nodes = new Map(sessions.map((s) => [s.id, { session: s, children: [] as SessionNode[] }]));
  const roots: SessionNode[] = [];
  for (const s of sessions) {
    const node = nodes.get(s.id)!;
    const parent = s.parent !== undefined && s.parent !== s.id ? nodes.get(s.parent) : undefined;
    if (parent && !isAncestor(node, parent)) parent.children.push(node);
    else roots.push(node);
  }
  for (const node of nodes.values()) node.children.sort((a, b) => (a.session.created < b.session.created ? -1 : 1));
  return roots;
}

/** Whether `node` is `other` or above it (a hand-edited parent loop must not hide sessions). */
function isAncestor(node: SessionNode, other: SessionNode): boolean {
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n === other) return true;
    stack.push(...n.children);
  }
  return false;
}
