// zot ending while in the background (a shell's `kill %1` of a stopped zot, a hang-up): the runtime's
// last act at exit puts the terminal's modes back as it found them, and from the background the
// kernel answers that with SIGTTOU, which stops the process (or, with a listener, restarts the
// call forever), so zot would never end. Rule: only then, SIGTTOU is ignored (through libc), and
// the modes put back are the shell's own, from before zot started.
import { readFileSync } from "node:fs";

const SIGTTOU = 22; // Linux and macOS
const SIG_IGN = 1;

/** Lets the exit put the terminal's modes back from the background, when zot is there. */
export function allowExitFromBackground(): void {
  if (process.platform === "win32" || inForeground()) return;
  try {
    const { dlopen, FFIType } = require("bun:ffi") as typeof import("bun:ffi");
    const libc = dlopen(process.platform === "darwin" ? "libc.dylib" : "libc.so.6", { signal: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.ptr } });
    libc.symbols.signal(SIGTTOU, SIG_IGN as unknown as import("bun:ffi").Pointer);
  } catch {
    // without libc at hand, the exit is stopped as before; the shell's `fg` or its exit ends it
  }
}

/**
 * Whether zot's process group is the terminal's foreground one (Linux: /proc/self/stat's pgrp and
 * tpgid); where the system does not tell, it is taken to be.
 */
export function inForeground(): boolean {
  try {
    const stat = readFileSync("/proc/self/stat", "latin1");
    // after the command's name, in parentheses and holding anything: state ppid pgrp session tty_nr tpgid
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const tpgid = Number(fields[5]);
    return tpgid <= 0 || tpgid === Number(fields[2]);
  } catch {
    return true;
  }
}
