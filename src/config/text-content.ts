// Whether bytes a file holds are text to put in a prompt: a memory file and what its `@path` lines
// import (a CLAUDE.md that points at `@docs/diagram.png`), which Claude Code leaves out when they
// are not text. Rule: only the first 8 KB are judged, so the test costs a start nothing: they are
// no text when they hold a NUL byte (git's test, and the read tool's and piped stdin's), or when
// more than one in ten of their characters is not UTF-8 (an image or archive with no NUL early; a
// Latin-1 file's few accented letters stay well under that, and it is read as before).

/** How much of a file is judged. */
const PROBE_BYTES = 8192;
/** The share of characters that may be undecodable before the bytes are taken for no text. */
const MAX_UNDECODABLE_SHARE = 0.1;

/** Why the bytes are no text ("it holds NUL bytes"), or undefined when they are text. */
export function whyNotText(bytes: Uint8Array): string | undefined {
  const head = bytes.subarray(0, PROBE_BYTES);
  if (head.includes(0)) return "it holds NUL bytes";
  // A multi-byte character cut at the probe's end is no fault of the file's: `stream` keeps it out.
  const chars = new TextDecoder("utf-8", { fatal: false }).decode(head, { stream: head.length < bytes.length });
  const undecodable = chars.length - chars.replaceAll("\uFFFD", "").length;
  if (undecodable > 0 && undecodable > chars.length * MAX_UNDECODABLE_SHARE) return "it is not UTF-8 text";
  return undefined;
}
