// Claude Code's `apiKeyHelper`: a command in a settings file (the user's, or a trusted folder's)
// whose output is the Anthropic key, sent as both `X-Api-Key` and `Authorization: Bearer`, as Claude
// Code sends it. Rule: it is asked when the run starts (a failure stops the start, said with the
// command's own words), again once its key is older than CLAUDE_CODE_API_KEY_HELPER_TTL_MS (5
// minutes unless set), and again at once when the server refuses the key (401); a refresh that
// fails keeps the key it had. It runs as a settings hook runs (settings-hooks/command-run.ts): in
// the project folder, its own process group, zot's credentials kept out of its environment.
import { errorText } from "../protocol/error-text.ts";
import { printable } from "../protocol/printable.ts";
import { runCommand } from "../settings-hooks/command-run.ts";
import type { KeySource } from "../protocol/key-source.ts";

/** How long the command may take before it counts as failed. */
const HELPER_TIMEOUT_MS = 120_000;
/** How long a key is used before the command is asked again, unless CLAUDE_CODE_API_KEY_HELPER_TTL_MS says. */
const DEFAULT_TTL_MS = 5 * 60_000;
export const HELPER_TTL_VARIABLE = "CLAUDE_CODE_API_KEY_HELPER_TTL_MS";

export class ApiKeyHelperError extends Error {}

export interface ApiKeyHelperOptions {
  command: string;
  /** the settings file's label (`~/.claude/settings.json`) */
  from: string;
  cwd: string;
  /** the run's environment (its credentials are kept from the command) */
  env: Readonly<Record<string, string | undefined>>;
  /** told when asking again fails during the run (the key it gave before is used) */
  log?: (message: string) => void;
}

export class ApiKeyHelper implements KeySource {
  readonly from: string;
  private value = "";
  private fetchedAt = 0;
  private readonly keys: string[] = [];
  private running: Promise<string> | undefined;
  private readonly ttlMs: number;

  constructor(private readonly options: ApiKeyHelperOptions) {
    this.from = `the apiKeyHelper of ${options.from}`;
    const ttl = Number(options.env[HELPER_TTL_VARIABLE]);
    this.ttlMs = Number.isFinite(ttl) && ttl > 0 ? ttl : DEFAULT_TTL_MS;
  }

  /** The key of the last run that gave one ("" before the first). */
  get key(): string {
    return this.value;
  }

  /** Every key it gave in this run, to take out of what a failure says. */
  get given(): readonly string[] {
    return this.keys;
  }

  /** The first key, for the run's start: a command that gives none stops it (ApiKeyHelperError). */
  async start(): Promise<string> {
    return await this.ask();
  }

  /**
   * The key to send now: asked again once it is older than the TTL; a failed ask keeps the one it
   * had for another TTL. `signal` ends this wait (the call was cancelled), not the command.
   */
  async current(signal?: AbortSignal): Promise<string> {
    if (this.value && performance.now() - this.fetchedAt < this.ttlMs) return this.value;
    return await this.refresh(signal);
  }

  /** Asked again now (the server refused the key); a failed ask keeps the one it had (said once to `log`). */
  async refresh(signal?: AbortSignal): Promise<string> {
    try {
      return await untilAborted(this.ask(), signal);
    } catch (error) {
      if (signal?.aborted || !this.value) throw error;
      // Not asked again at every call: the key it had serves until the TTL passes again.
      this.fetchedAt = performance.now();
      this.options.log?.(`${(error as Error).message}; the key it gave before is used`);
      return this.value;
    }
  }

  /** One run of the command at a time: calls that need a key meanwhile wait for the same run. */
  private ask(): Promise<string> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(): Promise<string> {
    const { command, from, cwd, env } = this.options;
    const named = printable(`apiKeyHelper (${from}: ${command.length > 80 ? `${command.slice(0, 79)}…` : command})`);
    let run: Awaited<ReturnType<typeof runCommand>>;
    try {
      run = await runCommand({ command, cwd, env: { ...env }, timeoutMs: HELPER_TIMEOUT_MS, signal: new AbortController().signal });
    } catch (error) {
      throw new ApiKeyHelperError(`${named} could not be run: ${errorText(error)}`);
    }
    if (run.status === "failed_to_start") throw new ApiKeyHelperError(`${named} could not be run: ${run.message}`);
    const said = "stderr" in run ? printable(lastLine(run.stderr)) : "";
    const because = said ? `: ${said}` : "";
    if (run.status === "timed_out") throw new ApiKeyHelperError(`${named} printed no key within ${HELPER_TIMEOUT_MS / 1000} s and was stopped`);
    if (run.status === "aborted") throw new ApiKeyHelperError(`${named} was stopped`);
    if (run.code !== 0) throw new ApiKeyHelperError(`${named} failed (exit ${run.code})${because}`);
    const key = run.stdout.trim();
    if (!key) throw new ApiKeyHelperError(`${named} printed no key (it should print the key alone on stdout)${because}`);
    if (/[\r\n]/.test(key)) throw new ApiKeyHelperError(`${named} printed more than one line; it should print the key alone on stdout`);
    this.value = key;
    this.fetchedAt = performance.now();
    if (!this.keys.includes(key)) this.keys.push(key);
    return key;
  }
}

/** `work`'s result, or the signal's reason once it is aborted (the work goes on for whoever else waits). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    work.then(
      (value) => (signal.removeEventListener("abort", abort), resolve(value)),
      (error: unknown) => (signal.removeEventListener("abort", abort), reject(error)),
    );
  });
}

/** The last non-empty line of a command's stderr, cut to a sentence's length. */
function lastLine(text: string): string {
  const line = text.trim().split(/\r?\n/).at(-1)?.trim() ?? "";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
