// Notices that the reader of one of zot's outputs (rpc's stdout) went away while zot writes nothing
// to it: a tool runs for minutes, a confirmation waits for an answer nobody can send. A write would
// fail with EPIPE, but only at the next write, which may never come. Rule: it is asked off the hot
// path, with poll(2) that never waits, a few times a second, never by writing a byte; libc is
// loaded through bun:ffi at the first look (the start pays nothing), and where poll cannot be had
// nothing is watched (the next write still tells), never a crash.

/** poll(2)'s revents bits, the same on Linux and macOS: the reader of a pipe is gone (ERR), a socket's peer or a terminal is (HUP). */
const POLLERR = 0x0008;
const POLLHUP = 0x0010;
/** glibc, then musl's names for x86-64 and arm64, then macOS's. */
const LIBC_NAMES = ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so", "libSystem.B.dylib"];

export interface OutputWatch {
  /** aborted once the output's reader is gone */
  signal: AbortSignal;
  /** stops watching */
  stop(): void;
}

/** Watches file descriptor `fd` every `everyMs` milliseconds for a reader that went away. */
export function watchOutputClosed(fd: number, everyMs: number): OutputWatch {
  const closed = new AbortController();
  let look: (() => boolean) | undefined | null;
  const timer = setInterval(() => {
    look ??= pollerFor(fd);
    if (!look) return clearInterval(timer);
    if (look()) {
      clearInterval(timer);
      closed.abort(new Error("the output's reader is gone"));
    }
  }, everyMs);
  // Watching never keeps zot alive.
  timer.unref();
  return { signal: closed.signal, stop: () => clearInterval(timer) };
}

/** A function that asks whether `fd`'s reader is gone, or null where poll(2) is not to be had. */
function pollerFor(fd: number): (() => boolean) | null {
  if (process.platform === "win32") return null;
  let ffi: typeof import("bun:ffi");
  try {
    ffi = require("bun:ffi");
  } catch {
    return null;
  }
  for (const name of LIBC_NAMES) {
    try {
      const libc = ffi.dlopen(name, { poll: { args: ["ptr", "u64", "i32"], returns: "i32" } });
      // struct pollfd { int fd; short events; short revents; }: no events asked, ERR and HUP come anyway.
      const entry = new DataView(new ArrayBuffer(8));
      entry.setInt32(0, fd, true);
      return () => {
        entry.setInt16(6, 0, true);
        if (libc.symbols.poll(ffi.ptr(entry), 1, 0) !== 1) return false;
        return (entry.getInt16(6, true) & (POLLERR | POLLHUP)) !== 0;
      };
    } catch {
      // not this name; try the next
    }
  }
  return null;
}
