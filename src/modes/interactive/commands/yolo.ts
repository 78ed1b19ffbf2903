// /yolo: turn the confirmation of tool calls off (tools run unasked) or back on (the --no-yolo
// dialog before each call). Rule: the conversation's one confirmation gate holds the state, so the
// status bar, the dialog and this command agree; turning confirmations off also approves the call
// waiting in the dialog.
import type { SlashCommand } from "../app-context.ts";

export const YOLO_COMMAND: SlashCommand = {
  name: "yolo",
  description: "Toggle confirmations: tool calls run unasked, or each one asks first (as --no-yolo)",
  run(app) {
    const { guards } = app.conversation;
    if (!guards.confirmable) {
      app.showNote("this run has no confirmation dialog, so tool calls cannot be confirmed here", "error");
      return;
    }
    if (!guards.toggleConfirmations()) {
      app.showNote("yolo: tool calls run without asking; /yolo again to confirm each one", "warn");
      return;
    }
    if (!guards.asksSomeone) {
      app.showNote("confirmations on: a tool call no permission rule allows is refused, nobody is asked (--permission-mode dontAsk)", "success");
      return;
    }
    const remembered = guards.rememberedTools();
    const still = remembered.length > 0 ? ` (except ${remembered.join(", ")}, allowed for this session)` : "";
    app.showNote(`confirmations on: each tool call asks first${still}`, "success");
  },
};
