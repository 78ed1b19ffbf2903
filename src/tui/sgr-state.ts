// Which text style and hyperlink are open at a point of an ANSI string, so a line cut in two can
// close its styles at the cut and reopen them on the next row. Rule: the reopening sequence is
// rebuilt from the state, never by replaying every code seen, so it stays short on long lines.

/** An escape sequence at the start of `text`: CSI, OSC (BEL or ST ended), APC/DCS (ST ended), or a two-byte ESC x. */
export const ESCAPE_PATTERN = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[_P][^\x1b]*\x1b\\|[@-Z\\-_])/y;

const ATTRIBUTES: Record<number, [name: Attribute, on: boolean]> = {
  1: ["bold", true],
  2: ["dim", true],
  3: ["italic", true],
  4: ["underline", true],
  7: ["inverse", true],
  9: ["strike", true],
  23: ["italic", false],
  24: ["underline", false],
  27: ["inverse", false],
  29: ["strike", false],
};
type Attribute = "bold" | "dim" | "italic" | "underline" | "inverse" | "strike";
const ATTRIBUTE_CODES: Record<Attribute, number> = { bold: 1, dim: 2, italic: 3, underline: 4, inverse: 7, strike: 9 };

export class SgrState {
  private attributes = new Set<Attribute>();
  private fg = "";
  private bg = "";
  private link = "";

  /** Feeds one escape sequence; anything but SGR and OSC 8 is ignored. */
  apply(sequence: string): void {
    if (sequence.startsWith("\x1b]8;")) {
      const body = sequence.replace(/^\x1b\]8;[^;]*;/, "").replace(/(\x07|\x1b\\)$/, "");
      this.link = body === "" ? "" : sequence;
      return;
    }
    if (!sequence.startsWith("\x1b[") || !sequence.endsWith("m")) return;
    const codes = sequence.slice(2, -1).split(/[;:]/).map((part) => (part === "" ? 0 : Number(part)));
    for (let i = 0; i < codes.length; i++) {
      const code = codes[i];
      if (code === 0) this.resetStyle();
      else if (code === 22) {
        this.attributes.delete("bold");
        this.attributes.delete("dim");
      } else if (ATTRIBUTES[code]) {
        const [name, on] = ATTRIBUTES[code];
        if (on) this.attributes.add(name);
        else this.attributes.delete(name);
      } else if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) this.fg = String(code);
      else if (code === 39) this.fg = "";
      else if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) this.bg = String(code);
      else if (code === 49) this.bg = "";
      else if (code === 38 || code === 48) {
        const length = codes[i + 1] === 5 ? 2 : codes[i + 1] === 2 ? 4 : 0;
        const value = codes.slice(i, i + 1 + length).join(";");
        if (code === 38) this.fg = value;
        else this.bg = value;
        i += length;
      }
    }
  }

  get active(): boolean {
    return this.attributes.size > 0 || this.fg !== "" || this.bg !== "" || this.link !== "";
  }

  /** The sequence that reopens everything active (empty when nothing is). */
  open(): string {
    const codes = [...this.attributes].map((name) => ATTRIBUTE_CODES[name]).join(";");
    const parts = [codes, this.fg, this.bg].filter((part) => part !== "");
    return (parts.length > 0 ? `\x1b[${parts.join(";")}m` : "") + this.link;
  }

  /** The sequence that closes everything active (empty when nothing is). */
  close(): string {
    const style = this.attributes.size > 0 || this.fg !== "" || this.bg !== "" ? "\x1b[0m" : "";
    return style + (this.link !== "" ? "\x1b]8;;\x1b\\" : "");
  }

  private resetStyle(): void {
    this.attributes.clear();
    this.fg = "";
    this.bg = "";
  }
}

const SGR_SEQUENCE = /\x1b\[([\d;:]*)m/g;

/**
 * The text with every colour code removed and every other attribute (bold, italic, underline,
 * inverse) kept: what NO_COLOR asks of text styled by someone else (Bun.markdown.ansi).
 */
export function withoutColor(text: string): string {
  return text.replace(SGR_SEQUENCE, (_sequence, body: string) => {
    const codes = body === "" ? [0] : body.split(/[;:]/).map(Number);
    const kept: number[] = [];
    for (let i = 0; i < codes.length; i++) {
      const code = codes[i];
      if (code === 38 || code === 48 || code === 58) i += codes[i + 1] === 5 ? 2 : codes[i + 1] === 2 ? 4 : 0;
      else if (!((code >= 30 && code <= 49) || (code >= 90 && code <= 107) || code === 59)) kept.push(code);
    }
    return kept.length > 0 ? `\x1b[${kept.join(";")}m` : "";
  });
}
