// house-rules: appends the project's `.zot/house-rules.md` to the system prompt, so every model
// call follows the team's rules. Written with the zot SDK; zot runs this file itself.
// before_agent_start comes once zot has assembled its prompt and before the model first sees it,
// and again after a model switch, /clear, a session switch or a reload: the file is read each
// time, so an edit applies from the next /clear on. Rewrite, don't replace: the rules are added
// to the prompt zot (and the extensions before this one) made. No file, no change.
import { readFileSync } from "node:fs";
import path from "node:path";
import { display, extension } from "@zot/sdk";

const ext = extension({ name: "house-rules", version: "1.0.0" });
const RULES_FILE = path.join(".zot", "house-rules.md");

function rules(cwd: string): string | undefined {
  try {
    const text = readFileSync(path.join(cwd, RULES_FILE), "utf8").trim();
    return text === "" ? undefined : text;
  } catch {
    return undefined;
  }
}

let applied: string | undefined;

ext.interceptBeforeAgentStart((start) => {
  applied = rules(start.cwd);
  if (applied === undefined) return undefined;
  return `${start.system_prompt}\n\n# House rules (from ${RULES_FILE}; follow them)\n\n${applied}`;
});

ext.command("rules", "show the house rules in the system prompt", () =>
  display(applied === undefined ? `no house rules: write them in ${RULES_FILE}` : `house rules in the system prompt:\n${applied}`),
);

await ext.run();
