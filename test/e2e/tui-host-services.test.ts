// Host services where a person is at the terminal, through a pseudo-terminal, with the svc
// extension in python (raw protocol) and TypeScript (the SDK): an interactive tool runs (no
// deadline, nobody refuses it) until the user cancels the turn with Esc, which sends the extension
// tool_cancel (the SDK aborts the handler's signal); a deferred tool's Markdown result is drawn as
// Markdown. What the extension received is read from the file it records into.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eventually, FIXTURES } from "../fixtures/extensions/make.ts";
import { startMockLlm } from "../support/mock-llm.ts";
import { ptyRuns } from "../support/pty-runs.ts";
import { tempDir } from "../support/zot.ts";
import { ready } from "../support/zot-pty.ts";

const runs = ptyRuns();

for (const language of ["python", "typescript"] as const) {
  describe(`${language}: in the TUI`, () => {
    test("a deferred tool's markdown result is drawn as Markdown; an interactive tool waits until Esc cancels it, and the extension gets tool_cancel", async () => {
      const root = tempDir("zot-svc-tui-");
      const dir = join(root, "svc");
      mkdirSync(dir);
      const record = join(root, "record.ndjson");
      writeFileSync(join(dir, "config.json"), JSON.stringify({ record }));
      const manifest =
        language === "python"
          ? { name: "svc", exec: "python3", args: [join(FIXTURES, "host_services.py"), "config.json"] }
          : { name: "svc", exec: join(FIXTURES, "host_services.ts"), args: [join(dir, "config.json")] };
      writeFileSync(join(dir, "extension.json"), JSON.stringify(manifest));
      const recorded = () => (existsSync(record) ? readFileSync(record, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line)) : []);

      const { session } = runs.start(
        startMockLlm([
          { tool_calls: [{ name: "finder", args: {} }] },
          { tool_calls: [{ name: "deep_tool", args: {} }] },
          { tool_calls: [{ name: "ask_user", args: {} }] },
          { text: "never reached" },
        ]),
        { args: ["--no-ext", "--ext", dir] },
      );
      await ready(session);
      session.type("go\r");
      await session.waitForText("deep_tool");
      await session.waitFor((screen) => screen.text().includes("deep result"), "the deep result");
      // Drawn as a heading, not as the raw "# deep result".
      expect(session.screen.text()).not.toContain("# deep result");
      await session.waitForText("ask_user");
      await eventually(() => recorded().some((f) => f.type === "event" && f.event === "tool_call" && f.tool_name === "ask_user"), "the ask_user call to reach the extension");
      await Bun.sleep(300);
      // No deadline, nobody refused it: it is still running.
      expect(session.screen.text()).toContain("running…");
      session.type("\x1b");
      await session.waitForText("cancelled");
      const result = () => recorded().find((f) => f.type === "event" && f.event === "tool_result" && f.tool_name === "ask_user");
      await eventually(() => result() !== undefined, "the tool_result event");
      expect(result()).toMatchObject({ status: "cancelled", executed: true });
      if (language === "python") {
        const sent = recorded().find((f) => f.type === "tool_call" && f.name === "ask_user");
        expect(recorded()).toContainEqual({ type: "tool_cancel", id: sent.id });
      } else {
        await eventually(() => recorded().some((f) => f.type === "handler_cancelled"), "the SDK to abort the handler's signal");
      }
    });

    test("a command's tool_prompt runs the tool into the transcript (a tool box), then the model's turn sees it", async () => {
      const root = tempDir("zot-svc-tui-");
      const cwd = join(root, "project");
      mkdirSync(cwd);
      writeFileSync(join(cwd, "notes.txt"), "first line of notes\n");
      const dir = join(root, "svc");
      mkdirSync(dir);
      writeFileSync(join(dir, "config.json"), "{}");
      const manifest =
        language === "python"
          ? { name: "svc", exec: "python3", args: [join(FIXTURES, "host_services.py"), "config.json"] }
          : { name: "svc", exec: join(FIXTURES, "host_services.ts"), args: [join(dir, "config.json")] };
      writeFileSync(join(dir, "extension.json"), JSON.stringify(manifest));
      const { session, mock } = runs.start(startMockLlm([{ text: "It holds notes." }]), { args: ["--no-ext", "--ext", dir], cwd });
      await ready(session);
      session.type("/peek notes.txt\r");
      await session.waitForText("It holds notes.");
      expect(session.screen.text()).toContain("read");
      const messages = mock.requests[0].body.messages;
      expect(messages[1].content[0]).toMatchObject({ type: "tool_use", name: "read", input: { path: "notes.txt" } });
      expect(JSON.stringify(messages[2].content)).toContain("first line of notes");
    });
  });
}
