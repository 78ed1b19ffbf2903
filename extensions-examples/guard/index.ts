// guard: refuses dangerous bash commands before they run, and turns force pushes into
// --force-with-lease. Written with the zot SDK; zot runs this file itself, nothing to install.
// The rules live in rules.ts; `/guard` lists them with what the guard did this session.
import { display, extension } from "@zot/sdk";
import { BLOCK_RULES, judge, REWRITE_RULE } from "./rules.ts";

const ext = extension({ name: "guard", version: "1.0.0" });
let blocked = 0;
let rewritten = 0;

ext.interceptToolCall((call) => {
  const command = call.tool_args.command;
  if (call.tool_name !== "bash" || typeof command !== "string") return undefined;
  const verdict = judge(command);
  if (verdict.kind === "block") {
    blocked++;
    ext.notify("warn", `blocked (${verdict.rule}): ${command}`);
    // The model gets the reason as the tool's error and can choose a safer command.
    return { block: true, reason: verdict.reason };
  }
  if (verdict.kind === "rewrite") {
    rewritten++;
    ext.notify("info", `rewrote (${verdict.rule}): ${verdict.command}`);
    return { args: { ...call.tool_args, command: verdict.command } };
  }
  return undefined;
});

ext.command("guard", "show the guard's rules", () =>
  display(
    [
      "guard refuses bash commands that match:",
      ...BLOCK_RULES.map((rule) => `  ${rule.name.padEnd(16)} ${rule.description}`),
      "and rewrites:",
      `  ${REWRITE_RULE.name.padEnd(16)} ${REWRITE_RULE.description}`,
      `this session: ${blocked} blocked, ${rewritten} rewritten`,
    ].join("\n"),
  ),
);

await ext.run();
