// The examples in extensions-examples/ loaded with `zot --ext` into the compiled binary, as the
// READMEs tell a user to try them: the scripted provider plays each example's demo.jsonl (or a
// script written here), and slash commands go through -p / --json.
// Rule: assert what a user sees (stdout, stderr notes) and what is left on disk; the frame-level
// behaviour is covered by test/extensions/examples-wire.test.ts.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm } from "../support/mock-llm.ts";
import { anthropicMock } from "../support/rpc-process.ts";
import { ndjson, ROOT, tempDir, zot } from "../support/zot.ts";

const EXAMPLES = join(ROOT, "extensions-examples");
const ext = (name: string) => ["--ext", join(EXAMPLES, name)];
const demo = (name: string) => ["--provider", "scripted", "--script", join(EXAMPLES, name, "demo.jsonl")];

function script(turns: object[]): string {
  const file = join(tempDir("zot-script-"), "script.jsonl");
  writeFileSync(file, turns.map((turn) => JSON.stringify(turn)).join("\n"));
  return file;
}

describe("guard", () => {
  test("refuses rm -rf ~ and the model reads why; the user gets a warning note", async () => {
    const run = await zot([...ext("guard"), ...demo("guard"), "-p", "clean up"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'The guard answered: guard refused this command: "rm -rf ~" matches the rule rm-everything: it would delete the whole disk or home directory. Delete only the specific paths you mean, inside the project.\n',
    );
    expect(run.stderr).toContain("[guard] warn: blocked (rm-everything): rm -rf ~");
  });

  test("the bash tool runs git push --force as --force-with-lease", async () => {
    // A stand-in git that prints its arguments shows what the tool really ran.
    const bin = tempDir("zot-bin-");
    writeFileSync(join(bin, "git"), '#!/bin/sh\necho "git $*"\n');
    chmodSync(join(bin, "git"), 0o755);
    const turns = script([{ tool_calls: [{ name: "bash", args: { command: "git push --force origin main" } }] }, { text: "{{last_tool_result}}" }]);
    const run = await zot([...ext("guard"), "--provider", "scripted", "--script", turns, "-p", "push it"], {
      env: { PATH: `${bin}:${process.env.PATH}` },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("git push --force-with-lease origin main");
    expect(run.stdout).not.toContain("git push --force origin");
    expect(run.stderr).toContain("[guard] info: rewrote (force-with-lease): git push --force-with-lease origin main");
  });

  test("/guard lists the rules", async () => {
    const run = await zot([...ext("guard"), "--provider", "scripted", "-p", "/guard"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toStartWith("guard refuses bash commands that match:\n  rm-everything");
    expect(run.stdout).toContain("this session: 0 blocked, 0 rewritten");
  });
});

describe("hello-py", () => {
  test("/echo displays its text", async () => {
    const run = await zot([...ext("hello-py"), "--provider", "scripted", "-p", "/echo hi  there"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("hi  there\n");
  });

  test("/hellopy becomes the user's prompt", async () => {
    const turns = script([{ text: "Hello, Ada!" }]);
    const run = await zot([...ext("hello-py"), "--provider", "scripted", "--script", turns, "--json", "/hellopy Ada"]);
    expect(run.code).toBe(0);
    const events = ndjson(run.stdout);
    const prompt = "Greet Ada in one short, cheerful sentence (this came from a Python extension).";
    expect(events.find((event) => event.type === "user_message")?.content).toEqual([{ type: "text", text: prompt }]);
    expect(events.find((event) => event.type === "assistant_message")?.content?.[0]?.text).toBe("Hello, Ada!");
  });
});

describe("clock", () => {
  test("/time shows the time and /date gives today's date", async () => {
    const time = await zot([...ext("clock"), "--provider", "scripted", "-p", "/time"]);
    expect(time.code).toBe(0);
    expect(time.stdout).toMatch(/ local, \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z UTC\n$/);
    const date = await zot([...ext("clock"), "--provider", "scripted", "-p", "/date"]);
    expect(date.code).toBe(0);
    expect(date.stdout).toMatch(/^\d{4}-\d\d-\d\d\n$/);
  });
});

describe("weather", () => {
  test("the model calls the weather tool and gets the deterministic fake", async () => {
    const run = await zot([...ext("weather"), ...demo("weather"), "-p", "weather?"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Berlin: 0°C, snow showers (a deterministic fake from the weather example extension)\n");
  });

  test("/weather without a city fails with its usage", async () => {
    const run = await zot([...ext("weather"), "--provider", "scripted", "-p", "/weather"]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("usage: /weather <city>");
  });
});

describe("redact", () => {
  test("secrets in the answer are masked in what the user sees", async () => {
    const run = await zot([...ext("redact"), ...demo("redact"), "-p", "show me"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Your key is [redacted] and the database password: [redacted]\n");
  });
});

describe("audit", () => {
  test("every event lands in <ZOT_HOME>/data/audit/audit.jsonl, and /audit shows the latest", async () => {
    const home = tempDir("zot-home-");
    const run = await zot([...ext("audit"), ...demo("audit"), "-p", "go"], { home });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("done\n");
    const file = join(home, "data", "audit", "audit.jsonl");
    expect(existsSync(file)).toBe(true);
    const events = readFileSync(file, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(events.map((event) => event.event)).toEqual([
      "session_start",
      "turn_start",
      // the first answer has no text, only the tool call; it is still an assistant message
      "assistant_message",
      "tool_call",
      "turn_end",
      "turn_start",
      "assistant_message",
      "turn_end",
    ]);
    expect(events[3]).toMatchObject({ tool_name: "bash", tool_args: { command: "echo audited" } });

    const shown = await zot([...ext("audit"), "--provider", "scripted", "-p", "/audit 2"], { home });
    expect(shown.code).toBe(0);
    // The second run's own session_start is the newest line.
    expect(shown.stdout).toStartWith(`last 2 of 9 events in ${file}:\n`);
    expect(shown.stdout).toContain('"event":"session_start"');
  });
});

describe("toolbox (deferred tools)", () => {
  test("the demo finds the converter, which the model may then call", async () => {
    const run = await zot([...ext("toolbox"), ...demo("toolbox"), "-p", "100 °C in Fahrenheit?"]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("100 c = 212 f\n");
  });

  test("the converters are not offered to the model until toolbox_search activates the ones it found", async () => {
    const mock = startMockLlm([
      { tool_calls: [{ name: "toolbox_search", args: { query: "weight" } }] },
      { tool_calls: [{ name: "convert_weight", args: { value: 2, from: "kg", to: "lb" } }] },
      { text: "{{last_tool_result}}" },
    ]);
    try {
      const run = await zot([...ext("toolbox"), "--no-skill", "-p", "2 kg in pounds?", ...anthropicMock(mock.url)]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("2 kg = 4.4092 lb\n");
      const offered = mock.requests.map((r) => r.body.tools.map((t: { name: string }) => t.name).filter((n: string) => n.startsWith("convert") || n.startsWith("toolbox")));
      expect(offered).toEqual([["toolbox_search"], ["convert_weight", "toolbox_search"], ["convert_weight", "toolbox_search"]]);
    } finally {
      await mock.stop();
    }
  });
});

describe("file-facts (call_tool, tool_prompt)", () => {
  const project = () => {
    const cwd = tempDir("zot-facts-");
    writeFileSync(join(cwd, "notes.md"), "# Notes\n\nbuy milk and eggs\n");
    return cwd;
  };

  test("its tool reads the file through zot's read (an event names the extension), and the model gets the facts", async () => {
    const cwd = project();
    const run = await zot([...ext("file-facts"), ...demo("file-facts"), "--json", "how long is notes.md?"], { cwd });
    expect(run.code).toBe(0);
    const events = ndjson(run.stdout);
    expect(events.find((e) => e.type === "tool_call" && e.name === "read")).toMatchObject({ args: { path: "notes.md" }, origin_extension: "file-facts" });
    expect(events.findLast((e) => e.type === "assistant_message").content[0].text).toBe("notes.md: 3 lines, 6 words; first line: # Notes");
  });

  test("/facts runs read from a command; /explain puts the file into the transcript before the model's turn", async () => {
    const cwd = project();
    const facts = await zot([...ext("file-facts"), "--provider", "scripted", "-p", "/facts notes.md"], { cwd });
    expect(facts.stdout).toBe("notes.md: 3 lines, 6 words; first line: # Notes\n");
    const mock = startMockLlm([{ text: "It is a shopping list." }]);
    try {
      const explained = await zot([...ext("file-facts"), "-p", "/explain notes.md", ...anthropicMock(mock.url)], { cwd });
      expect(explained.stdout).toBe("It is a shopping list.\n");
      const messages = mock.requests[0].body.messages;
      expect(messages[1].content[0]).toMatchObject({ type: "tool_use", name: "read", input: { path: "notes.md" } });
      expect(JSON.stringify(messages[2].content)).toContain("buy milk and eggs");
      expect(JSON.stringify(messages[0].content)).toContain("Explain what notes.md is for, in three sentences.");
    } finally {
      await mock.stop();
    }
  });
});

describe("house-rules (before_agent_start)", () => {
  test("the project's .zot/house-rules.md is appended to the system prompt, in the audit trail; without it nothing changes", async () => {
    const cwd = tempDir("zot-rules-");
    const mock = startMockLlm([{ text: "Cheerio." }, { text: "Hi." }]);
    try {
      const plain = await zot([...ext("house-rules"), "-p", "hi", ...anthropicMock(mock.url)], { cwd });
      expect(plain.code).toBe(0);
      const system = (i: number) => mock.requests[i].body.system.map((b: { text: string }) => b.text).join("");
      expect(system(0)).not.toContain("House rules");
      mkdirSync(join(cwd, ".zot"));
      writeFileSync(join(cwd, ".zot", "house-rules.md"), "- Answer in British English.\n");
      const ruled = await zot([...ext("house-rules"), "--json", "hi", ...anthropicMock(mock.url)], { cwd });
      expect(ruled.code).toBe(0);
      expect(system(1)).toEndWith("\n\n# House rules (from .zot/house-rules.md; follow them)\n\n- Answer in British English.");
      expect(ndjson(ruled.stdout).find((e) => e.type === "intercept")).toMatchObject({ participant: "house-rules", stage: "before_agent_start", action: "modify" });
    } finally {
      await mock.stop();
    }
  });
});

describe("install", () => {
  test("zot ext install copies an example, and it then loads without --ext, importing the SDK the binary wrote", async () => {
    const home = tempDir("zot-home-");
    mkdirSync(home, { recursive: true });
    const install = await zot(["ext", "install", join(EXAMPLES, "weather")], { home });
    expect(install.code).toBe(0);
    expect(existsSync(join(home, "extensions", "weather", "index.ts"))).toBe(true);
    const run = await zot([...demo("weather"), "-p", "weather?"], { home });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Berlin: 0°C, snow showers");
    // Outside the repository no tsconfig "paths" apply: @zot/sdk came from the copy the binary
    // wrote from the source compiled into it.
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    const written = join(home, "runtime", version, "node_modules", "@zot", "sdk", "index.ts");
    expect(readFileSync(written, "utf8")).toBe(readFileSync(join(ROOT, "src", "sdk", "extension.ts"), "utf8"));
  });
});
