// /jail and /unjail: confine the built-in tools to the working directory, or set them free.
// Rule: the switch is the conversation's one jail (the one --jail sets), so it holds from the next
// tool call on, in the running turn too; the note says how bash is confined here, since a static
// check of the command text is a guard and not a sandbox.
import type { SlashCommand } from "../app-context.ts";

export const JAIL_COMMANDS: SlashCommand[] = [
  {
    name: "jail",
    description: "Confine the tools to the working directory (files outside refused, bash confined)",
    async run(app) {
      const { guards } = app.conversation;
      const root = guards.jailRoot;
      if (guards.jailed) {
        app.showNote(`already jailed to ${root}; /unjail lifts it`);
        return;
      }
      const bash =
        (await guards.jail()) === "bwrap"
          ? "bash runs under bubblewrap, seeing only this directory and the system"
          : "bash commands are checked for paths outside it (bubblewrap is not usable here, so this is a guard, not a sandbox)";
      app.showNote(`jailed to ${root}: read, write and edit refuse paths outside it; ${bash}`, "success");
    },
  },
  {
    name: "unjail",
    description: "Let the tools reach files outside the working directory again",
    run(app) {
      const { guards } = app.conversation;
      if (!guards.jailed) {
        app.showNote("not jailed; /jail confines the tools to the working directory");
        return;
      }
      guards.unjail();
      app.showNote("unjailed: the tools can reach files outside the working directory again", "warn");
    },
  },
];
