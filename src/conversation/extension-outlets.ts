// What the extensions show the user, as events of the conversation: their notes (ext_notify), the
// notes they take back (ext_clear_notes) and the panel on show (panel_open, panel_render,
// panel_close, each carrying the whole panel); and the user's side of a panel (keys, close, size)
// back to the board. Rule: connected once, when the first front end listens (or, for extensions a
// reload starts in a run that had none, when they are attached): notes sent while the extensions
// started (before anyone could hear them) are delivered then, and a panel opened meanwhile is shown
// then; nothing is lost for want of a listener.
import type { ExtensionManager } from "../extensions/manager.ts";
import type { PanelKey, PanelSink, PanelView } from "../extensions/panels.ts";
import type { AgentEvent } from "../protocol/events.ts";

export function connectExtensionOutlets(extensions: ExtensionManager, emit: (event: AgentEvent) => void): void {
  extensions.onNotify({
    notify: (note) => emit({ type: "ext_notify", ...note }),
    // An extension's clear_notes (additive, as the newer original sends it).
    clearNotes: (extension) => emit({ type: "ext_clear_notes", extension }),
  });
  extensions.panels.show(panelEvents(emit));
}

/** Panels as events: a panel is never an error; a front end that draws none simply does not show it. */
function panelEvents(emit: (event: AgentEvent) => void): PanelSink {
  const fields = (view: PanelView) => ({
    extension: view.extension,
    panel_id: view.id,
    title: view.title,
    lines: view.lines,
    footer: view.footer,
  });
  return {
    open: (view) => emit({ type: "panel_open", ...fields(view) }),
    update: (view) => emit({ type: "panel_render", ...fields(view) }),
    close: (view, reason) => emit({ type: "panel_close", extension: view.extension, panel_id: view.id, reason }),
  };
}

/** The user's side of the panel on show, for a front end that draws it (the TUI). */
export interface PanelControls {
  /** a key pressed while the panel has the focus */
  key(key: PanelKey, text?: string): void;
  /** the user closed it (Esc): its extension is told, and a panel_close (reason "user") follows */
  close(): void;
  /** the room it has, in cells */
  resize(width: number, height: number): void;
}

/** `extensions`: the run's extensions as they are now (they may start after the conversation does). */
export function panelControls(extensions: () => ExtensionManager | undefined): PanelControls {
  return {
    key: (key, text) => extensions()?.panels.key(key, text),
    close: () => extensions()?.panels.closeByUser(),
    resize: (width, height) => extensions()?.panels.resize(width, height),
  };
}
