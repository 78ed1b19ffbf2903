// read: every line reachable at any offset, the caps and the hint to continue, binary refusal,
// images by magic bytes. All on real files in a temp dir.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ImageBlock, TextBlock } from "../../src/protocol/messages.ts";
import { READ_MAX_BYTES, readTool } from "../../src/tools/read.ts";

const dir = mkdtempSync(join(tmpdir(), "zot-read-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ctx = { cwd: dir, signal: new AbortController().signal, onProgress() {} };

async function read(args: Record<string, unknown>) {
  const result = await readTool.execute(args, ctx);
  const text = result.content.map((b) => (b.type === "text" ? (b as TextBlock).text : "")).join("");
  return { ...result, text, details: result.details as Record<string, unknown> };
}

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

test("numbers lines like cat -n, relative to ctx.cwd, with details", async () => {
  file("small.txt", "alpha\nbeta\r\ngamma");
  const r = await read({ path: "small.txt" });
  expect(r.is_error).toBe(false);
  // CR of a CRLF line is not shown; a last line without newline is still a line.
  expect(r.text).toBe("     1\talpha\n     2\tbeta\n     3\tgamma\n");
  expect(r.details).toEqual({ path: join(dir, "small.txt"), total_lines: 3, start_line: 1, end_line: 3, truncated: false });
});

test("offset far beyond the first 50 KB of a 10 MB file reaches the right line", async () => {
  const lines: string[] = [];
  for (let i = 1; i <= 200_000; i++) lines.push(`line ${i} ${"x".repeat(40)}`);
  const path = file("big.txt", `${lines.join("\n")}\n`);
  expect(Bun.file(path).size).toBeGreaterThan(10_000_000);

  const r = await read({ path: "big.txt", offset: 150_000, limit: 3 });
  expect(r.is_error).toBe(false);
  expect(r.text.split("\n").slice(0, 3)).toEqual([
    `150000\tline 150000 ${"x".repeat(40)}`,
    `150001\tline 150001 ${"x".repeat(40)}`,
    `150002\tline 150002 ${"x".repeat(40)}`,
  ]);
  expect(r.details.total_lines).toBe(200_000);
  expect(r.text).toContain("[showing lines 150000-150002 of 200000; call read with offset=150003 limit=3 to continue]");

  const last = await read({ path: "big.txt", offset: 200_000 });
  expect(last.text).toBe(`200000\tline 200000 ${"x".repeat(40)}\n`);
  expect(last.details.end_line).toBe(200_000);
});

test("a selected line that straddles the scanner's 1 MiB read boundary comes back whole", async () => {
  file("straddle.txt", `${"a".repeat(1024 * 1024 - 6)}\n0123456789\nz`);
  const r = await read({ path: "straddle.txt", offset: 2 });
  expect(r.text).toBe("     2\t0123456789\n     3\tz\n");
  expect(r.details.total_lines).toBe(3);
});

test("caps at 2000 lines and says exactly where to continue", async () => {
  file("9000.txt", Array.from({ length: 9000 }, (_, i) => `n${i + 1}`).join("\n"));
  const r = await read({ path: "9000.txt" });
  const body = r.text.trimEnd().split("\n");
  expect(body).toHaveLength(2001);
  expect(body[1999]).toBe("  2000\tn2000");
  expect(body[2000]).toBe("[showing lines 1-2000 of 9000; call read with offset=2001 to continue]");
  expect(r.details.truncated).toBe(true);

  // A limit above the cap is capped too.
  const big = await read({ path: "9000.txt", offset: 8000, limit: 5000 });
  expect(big.details.end_line).toBe(9000);
  expect(big.details.truncated).toBe(false);
  expect(big.text.trimEnd().split("\n")).toHaveLength(1001);
});

test("caps at 50 KB of output; following the hint skips no line", async () => {
  file("wide.txt", Array.from({ length: 3000 }, (_, i) => `${i + 1}:${"w".repeat(200)}`).join("\n"));
  const seen: number[] = [];
  let offset = 1;
  for (let call = 0; call < 20 && offset <= 3000; call++) {
    const r = await read({ path: "wide.txt", offset });
    const numbered = r.text.split("\n").filter((l) => /^\s*\d+\t/.test(l));
    expect(Buffer.byteLength(numbered.map((l) => `${l}\n`).join(""))).toBeLessThanOrEqual(READ_MAX_BYTES);
    for (const l of numbered) seen.push(Number(l.split("\t")[0]));
    const hint = r.text.match(/call read with offset=(\d+) to continue/);
    if (!hint) break;
    expect(r.text).toContain("capped at 50 KB");
    expect(r.details.truncated).toBe(true);
    offset = Number(hint[1]);
  }
  expect(seen).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
});

test("a single line longer than the byte cap is cut with a note, and the next line stays reachable", async () => {
  file("longline.txt", `short\n${"é".repeat(100_000)}\nafter\n`);
  const r = await read({ path: "longline.txt", offset: 2 });
  expect(r.is_error).toBe(false);
  const [first] = r.text.split("\n");
  expect(first.startsWith("     2\té")).toBe(true);
  expect(Buffer.byteLength(first)).toBeLessThanOrEqual(READ_MAX_BYTES);
  expect(first).not.toContain("\uFFFD"); // cut on a character boundary
  expect(r.text).toContain("[line 2 is 200000 bytes long; only its first");
  expect(r.text).toContain("call read with offset=3 to continue");
  expect(r.details.truncated).toBe(true);
  expect((await read({ path: "longline.txt", offset: 3 })).text).toBe("     3\tafter\n");
});

test("limit and offset select a window; offset past the end is an error that gives the range", async () => {
  file("ten.txt", Array.from({ length: 10 }, (_, i) => `L${i + 1}\n`).join(""));
  const r = await read({ path: "ten.txt", offset: "4", limit: 2 }); // numeric strings are accepted
  expect(r.text).toBe("     4\tL4\n     5\tL5\n[showing lines 4-5 of 10; call read with offset=6 limit=2 to continue]\n");
  const past = await read({ path: "ten.txt", offset: 11 });
  expect(past.is_error).toBe(true);
  expect(past.text).toContain("offset 11 is past the end of ten.txt, which has 10 lines");
});

test("empty file is not an error", async () => {
  file("empty.txt", "");
  const r = await read({ path: "empty.txt" });
  expect(r.is_error).toBe(false);
  expect(r.text).toContain("empty");
  expect(r.details.total_lines).toBe(0);
});

test("NUL bytes in the first 8 KB mean binary", async () => {
  file("blob.bin", new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
  const r = await read({ path: "blob.bin" });
  expect(r.is_error).toBe(true);
  expect(r.text).toContain("blob.bin looks binary");
});

test("a /proc file, whose size reads as 0, is probed by what it holds: /proc/self/cmdline's NULs mean binary, /proc/self/status is text", async () => {
  expect(statSync("/proc/self/cmdline").size).toBe(0);
  const cmdline = await read({ path: "/proc/self/cmdline" });
  expect(cmdline.is_error).toBe(true);
  expect(cmdline.text).toContain("/proc/self/cmdline looks binary");
  const status = await read({ path: "/proc/self/status" });
  expect(status.is_error).toBe(false);
  expect(status.text).toContain("Pid:");
});

// Headers that say each image's size, as real files' do (the read tool checks it); a PNG ends with its IEND chunk.
const be32 = (n: number) => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const IEND = [0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];
const png = (width: number, height: number) =>
  new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, ...be32(width), ...be32(height), 8, 6, 0, 0, 0, 1, 2, 3, 4, ...IEND]);
const PNG = png(640, 480);
// SOI, an APP0 segment, then a baseline frame (SOF0) of 48×32.
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xc0, 0, 0x11, 8, 0, 32, 0, 48, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
const GIF = new Uint8Array([...Buffer.from("GIF89a"), 1, 0, 1, 0, 0, 0, 0]);
// A lossy WebP: "VP8 ", its chunk size, a frame tag, the start code, then 16×16.
const WEBP = new Uint8Array([...Buffer.from("RIFF"), 22, 0, 0, 0, ...Buffer.from("WEBPVP8 "), 10, 0, 0, 0, 0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, 16, 0, 16, 0]);

test("images are detected by magic bytes, whatever the extension", async () => {
  for (const [name, bytes, mime] of [
    ["shot.dat", PNG, "image/png"],
    ["photo", JPEG, "image/jpeg"],
    ["anim.txt", GIF, "image/gif"],
    ["pic.webp", WEBP, "image/webp"],
  ] as const) {
    file(name, bytes);
    const r = await readTool.execute({ path: name }, ctx);
    expect(r.is_error).toBe(false);
    expect(r.content).toHaveLength(1);
    const block = r.content[0] as ImageBlock;
    expect(block.type).toBe("image");
    expect(block.mime_type).toBe(mime);
    expect(Buffer.from(block.data, "base64")).toEqual(Buffer.from(bytes));
  }
});

test("an image over what the model APIs take (5 MB of base64) is refused with how to make a smaller one, never sent", async () => {
  const big = new Uint8Array(4 * 1024 * 1024);
  big.set(PNG);
  file("huge.png", big);
  const r = await read({ path: "huge.png" });
  expect(r.is_error).toBe(true);
  // The limit in the words the README uses (3.75 MB), not rounded.
  expect(r.text).toContain("read: huge.png is a 4 MB image, over the 3.75 MB limit");
  expect(r.content[0].type).toBe("text");
});

test("an image is sent only when its header says a size the model takes: too wide, and damaged, are refused saying so", async () => {
  file("wide.png", png(12000, 2));
  const wide = await read({ path: "wide.png" });
  expect(wide.is_error).toBe(true);
  expect(wide.text).toStartWith("read: wide.png is 12000×2 pixels, over the 8000 px a side the model takes; make a smaller copy");
  file("corrupt.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Buffer.from("garbage garbage garbage")]));
  const corrupt = await read({ path: "corrupt.png" });
  expect(corrupt.is_error).toBe(true);
  expect(corrupt.text).toBe("read: corrupt.png starts like a PNG image, but its header does not say its size (damaged or cut short?); check it with bash (`file corrupt.png`)");
  file("cut.jpg", JPEG.subarray(0, 12));
  expect((await read({ path: "cut.jpg" })).is_error).toBe(true);
  // Cut short after its header (an interrupted download or screenshot): no API could decode it.
  file("cut.png", png(640, 480).subarray(0, 40));
  expect((await read({ path: "cut.png" })).text).toStartWith("read: cut.png is a PNG image that ends before its image does (cut short");
  // a WebP whose RIFF header says it is longer than the file
  const cutWebp = WEBP.slice();
  cutWebp[4] = 100;
  file("cut.webp", cutWebp);
  expect((await read({ path: "cut.webp" })).text).toStartWith("read: cut.webp is a WEBP image that ends before its image does");
  // bytes after IEND (a tool's signature, padding) are no cut: the image is sent
  file("tail.png", new Uint8Array([...png(640, 480), ...new Uint8Array(24).fill(7)]));
  expect((await read({ path: "tail.png" })).is_error).toBe(false);
});

test("a text file named .png is read as text", async () => {
  file("fake.png", "not really an image\n");
  const r = await read({ path: "fake.png" });
  expect(r.content[0].type).toBe("text");
  expect(r.text).toBe("     1\tnot really an image\n");
});

test("directory, missing file and bad arguments are errors that say what to do", async () => {
  mkdirSync(join(dir, "sub"), { recursive: true });
  const d = await read({ path: "sub" });
  expect(d.is_error).toBe(true);
  expect(d.text).toContain("is a directory");
  expect(d.text).toContain("ls");

  file("README.md", "hi\n");
  const missing = await read({ path: "readme.md" });
  expect(missing.is_error).toBe(true);
  expect(missing.text).toContain("readme.md does not exist");
  expect(missing.text).toContain("README.md");

  const noArgs = await read({});
  expect(noArgs.is_error).toBe(true);
  expect(noArgs.text).toStartWith('read: "path" is required');

  const badOffset = await read({ path: "README.md", offset: 1.5 });
  expect(badOffset.is_error).toBe(true);
  expect(badOffset.text).toContain('"offset" must be an integer');
});

test("advertises the JSON Schema derived from its valibot schema", () => {
  expect(readTool.parameters).toMatchObject({
    type: "object",
    required: ["path"],
    properties: { path: { type: "string" }, offset: { type: "integer" }, limit: { type: "integer", minimum: 1 } },
  });
  expect(readTool.parameters.$schema).toBeUndefined();
});

test("readsOnlyInside: a path inside the working directory, judged by where it leads (symlinks followed)", () => {
  file("inside.txt", "x");
  mkdirSync(join(dir, "sub"), { recursive: true });
  symlinkSync("/etc/hostname", join(dir, "sub", "escape"));
  const inside = (args: Record<string, unknown>) => readTool.readsOnlyInside!(args, dir);
  expect(inside({ path: "inside.txt" })).toBe(true);
  expect(inside({ file_path: "sub/not-yet.txt" })).toBe(true);
  expect(inside({ path: join(dir, "inside.txt") })).toBe(true);
  expect(inside({ path: "../elsewhere.txt" })).toBe(false);
  expect(inside({ path: "/etc/passwd" })).toBe(false);
  expect(inside({ path: "sub/escape" })).toBe(false);
  expect(inside({ path: "~/.ssh/id_rsa" })).toBe(false);
  expect(inside({})).toBe(false);
});

test("a FIFO, a device or a link to one is refused at once with a sentence, never waited on", async () => {
  const fifo = join(dir, "pipe");
  Bun.spawnSync(["mkfifo", fifo]);
  symlinkSync(fifo, join(dir, "pipe-link"));
  for (const path of ["pipe", "pipe-link", "/dev/zero"]) {
    const r = await read({ path });
    expect(r.is_error).toBe(true);
    expect(r.text).toContain("is not a regular file");
    expect(r.text).toContain("use bash with a timeout");
  }
  // The suggested command works as given: a name with a space quoted, ~ left for the shell.
  Bun.spawnSync(["mkfifo", join(dir, "my pipe")]);
  expect((await read({ path: "my pipe" })).text).toContain("`timeout 5 head -c 4096 'my pipe'`");
  expect((await read({ path: "~" })).text).toContain("list it with bash (e.g. `ls -la ~`)");
});

test("the file's byte-order mark is no text; one at the start of a later line (files joined) is shown, as edit matches it", async () => {
  file("joined.txt", "\uFEFFfirst\n\uFEFFsecond part\nbody\n");
  const r = await read({ path: "joined.txt" });
  expect(r.text).toBe("     1\tfirst\n     2\t\uFEFFsecond part\n     3\tbody\n");
});

test("UTF-16 text is named as such, with the command that reads it; a dangling link says where it points", async () => {
  file("u16 le.txt", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("hi\r\n", "utf16le")]));
  const u16 = await read({ path: "u16 le.txt" });
  expect(u16.is_error).toBe(true);
  expect(u16.text).toBe("read: u16 le.txt is UTF-16LE text (its byte-order mark says so), which read shows as UTF-8 only; read it through bash: `iconv -f UTF-16LE -t UTF-8 'u16 le.txt'`");
  symlinkSync(join(dir, "nowhere"), join(dir, "dangling"));
  const dangling = await read({ path: "dangling" });
  expect(dangling.text).toBe(`read: dangling is a symbolic link to ${join(dir, "nowhere")}, which does not exist`);
  symlinkSync(join(dir, "loop"), join(dir, "loop"));
  const loop = await read({ path: "loop" });
  expect([loop.is_error, loop.text]).toEqual([true, "read: cannot read loop: it is a link that loops"]);
});
