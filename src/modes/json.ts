// `zot --json`: streams every agent event as one JSON object per line, exactly the shapes of the
// event union (the same stream `zot rpc` sends).
import type { Agent, PromptInput, PromptOutcome } from "../core/agent.ts";
import { NdjsonWriter } from "./ndjson-writer.ts";

export async function runJsonMode(agent: Agent, input: PromptInput, signal: AbortSignal): Promise<PromptOutcome> {
  const writer = new NdjsonWriter();
  const off = agent.onEvent((event) => writer.write(event));
  try {
    return await agent.prompt(input, signal);
  } finally {
    off();
    await writer.close();
  }
}
