// Claude Code's permission rules on one agent, in every mode: the one entry point the runtime uses
// (marked "[permission rules]" there). The rules are the settings files' and the run's own
// (`--allowedTools`, `--disallowedTools`: cli/permission-flags.ts), read before the system prompt
// is written (readPermissionRules), so a tool a deny rule refuses whole is neither named in it nor
// offered to the model, as Claude Code withholds it; then put on the agent (attach).
// Rule: a start with no settings file and no rule flag loads nothing of the rules (their files are
// read at the first tool call, when one has appeared); with one, they are read at the start, so a
// rule zot cannot read is told before the first prompt (a flag's stops the run: readFlagRules).
// Later warnings (a file edited meanwhile) go to `log`.
import type { SettingSourceName } from "../protocol/setting-sources.ts";
import { existsSync } from "node:fs";
import type { Agent } from "../core/agent.ts";
import type { ProtectedPath, Tool } from "../protocol/tool.ts";
import type { GateAccess } from "../settings-hooks/tool-participant.ts";
import { settingsSources } from "../settings-hooks/settings-locations.ts";
import { type Judgement, judge, type RuleBook } from "./judge.ts";
import { permissionRulesParticipant, ruledCall } from "./participant.ts";
import type { PathAnchors } from "./path-pattern.ts";
import type { PermissionRule, WrittenRule } from "./rule.ts";
import type { PermissionRuleFiles } from "./rule-files.ts";

export interface PermissionRulesOptions {
  cwd: string;
  /** $ZOT_HOME */
  home: string;
  /** ~ */
  userHome: string;
  /** the folder's workspace trust: its allow rules count only when trusted */
  projectTrusted: boolean;
  /** --setting-sources: which of Claude Code's settings files are read; undefined = all */
  settingSources?: readonly SettingSourceName[];
  /** whether calls are confirmed from the start (`--no-yolo`): then a folder's allow rules that do not hold are worth a note */
  confirming: boolean;
  /** the run's own rules, read (readFlagRules); they come first and hold whatever the folder's trust */
  flagRules?: readonly PermissionRule[];
  /** what the tools must not write (config/workspace-trust.ts protectedPaths): its executable configuration is what no allow rule lets a change to through */
  guarded?: readonly ProtectedPath[];
  /** a warning after the start */
  log(message: string): void;
}

/** The rules of a run, read; attach puts them on its agent. */
export interface PermissionRules {
  /** what the start has to say (a rule zot cannot read, allow rules waiting for trust) */
  notes: string[];
  /** which tools a deny rule refuses every call of (not offered to the model): the test as the rules are now, or undefined for none */
  withheld(): ((tool: Tool) => boolean) | undefined;
  /**
   * The rules on the agent's chain, first of the approvers, and the tools they refuse whole kept
   * from its model; resolves with notes on the run's own rules that name no tool it has.
   */
  attach(agent: Agent, gate?: GateAccess): string[];
  /**
   * Rules that hold until the returned function is called, for the model's own calls (a Markdown
   * command's `allowed-tools`, for its prompt), or for the calls `origin` asks for (the command's
   * `!` lines, origin "commands").
   */
  holdWhile(rules: readonly PermissionRule[], origin?: string): () => void;
  /** What the rules say of the read tool reading `path` now (a prompt's @file is held to it), or undefined when none decides. */
  judgeRead(path: string, cwd: string): Promise<Judgement | undefined>;
  /** What no allow asks past: the files that hold rules, and the executable configuration a later run starts (a hook's `if` is held to them too) */
  readonly protects: Pick<RuleBook, "files" | "guarded">;
}

/** The run's own rules read, or why one cannot be, naming its flag (the runtime stops the run with it, before anything starts). */
export async function readFlagRules(written: readonly WrittenRule[], anchors: PathAnchors): Promise<PermissionRule[] | { error: string }> {
  if (written.length === 0) return [];
  const { parseRule } = await import("./rule.ts");
  const rules: PermissionRule[] = [];
  for (const { text, verdict, source } of written) {
    const rule = parseRule(text, verdict, source, anchors);
    if ("error" in rule) return { error: `${source} "${text}" ${rule.error}` };
    rules.push(rule);
  }
  return rules;
}

/**
 * The rules of the settings files (read now when one exists, else at the first tool call after one
 * appears) and the run's own, ready to be put on the agent.
 */
export async function readPermissionRules(options: PermissionRulesOptions): Promise<PermissionRules> {
  const { cwd, home, userHome, projectTrusted } = options;
  const flagRules = options.flagRules ?? [];
  const notes: string[] = flagRules.flatMap(notHad);
  let warn: (message: string) => void = (message) => notes.push(message);
  // Every folder's file: a folder's deny and ask rules hold untrusted (rule-files.ts).
  const sources = settingsSources({ cwd, home, userHome, projectTrusted: true, only: options.settingSources });
  const paths = sources.map((source) => source.file);
  let files: Promise<PermissionRuleFiles> | undefined;
  let read: PermissionRuleFiles | undefined;
  const load = () =>
    (files ??= import("./rule-files.ts").then(({ PermissionRuleFiles }) => {
      read = new PermissionRuleFiles({ sources, cwd, userHome, projectTrusted, warn: (message) => warn(message) });
      return read;
    }));
  /** rules held for a while (holdWhile), with whose calls they are for: the model's own (undefined), or one origin's; not an extension's call_tool meanwhile */
  const held = new Map<readonly PermissionRule[], string | undefined>();
  const guarded = (options.guarded ?? []).filter((entry) => entry.whileJailed);
  const book = (fromFiles: RuleBook | undefined, origin?: string): RuleBook => ({
    rules: [...flagRules, ...[...held].filter(([, heldFor]) => heldFor === origin).flatMap(([rules]) => rules), ...(fromFiles?.rules ?? [])],
    files: paths,
    guarded,
  });

  if (sources.some((source) => existsSync(source.file))) {
    const loaded = await load();
    loaded.current();
    if (options.confirming) {
      for (const { source, count } of loaded.untrustedAllows()) {
        notes.push(`${source}: its ${count === 1 ? "allow rule does" : `${count} allow rules do`} not hold until you trust this folder (zot trust), so calls it allows are asked about`);
      }
    }
  }
  // The rules as of the last read (the files are looked at once per listing of the tools): a file
  // that appears during the run counts from the first tool call after.
  const withheld = () => {
    const denials = book(read?.current()).rules.filter((rule) => rule.verdict === "deny");
    return denials.length === 0 ? undefined : (tool: Tool) => denials.some((rule) => refusesWhole(rule, tool));
  };
  return {
    protects: { files: paths, guarded },
    notes,
    withheld,
    async judgeRead(path, cwd) {
      return judge(book((await load()).current()), ruledCall("read", { path }, true, cwd));
    },
    holdWhile(rules, origin) {
      held.set(rules, origin);
      return () => held.delete(rules);
    },
    attach(agent, gate) {
      agent.chain.add(
        permissionRulesParticipant({
          rules: async (origin) => book((await load()).current(), origin),
          isBuiltin: (name) => agent.tools.some((tool) => tool.name === name && tool.extension === undefined),
          cwd: () => agent.cwd,
          gate,
        }),
      );
      agent.withholdTools(withheld);
      warn = options.log;
      // A name no tool has (a typo, an extension that is not loaded) is said; an MCP server's tools may come later.
      return flagRules.flatMap(({ target, text, source }) =>
        target.kind === "tool" && !text.startsWith("mcp__") && !agent.tools.some((tool) => target.matches(tool.name))
          ? [`${source} "${text}" names no tool this run has (zot's are bash, read, edit, write, skill; Claude Code's names work too), so it matches nothing`]
          : [],
      );
    },
  };
}

/** A note on a rule of the run's own (a flag's, a command's) that names a Claude Code tool zot does not have: it matches nothing. */
export function notHad(rule: PermissionRule): string[] {
  if (rule.target.kind !== "none" || rule.verdict !== "allow") return [];
  const name = rule.text.replace(/\(.*$/s, "");
  const searching = ["Grep", "Glob", "LS"].includes(name)
    ? '; zot lists and searches files with bash: allow "Bash(ls *)", "Bash(grep *)" or "Bash(rg *)" for that'
    : "";
  return [`${rule.source} "${rule.text}": zot has no ${name} tool, so it allows nothing${searching}`];
}

/** Whether `rule` denies every call of `tool` (Claude Code's `Bash`, `Read`, `mcp__server`, an extension's tool named alone). */
function refusesWhole(rule: PermissionRule, tool: Tool): boolean {
  if (rule.verdict !== "deny") return false;
  const { target } = rule;
  const builtin = tool.extension === undefined;
  switch (target.kind) {
    case "tool":
      return target.matches(tool.name);
    case "bash":
      return builtin && tool.name === "bash" && target.command === undefined;
    case "path":
      return builtin && target.tools.includes(tool.name) && target.path === undefined;
    case "skill":
      return builtin && tool.name === "skill" && target.skill === undefined;
    case "none":
      return false;
  }
}
