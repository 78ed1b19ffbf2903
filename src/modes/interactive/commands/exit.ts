// /exit and /quit: end zot (the terminal is restored and the session closed by the app).
import type { SlashCommand } from "../app-context.ts";

export const EXIT_COMMANDS: SlashCommand[] = ["exit", "quit"].map((name) => ({
  name,
  description: "Quit zot",
  run(app) {
    app.exit(0);
  },
}));
