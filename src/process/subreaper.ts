// Makes zot a child subreaper on Linux (prctl PR_SET_CHILD_SUBREAPER): a process below zot whose
// parent dies (a double-forked daemon, a wrapper script's `&` child, a setsid'd server) is
// re-parented to zot instead of to init, so zot can still find it and kill it when it exits.
// Rule: libc is loaded through bun:ffi only when the first child is spawned, never at start
// (`zot --version` pays nothing), and a failure here only costs the guarantee, never a crash.

const PR_SET_CHILD_SUBREAPER = 36;
/** glibc first, then musl's names for x86-64 and arm64. */
const LIBC_NAMES = ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so"];

let state: "unset" | "on" | "unavailable" = "unset";

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
      });
      const ok = libc.symbols.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) === 0;
      libc.close();
      if (ok) state = "on";
      return ok;
    } catch {
      // not this name; try the next
    }
  }
  return false;
}
