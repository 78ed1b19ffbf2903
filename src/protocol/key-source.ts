// A key that changes while a run goes on (Claude Code's apiKeyHelper, runtime/api-key-helper.ts):
// what the Anthropic client asks before each call, and again when the server refused the key.
export interface KeySource {
  /** where the key comes from, for the sentence of an auth failure */
  readonly from: string;
  /** the key last given */
  readonly key: string;
  /** the key to send now (asked again once it is old) */
  current(): Promise<string>;
  /** asked again now; a failed ask keeps the key it had */
  refresh(): Promise<string>;
}
