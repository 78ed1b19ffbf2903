// $ZOT_HOME resolution on every platform, and the file names inside it.
import { describe, expect, test } from "bun:test";
import { zotHome, zotPaths } from "../../src/config/home.ts";

describe("zotHome", () => {
  test("$ZOT_HOME wins on every platform", () => {
    for (const platform of ["linux", "darwin", "win32"]) {
      expect(zotHome({ ZOT_HOME: "/custom/zot", XDG_STATE_HOME: "/xdg", LOCALAPPDATA: "C:\\L" }, platform, "/home/u")).toBe(
        "/custom/zot",
      );
    }
  });

  test("an empty $ZOT_HOME is ignored", () => {
    expect(zotHome({ ZOT_HOME: "" }, "linux", "/home/u")).toBe("/home/u/.local/state/zot");
  });

  test("macOS uses Application Support, even with XDG_STATE_HOME set", () => {
    expect(zotHome({ XDG_STATE_HOME: "/xdg" }, "darwin", "/Users/u")).toBe("/Users/u/Library/Application Support/zot");
  });

  test("Windows uses %LOCALAPPDATA%\\zot", () => {
    expect(zotHome({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32", "C:\\Users\\u")).toBe(
      "C:\\Users\\u\\AppData\\Local\\zot",
    );
  });

  test("Linux uses $XDG_STATE_HOME/zot, else ~/.local/state/zot", () => {
    expect(zotHome({ XDG_STATE_HOME: "/state" }, "linux", "/home/u")).toBe("/state/zot");
    expect(zotHome({}, "linux", "/home/u")).toBe("/home/u/.local/state/zot");
    // relative XDG values are invalid per the spec
    expect(zotHome({ XDG_STATE_HOME: "rel" }, "linux", "/home/u")).toBe("/home/u/.local/state/zot");
  });

  test("no home directory at all falls back to .zot in the working directory", () => {
    expect(zotHome({}, "linux", "", "/work/p")).toBe("/work/p/.zot");
  });

  test("a relative ZOT_HOME or HOME is made absolute (extensions run elsewhere and are handed these paths)", () => {
    expect(zotHome({ ZOT_HOME: "zh" }, "linux", "/home/u", "/work/p")).toBe("/work/p/zh");
    expect(zotHome({ ZOT_HOME: "../zh/" }, "linux", "/home/u", "/work/p")).toBe("/work/zh");
    expect(zotHome({}, "linux", "home", "/work/p")).toBe("/work/p/home/.local/state/zot");
    expect(zotHome({ ZOT_HOME: "zh" }, "win32", "C:\\Users\\u", "C:\\work")).toBe("C:\\work\\zh");
  });
});

test("zotPaths names the files inside the home", () => {
  const p = zotPaths("/z");
  expect(p.authFile).toBe("/z/auth.json");
  expect(p.modelsFile).toBe("/z/models.json");
  expect(p.systemPromptFile).toBe("/z/SYSTEM.md");
  expect(p.sessionsDir).toBe("/z/sessions");
  expect(p.extensionsDir).toBe("/z/extensions");
  expect(p.skillsDir).toBe("/z/skills");
  expect(p.logsDir).toBe("/z/logs");
});
