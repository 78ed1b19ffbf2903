// The conversation's one event stream: the agent's events and the conversation's own (notes,
// displays, command results, panels, a unit's closing done). Rule: a subscriber hears both, in the
// order they happen; the agent's reach it straight from the agent, with nothing in between, since
// they come tens of thousands a second while a model streams.
import type { Agent } from "../core/agent.ts";
import { Listeners } from "../core/listeners.ts";
import type { AgentEvent } from "../protocol/events.ts";

export class EventStream {
  private readonly own = new Listeners<AgentEvent>();

  constructor(private readonly agent: Pick<Agent, "onEvent">) {}

  /** Subscribes to every event (`deltas: false`: all but the stream's deltas); returns the unsubscribe function. */
  add(listener: (event: AgentEvent) => void, options: { deltas?: boolean } = {}): () => void {
    const offAgent = this.agent.onEvent(listener, options);
    const offOwn = this.own.add(listener);
    return () => {
      offAgent();
      offOwn();
    };
  }

  /** One of the conversation's own events. */
  fire(event: AgentEvent): void {
    this.own.fire(event);
  }
}
