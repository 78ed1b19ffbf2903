// Reading a provider's event stream in the provider tests: every event it yielded (its batches one
// after the other), the error it ended with (if any) and its done event. Rule: a test sees exactly
// what the loop would, nothing is filtered or reordered.
import type { ContentBlock, Message } from "../../src/protocol/messages.ts";
import type { ModelRequest, Provider, ProviderEvent } from "../../src/protocol/provider.ts";

export interface StreamRun {
  events: ProviderEvent[];
  error: unknown;
  done: Extract<ProviderEvent, { type: "done" }> | undefined;
}

export async function streamAll(provider: Provider, req: ModelRequest, signal = new AbortController().signal): Promise<StreamRun> {
  const events: ProviderEvent[] = [];
  let error: unknown;
  try {
    for await (const batch of provider.stream(req, signal)) events.push(...batch);
  } catch (e) {
    error = e;
  }
  const done = events.find((e): e is Extract<ProviderEvent, { type: "done" }> => e.type === "done");
  return { events, error, done };
}

export function ofType<T extends ProviderEvent["type"]>(events: ProviderEvent[], type: T) {
  return events.filter((e): e is Extract<ProviderEvent, { type: T }> => e.type === type);
}

export function message(role: Message["role"], ...content: ContentBlock[]): Message {
  return { role, content, time: new Date().toISOString() };
}
