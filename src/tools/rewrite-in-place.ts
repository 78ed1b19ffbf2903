// Rewrites an existing file through the inode it already is, for edit and write. Rule: another
// writer's bytes are never silently dropped. The new content goes into the same inode, so hard
// links, mode, owner and other processes' open descriptors all keep meaning this file; bytes
// another process appends while zot writes are kept after the new content (and counted, so the
// tool can say so); a file replaced under zot (an editor's rename-save) is read again and the
// change is worked out anew on what is there now.
//
// Why in place and not temp file + rename: rename is atomic for readers, but it gives the path a
// new inode. A process holding the file open (a log writer, a dev server) keeps writing into the
// old, deleted one, so every line it writes afterwards is lost; a hard link is split off; the owner
// becomes zot's user. In place keeps the file's identity. What it gives up: a reader that reads in
// the middle of the write can see part old and part new, and a crash (power loss) in that instant
// can leave it so. zot writes the changed range with one write call and fsyncs before it answers,
// and programs that watch files act on the close, after it. The one window left: bytes appended in
// the instant between zot's last size check and its truncate of a file that got shorter.
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, statSync, writeSync } from "node:fs";
import type { Stats } from "node:fs";

/** The new content for what the file holds now, or a sentence saying why not (nothing is written). */
export type Rewrite = (current: Buffer) => Buffer | { refuse: string };

export type Rewritten =
  | {
      ok: true;
      /** the content the rewrite was worked out on */
      before: Buffer;
      /** the content written (another writer's appended bytes may follow it) */
      after: Buffer;
      /** bytes another process appended while zot wrote, kept after `after` */
      appended: number;
      stat: Stats;
    }
  | { ok: false; refuse: string };

/** Attempts when the file keeps being replaced under zot before it gives up and says so. */
const ATTEMPTS = 5;

/** Rewrites `path` (which must exist) with what `rewrite` makes of its current content. Throws on I/O errors. */
export function rewriteInPlace(path: string, rewrite: Rewrite): Rewritten {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const fd = openSync(path, "r+");
    let appendFd: number | undefined;
    try {
      // Appending zot's own growth through O_APPEND puts it after whatever others appended, never over it.
      appendFd = openSync(path, "a");
      const info = fstatSync(fd);
      if (!sameFile(info, fstatSync(appendFd))) continue;
      const before = readAll(fd, info.size);
      const next = rewrite(before);
      if (!Buffer.isBuffer(next)) return { ok: false, refuse: next.refuse };
      const appended = before.equals(next) ? fstatSync(fd).size - before.length : commit(fd, appendFd, before, next);
      fsyncSync(fd);
      // Replaced while zot wrote: the write went into a file no name leads to any more; do it again there.
      if (!sameFile(info, statSync(path))) continue;
      return { ok: true, before, after: next, appended, stat: fstatSync(fd) };
    } finally {
      if (appendFd !== undefined) closeSync(appendFd);
      closeSync(fd);
    }
  }
  return { ok: false, refuse: `it kept being replaced by another program while zot wrote it (${ATTEMPTS} tries)` };
}

/** Said when another process appended to the file while zot wrote: kept, but the model has not seen it. */
export function appendedNote(path: string, bytes: number): string {
  return `(another program appended ${bytes} bytes to ${path} while zot wrote it; they were kept after the new content: read the end of the file before changing it again)`;
}

/** Another program cut the file short in the middle of zot's write. */
export class FileCutShortError extends Error {
  constructor() {
    super("another program cut the file short while zot was writing it");
    this.name = "FileCutShortError";
  }
}

/** Puts `next` where `before` is; returns how many bytes others appended meanwhile (all kept after it). */
function commit(fd: number, appendFd: number, before: Buffer, next: Buffer): number {
  const shared = Math.min(before.length, next.length);
  let from = 0;
  while (from < shared && before[from] === next[from]) from++;
  // Within the old size first: appends land past it, so nothing of theirs is touched.
  writeAt(fd, next.subarray(from, shared), from);
  if (next.length > before.length) return grow(fd, appendFd, before.length, next.subarray(before.length));
  if (next.length < before.length) return shrink(fd, before.length, next.length);
  return fstatSync(fd).size - before.length;
}

/**
 * Adds `tail` after the first `end` bytes: appended (so it can never overwrite another writer's
 * append), then, if others appended around it, the region after `end` is reordered to ours first,
 * theirs after, in a write that stays within the file.
 */
function grow(fd: number, appendFd: number, end: number, tail: Buffer): number {
  const sizeBefore = fstatSync(fd).size;
  writeAt(appendFd, tail, null);
  const sizeAfter = fstatSync(fd).size;
  if (sizeAfter < sizeBefore + tail.length) throw new FileCutShortError();
  if (sizeBefore === end && sizeAfter === end + tail.length) return 0;
  const region = readRange(fd, end, sizeAfter);
  // Ours landed at the end as it was when appended: exactly at sizeBefore when nobody else wrote meanwhile.
  const ownAt =
    sizeAfter === sizeBefore + tail.length ? sizeBefore - end : region.indexOf(tail, Math.max(0, sizeBefore - end));
  if (ownAt < 0) throw new FileCutShortError();
  const theirs = Buffer.concat([region.subarray(0, ownAt), region.subarray(ownAt + tail.length)]);
  writeAt(fd, Buffer.concat([tail, theirs]), end);
  return theirs.length;
}

/**
 * Ends the file at `length` (it was `end` long): bytes others appended after `end` are moved down
 * to follow the new content first, as often as more arrive, and only then is the file truncated.
 */
function shrink(fd: number, end: number, length: number): number {
  const probe = Buffer.alloc(1);
  let moved = end;
  let to = length;
  for (;;) {
    // A one-byte read at the old end is the quickest "did anyone append?" there is, and the truncate
    // follows it at once: this is the instant the file header comment admits to.
    if (readSync(fd, probe, 0, 1, moved) === 0) {
      ftruncateSync(fd, to);
      return to - length;
    }
    const size = fstatSync(fd).size;
    if (size < moved) throw new FileCutShortError();
    const theirs = readRange(fd, moved, size);
    // to + theirs.length < size: this write never reaches the end, where new appends land.
    writeAt(fd, theirs, to);
    to += theirs.length;
    moved = size;
  }
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.ino === b.ino && a.dev === b.dev;
}

function readAll(fd: number, sizeHint: number): Buffer {
  const chunks: Buffer[] = [];
  let position = 0;
  for (;;) {
    // One read for a file that did not grow since it was measured, one more to see its end.
    const buffer = Buffer.allocUnsafe(chunks.length === 0 ? sizeHint + 1 : 1 << 20);
    const n = readSync(fd, buffer, 0, buffer.length, position);
    if (n === 0) return Buffer.concat(chunks);
    chunks.push(buffer.subarray(0, n));
    position += n;
  }
}

function readRange(fd: number, from: number, to: number): Buffer {
  const buffer = Buffer.alloc(to - from);
  let done = 0;
  while (done < buffer.length) {
    const n = readSync(fd, buffer, done, buffer.length - done, from + done);
    if (n === 0) throw new FileCutShortError();
    done += n;
  }
  return buffer;
}

/** Writes all of `bytes` at `position` (null: at the end, for an O_APPEND descriptor). */
function writeAt(fd: number, bytes: Buffer, position: number | null): void {
  let done = 0;
  while (done < bytes.length) {
    done += writeSync(fd, bytes, done, bytes.length - done, position === null ? null : position + done);
  }
}
