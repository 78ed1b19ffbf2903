// A command's or a skill's template filled in as Claude Code fills it: $ARGUMENTS[N] split
// shell-style, $N counted from 1 in a command and from 0 in a skill, front matter arguments: names,
// ${CLAUDE_SESSION_ID} and ${CLAUDE_SKILL_DIR}, and ```! blocks run as one command; in one pass, so
// nothing put in is read again.
import { expect, test } from "bun:test";
import { fillTemplate, type TemplateValues } from "../../src/commands/template-substitution.ts";

const command = (args: string, more: Partial<TemplateValues> = {}): TemplateValues => ({ args, positionalBase: 1, ...more });
const skill = (args: string, more: Partial<TemplateValues> = {}): TemplateValues => ({ args, positionalBase: 0, ...more });
const fill = async (body: string, values: TemplateValues) => (await fillTemplate(body, values, undefined)).text;

test("$ARGUMENTS[N] is the N-th argument from 0, quotes grouping words; out of range it is empty; $ARGUMENTS is all of them as typed", async () => {
  const body = "Branch: $ARGUMENTS[0]\nTitle: $ARGUMENTS[1]\nMore: [$ARGUMENTS[2]]\nAll: $ARGUMENTS";
  expect(await fill(body, command('feature-x "Add widgets"'))).toBe('Branch: feature-x\nTitle: Add widgets\nMore: []\nAll: feature-x "Add widgets"');
  expect(await fill("$ARGUMENTS[0] with $ARGUMENTS[1]", skill(`"my widget" 'React app'`))).toBe("my widget with React app");
});

test("$N: in a command $1 is the first argument and $0 stays as written; in a skill $0 is the first and $1 the second", async () => {
  expect(await fill("$0 | $1 | $2 | $3", command("a b"))).toBe("$0 | a | b | ");
  expect(await fill("$0 | $1 | $2 | $10", skill("a b"))).toBe("a | b |  | ");
});

test("front matter arguments: names are the arguments in order; a $word not declared, or longer than a name, stays as written", async () => {
  const values = command("42 hotfix-auth", { argumentNames: ["issue", "branch", "reviewer"] });
  expect(await fill("Fix $issue on $branch for [$reviewer]; $issue_id, $issues and $HOME stay", values)).toBe("Fix 42 on hotfix-auth for []; $issue_id, $issues and $HOME stay");
  expect(await fill("Fix $issue", command("42"))).toBe("Fix $issue");
});

test("${CLAUDE_SESSION_ID} and ${CLAUDE_SKILL_DIR} are filled when known and left as written when not", async () => {
  expect(await fill("logs/${CLAUDE_SESSION_ID}.md ${CLAUDE_SKILL_DIR}/run.sh", skill("", { sessionId: "abc-123", skillDir: "/s/fix" }))).toBe("logs/abc-123.md /s/fix/run.sh");
  expect(await fill("logs/${CLAUDE_SESSION_ID}.md ${CLAUDE_SKILL_DIR}/run.sh $CLAUDE_SESSION_ID", command(""))).toBe("logs/${CLAUDE_SESSION_ID}.md ${CLAUDE_SKILL_DIR}/run.sh $CLAUDE_SESSION_ID");
});

test("the template uses the arguments when it has any placeholder for them: $ARGUMENTS[0] or a name alone counts, the session id does not", async () => {
  const used = async (body: string, values: TemplateValues) => (await fillTemplate(body, values, undefined)).usedArguments;
  expect(await used("Branch $ARGUMENTS[0]", command("a"))).toBe(true);
  expect(await used("Issue $issue", command("a", { argumentNames: ["issue"] }))).toBe(true);
  expect(await used("Skill $0", skill("a"))).toBe(true);
  expect(await used("Session ${CLAUDE_SESSION_ID}", command("a", { sessionId: "s" }))).toBe(false);
  expect(await used("Nothing $issue", command("a"))).toBe(false);
});

test("a ```! block runs its lines as one command, the arguments filled in, and its output takes the block's place; without a runner it is named as not run", async () => {
  const ran: string[] = [];
  const runShell = async (line: string) => {
    ran.push(line);
    return { output: "abc123 initial commit\n" };
  };
  const body = "Recent history:\n```!\ngit log --oneline -1\ngit status --short $1\n```\nDone.";
  expect((await fillTemplate(body, command("src"), runShell)).text).toBe("Recent history:\nabc123 initial commit\nDone.");
  expect(ran).toEqual(["git log --oneline -1\ngit status --short src"]);
  expect(await fill(body, command("src"))).toBe(
    "Recent history:\n(the commands below were not run: this folder is not trusted; zot trust runs such commands)\n```\ngit log --oneline -1\ngit status --short src\n```\nDone.",
  );
  expect(await fill("```!\ndate\n```", command(""))).toBe("(the command `date` was not run: this folder is not trusted; zot trust runs such commands)");
  // A runner's refusal is said with its reason; a plain ``` block is text.
  const refused = await fillTemplate("```!\nrm -rf x\n```\n```sh\necho $1\n```", command("y"), async () => ({ notRun: "denied by the rule Bash(rm:*)" }));
  expect(refused.text).toBe("(the command `rm -rf x` was not run: denied by the rule Bash(rm:*))\n```sh\necho y\n```");
});

test("one pass: what the user typed and what a command printed are never read again for a placeholder or a !", async () => {
  const ran: string[] = [];
  const runShell = async (line: string) => {
    ran.push(line);
    return { output: "printed $1 and ${CLAUDE_SESSION_ID} and !`date`" };
  };
  const typed = "'$ARGUMENTS[1]' '!`touch pwned`' '$issue ${CLAUDE_SESSION_ID} $0'";
  const body = "A=$ARGUMENTS[0] B=$ARGUMENTS[1] C=$issue D=$2 all=$ARGUMENTS out=!`git status`";
  const { text } = await fillTemplate(body, command(typed, { argumentNames: ["issue"], sessionId: "S" }), runShell);
  expect(text).toBe(`A=$ARGUMENTS[1] B=!\`touch pwned\` C=$ARGUMENTS[1] D=!\`touch pwned\` all=${typed} out=printed $1 and \${CLAUDE_SESSION_ID} and !\`date\``);
  expect(ran).toEqual(["git status"]);
  // $& and $$ arrive as typed.
  expect(await fill("$ARGUMENTS[1] $2 $ARGUMENTS", command("$& $$"))).toBe("$$ $$ $& $$");
});
