// The end of zot's start. The binary starts with JavaScriptCore's JIT tier-up thresholds raised
// (scripts/compile-flags.ts: --compile-jit-policy), so code that runs a few hundred times while zot
// starts (schema construction, config parsing) stays in the interpreter instead of paying for
// compilers it never earns back: on a one-shot run that is ~3 MB of peak RSS (scripts/bench floor).
// Rule: every command that runs a conversation calls this once its start is over: the TUI and rpc
// when the conversation is open, -p and --json when the model starts to answer, so a model's
// stream and the TUI run at the normal policy; from source (bun test) it only sets the policy that
// already holds.
export function startupOver(): void {
  Bun.unsafe.setJITPolicy(1);
}
