// Rules held for a while (a Markdown command's allowed-tools, for its prompt and for its `!` lines):
// they count for the calls they are held for (the model's own, or one origin's) while held, never
// for another's meanwhile, and not after.
import { expect, test } from "bun:test";
import type { Agent } from "../../src/core/agent.ts";
import type { Participant } from "../../src/core/intercept.ts";
import { readFlagRules, readPermissionRules } from "../../src/permission-rules/attach.ts";
import { tempDir } from "../support/zot.ts";

test("held allow rules let the calls they are held for past the gate (the model's own, or one origin's), not another's, and only while held", async () => {
  const cwd = tempDir("zot-held-");
  const userHome = tempDir("zot-held-user-");
  const rules = await readPermissionRules({ cwd, home: tempDir("zot-held-home-"), userHome, projectTrusted: true, confirming: true, log: () => {} });
  const participants: Participant[] = [];
  const agent = { chain: { add: (p: Participant) => participants.push(p) }, tools: [{ name: "bash" }], cwd, withholdTools: () => {} } as unknown as Agent;
  const verdicts: string[] = [];
  rules.attach(agent, { canAsk: true, hookVerdict: (id, verdict) => verdicts.push(`${id}:${verdict}`), forget: () => {} });
  const [participant] = participants;
  const approve = (id: string, origin?: string) =>
    participant!.decide("approve_tool", { id, name: "bash", args: { command: "echo hi" }, ...(origin ? { origin } : {}) }, new AbortController().signal);

  const read = await readFlagRules([{ verdict: "allow", text: "Bash(echo *)", source: "/note (allowed-tools)" }], { cwd, userHome });
  if ("error" in read) throw new Error(read.error);
  const release = rules.holdWhile(read);
  await approve("own");
  await approve("ext", "timer-extension");
  release();
  await approve("after");
  expect(verdicts).toEqual(["own:allow"]);

  // Held for one origin (a command's `!` lines, "commands"): its calls only, not the model's.
  const forLines = rules.holdWhile(read, "commands");
  await approve("line", "commands");
  await approve("own-meanwhile");
  await approve("other", "timer-extension");
  forLines();
  await approve("line-after", "commands");
  expect(verdicts).toEqual(["own:allow", "line:allow"]);
});
