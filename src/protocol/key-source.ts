// A key that changes while a run goes on (Claude Code's apiKeyHelper, runtime/api-key-helper.ts):
// what the Anthropic client asks before each call, and again when the server refused the key.
export interface KeySource {
  /** where the key comes from, for the sentence of an auth failure */
  readonly from: string;
  /** the key last given */
  readonly key: string;
  /** every key given in this run, to take out of what a failure says */
  readonly given: readonly string[];
  /** the key to send now (asked again once it is old); `signal` ends the wait (the call was cancelled) */
  current(signal?: AbortSignal): Promise<string>;
  /** asked again now; a failed ask keeps the key it had */
  refresh(signal?: AbortSignal): Promise<string>;
}
