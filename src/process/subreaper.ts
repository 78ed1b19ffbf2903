// Makes zot a child subreaper on Linux (prctl PR_SET_CHILD_SUBREAPER): a process below zot whose
// parent dies (a double-forked daemon, a wrapper script's `&` child, a setsid'd server) is
// re-parented to zot instead of to init, so zot can still find it and kill it when it exits.
// Rule: libc is loaded through bun:ffi only when the first child is spawned, never at start
// (`zot --version` pays nothing), and a failure here only costs the guarantee, never a crash. An
// adopted orphan that exits stays a zombie until zot waits for it: orphan-reaper.ts does.

const PR_SET_CHILD_SUBREAPER = 36;
/** glibc first, then musl's names for x86-64 and arm64. */
const LIBC_NAMES = ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so"];

let state: "unset" | "on" | "unavailable" = "unset";
/** libc's waitpid, kept once zot is a subreaper: the adopted orphans are zot's to wait for (orphan-reaper.ts) */
let waitpid: ((pid: number, status: null, options: number) => number) | undefined;
const WNOHANG = 1;

/** True once zot is a subreaper; tries at most once per process, and only on Linux. */
export function becomeSubreaper(): boolean {
  if (state !== "unset") return state === "on";
  state = "unavailable";
  if (process.platform !== "linux") return false;
  let ffi: typeof import("bun:ffi");
  try {
    ffi = require("bun:ffi");
  } catch {
    return false;
  }
  for (const name of LIBC_NAMES) {
    try {
      const libc = ffi.dlopen(name, {
        prctl: { args: ["i32", "u64", "u64", "u64", "u64"], returns: "i32" },
        waitpid: { args: ["i32", "ptr", "i32"], returns: "i32" },
      });
      const ok = libc.symbols.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) === 0;
      if (!ok) {
        libc.close();
        return false;
      }
      state = "on";
      waitpid = libc.symbols.waitpid as (pid: number, status: null, options: number) => number;
      return true;
    } catch {
      // not this name; try the next
    }
  }
  return false;
}

/** Waits for the exited child `pid` without blocking (waitpid, WNOHANG): whether it was reaped. Only for a pid Bun did not spawn. */
export function reapChild(pid: number): boolean {
  return waitpid !== undefined && waitpid(pid, null, WNOHANG) === pid;
}
