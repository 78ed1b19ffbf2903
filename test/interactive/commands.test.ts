// The built-in slash commands against a fake AppContext and a real runtime (the Anthropic SDK
// against the mock LLM): /help, /model, /clear, /compact, /jump, /reload-ext, /skills, /exit.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUILTIN_COMMANDS } from "../../src/extensions/manager.ts";
import type { SlashCommand } from "../../src/modes/interactive/app-context.ts";
import { BUILTIN_SLASH_COMMANDS } from "../../src/modes/interactive/commands/index.ts";
import { SlashPopup } from "../../src/modes/interactive/slash-popup.ts";
import { createRuntime, type Runtime, type RuntimeOptions } from "../../src/runtime/runtime.ts";
import { createTheme } from "../../src/tui/theme.ts";
import { scriptedExtension } from "../fixtures/extensions/make.ts";
import { type MockLlm, startMockLlm } from "../support/mock-llm.ts";
import { tempDir } from "../support/zot.ts";
import { DOWN, ENTER, ESC, fakeApp } from "./fake-app.ts";

let mock: MockLlm | undefined;
let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  await mock?.stop();
  runtime = undefined;
  mock = undefined;
});

async function start(turns: Parameters<typeof startMockLlm>[0] = [], options: Partial<RuntimeOptions> = {}): Promise<Runtime> {
  mock = startMockLlm(turns);
  runtime = await createRuntime({
    provider: "anthropic",
    apiKey: "sk-test",
    baseUrl: mock.url,
    home: tempDir("zot-cmd-home-"),
    cwd: tempDir("zot-cmd-cwd-"),
    tools: "none",
    extensions: { explicit: [], noDiscovery: true },
    env: {},
    ...options,
  });
  return runtime;
}

function command(name: string): SlashCommand {
  const found = BUILTIN_SLASH_COMMANDS.find((c) => c.name === name);
  if (!found) throw new Error(`no built-in /${name}`);
  return found;
}

async function prompt(rt: Runtime, text: string): Promise<void> {
  await rt.agent.prompt({ text }, new AbortController().signal);
}

/** Runs `body` with environment variables set, restoring them after. */
async function withEnv(vars: Record<string, string | undefined>, body: () => Promise<void>): Promise<void> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  for (const [k, v] of Object.entries(vars)) if (v === undefined) delete process.env[k];
  try {
    await body();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe("the list", () => {
  test("every command the issue names is there, once, under a name no extension can take", () => {
    const names = BUILTIN_SLASH_COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of ["help", "model", "clear", "compact", "sessions", "session", "jump", "reload-ext", "skills", "jail", "unjail", "yolo", "btw", "exit", "quit"]) {
      expect(names).toContain(name);
    }
    for (const name of names) expect(BUILTIN_COMMANDS.has(name)).toBe(true);
  });

  test("commands that change the transcript cancel a running turn first", () => {
    expect(command("clear").cancelsTurn).toBe(true);
    expect(command("compact").cancelsTurn).toBe(true);
    expect(command("help").cancelsTurn).toBeFalsy();
    expect(command("jump").cancelsTurn).toBeFalsy();
  });
});

describe("/help", () => {
  test("lists each built-in with its arguments, and the extensions' commands under their extension", async () => {
    const dir = scriptedExtension(tempDir("zot-cmd-ext-"), "weather", {
      after_hello: [{ type: "register_command", name: "forecast", description: "Tomorrow's weather" }],
    });
    const rt = await start([], { extensions: { explicit: [dir], noDiscovery: true } });
    const app = fakeApp(rt);
    await command("help").run(app, "");
    const text = app.markdown.join("\n");
    for (const c of BUILTIN_SLASH_COMMANDS) expect(text).toContain(`/${c.name}`);
    expect(text).toContain("`/model [id]`");
    expect(text).toContain("`/session export [file] | import <file> | fork [turn] | tree`");
    const extensions = text.slice(text.indexOf("**Extension commands**"));
    expect(extensions).toContain("`/forecast` — Tomorrow's weather *(weather)*");
  });

  test("a skill is listed under Skills, once tagged as one, not among the extensions' commands", async () => {
    // Discovery on (skills are slash commands beside the Markdown commands), in folders of the test's own.
    const app = fakeApp(await start([], { tools: "all", extensions: { explicit: [], noDiscovery: false }, env: { HOME: tempDir("zot-cmd-user-") } }));
    await command("help").run(app, "");
    const text = app.markdown.join("\n");
    expect(text).not.toContain("Extension commands");
    const skills = text.slice(text.indexOf("**Skills**"), text.indexOf("**Keys**"));
    expect(skills).toMatch(/^- `\/write-zot-extension` — .* \(skill\)$/m);
    expect(text).not.toContain("(skills)");
  });

  test("the / popup lists a skill under its own divider with one tag, after the extensions' commands", () => {
    const popup = new SlashPopup(createTheme({ color: false }), [], () => [
      { name: "write-zot-extension", description: "Help write an extension (skill)", extension: "skills" },
      { name: "forecast", description: "Tomorrow's weather", extension: "weather" },
    ]);
    popup.update("");
    const rows = popup.render(100).map((row) => Bun.stripANSI(row).trimEnd());
    const forecast = rows.findIndex((row) => row.includes("/forecast"));
    const skill = rows.findIndex((row) => row.includes("/write-zot-extension"));
    expect(rows[forecast]).toContain("Tomorrow's weather (weather)");
    expect(rows[skill]).toEndWith("Help write an extension (skill)");
    expect(rows.slice(forecast + 1, skill).join("\n")).toContain("skills");
  });

  test("without extensions there is no extension section", async () => {
    const app = fakeApp(await start());
    await command("help").run(app, "");
    expect(app.markdown.join("\n")).not.toContain("Extension commands");
    // The keys name what a prompt can carry besides text.
    expect(app.markdown.join("\n")).toContain("`@path` sends a file's content with the prompt");
    expect(app.markdown.join("\n")).toContain("`!command` runs a shell command as context");
  });
});

describe("/yolo", () => {
  test("confirmations locked on by a settings file's disableBypassPermissionsMode stay on, saying why; /yolo on says so too", async () => {
    const rt = await start([], { noYolo: true, confirmer: async () => ({ answer: "yes" }), confirmationsLockedOn: "the permissions.disableBypassPermissionsMode \"disable\" of ~/.claude/settings.json keeps them on" });
    const app = fakeApp(rt);
    for (const args of ["", "on"]) {
      await command("yolo").run(app, args);
      expect(app.conversation.guards.confirming).toBe(true);
      expect(app.notes.at(-1)).toEqual({
        text: 'confirmations stay on: the permissions.disableBypassPermissionsMode "disable" of ~/.claude/settings.json keeps them on',
        level: "error",
      });
    }
    await command("yolo").run(app, "off");
    expect(app.notes.at(-1)?.text).toBe("confirmations are on already: each tool call asks first");
  });
});

describe("/model", () => {
  test("/model <id> switches, and the next request goes to that model", async () => {
    const rt = await start([{ text: "ok" }]);
    const app = fakeApp(rt);
    await command("model").run(app, "claude-haiku-4-5");
    expect(rt.agent.model.id).toBe("claude-haiku-4-5");
    expect(app.notes.at(-1)).toEqual({ text: "model: claude-haiku-4-5 (Claude Haiku 4.5)", level: "success" });
    await prompt(rt, "hi");
    expect(mock!.requests[0]!.body.model).toBe("claude-haiku-4-5");
  });

  test("the picker lists the provider's models, current first, narrows as the user types and switches on Enter", async () => {
    const rt = await start();
    const app = fakeApp(rt);
    const running = command("model").run(app, "");
    const rows = app.screen().join("\n");
    expect(rows).toContain("Switch model");
    expect(rows).toMatch(/› claude-sonnet-5-5 .*current/);
    expect(rows).toContain("── anthropic");
    app.typeText("opus47");
    expect(app.screen().join("\n")).toContain("› opus47");
    app.press(ENTER);
    await running;
    expect(app.overlay).toBeUndefined();
    expect(rt.agent.model.id).toBe("claude-opus-4-7");
  });

  test("Esc closes the picker and changes nothing", async () => {
    const rt = await start();
    const app = fakeApp(rt);
    const running = command("model").run(app, "");
    app.press(DOWN, ESC);
    await running;
    expect(app.overlay).toBeUndefined();
    expect(rt.agent.model.id).toBe("claude-sonnet-5-5");
    expect(app.notes).toEqual([]);
  });

  test("a part of a name that fits several models opens the picker filtered to them", async () => {
    const rt = await start();
    const app = fakeApp(rt);
    const running = command("model").run(app, "haiku-");
    const rows = app.screen();
    expect(rows.some((r) => r.includes("claude-haiku-4-5"))).toBe(true);
    expect(rows.some((r) => r.includes("claude-opus"))).toBe(false);
    app.press(ESC);
    await running;
  });

  test("a running turn is cancelled before the model changes, not when the picker opens", async () => {
    const rt = await start();
    const order: string[] = [];
    const app = fakeApp(rt, { onCancel: async () => void order.push("cancel") });
    const setModel = rt.setModel;
    rt.setModel = async (m) => {
      order.push(`set:${m.id}`);
      await setModel(m);
    };
    app.busy = true;
    const running = command("model").run(app, "");
    expect(order).toEqual([]);
    app.typeText("claude-opus-4-6");
    app.press(ENTER);
    await running;
    expect(order).toEqual(["cancel", "set:claude-opus-4-6"]);
  });

  test("a proxy's models a Claude Code setup names are offered, and the one the run started on stays offered after a switch", async () => {
    const rt = await start([], { env: { ANTHROPIC_MODEL: "glm-4.6", ANTHROPIC_DEFAULT_HAIKU_MODEL: "glm-4.5-air" } });
    expect(rt.agent.model.id).toBe("glm-4.6");
    const app = fakeApp(rt);
    await command("model").run(app, "haiku");
    expect(rt.agent.model.id).toBe("glm-4.5-air");
    const running = command("model").run(app, "");
    app.typeText("glm");
    const screen = app.screen(200).join("\n");
    expect(screen).toContain("glm-4.6");
    expect(screen).toContain("glm-4.5-air");
    app.press(ESC);
    await running;
  });

  test("another provider's model is offered when its key is there, and picking it says how to start zot on it", async () => {
    // The run's own environment says which keys are there (Runtime.env), as the process it starts with.
    await withEnv({ OPENAI_API_KEY: undefined }, async () => {
      const rt = await start([], { env: { OPENAI_API_KEY: "sk-openai" } });
      const app = fakeApp(rt);
      const running = command("model").run(app, "");
      app.typeText("gpt-5.5");
      expect(app.screen(200).join("\n")).toMatch(/── openai[^]*gpt-5\.5 .*needs zot --provider openai/);
      app.press(ESC);
      await running;
      await command("model").run(app, "openai/gpt-5");
      expect(rt.agent.model.id).toBe("claude-sonnet-5-5");
      expect(app.notes.at(-1)?.level).toBe("warn");
      expect(app.notes.at(-1)?.text).toContain("zot --provider openai --model gpt-5");
    });
  });

  test("without that key the other provider's models are not listed", async () => {
    await withEnv({ OPENAI_API_KEY: undefined }, async () => {
      const rt = await start();
      const app = fakeApp(rt);
      const running = command("model").run(app, "");
      app.typeText("gpt-5.5");
      expect(app.screen(200).join("\n")).toContain("no model matches");
      app.press(ESC);
      await running;
    });
  });

  test("/model <name> reads the name as --model does: an alias switches at once to what --model would pick", async () => {
    const rt = await start();
    const app = fakeApp(rt);
    const wanted = "opus";
    await command("model").run(app, wanted);
    expect(app.overlay).toBeUndefined();
    expect(rt.agent.model.id).toContain(wanted);
    expect(app.notes.at(-1)?.level).toBe("success");
  });

  test("another provider's model, with no key for it here, says how to start zot on it", async () => {
    const rt = await start();
    const app = fakeApp(rt);
    await command("model").run(app, "gpt-5");
    expect(app.notes.at(-1)?.text).toContain("gpt-5 is an openai model and this zot talks to anthropic");
    expect(app.notes.at(-1)?.text).toContain("zot --provider openai --model gpt-5");
    expect(rt.agent.model.id).toBe("claude-sonnet-5-5");
  });

  test("an id no catalog lists (a proxy's vendor/model) is read as --model reads it: sent as asked, with default limits and --model's note", async () => {
    const rt = await start([{ text: "ok" }, { text: "ok" }]);
    const app = fakeApp(rt);
    for (const wanted of ["nonexistent-xyz", "vendor/some-model"]) {
      app.notes.length = 0;
      await command("model").run(app, wanted);
      expect(app.overlay).toBeUndefined();
      expect(rt.agent.model).toMatchObject({ id: wanted, provider: "anthropic", context_window: 128_000, max_output: 8_192 });
      expect(app.notes).toEqual([
        { text: `model: ${wanted}`, level: "success" },
        {
          text: `model "${wanted}" is not in zot's catalog, so anthropic gets it as asked with default limits (128K context, 8192 output tokens) and no price (its cost counts as $0); describe it in ${join(rt.home, "models.json")} to set them`,
          level: "warn",
        },
      ]);
      await prompt(rt, "hi");
      expect(mock!.requests.at(-1)!.body.model).toBe(wanted);
    }
  });

  test("a typed slip with spaces or quotes that matches nothing is an error note, never an id sent as asked", async () => {
    const rt = await start([]);
    const app = fakeApp(rt);
    for (const wanted of ['"x"', "zzz qqq"]) {
      app.notes.length = 0;
      await command("model").run(app, wanted);
      expect(app.notes).toEqual([{ text: `unknown model "${wanted}" (a model's id has no spaces or quotes); /model lists the models you can switch to`, level: "error" }]);
      expect(rt.agent.model.id).toBe("claude-sonnet-5-5");
    }
  });

  test("an unknown id on the scripted provider (which plays only its own) is an error note and the model stays", async () => {
    const rt = await start([], { provider: "scripted" });
    const app = fakeApp(rt);
    const before = rt.agent.model.id;
    await command("model").run(app, "zzzzqqq");
    expect(app.notes).toHaveLength(1);
    expect(app.notes[0]).toMatchObject({ level: "error" });
    expect(app.notes[0]!.text).toContain('unknown model "zzzzqqq"');
    expect(app.notes[0]!.text).toEndWith("; /model lists the models you can switch to");
    expect(rt.agent.model.id).toBe(before);
  });
});

describe("/clear and /compact", () => {
  test("/clear empties the transcript and records on into a new session; the old one keeps the conversation", async () => {
    const rt = await start([{ text: "first answer" }, { text: "second answer" }], { session: { kind: "new" } });
    const app = fakeApp(rt);
    await prompt(rt, "first question");
    const before = rt.session!;
    await command("clear").run(app, "");
    expect(rt.agent.messages).toEqual([]);
    expect(app.reloads).toBe(1);
    expect(rt.session!.id).not.toBe(before.id);
    expect(app.notes.at(-1)?.text).toContain(`session ${before.id}`);
    await prompt(rt, "second question");
    // The second request carries nothing of the first conversation.
    expect(JSON.stringify(mock!.requests[1]!.body.messages)).not.toContain("first question");
    expect(readFileSync(before.file, "utf8")).toContain("first question");
    expect(readFileSync(before.file, "utf8")).not.toContain("second question");
    expect(readFileSync(rt.session!.file, "utf8")).toContain("second question");
  });

  test("/clear without a session empties the transcript", async () => {
    const rt = await start([{ text: "answer" }]);
    const app = fakeApp(rt);
    await prompt(rt, "question");
    await command("clear").run(app, "");
    expect(rt.agent.messages).toEqual([]);
    expect(app.notes).toEqual([{ text: "transcript cleared", level: "success" }]);
  });

  test("/compact hands its instructions to the app's compaction", async () => {
    const app = fakeApp(await start());
    await command("compact").run(app, "  keep the file names  ");
    await command("compact").run(app, "");
    expect(app.compactions).toEqual(["keep the file names", undefined]);
  });
});

describe("/jump", () => {
  test("/jump <n> jumps to user turn n; out of range is an error naming the range", async () => {
    const rt = await start([{ text: "a" }, { text: "b" }]);
    const app = fakeApp(rt);
    await command("jump").run(app, "1");
    expect(app.notes.at(-1)?.text).toBe("no turns to jump to yet");
    await prompt(rt, "one");
    await prompt(rt, "two");
    await command("jump").run(app, "2");
    await command("jump").run(app, "3");
    expect(app.jumps).toEqual([2]);
    expect(app.notes.at(-1)).toEqual({ text: '/jump takes a turn from 1 to 2 (got "3"); /jump alone lists them', level: "error" });
  });

  test("the picker lists the prompts newest first and jumps to the one picked", async () => {
    const rt = await start([{ text: "a" }, { text: "b" }, { text: "c" }]);
    const app = fakeApp(rt);
    for (const text of ["fix the parser", "add a test", "write docs"]) await prompt(rt, text);
    const running = command("jump").run(app, "");
    const rows = app.screen();
    const order = ["3. write docs", "2. add a test", "1. fix the parser"].map((label) => rows.findIndex((r) => r.includes(label)));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    app.typeText("parser");
    app.press(ENTER);
    await running;
    expect(app.jumps).toEqual([1]);
  });
});

describe("/btw", () => {
  test("answers from the whole conversation with no tools; nothing joins the transcript or the session", async () => {
    const rt = await start([{ text: "The parser is in src/parse.ts." }, { text: "We talked about **the parser**." }], { session: { kind: "new" } });
    const app = fakeApp(rt);
    await prompt(rt, "where is the parser?");
    const before = structuredClone(rt.agent.messages);
    await command("btw").run(app, "what did we talk about?");
    expect(app.markdown).toEqual(["**btw** what did we talk about?\n\nWe talked about **the parser**."]);
    expect(rt.agent.messages).toEqual(before);
    const request = mock!.requests[1]!.body;
    expect(request.tools ?? []).toEqual([]);
    const sent = JSON.stringify(request.messages);
    expect(sent).toContain("where is the parser?");
    expect(sent).toContain("The parser is in src/parse.ts.");
    expect(sent).toContain("what did we talk about?");
    const recorded = readFileSync(rt.session!.file, "utf8");
    expect(recorded).not.toContain("what did we talk about?");
    expect(recorded).not.toContain("We talked about");
    // said in the chat while it is asked (a status line goes at the next key), and no longer waited on
    expect(app.notes.map((n) => n.text)).toContain(`btw: asking ${rt.agent.model.id}: what did we talk about? (esc cancels it)`);
    expect(app.sideQuestions.size).toBe(0);
  });

  test("a side question still waiting is cancelled by aborting it (Esc when no turn runs) and says so", async () => {
    const rt = await start([{ text: "main" }, { text: "too late", delay_ms: 3000 }]);
    const app = fakeApp(rt);
    await prompt(rt, "main question");
    const asked = command("btw").run(app, "slow one?");
    while (app.sideQuestions.size === 0) await Bun.sleep(5);
    for (const asking of app.sideQuestions) asking.abort(new Error("cancelled by the user"));
    await asked;
    expect(app.notes.at(-1)).toEqual({ text: "btw: cancelled: slow one?", level: "warn" });
    expect(app.markdown).toEqual([]);
  });

  test("works while a turn streams, which goes on and ends as it would have", async () => {
    const rt = await start([{ text: "a long main answer ".repeat(8), chunk_size: 4, chunk_delay_ms: 10 }, { text: "side answer" }]);
    const app = fakeApp(rt);
    const main = prompt(rt, "main question");
    while (mock!.requests.length === 0) await Bun.sleep(5);
    await command("btw").run(app, "quick one?");
    expect(app.markdown).toEqual(["**btw** quick one?\n\nside answer"]);
    await main;
    expect(rt.agent.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(JSON.stringify(rt.agent.messages)).not.toContain("quick one?");
  });

  test("no question, or a failing model, is an error note", async () => {
    const rt = await start([{ error: { message: "overloaded", status: 400 } }]);
    const app = fakeApp(rt);
    await command("btw").run(app, "   ");
    expect(app.notes.at(-1)?.text).toContain("/btw needs a question");
    await command("btw").run(app, "anything?");
    expect(app.notes.at(-1)?.level).toBe("error");
    expect(app.notes.at(-1)?.text).toStartWith("btw: ");
    expect(app.markdown).toEqual([]);
  });
});

describe("/jail and /unjail", () => {
  test("/jail makes the next tool call refuse a path outside the cwd; /unjail lets it through again", async () => {
    const outside = join(tempDir("zot-cmd-outside-"), "secret.txt");
    writeFileSync(outside, "the secret");
    const readIt = { tool_calls: [{ name: "read", args: { path: outside } }] };
    const rt = await start([readIt, { text: "done" }, readIt, { text: "done" }], { tools: ["read"] });
    const app = fakeApp(rt);
    const lastResult = () => JSON.stringify(rt.agent.messages.findLast((m) => m.role === "tool")!.content);

    await command("jail").run(app, "");
    expect(rt.agent.jailed).toBe(true);
    expect(app.notes.at(-1)?.level).toBe("success");
    expect(app.notes.at(-1)?.text).toMatch(/^jailed to .*: read, write and edit refuse paths outside it; bash /);
    await prompt(rt, "read it");
    expect(lastResult()).toContain("is outside the working directory");
    expect(lastResult()).not.toContain("the secret");
    await command("jail").run(app, "");
    expect(app.notes.at(-1)?.text).toContain("already jailed");

    await command("unjail").run(app, "");
    expect(rt.agent.jailed).toBe(false);
    await prompt(rt, "read it again");
    expect(lastResult()).toContain("the secret");
    await command("unjail").run(app, "");
    expect(app.notes.at(-1)?.text).toBe("not jailed; /jail confines the tools to the working directory");
  });
});

describe("/reload-ext, /skills, /exit", () => {
  test("/reload-ext restarts the extensions and says which run", async () => {
    const parent = tempDir("zot-cmd-ext-");
    const countfile = `${parent}/count`;
    const dir = scriptedExtension(parent, "weather", { countfile });
    const rt = await start([], { extensions: { explicit: [dir], noDiscovery: true } });
    const app = fakeApp(rt);
    await command("reload-ext").run(app, "");
    expect(readFileSync(countfile, "utf8").trim()).toBe("2");
    expect(app.notes).toEqual([{ text: "extensions reloaded: 1 stopped, 1 running: weather; commands and skills read again", level: "success" }]);
  });

  test("/reload-ext with extensions off says so, and reads the Markdown commands again", async () => {
    const home = tempDir("zot-cmd-home-");
    const app = fakeApp(await start([], { home }));
    expect(app.conversation.commands.has("fresh")).toBe(false);
    mkdirSync(join(home, "commands"));
    writeFileSync(join(home, "commands", "fresh.md"), "FRESH\n");
    await command("reload-ext").run(app, "");
    expect(app.notes[0]).toEqual({ text: "extensions are off in this run (--no-ext without --ext); the Markdown commands and skills were read again", level: "warn" });
    expect(app.conversation.commands.has("fresh")).toBe(true);
  });

  test("/skills lists the skills the model is offered; none with --no-skill", async () => {
    const app = fakeApp(await start([], { tools: "all" }));
    await command("skills").run(app, "");
    expect(app.markdown.join("\n")).toContain("**write-zot-extension** *(built in)*");
    await runtime!.dispose();
    const bare = fakeApp(await start([], { tools: "all", noSkill: true }));
    await command("skills").run(bare, "");
    expect(bare.markdown).toEqual([]);
    expect(bare.notes[0]?.text).toContain("no skills");
  });

  test("/skills in a run whose model has no skill tool (--tools without skill) lists them as the user's /names", async () => {
    const app = fakeApp(await start([], { tools: ["read"] }));
    await command("skills").run(app, "");
    const text = app.markdown.join("\n");
    expect(text).toContain("**write-zot-extension** *(built in)*");
    expect(text).toContain("The model has no skill tool in this run (--tools without skill, or --no-tools): it is not told of these, and only your `/name` starts one.");
  });

  test("/skills marks a skill only you start (disable-model-invocation) and one only the model loads (user-invocable: false)", async () => {
    const cwd = tempDir("zot-cmd-cwd-");
    mkdirSync(join(cwd, ".claude", "skills", "deploy"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "skills", "deploy", "SKILL.md"), "---\ndescription: Deploy\ndisable-model-invocation: true\n---\nDeploy.\n");
    mkdirSync(join(cwd, ".claude", "skills", "style"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "skills", "style", "SKILL.md"), "---\ndescription: Style\nuser-invocable: false\n---\nStyle.\n");
    const app = fakeApp(await start([], { tools: "all", cwd, withSkills: true, env: { HOME: tempDir("zot-cmd-user-") } }));
    await command("skills").run(app, "");
    const text = app.markdown.join("\n");
    expect(text).toMatch(/\*\*deploy\*\* .* — Deploy \*\(only you start it: \/deploy; the model is not told of it\)\*/);
    expect(text).toMatch(/\*\*style\*\* .* — Style \*\(only the model loads it: user-invocable: false\)\*/);
    expect(text).toMatch(/\*\*write-zot-extension\*\* \*\(built in\)\* — [^*\n]*$/m);
  });

  test("/exit and /quit end the app with code 0", async () => {
    const app = fakeApp(await start());
    await command("exit").run(app, "");
    await command("quit").run(app, "");
    expect(app.exits).toEqual([0, 0]);
  });
});
