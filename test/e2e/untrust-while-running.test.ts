// `zot untrust` while a run goes on in that folder (through `zot rpc`, as the TUI's /reload-ext and
// /mcp reconnect do the same): the folder's extensions and .mcp.json servers do not start again,
// and `zot trust` lets them. Before, a reload started again what the user had just taken trust from.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scriptedExtension } from "../fixtures/extensions/make.ts";
import { misbehaving } from "../support/mcp-servers.ts";
import { rpcFixture } from "../support/rpc-process.ts";
import { trustDir } from "../support/trust.ts";
import { tempDir, zot } from "../support/zot.ts";

const fixture = rpcFixture();

describe("untrust while a run goes on", () => {
  test("reload_extensions and mcp_reconnect start nothing of the folder's once it is untrusted, and start it again once it is trusted", async () => {
    const home = tempDir("zot-untrust-home-");
    const cwd = tempDir("zot-untrust-cwd-");
    const userHome = tempDir("zot-untrust-user-");
    const count = join(tempDir("zot-untrust-mark-"), "starts");
    scriptedExtension(join(cwd, ".zot", "extensions"), "folders", { countfile: count });
    writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { local: misbehaving() } }));
    trustDir(home, cwd);
    const starts = () => (existsSync(count) ? Number(readFileSync(count, "utf8")) : 0);
    const r = fixture.start([], [], { home, cwd, env: { HOME: userHome } });
    let listed: any;
    for (let i = 0; i < 50; i++) {
      listed = (await r.call({ type: "get_mcp_servers" })).data;
      if (listed.servers[0]?.state === "connected" && starts() === 1) break;
      await Bun.sleep(100);
    }
    expect(listed.servers[0]).toMatchObject({ name: "local", state: "connected" });
    expect(starts()).toBe(1);

    expect((await zot(["untrust"], { home, cwd })).code).toBe(0);
    const reloaded = await r.call({ type: "reload_extensions" });
    expect(reloaded.data.warnings.join("\n")).toContain("not trusted");
    expect(starts()).toBe(1);
    const again = await r.call({ type: "mcp_reconnect", server: "local" });
    expect(again.data.servers[0]).toMatchObject({ name: "local", state: "failed", error: expect.stringContaining("no longer trusted") });

    expect((await zot(["trust"], { home, cwd })).code).toBe(0);
    await r.call({ type: "reload_extensions" });
    expect(starts()).toBe(2);
    const back = await r.call({ type: "mcp_reconnect", server: "local" });
    expect(back.data.servers[0]).toMatchObject({ name: "local", state: "connected" });
    expect(await r.close()).toBe(0);
  });

  test("a folder trusted at the start with no extension yet: one that arrives is not started by a reload after zot untrust", async () => {
    const home = tempDir("zot-untrust-home-");
    const cwd = tempDir("zot-untrust-cwd-");
    const count = join(tempDir("zot-untrust-mark-"), "starts");
    trustDir(home, cwd);
    const r = fixture.start([], [], { home, cwd, env: { HOME: tempDir("zot-untrust-user-") } });
    await r.call({ type: "get_state" });
    scriptedExtension(join(cwd, ".zot", "extensions"), "arrived", { countfile: count });
    expect((await zot(["untrust"], { home, cwd })).code).toBe(0);
    const reloaded = await r.call({ type: "reload_extensions" });
    expect(reloaded.data.warnings.join("\n")).toContain("not trusted");
    expect(existsSync(count)).toBe(false);
    expect(await r.close()).toBe(0);
  });

  test("the folder's settings hooks and its command's ! lines stop once it is untrusted, reload or not", async () => {
    const home = tempDir("zot-untrust-home-");
    const cwd = tempDir("zot-untrust-cwd-");
    const marks = tempDir("zot-untrust-mark-");
    mkdirSync(join(cwd, ".claude", "commands"), { recursive: true });
    writeFileSync(join(cwd, ".claude", "settings.json"), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: `echo ran >> ${join(marks, "hook")}` }] }] } }));
    writeFileSync(join(cwd, ".claude", "commands", "deploy.md"), `Deploy now.\n\n!\`echo bang >> ${join(marks, "bang")}\`\n`);
    trustDir(home, cwd);
    const r = fixture.start([{ text: "one" }, { text: "two" }, { text: "three" }], [], { home, cwd, env: { HOME: tempDir("zot-untrust-user-") } });
    const lines = (name: string) => (existsSync(join(marks, name)) ? readFileSync(join(marks, name), "utf8").trim().split("\n").length : 0);
    await r.prompt("first");
    expect(lines("hook")).toBe(1);
    expect((await zot(["untrust"], { home, cwd })).code).toBe(0);
    await r.prompt("second");
    expect(lines("hook")).toBe(1);
    const from = r.lines.length;
    const ran = await r.call({ type: "run_command", name: "deploy" });
    if (ran.success) await r.waitFor((line) => line.type === "done", from, "its done");
    expect(lines("bang")).toBe(0);
    expect(await r.close()).toBe(0);
  });
});
