// Extension panels: the one panel on show at a time, between the extensions that draw it and the
// front end that shows it (the TUI's panel component, -p's printed text, --json and rpc events).
// Rule: a panel belongs to the extension that opened it; a render or close from anyone else, or
// for another id, is ignored (logged), and whoever loses the panel (replaced, closed by the user,
// its extension gone) is told, so no extension keeps drawing into a panel nobody sees.
import type { HostFrameOf, PanelContent, PanelSpec, PanelView } from "../protocol/ext-frames.ts";

/** What an extension did to its panel, as its host reports it. `gone`: the extension exited. */
export type PanelOp =
  | { op: "open"; panel: PanelSpec }
  | ({ op: "render"; panel_id: string } & PanelContent)
  | { op: "close"; panel_id: string }
  | { op: "gone" };

export type { PanelView };

/** Why a panel closed: its extension closed it (or went away), the user did, or another panel took its place. */
export type PanelCloseReason = "extension" | "user" | "replaced";

/** Where panels are shown; one per run, set by the mode. */
export interface PanelSink {
  open(view: PanelView): void;
  update(view: PanelView): void;
  close(view: PanelView, reason: PanelCloseReason): void;
}

/** What the board needs of an extension's host. */
export interface PanelOwner {
  readonly name: string;
  sendPanel(frame: HostFrameOf<"panel_key" | "panel_close" | "panel_resize">): void;
  log(line: string): void;
}

export type PanelKey = HostFrameOf<"panel_key">["key"];

export class PanelBoard {
  private active: { owner: PanelOwner; view: PanelView } | undefined;
  private sink: PanelSink | undefined;
  private size: { width: number; height: number } | undefined;

  /** The panel on show, if any. */
  get current(): PanelView | undefined {
    return this.active?.view;
  }

  /**
   * Routes panels to the front end. Until one is set the board still keeps the panel an extension
   * opened (a panel opened on session_start, while the front end is starting), and shows it then.
   */
  show(sink: PanelSink): void {
    this.sink = sink;
    if (this.active) sink.open(this.active.view);
  }

  /** An extension's panel frame. */
  apply(owner: PanelOwner, op: PanelOp): void {
    switch (op.op) {
      case "open":
        return this.open(owner, op.panel);
      case "render": {
        const active = this.mine(owner, op.panel_id, "panel_render");
        if (!active) return;
        const { op: _, panel_id: __, ...content } = op;
        // An empty title keeps the previous one (the original's rule).
        active.view = viewOf(owner.name, active.view.id, content, active.view);
        this.sink?.update(active.view);
        return;
      }
      case "close": {
        const active = this.mine(owner, op.panel_id, "panel_close");
        if (!active) return;
        this.active = undefined;
        this.sink?.close(active.view, "extension");
        return;
      }
      case "gone":
        if (this.active?.owner !== owner) return;
        this.sink?.close(this.active.view, "extension");
        this.active = undefined;
        return;
    }
  }

  /** A key the user pressed while the panel has focus. */
  key(key: PanelKey, text?: string): void {
    const active = this.active;
    if (!active) return;
    active.owner.sendPanel({ type: "panel_key", panel_id: active.view.id, key, ...(key === "rune" && text !== undefined ? { text } : {}) });
  }

  /** The user closed the panel (Esc, Ctrl+C): the front end has taken it down; its extension is told. */
  closeByUser(): void {
    const active = this.active;
    if (!active) return;
    this.active = undefined;
    active.owner.sendPanel({ type: "panel_close", panel_id: active.view.id });
    this.sink?.close(active.view, "user");
  }

  /** The room a panel has, in cells; sent to the panel on show now and to every panel opened later. */
  resize(width: number, height: number): void {
    this.size = { width, height };
    const active = this.active;
    if (active) active.owner.sendPanel({ type: "panel_resize", panel_id: active.view.id, width, height });
  }

  private open(owner: PanelOwner, panel: PanelSpec): void {
    const previous = this.active;
    if (previous && (previous.owner !== owner || previous.view.id !== panel.id)) {
      previous.owner.sendPanel({ type: "panel_close", panel_id: previous.view.id });
      this.sink?.close(previous.view, "replaced");
    }
    const reopened = previous?.owner === owner && previous.view.id === panel.id;
    const view = viewOf(owner.name, panel.id, panel, reopened ? previous.view : undefined);
    this.active = { owner, view };
    if (reopened) this.sink?.update(view);
    else this.sink?.open(view);
    if (this.size) owner.sendPanel({ type: "panel_resize", panel_id: panel.id, ...this.size });
  }

  private mine(owner: PanelOwner, id: string, frame: string): { owner: PanelOwner; view: PanelView } | undefined {
    const active = this.active;
    if (active && active.owner === owner && active.view.id === id) return active;
    owner.log(`${frame} for panel "${id}" ignored: it is not the panel this extension has open`);
    return undefined;
  }
}

function viewOf(extension: string, id: string, content: PanelContent, previous?: PanelView): PanelView {
  return {
    extension,
    id,
    title: content.title || previous?.title || extension,
    lines: content.lines ?? previous?.lines ?? [],
    footer: content.footer ?? previous?.footer ?? "",
  };
}
