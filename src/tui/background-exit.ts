// zot ending while in the background (a shell's `kill %1` of a stopped zot, a hang-up): the runtime's
// last act at exit puts the terminal's modes back as it found them, and from the background the
// kernel answers that with SIGTTOU, which stops the process (or, with a listener, restarts the
// call forever), so zot would never end; let through, it would put cooked modes under the shell's
// prompt. Rule: only then, SIGTTOU is ignored and the exit skips that reset (libc, through bun:ffi).
import { readFileSync } from "node:fs";

const SIGTTOU = 22; // Linux and macOS
const SIG_IGN = 1;

/**
 * When zot ends from the background: SIGTTOU ignored from now on (nothing may stop it), and at the
 * very end of its exit it leaves through libc's `_exit`, after every exit handler registered before
 * (the processes it owns, its records), without the runtime's reset of the terminal's modes, which
 * would put them back under the shell's prompt (its line editing broken until Enter).
 */
export function allowExitFromBackground(): void {
  if (process.platform === "win32" || inForeground()) return;
  try {
    const { dlopen, FFIType } = require("bun:ffi") as typeof import("bun:ffi");
    const libc = dlopen(process.platform === "darwin" ? "libc.dylib" : "libc.so.6", {
      signal: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.ptr },
      _exit: { args: [FFIType.i32], returns: FFIType.void },
    });
    libc.symbols.signal(SIGTTOU, SIG_IGN as unknown as import("bun:ffi").Pointer);
    process.on("exit", (code) => libc.symbols._exit(typeof code === "number" ? code : Number(process.exitCode ?? 0)));
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
