// /yolo: turn the confirmation of tool calls off (tools run unasked) or back on (the --no-yolo
// dialog before each call). Rule: the conversation's one confirmation gate holds the state, so the
// status bar, the dialog and this command agree; turning confirmations off also approves the call
// waiting in the dialog.
import type { SlashCommand } from "../app-context.ts";

export const YOLO_COMMAND: SlashCommand = {
  name: "yolo",
  description: "Tool calls run unasked (on) or each asks first (off); bare /yolo switches",
  argsHint: "[on|off]",
  run(app, args) {
    const { guards } = app.conversation;
    // on: yolo (tool calls run unasked); off: each asks first. Anything else is no guess on a safety switch.
    const word = args.trim().toLowerCase();
    if (word !== "" && word !== "on" && word !== "off") {
      app.showNote(`/yolo takes on (tool calls run unasked), off (each asks first) or nothing (switch); "${args.trim()}" is neither, so nothing changed`, "error");
      return;
    }
    if (!guards.confirmable) {
      app.showNote("this run has no confirmation dialog, so tool calls cannot be confirmed here", "error");
      return;
    }
    // Already as asked: said, not switched the other way.
    if ((word === "on" && !guards.confirming) || (word === "off" && guards.confirming)) {
      app.showNote(guards.confirming ? "confirmations are on already: each tool call asks first" : "yolo is on already: tool calls run without asking", "info");
      return;
    }
    if (guards.confirming && guards.lockedOn !== undefined) {
      app.showNote(`confirmations stay on: ${guards.lockedOn}`, "error");
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
