// The process hooks of one run of zot, for the extension manager: starts them together, hands
// their participants to the chain, turns agent events into observer notifications for the hooks
// that observe them (each in the generation it speaks), and stops them.
// Rule: a hook that fails to start is reported once and left out of the chain; a hook that dies
// later stays in it, so its calls fail at once by the rules (interceptors skipped, approvals deny).
// A hook still starting is in the chain already, and its calls wait for it (hook-intercept.ts).
import type { Participant } from "../core/intercept.ts";
import type { AgentEvent } from "../protocol/events.ts";
import { HookEvents } from "./hook-events.ts";
import { HookHost } from "./hook-host.ts";
import { hookParticipant } from "./hook-intercept.ts";
import type { HookSpec } from "./hook-spec.ts";

export interface HookSetOptions {
  home: string;
  /** where zot runs (HEAD's turn_end `Workspace`) */
  cwd: string;
  /** zot's own tool names; respond for these needs the hook's allow_builtin_respond */
  builtinTools: ReadonlySet<string>;
  /** shows a hook's for_user text to the user, attributed to the hook */
  showUser(hook: string, text: string): void;
}

export class HookSet {
  readonly hosts: HookHost[];
  private readonly events: HookEvents;

  constructor(
    specs: readonly HookSpec[],
    private readonly options: HookSetOptions,
  ) {
    this.hosts = specs.map((spec) => new HookHost({ spec, home: options.home }));
    this.events = new HookEvents(undefined, options.cwd);
  }

  /** Starts every hook in parallel; each promise resolves once that hook is up, or failed and stopped. */
  start(): Promise<void>[] {
    return this.hosts.map((host) => host.start());
  }

  /** A sentence for each hook whose start failed. */
  failures(hosts: readonly HookHost[] = this.hosts): string[] {
    return hosts.flatMap((host) => (host.state === "failed" && host.error ? [host.error] : []));
  }

  /**
   * A hook that did not start drops out of the chain, except as an approver: a review gate that
   * failed to start must not let every tool through, so it stays at approve_tool, where its
   * failed calls deny (the approver rule) with the reason it did not start.
   */
  participants(): Participant[] {
    return this.hosts
      .filter((host) => host.state !== "failed" || host.spec.modes.includes("approve"))
      .map((host) =>
        hookParticipant({
          name: host.name,
          spec: host.state === "failed" ? { ...host.spec, modes: ["approve"] } : host.spec,
          call: (method, params, timeoutMs, signal) => host.call(method, params, timeoutMs, signal),
          log: (line) => host.log(line),
          meta: (tracePath) => this.events.meta(tracePath),
          chatId: this.events.session,
          showUser: (text) => this.options.showUser(host.name, text),
          builtinTools: this.options.builtinTools,
          get starting() {
            return host.starting;
          },
          started: () => host.started(),
          get live() {
            return host.live;
          },
          get error() {
            return host.error;
          },
        }),
      );
  }

  /** Every agent event passes here: the turn bookkeeping always, notifications to observers. */
  observe(event: AgentEvent): void {
    for (const notice of this.events.translate(event)) {
      for (const host of this.hosts) {
        const { observe } = host.spec;
        if (observe === "all" || observe.includes(notice.kind)) host.notify(notice);
      }
    }
  }

  stop(): Promise<void> {
    return Promise.all(this.hosts.map((host) => host.stop())).then(() => {});
  }
}
