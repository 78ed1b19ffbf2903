// Extension panels where nothing draws them (--json, rpc, the in-process SDK): each change is an
// event (panel_open, panel_render, panel_close) carrying the whole panel, for an embedding UI to
// draw. Rule: a panel is never an error here; without a UI it is simply not shown.
import type { Agent } from "../core/agent.ts";
import type { PanelSink, PanelView } from "./panels.ts";

export function panelEventSink(agent: Agent): PanelSink {
  const fields = (view: PanelView) => ({
    extension: view.extension,
    panel_id: view.id,
    title: view.title,
    lines: view.lines,
    footer: view.footer,
  });
  return {
    open: (view) => agent.emit({ type: "panel_open", ...fields(view) }),
    update: (view) => agent.emit({ type: "panel_render", ...fields(view) }),
    close: (view, reason) => agent.emit({ type: "panel_close", extension: view.extension, panel_id: view.id, reason }),
  };
}
