// `zot -p`: runs one prompt and prints the final answer on stdout. Rule: stdout holds only the
// answer (what the user was shown, after any replace_text); everything else goes to stderr.
import type { Agent, PromptInput, PromptOutcome } from "../core/agent.ts";

export async function runPrintMode(agent: Agent, input: PromptInput, signal: AbortSignal): Promise<PromptOutcome> {
  let answer = "";
  const off = agent.onEvent((event) => {
    if (event.type === "assistant_message") {
      const text = event.content
        .filter((b) => b.type === "text")
        .map((b) => b.text)
        .join("\n");
      if (text.trim() !== "") answer = text;
    }
  });
  try {
    const outcome = await agent.prompt(input, signal);
    if (outcome.status === "ok" && answer) await Bun.write(Bun.stdout, answer.endsWith("\n") ? answer : `${answer}\n`);
    return outcome;
  } finally {
    off();
  }
}
