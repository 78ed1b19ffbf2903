// The colours and text attributes components draw with, passed to each component (no global
// theme). Rule: with colour off (NO_COLOR, TERM=dumb, or not a terminal) every colour function
// returns its text unchanged; attributes (bold, italic, underline, inverse, dim) stay, since
// NO_COLOR forbids colour, not emphasis, and a selection must stay visible without colour.

export type Style = (text: string) => string;

export interface Theme {
  readonly color: boolean;
  /** A light terminal background (picks darker foregrounds for code). */
  readonly light: boolean;
  readonly accent: Style;
  readonly muted: Style;
  readonly error: Style;
  readonly warning: Style;
  readonly success: Style;
  readonly bold: Style;
  readonly dim: Style;
  readonly italic: Style;
  readonly underline: Style;
  readonly inverse: Style;
  readonly strike: Style;
  /** Syntax highlighting of fenced code. */
  readonly code: {
    readonly keyword: Style;
    readonly string: Style;
    readonly number: Style;
    readonly comment: Style;
    readonly type: Style;
    readonly function: Style;
    readonly added: Style;
    readonly removed: Style;
    readonly plain: Style;
  };
}

const sgr = (open: string, close: string): Style => (text) => (text === "" ? "" : `\x1b[${open}m${text}\x1b[${close}m`);
const fg = (open: string) => sgr(open, "39");
const plain: Style = (text) => text;

/**
 * Whether colour may be used: NO_COLOR (any non-empty value) and TERM=dumb turn it off,
 * FORCE_COLOR (non-empty, not "0") turns it on, otherwise only a terminal gets colour.
 */
export function colorAllowed(env: Record<string, string | undefined> = process.env, isTerminal = Boolean(process.stdout.isTTY)): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR && env.FORCE_COLOR !== "0") return true;
  if (env.TERM === "dumb") return false;
  return isTerminal;
}

/**
 * Whether the terminal's background is light, from COLORFGBG ("fg;bg", set by rxvt, Konsole, iTerm2
 * and others): background 7 or 9–15 is light. Unknown: dark, the common case.
 */
export function lightBackground(env: Record<string, string | undefined> = process.env): boolean {
  const background = Number(env.COLORFGBG?.split(";").at(-1));
  return background === 7 || (background >= 9 && background <= 15);
}

export function createTheme(options: { color?: boolean; light?: boolean } = {}): Theme {
  const color = options.color ?? colorAllowed();
  const light = options.light ?? lightBackground();
  const c = (code: string): Style => (color ? fg(code) : plain);
  return {
    color,
    light,
    accent: c("36"),
    muted: c("90"),
    error: c("31"),
    warning: c("33"),
    success: c("32"),
    bold: sgr("1", "22"),
    dim: sgr("2", "22"),
    italic: sgr("3", "23"),
    underline: sgr("4", "24"),
    inverse: sgr("7", "27"),
    strike: sgr("9", "29"),
    code: {
      keyword: c(light ? "35" : "95"),
      string: c(light ? "32" : "92"),
      number: c(light ? "33" : "93"),
      comment: c("90"),
      type: c(light ? "36" : "96"),
      function: c(light ? "34" : "94"),
      added: c("32"),
      removed: c("31"),
      plain,
    },
  };
}
