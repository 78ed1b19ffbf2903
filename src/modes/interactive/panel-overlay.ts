// Where the TUI shows extension panels: the app hands it the conversation's panel events (open,
// render, close, each with the whole panel). The panel on show is an overlay above the editor with
// the keyboard focus; when it closes (the user's Esc, the extension's panel_close, the extension
// exiting) the focus goes back to what had it, usually the editor. Rule: one panel at a time
// (another one replaces it), and the extension always knows the room it has: the size is reported
// when the first panel draws and whenever the terminal's size changes, never twice for the same
// size (the extensions' side re-sends it to each new panel).
import type { PanelControls } from "../../conversation/conversation.ts";
import type { Component } from "../../tui/component.ts";
import type { Theme } from "../../tui/theme.ts";
import { ExtensionPanel, type PanelView } from "./extension-panel.ts";

/** What the overlay needs of the app. */
export interface PanelScreen {
  readonly theme: Theme;
  openOverlay(component: Component): { close(): void };
  render(): void;
  /** the terminal's rows */
  screenRows(): number;
}

/** Rows kept free under the panel for the queue, the status bar and the editor. */
const BAND_ROWS = 6;

export class PanelOverlay {
  private shown: { panel: ExtensionPanel; overlay: { close(): void } } | undefined;
  /** the last size reported to the extension */
  private size = "";

  constructor(
    private readonly screen: PanelScreen,
    private readonly controls: PanelControls,
  ) {}

  /** The panel on show, if any. */
  get panel(): ExtensionPanel | undefined {
    return this.shown?.panel;
  }

  open(view: PanelView): void {
    this.shown?.overlay.close();
    const panel = new ExtensionPanel(view, this.screen.theme, () => this.screen.screenRows() - BAND_ROWS, {
      key: (key, text) => this.controls.key(key, text),
      close: () => this.controls.close(),
    });
    panel.onSize = (width, height) => this.sized(width, height);
    this.shown = { panel, overlay: this.screen.openOverlay(panel) };
  }

  update(view: PanelView): void {
    const shown = this.shown;
    if (!shown || shown.panel.id !== view.id || shown.panel.extension !== view.extension) return this.open(view);
    shown.panel.show(view);
    this.screen.render();
  }

  close(view: { extension: string; id: string }): void {
    const shown = this.shown;
    if (!shown || shown.panel.id !== view.id || shown.panel.extension !== view.extension) return;
    this.shown = undefined;
    shown.overlay.close();
  }

  private sized(width: number, height: number): void {
    const size = `${width}x${height}`;
    if (size === this.size) return;
    this.size = size;
    this.controls.resize(width, height);
  }
}
