// The end of zot's start. The binary starts with JavaScriptCore's JIT tier-up thresholds raised
// (scripts/compile-flags.ts: --compile-jit-policy), so code that runs a few hundred times while zot
// starts (schema construction, config parsing) stays in the interpreter instead of paying for
// compilers it never earns back: on a one-shot run that is ~3 MB of peak RSS (scripts/bench floor).
// Rule: every command that runs a conversation calls this once its start is over: the TUI and rpc
// when the conversation is open, -p and --json when the model's answer opens, before its body is
// read (RuntimeOptions.onAnswerOpen); from source, in bun test, where nothing raised the
// thresholds, it raises them to the same.
// The policy it sets is twice the normal thresholds, not the normal ones: code the start ran a few
// hundred times (Array.prototype.filter, ~40 calls) would otherwise cross the normal threshold on
// its next call and be compiled, the one Baseline compile of a short answer, which costs ~0.7 MB
// of peak RSS; a long answer's per-event code crosses either in its first thousand events, and a
// 50,000-delta stream measured the same at both (scripts/bench floor).
const AFTER_START_POLICY = 2;

export function startupOver(): void {
  Bun.unsafe.setJITPolicy(AFTER_START_POLICY);
}
