// What the interactive app is to its extensions: where their notes go (the notes area under the
// transcript: ext_notify, a command's ext_display, ext_clear_notes), where their panels show (the
// PanelOverlay, from the panel events), and where their `submit` and `submit_slash` land (the app's
// input, as if typed). Rule: input from an extension goes exactly the way typed input goes (a prompt
// starts a turn or waits in the queue, a command runs, built-in or an extension's), and says which
// extension sent it: the queued entry and a grey line name it. A submit_slash that names no command
// is refused with a note; it never reaches the model, and it never touches what the user is typing.
import { noFTL } from "bun:jsc";
import type { Conversation } from "../../conversation/conversation.ts";
import type { AgentEvent } from "../../protocol/events.ts";
import { parseSlash } from "../../protocol/slash-command.ts";
import type { InteractiveApp } from "./app.ts";
import { panelViewOf } from "./extension-panel.ts";
import { PanelOverlay } from "./panel-overlay.ts";

export class AppExtensions {
  readonly overlay: PanelOverlay;

  constructor(
    private readonly app: InteractiveApp,
    conversation: Conversation,
  ) {
    const screen = {
      theme: app.theme,
      openOverlay: app.openOverlay.bind(app),
      render: () => app.render(),
      screenRows: () => app.tui.terminal.rows,
    };
    this.overlay = new PanelOverlay(screen, conversation.panels);
    conversation.onExtensionInput({
      submit: (text, extension) => app.submitPrompt(text, extension),
      submitSlash: (text, extension) => {
        const slash = parseSlash(text);
        const known = slash && (app.commands.some((command) => command.name === slash.name) || conversation.commands.has(slash.name));
        if (!slash || !known) {
          app.showNote(`extension ${extension} asked to run ${JSON.stringify(text.split(/\s/)[0])}, which is not a command here`, "error");
          return;
        }
        app.chat.addNote(`/${slash.name} run by extension ${extension}`, "muted");
        app.handleInput(text);
      },
    });
  }

  /** An event for the notes area or the panel; false when it is not the extensions' business. */
  handle(event: AgentEvent): boolean {
    const notes = this.app.chat.notes;
    switch (event.type) {
      case "ext_notify":
        notes.add({ extension: event.extension, level: event.level, message: event.message });
        return true;
      case "ext_display":
        notes.add({ extension: event.extension, level: "info", message: event.text });
        return true;
      case "ext_clear_notes":
        notes.clear(event.extension);
        return true;
      case "panel_open":
        this.overlay.open(panelViewOf(event));
        return true;
      case "panel_render":
        this.overlay.update(panelViewOf(event));
        return true;
      case "panel_close":
        this.overlay.close({ extension: event.extension, id: event.panel_id });
        return true;
      default:
        return false;
    }
  }
}

// Runs once per streamed event: kept below JavaScriptCore's FTL tier (see providers/stream-driver.ts).
noFTL(AppExtensions.prototype.handle);
