// A path or word as the shell reads it back: as it is when that is safe, else single-quoted. Used in
// the commands zot suggests (zot trust <dir>, a read's `sed -n … <file>`), which must work when
// copied, spaces and quotes in names included.

export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
