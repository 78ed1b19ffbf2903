// Whether this process was started, at any remove, by a running zot: a tool call's command, a
// hook, an extension, the TUI's `!command`. Rule: an ancestor counts when /proc says its program
// is this program (the same file); where there is no /proc (macOS) nothing counts. `zot trust`
// asks it, so that a command a model runs, told to by a folder's CLAUDE.md, cannot trust the
// folder (a speed bump, not a wall: the model's bash can write any file of the user's; --jail and
// confirmations are the wall).
import { readFileSync, readlinkSync } from "node:fs";

/** The pid of the nearest ancestor running this same program, or undefined. */
export function zotAncestor(): number | undefined {
  let self: string;
  try {
    self = readlinkSync("/proc/self/exe");
  } catch {
    return undefined;
  }
  let pid = parentOf("self");
  // A chain longer than this is a loop in a table read while it changed.
  for (let hops = 0; pid !== undefined && pid > 1 && hops < 64; hops++) {
    try {
      if (readlinkSync(`/proc/${pid}/exe`) === self) return pid;
    } catch {
      // Another user's process, or one that just ended: not this zot's.
    }
    pid = parentOf(String(pid));
  }
  return undefined;
}

function parentOf(pid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (in parentheses) may hold spaces and brackets: the fields after the last ")" are fixed.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}
