// The terminal control sequences the toolkit writes, named once. Rule: nothing in src/tui/ spells
// an escape sequence inline; CLEAR_SCROLLBACK is written by one method only (Renderer.clearScreen,
// the user's explicit Ctrl+L), so a grep for it finds every place scrollback can be lost.

export const ESC = "\x1b";
export const CSI = "\x1b[";

/** DEC mode 2026: the terminal shows the frame only when the end marker arrives (no tearing). */
export const SYNC_START = "\x1b[?2026h";
export const SYNC_END = "\x1b[?2026l";

/**
 * DEC mode 7 (autowrap) off and on again: a row wider than the terminal draws it (a ZWJ emoji that
 * is one glyph to us and four to the terminal) is cut at the right edge instead of wrapping onto
 * the next row and moving every row under it.
 */
export const AUTOWRAP_OFF = "\x1b[?7l";
export const AUTOWRAP_ON = "\x1b[?7h";

export const HIDE_CURSOR = "\x1b[?25l";
export const SHOW_CURSOR = "\x1b[?25h";

export const BRACKETED_PASTE_ON = "\x1b[?2004h";
export const BRACKETED_PASTE_OFF = "\x1b[?2004l";
export const PASTE_START = "\x1b[200~";
export const PASTE_END = "\x1b[201~";

/** Erases the whole row the cursor is on (the cursor does not move). */
export const ERASE_LINE = "\x1b[2K";
/** Erases from the cursor to the end of the screen. Never pushes rows into scrollback. */
export const ERASE_BELOW = "\x1b[J";
export const CURSOR_HOME = "\x1b[H";
export const CLEAR_SCREEN = "\x1b[2J";
/** Drops the terminal's scrollback. Only an explicit user clear (Ctrl+L) may write it. */
export const CLEAR_SCROLLBACK = "\x1b[3J";

/** SGR reset plus an OSC 8 hyperlink close, so no style or link bleeds past a row. */
export const RESET_STYLE = "\x1b[0m";
export const HYPERLINK_CLOSE = "\x1b]8;;\x1b\\";

/** Kitty keyboard protocol: ask for the current flags; a terminal that supports it answers `CSI ? flags u`. */
export const KITTY_QUERY = "\x1b[?u";
/** Primary device attributes: every terminal answers, so its reply ends the Kitty query's wait. */
export const DEVICE_ATTRIBUTES_QUERY = "\x1b[c";
export const kittyPush = (flags: number) => `\x1b[>${flags}u`;
export const KITTY_POP = "\x1b[<u";
/** xterm modifyOtherKeys level 2: Shift+Enter, Ctrl+digits etc. arrive as `CSI 27 ; mod ; code ~`. */
export const MODIFY_OTHER_KEYS_ON = "\x1b[>4;2m";
export const MODIFY_OTHER_KEYS_OFF = "\x1b[>4;0m";

export const cursorUp = (rows: number) => (rows > 0 ? `\x1b[${rows}A` : "");
export const cursorDown = (rows: number) => (rows > 0 ? `\x1b[${rows}B` : "");
/** Moves to a column of the current row; `column` counts from 0. */
export const cursorColumn = (column: number) => `\x1b[${column + 1}G`;
