// zot's side of the control frames of `--input-format stream-json` (protocol/claude-control.ts):
// the requests zot sends the program driving it (`can_use_tool`, `hook_callback`, `mcp_message`)
// and the responses that settle them.
// Rule: every request is settled once: by its response, by its asker giving up (a
// `control_cancel_request` goes out), or by the program going away (stdin closed: what waits is
// rejected, and so is every later request). A response nobody waits for is said, not thrown.
import * as v from "valibot";
import type { ClaudeControlResponse } from "../protocol/claude-control.ts";

interface Waiting {
  subtype: string;
  resolve(response: unknown): void;
  reject(error: Error): void;
}

export class ClaudeControlChannel {
  private readonly waiting = new Map<string, Waiting>();
  private next = 1;
  /** why the program can answer no more; undefined while it can */
  private closed: string | undefined;

  constructor(
    private readonly write: (line: unknown) => void,
    private readonly log: (message: string) => void,
  ) {}

  /**
   * Asks the program, and reads its answer with `schema`; rejects with a sentence when it answers
   * with an error, an answer of another shape, or cannot answer.
   */
  request<T extends v.GenericSchema>(request: { subtype: string } & Record<string, unknown>, schema: T, signal?: AbortSignal): Promise<v.InferOutput<T>> {
    if (this.closed !== undefined) return Promise.reject(new Error(`${this.closed}, so it cannot answer ${request.subtype}`));
    if (signal?.aborted) return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error("cancelled"));
    const requestId = `zot-${this.next++}`;
    return new Promise<unknown>((resolve, reject) => {
      const onAbort = () => {
        if (!this.waiting.delete(requestId)) return;
        this.write({ type: "control_cancel_request", request_id: requestId });
        reject(signal?.reason instanceof Error ? signal.reason : new Error("cancelled"));
      };
      const done = () => signal?.removeEventListener("abort", onAbort);
      this.waiting.set(requestId, {
        subtype: request.subtype,
        resolve: (value) => {
          done();
          resolve(value);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      this.write({ type: "control_request", request_id: requestId, request });
    }).then((answer) => {
      const read = v.safeParse(schema, answer);
      if (!read.success) {
        const issue = read.issues[0];
        const where = issue.path?.map((step) => String(step.key)).join(".");
        throw new Error(`the program's answer to ${request.subtype} is not what Claude Code's protocol says${where ? ` (${where})` : ""}: ${issue.message}`);
      }
      return read.output;
    });
  }

  /** Why the program can answer no more (it closed stdin, zot is stopping), or undefined while it can. */
  get gone(): string | undefined {
    return this.closed;
  }

  /** A control_response from the program. */
  settle(frame: ClaudeControlResponse): void {
    const { response } = frame;
    const waiting = this.waiting.get(response.request_id);
    if (!waiting) {
      this.log(`stream-json: a control_response for "${response.request_id}", which no request of zot's waits for; ignored`);
      return;
    }
    this.waiting.delete(response.request_id);
    if (response.subtype === "success") waiting.resolve(response.response);
    else waiting.reject(new Error(`the program answered ${waiting.subtype} with an error: ${response.error}`));
  }

  /** The program can answer no more (`why`: it closed stdin, zot is stopping). */
  close(why: string): void {
    // The first reason stays: it is why.
    this.closed ??= why;
    for (const [requestId, waiting] of [...this.waiting]) {
      this.waiting.delete(requestId);
      waiting.reject(new Error(`${why}, so it cannot answer ${waiting.subtype}`));
    }
  }
}
