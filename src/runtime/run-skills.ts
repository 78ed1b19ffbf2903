// The run's skills as they are now: the skill folders (and the running extensions' skills), read
// once the start's trust question is answered and again at a reload (/reload-ext, rpc's
// reload_extensions), so the user's /names and the model's `skill` tool serve what is on disk: an
// edited skill's new instructions, a new one, none of a removed one.
// Rule: the list the system prompt gives the model (in its place in the prompt zot assembles,
// before extensions rewrite it) changes only where the conversation's cached prefix is rebuilt
// anyway, a new conversation (/clear, a session switch) or a compaction, never in the middle of one,
// so a reload costs no prompt-cache miss; and the tool list never changes (the `skill` tool is there
// from the start, or not at all).
import type { Agent } from "../core/agent.ts";
import type { Tool } from "../protocol/tool.ts";
import { loadSkills, type LoadSkillsOptions, modelInvocable, type Skill } from "../skills/discover.ts";
import { skillsPromptSection } from "../skills/prompt.ts";
import { createSkillTool } from "../tools/skill.ts";

export class RunSkills {
  private skills: readonly Skill[] = [];
  /** the `skill` tool, when the model is offered the skills (made at the start only) */
  readonly tool: Tool | undefined;
  /** what the last read said (a broken SKILL.md, a shadowed copy, an untrusted folder's skills) */
  warnings: string[];
  /** where the list sits in the agent's assembled prompt (between `before` and `after`), and the list there now */
  private place: { agent: Agent; before: string; after: string; shown: string } | undefined;

  /**
   * Reads them now. `extensionSkills`: the running extensions' (read again after their reload);
   * `modelTool`: the model may have the skill tool (not --tools without skill, --no-tools).
   */
  constructor(
    private readonly folders: LoadSkillsOptions,
    private readonly extensionSkills: () => readonly Skill[],
    modelTool: boolean,
  ) {
    this.warnings = this.read();
    // Skills only the user starts (disable-model-invocation: true) are slash commands, never the
    // model's: not named in the prompt, refused by the tool; with none the model may load, no tool.
    this.tool = modelTool && this.skills.some(modelInvocable) ? createSkillTool(() => this.skills) : undefined;
  }

  /** every skill of the run, sorted by name (prompt caching) */
  get list(): readonly Skill[] {
    return this.skills;
  }

  /** The system prompt's list of them as they are now; none without the skill tool. */
  promptSection(): string {
    return this.tool ? skillsPromptSection(this.skills) : "";
  }

  /**
   * The agent's assembled prompt holds promptSection() (joined as the prompt's sections are): from
   * now on it follows the list as read again, at each new conversation and compaction.
   */
  attach(agent: Agent): void {
    const shown = this.promptSection();
    const prompt = agent.assembledPrompt;
    const at = shown ? prompt.lastIndexOf(`\n\n${shown}`) : -1;
    if (at === -1) return;
    this.place = { agent, before: prompt.slice(0, at), after: prompt.slice(at + 2 + shown.length), shown };
    agent.onClear(() => this.show());
    agent.onCompacted(() => this.show());
  }

  /**
   * Reads the folders and the extensions' skills again; the system prompt follows at the next safe
   * point. `projectTrusted`: the folder's trust now (`zot untrust` meanwhile leaves its skills out).
   * Returns the warnings.
   */
  reread(projectTrusted?: boolean): string[] {
    this.warnings = this.read(projectTrusted);
    return this.warnings;
  }

  private read(projectTrusted?: boolean): string[] {
    const folders = projectTrusted === undefined ? this.folders : { ...this.folders, byDefault: { ...this.folders.byDefault, projectTrusted } };
    const found = loadSkills(folders);
    // [issue 15] the skills extensions ship (`<extension>:<skill>`) join the others, after them
    this.skills = [...found.skills, ...this.extensionSkills()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return found.warnings;
  }

  private show(): void {
    const place = this.place;
    if (!place) return;
    const section = this.promptSection();
    if (section === place.shown) return;
    place.shown = section;
    place.agent.setAssembledPrompt(`${place.before}${section ? `\n\n${section}` : ""}${place.after}`);
  }
}
