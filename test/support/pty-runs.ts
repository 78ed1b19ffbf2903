// The pseudo-terminal runs of one end-to-end test file: dist/zot started against a mock LLM, and
// after each test every session closed and that test's mock stopped. Rule: call ptyRuns() once at
// the top of a test file (it registers the afterEach); nothing a test starts outlives it.
import { afterEach } from "bun:test";
import type { MockLlm } from "./mock-llm.ts";
import type { PtySession } from "./pty.ts";
import { startZot, type ZotPty, type ZotPtyOptions } from "./zot-pty.ts";

export interface PtyRuns {
  /** the mock LLM the running test started zot against, if any */
  readonly mock: MockLlm | undefined;
  /** dist/zot in a pseudo-terminal against `mock`, which becomes this test's mock */
  start(mock: MockLlm, options?: ZotPtyOptions): ZotPty & { mock: MockLlm };
  /** a session started some other way, closed after the test like the rest */
  track(session: PtySession): PtySession;
}

export function ptyRuns(): PtyRuns {
  let mock: MockLlm | undefined;
  const sessions: PtySession[] = [];
  afterEach(async () => {
    for (const session of sessions.splice(0)) session.close();
    await mock?.stop();
    mock = undefined;
  });
  return {
    get mock() {
      return mock;
    },
    start(next, options = {}) {
      mock = next;
      const run = startZot(next, options);
      sessions.push(run.session);
      return { ...run, mock: next };
    },
    track(session) {
      sessions.push(session);
      return session;
    },
  };
}
