// The extensions of a run that had none to start (project-config.ts made no manager): the first
// /reload-ext (rpc's reload_extensions) makes one and starts what is there then. Rule: the manager
// is attached to the agent before its extensions start, as a reload's are, so a guard still
// starting holds a running turn's tool calls; a reload behind that first start restarts what it
// started, as any reload does.
import type { Agent } from "../core/agent.ts";
import type { ConfirmGate } from "../core/confirm-gate.ts";
import type { ExtensionManager, ReloadReport } from "../extensions/manager.ts";
import type { LoadedExtensions } from "./project-config.ts";

export interface LateExtensions {
  /**
   * Makes the manager and starts the extensions there are now (`attached` is told the manager once
   * it is attached, before they start), or, behind a first start still under way, reloads them.
   */
  start(attached: (extensions: ExtensionManager) => void): Promise<ReloadReport>;
  /**
   * The run is ending: starts asked for from now on are refused, and this settles once those under
   * way are over, so what they started is stopped with the rest.
   */
  close(): Promise<void>;
}

export function lateExtensions(
  later: LoadedExtensions["later"],
  wiring: {
    agent: Agent;
    gate?: ConfirmGate;
    /** the session being recorded now (a /clear during the start changes it) */
    sessionId(): string | undefined;
    /** the manager is the run's from now on: Runtime.extensions, and the first of its command sources */
    publish(extensions: ExtensionManager): void;
  },
): LateExtensions {
  let manager: ExtensionManager | undefined;
  let starting: Promise<ReloadReport> | undefined;
  let closed = false;
  const first = async (attached: (extensions: ExtensionManager) => void): Promise<ReloadReport> => {
    const made = await later();
    manager = made.manager;
    manager.setSessionId(wiring.sessionId());
    manager.attach(wiring.agent, wiring.gate);
    wiring.publish(manager);
    attached(manager);
    const report = await made.load();
    manager.announceLoaded();
    return { ...report, stopped: 0 };
  };
  return {
    start(attached) {
      if (closed) return Promise.reject(new Error("zot is ending: no extension starts now"));
      const behind = starting?.catch(() => undefined);
      // Behind a first start: a reload of what it started, or, when it failed before making a manager, the start again.
      starting = behind ? behind.then(() => (manager ? manager.reload() : first(attached))) : first(attached);
      return starting;
    },
    close() {
      closed = true;
      return starting?.then(() => {}, () => {}) ?? Promise.resolve();
    },
  };
}
