// What the interactive app is to its extensions: where their notes go (the notes area under the
// transcript), where their panels show (PanelOverlay), and where their `submit` and `submit_slash`
// land (the app's input, as if typed). Rule: input from an extension goes exactly the way typed
// input goes (a prompt starts a turn or waits in the queue, a command runs, built-in or an
// extension's), and says which extension sent it: the queued entry and a grey line name it. A
// submit_slash that names no command is refused with a note; it never reaches the model, and it
// never touches what the user is typing.
import type { ExtensionManager } from "../../extensions/manager.ts";
import { parseSlash } from "../../protocol/slash-command.ts";
import type { InteractiveApp } from "./app.ts";
import { PanelOverlay } from "./panel-overlay.ts";

export function connectExtensions(app: InteractiveApp, extensions: ExtensionManager): void {
  extensions.onNotify({
    notify: (note) => {
      app.chat.notes.add(note);
      app.render();
    },
    clearNotes: (extension) => {
      app.chat.notes.clear(extension);
      app.render();
    },
  });
  const screen = {
    theme: app.theme,
    openOverlay: app.openOverlay.bind(app),
    render: () => app.render(),
    screenRows: () => app.tui.terminal.rows,
  };
  extensions.panels.show(new PanelOverlay(screen, extensions.panels));
  extensions.onInput({
    submit: (text, extension) => app.submitPrompt(text, extension),
    submitSlash: (text, extension) => {
      const slash = parseSlash(text);
      const known = slash && (app.commands.some((command) => command.name === slash.name) || extensions.hasCommand(slash.name));
      if (!slash || !known) {
        app.showNote(`extension ${extension} asked to run ${JSON.stringify(text.split(/\s/)[0])}, which is not a command here`, "error");
        return;
      }
      app.chat.addNote(`/${slash.name} run by extension ${extension}`, "muted");
      app.handleInput(text);
    },
  });
}
