// The permission rules of the settings files Claude Code and zot read: `permissions.allow`, `.ask`
// and `.deny` of ~/.claude/settings.json, $ZOT_HOME/settings.json, the folder's
// .claude/settings.json and .claude/settings.local.json. Every file's rules count together.
// Rule: a folder's files are read whether or not it is trusted, since deny and ask only hold zot
// back; their allow rules, which let calls past the confirmation gate, count only in a trusted
// folder. A file is read again when it changed, so a rule added to it holds from the next tool
// call, but during a run the rules only tighten (see current): the model cannot edit away what
// holds it back, with a tool or with a bash command. What cannot be read is a warning naming the
// file and the rule, once per version of the file; a file (or a deny or ask list) that cannot be
// read while it holds deny or ask rules asks about every tool call until it is fixed: a trailing
// comma must not turn a `deny` off.
import * as v from "valibot";
import { isJsonObject } from "../protocol/json-object.ts";
import { issueSentence } from "../protocol/schema-issue.ts";
import { SettingsFileCache } from "../settings-hooks/settings-file-cache.ts";
import type { SettingsSource } from "../settings-hooks/settings-file.ts";
import type { PathAnchors } from "./path-pattern.ts";
import type { RuleBook } from "./judge.ts";
import { type PermissionRule, parseRule, type RuleVerdict } from "./rule.ts";
import { misspeltPermissionKeys } from "./misspelt-keys.ts";

export interface RuleFilesOptions extends PathAnchors {
  /** the settings files, in settings order (settingsSources, with every folder's file) */
  sources: SettingsSource[];
  /** the folder's workspace trust: its files' allow rules count only when trusted */
  projectTrusted: boolean;
  /** a file's warnings */
  warn(message: string): void;
}

const PermissionsField = v.looseObject({
  permissions: v.optional(v.custom<Record<string, unknown>>(isJsonObject, 'must be an object {"allow": […], "ask": […], "deny": […]}')),
});

const VERDICTS: readonly RuleVerdict[] = ["deny", "ask", "allow"];

export class PermissionRuleFiles {
  private readonly sources: SettingsSource[];
  private readonly files: SettingsFileCache<PermissionRule[]>;
  /** the rules of the first read (see current) */
  private first: PermissionRule[] | undefined;
  private firstKeys: Set<string> | undefined;
  /** the last book, and the files' rules it was made of */
  private last: { parts: PermissionRule[][]; book: RuleBook } | undefined;
  /** per file, the allow rules its folder's trust kept out, as of its last read */
  private readonly skipped = new Map<string, number>();

  constructor(private readonly options: RuleFilesOptions) {
    this.sources = options.sources;
    this.files = new SettingsFileCache<PermissionRule[]>(
      [],
      (text, source) => this.parse(text, source),
      (problem, source, unreadable) => {
        if (!unreadable) return options.warn(`${source.label}: ${problem}; its permission rules do not hold`);
        // Rules that are there and cannot be read may be deny rules: they ask about everything instead.
        options.warn(`${source.label}: ${problem}; its deny and ask rules cannot be read, so every tool call is asked about until it can be read and zot starts again`);
        return [askEverything(source.label, `${source.label}, which cannot be read (${problem.replace(/^cannot be read \((.*)\)$/, "$1")}),`)];
      },
    );
  }

  /**
   * Every file's rules, and the files. During a run the rules only tighten: a deny or ask rule
   * holds once it was read (taking it out of a file, or emptying the file with a bash command,
   * holds from the next start), and an allow rule holds only while it is still in its file and was
   * there at the first read (one added meanwhile holds from the next start).
   */
  current(): RuleBook {
    // Files unchanged since the last call (the file cache hands back the same arrays): the same book,
    // not thousands of rules keyed again at every tool call.
    const parts = this.sources.map((source) => this.files.read(source));
    const last = this.last;
    if (last && parts.length === last.parts.length && parts.every((part, i) => part === last.parts[i])) return last.book;
    const now = parts.flat();
    const first = (this.first ??= now);
    const firstKeys = (this.firstKeys ??= new Set(first.map(ruleKey)));
    const nowKeys = new Set(now.map(ruleKey));
    // What stood for rules that could not be read holds for the run as they would have: a file the
    // model empties (a tool call the user let through) lifts nothing until the next start.
    const held = first.filter((rule) => rule.verdict !== "allow" && !nowKeys.has(ruleKey(rule)));
    const rules = [...now.filter((rule) => rule.verdict !== "allow" || firstKeys.has(ruleKey(rule))), ...held];
    const book = { rules, files: this.sources.map((source) => source.file) };
    this.last = { parts, book };
    return book;
  }

  /** How many allow rules the folder's files hold that its trust keeps from holding. */
  untrustedAllows(): { source: string; count: number }[] {
    return [...this.skipped].map(([source, count]) => ({ source, count })).filter((entry) => entry.count > 0);
  }

  private parse(text: string, source: SettingsSource): PermissionRule[] {
    const warn = (message: string) => this.options.warn(`${source.label}: ${message}`);
    // A file that says "deny" or "ask" somewhere may hold such rules: unread, they ask about everything.
    const mayHold = /"(?:deny|ask)"/.test(text);
    const unread = (problem: string): PermissionRule[] => {
      if (!mayHold) {
        warn(`${problem}; none of its permission rules hold until it is fixed`);
        return [];
      }
      warn(`${problem}; its deny and ask rules cannot be read, so every tool call is asked about until it is fixed and zot starts again`);
      return [askEverything(source.label, `${source.label}, whose deny and ask rules cannot be read (${problem}),`)];
    };
    let json: unknown;
    try {
      json = JSON.parse(text.replace(/^\uFEFF/, ""));
    } catch (error) {
      return unread(`is not valid JSON (${(error as Error).message})`);
    }
    if (!isJsonObject(json)) return unread("must be a JSON object");
    const file = v.safeParse(PermissionsField, json);
    if (!file.success) return unread(issueSentence(file.issues, "", { secrets: "likely" }));
    const rules: PermissionRule[] = [];
    this.skipped.set(source.label, 0);
    for (const key of misspeltPermissionKeys(json)) {
      const name = `${key.at} is no key zot reads${key.meant ? ` (did you mean "${key.meant}"?)` : " (it reads permissions.allow, ask and deny)"}`;
      if (!key.holdsBack) {
        warn(`${name}; it is ignored`);
        continue;
      }
      // Deny or ask rules written under it hold nothing as written: every call is asked about instead.
      warn(`${name}; the rules under it may be deny or ask rules and do not hold as written, so every tool call is asked about until it is fixed and zot starts again`);
      rules.push(askEverything(source.label, `${source.label}'s ${key.at}, which zot does not read,`));
    }
    for (const verdict of VERDICTS) {
      const list = file.output.permissions?.[verdict];
      if (list === undefined || list === null) continue;
      // A bad list loses only itself; a bad rule only itself.
      if (!Array.isArray(list)) {
        if (verdict === "allow") {
          warn(`permissions.${verdict} must be a list of rules, ["Bash(npm test)", …]; its rules do not hold until it is fixed`);
          continue;
        }
        warn(`permissions.${verdict} must be a list of rules, ["Bash(rm *)", …]; until it is and zot starts again, every tool call is asked about`);
        rules.push(askEverything(source.label, `${source.label}'s permissions.${verdict}, which is not a list of rules,`));
        continue;
      }
      let unreadRule = false;
      list.forEach((text: unknown, i) => {
        const parsed = typeof text === "string" ? parseRule(text, verdict, source.label, this.options) : { error: 'must be a rule as text, "Tool" or "Tool(…)"' };
        if ("error" in parsed && verdict !== "allow") {
          // A deny or ask rule zot cannot read may be the one that holds this call back: every call is asked about instead.
          warn(`permissions.${verdict}[${i}] ${JSON.stringify(text)} ${parsed.error}; until it is fixed and zot starts again, every tool call is asked about`);
          if (!unreadRule) rules.push(askEverything(source.label, `${source.label}'s ${verdict} rule ${JSON.stringify(text)}, which zot cannot read,`));
          unreadRule = true;
        } else if ("error" in parsed) warn(`permissions.${verdict}[${i}] ${JSON.stringify(text)} ${parsed.error}; it is skipped`);
        else if (verdict !== "allow" || source.scope === "user" || this.options.projectTrusted) rules.push(parsed);
        else this.skipped.set(source.label, (this.skipped.get(source.label) ?? 0) + 1);
      });
    }
    return rules;
  }
}

/** An ask rule on every tool: what stands for deny and ask rules that cannot be read. */
function askEverything(source: string, because: string): PermissionRule {
  return { verdict: "ask", text: "*", source, target: { kind: "tool", matches: () => true }, because };
}

/** A rule as one string: its verdict, its file and its text. */
function ruleKey(rule: PermissionRule): string {
  return `${rule.verdict}\u0000${rule.source}\u0000${rule.text}`;
}
