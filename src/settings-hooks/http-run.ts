// Runs one `type: "http"` settings hook as Claude Code does: the event's JSON POSTed to its URL,
// its headers with `$VAR` and `${VAR}` filled only for the variables it lists in allowedEnvVars
// (any other is sent empty, so a header cannot leak what the hook did not ask for), its timeout
// and the turn's abort ending the request. The answer reads as a command hook's exit 0 would: a 2xx
// body is its stdout, empty or a JSON object; a 2xx with any other body (plain text), a non-2xx
// status, a connection that fails and a redirect are non-blocking errors (Claude Code gives such
// text to the model no more than a failure's).
import { childEnv } from "../config/child-env.ts";
import { STDOUT_MAX_BYTES } from "./command-run.ts";
import type { HookRun } from "./hook-output.ts";
import { isJsonObject } from "../protocol/json-object.ts";
import { ownEntry } from "../protocol/own-key.ts";
import { timerDelay } from "../protocol/timer-delay.ts";

export interface HttpRunOptions {
  url: string;
  headers: Record<string, string>;
  allowedEnvVars: readonly string[];
  /** the event's input, the request's body */
  input: unknown;
  timeoutMs: number;
  signal: AbortSignal;
  env?: Record<string, string | undefined>;
}

export async function runHttp(options: HttpRunOptions): Promise<HookRun> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  if (options.signal.aborted) return { status: "aborted", stdout: "", stderr: "", durationMs: 0 };
  // zot's own credentials are not a hook's to ask for, as they are not a command hook's (ZOT_PASS_ENV passes one).
  const env = childEnv(options.env ?? process.env);
  const allowed = new Set(options.allowedEnvVars);
  const fill = (value: string) =>
    value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_all, braced: string | undefined, bare: string | undefined) => {
      const name = (braced ?? bare)!;
      return allowed.has(name) ? (ownEntry(env, name) ?? "") : "";
    });
  const headers: Record<string, string> = { "content-type": "application/json" };
  for (const [name, value] of Object.entries(options.headers)) headers[name.toLowerCase()] = fill(value);
  const timeout = AbortSignal.timeout(Math.max(1, timerDelay(options.timeoutMs)));
  let response: Response;
  try {
    response = await fetch(options.url, {
      method: "POST",
      headers,
      body: JSON.stringify(options.input),
      redirect: "manual",
      signal: AbortSignal.any([options.signal, timeout]),
    });
  } catch (error) {
    if (options.signal.aborted) return { status: "aborted", stdout: "", stderr: "", durationMs: took() };
    if (timeout.aborted) return { status: "timed_out", stdout: "", stderr: "", durationMs: took() };
    return { status: "failed", message: `could not reach ${options.url}: ${(error as Error).message}`, durationMs: took() };
  }
  // The timeout and the abort hold for the body too: an answer that stalls is not a success.
  let body: string;
  try {
    body = await boundedText(response);
  } catch (error) {
    if (options.signal.aborted) return { status: "aborted", stdout: "", stderr: "", durationMs: took() };
    if (timeout.aborted) return { status: "timed_out", stdout: "", stderr: "", durationMs: took() };
    return { status: "failed", message: `${options.url} answered ${response.status}, and its body could not be read: ${(error as Error).message}`, durationMs: took() };
  }
  if (response.status >= 300 && response.status < 400) {
    return { status: "failed", message: `${options.url} answered ${response.status} (a redirect, which zot does not follow for a hook)`, durationMs: took() };
  }
  if (!response.ok) {
    const said = body.trim().split("\n")[0]?.slice(0, 200);
    return { status: "failed", message: `${options.url} answered ${response.status}${said ? `: ${said}` : ""}`, durationMs: took() };
  }
  if (body.trim() !== "" && !isJsonObjectText(body.trim())) {
    const said = body.trim().split("\n")[0]?.slice(0, 200);
    return { status: "failed", message: `${options.url} answered ${response.status} with text, not a JSON object (${said}); an http hook answers in JSON, so the text counts for nothing`, durationMs: took() };
  }
  return { status: "exited", code: 0, stdout: body, stderr: "", durationMs: took() };
}

function isJsonObjectText(text: string): boolean {
  if (!text.startsWith("{")) return false;
  try {
    return isJsonObject(JSON.parse(text));
  } catch {
    return false;
  }
}

/** A response's text up to STDOUT_MAX_BYTES, as a command hook's stdout is kept: read so far, the rest not read at all. */
async function boundedText(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let kept = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const part = value.byteLength > STDOUT_MAX_BYTES - kept ? value.subarray(0, STDOUT_MAX_BYTES - kept) : value;
    chunks.push(part);
    kept += part.byteLength;
    if (kept >= STDOUT_MAX_BYTES) {
      await reader.cancel().catch(() => {});
      break;
    }
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
