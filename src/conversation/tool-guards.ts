// What stands between the model's tool calls and the machine, as the conversation's state: the
// jail (--jail, the TUI's /jail and /unjail) and the confirmation of each call (--no-yolo, /yolo).
// Rule: one holder for each: the jail is the agent's own flag, the confirmations the runtime's one
// gate, so a status line, a dialog and a command always agree; a change holds from the next tool
// call on, in a running turn too.
import type { Confirmer } from "../core/confirm-gate.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { type Confinement, jailConfinement, jailRoot } from "../tools/sandbox.ts";

export class ToolGuards {
  constructor(private readonly runtime: Runtime) {}

  get jailed(): boolean {
    return this.runtime.agent.jailed;
  }

  /** The directory the jail confines the tools to (the working directory, its real path). */
  get jailRoot(): string {
    return jailRoot(this.runtime.agent.cwd);
  }

  /** Jails the tools; resolves with how bash is confined here (bubblewrap, or a static check of its commands). */
  async jail(): Promise<Confinement> {
    this.runtime.agent.setJail(true);
    return jailConfinement();
  }

  unjail(): void {
    this.runtime.agent.setJail(false);
  }

  /** Whether this run can confirm tool calls at all (a terminal to ask in, or --no-yolo refusing them). */
  get confirmable(): boolean {
    return this.runtime.confirmGate !== undefined;
  }

  /** Each tool call asks first (or, with no one to ask, is refused). */
  get confirming(): boolean {
    return this.runtime.confirmGate?.confirming ?? false;
  }

  /** Whether a call asked about is put to someone (false with --permission-mode dontAsk: it is refused). */
  get asksSomeone(): boolean {
    return this.runtime.confirmGate?.canAsk ?? false;
  }

  /**
   * Who answers the calls asked about from now on (an rpc client that says it does); false when the
   * run has no confirmation gate to answer for, or its gate asks nobody (dontAsk).
   */
  setConfirmer(confirmer: Confirmer): boolean {
    return this.runtime.confirmGate?.setConfirmer(confirmer) ?? false;
  }

  /** Why confirmations may not be turned off here (a settings file's disableBypassPermissionsMode), or undefined. */
  get lockedOn(): string | undefined {
    return this.runtime.confirmGate?.lockedOn;
  }

  /** Turns confirmations off (approving the call waiting for an answer) or on; returns whether they are on now. */
  toggleConfirmations(): boolean {
    return this.runtime.confirmGate?.toggle() ?? false;
  }

  /** The tools the user allowed for the rest of the session ("yes for this tool"). */
  rememberedTools(): string[] {
    return this.runtime.confirmGate?.rememberedTools() ?? [];
  }
}
