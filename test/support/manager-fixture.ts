// What ExtensionManager tests stand on: a stand-in provider that plays scripted turns (text, then
// tool calls) and records every request, and a throw-away project and ZOT_HOME with the manager's
// load options. Rule: a run past the last scripted turn fails with a ProviderError, never hangs.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { LoadOptions } from "../../src/extensions/manager.ts";
import type { ContentBlock } from "../../src/protocol/messages.ts";
import { type ModelRequest, type Provider, type ProviderBatch, ProviderError } from "../../src/protocol/provider.ts";
import { tempDir } from "./zot.ts";

export type Turn = { text?: string; calls?: { id: string; name: string; args: Record<string, unknown> }[] };

export function fakeProvider(turns: Turn[]): Provider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    name: "fake",
    requests,
    async *stream(request): AsyncIterable<ProviderBatch> {
      requests.push(structuredClone(request));
      const turn = turns.shift();
      if (!turn) throw new ProviderError("fake: no turn left", "bad_request");
      const content: ContentBlock[] = [];
      if (turn.text) content.push({ type: "text", text: turn.text });
      for (const call of turn.calls ?? []) content.push({ type: "tool_call", ...call });
      // The whole answer in one read.
      yield [
        ...(turn.text ? [{ type: "text_delta" as const, delta: turn.text }] : []),
        { type: "done", content, stop: turn.calls?.length ? "tool_use" : "end_turn" },
      ];
    },
  };
}

/** A temp root holding `project` (the cwd) and `home` (ZOT_HOME), their extension dirs, and load options for them. */
export function extensionLayout(prefix: string) {
  const root = tempDir(prefix);
  const cwd = join(root, "project");
  const home = join(root, "home");
  return {
    root,
    cwd,
    home,
    project: join(cwd, ".zot", "extensions"),
    global: join(home, "extensions"),
    file: (name: string) => join(root, name),
    log: (name: string) => {
      const file = join(home, "logs", `ext-${name}.log`);
      return existsSync(file) ? readFileSync(file, "utf8") : "";
    },
    options: (extra: Partial<LoadOptions> = {}): LoadOptions => ({
      cwd,
      home,
      explicit: [],
      noDiscovery: false,
      // the layout's project is one the user trusted (workspace trust is decided before a load)
      projectTrusted: true,
      provider: "scripted",
      model: "test-model",
      zotVersion: "9.9.9",
      zotBinary: process.execPath,
      ...extra,
    }),
  };
}
