// Claude Code's permission rules on one agent, in every mode: the one entry point the runtime uses
// (marked "[permission rules]" there).
// Rule: a start with no settings file loads nothing of the rules (their files are read at the first
// tool call, when one has appeared); with one, they are read at the start, so a rule zot cannot read
// is told before the first prompt. Later warnings (a file edited meanwhile) go to `log`.
import { existsSync } from "node:fs";
import type { Agent } from "../core/agent.ts";
import type { GateAccess } from "../settings-hooks/tool-participant.ts";
import { settingsSources } from "../settings-hooks/settings-locations.ts";
import { permissionRulesParticipant } from "./participant.ts";
import type { PermissionRuleFiles } from "./rule-files.ts";

export interface PermissionRulesOptions {
  agent: Agent;
  cwd: string;
  /** $ZOT_HOME */
  home: string;
  /** ~ */
  userHome: string;
  /** the folder's workspace trust: its allow rules count only when trusted */
  projectTrusted: boolean;
  /** the confirmation gate, when the run has one (ask and allow rules go through it) */
  gate?: GateAccess;
  /** whether calls are confirmed from the start (`--no-yolo`): then a folder's allow rules that do not hold are worth a note */
  confirming: boolean;
  /** a warning after the start */
  log(message: string): void;
}

/** Puts the rules on the agent; resolves with the warnings of the start. */
export async function attachPermissionRules(options: PermissionRulesOptions): Promise<string[]> {
  const { agent, cwd, home, userHome, projectTrusted } = options;
  const notes: string[] = [];
  let warn: (message: string) => void = (message) => notes.push(message);
  // Every folder's file: a folder's deny and ask rules hold untrusted (rule-files.ts).
  const sources = settingsSources({ cwd, home, userHome, projectTrusted: true });
  let files: Promise<PermissionRuleFiles> | undefined;
  const load = () =>
    (files ??= import("./rule-files.ts").then(({ PermissionRuleFiles }) => new PermissionRuleFiles({ sources, cwd, userHome, projectTrusted, warn: (message) => warn(message) })));
  agent.chain.add(
    permissionRulesParticipant({
      rules: async () => (await load()).current(),
      isBuiltin: (name) => agent.tools.some((tool) => tool.name === name && tool.extension === undefined),
      cwd: () => agent.cwd,
      gate: options.gate,
    }),
  );
  if (sources.some((source) => existsSync(source.file))) {
    const read = await load();
    read.current();
    if (options.confirming) {
      for (const { source, count } of read.untrustedAllows()) {
        notes.push(`${source}: its ${count === 1 ? "allow rule does" : `${count} allow rules do`} not hold until you trust this folder (zot trust), so calls it allows are asked about`);
      }
    }
  }
  warn = options.log;
  return notes;
}
