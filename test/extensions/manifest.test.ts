// extension.json: validation errors that name the file and the field, defaults, exec resolution in
// every form (and a TypeScript extension really started that way), and setManifestEnabled keeping
// every other byte of the file as it was.
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type ChildExitInfo, LineChild } from "../../src/extensions/child.ts";
import { loadManifest, loadManifestFile, type Manifest, resolveExec, setManifestEnabled } from "../../src/extensions/manifest.ts";

const root = mkdtempSync(join(tmpdir(), "zot-manifest-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
/** A fresh extension directory holding the given extension.json text. */
function extDir(text?: string): string {
  const dir = join(root, `ext-${++count}`);
  mkdirSync(dir, { recursive: true });
  if (text !== undefined) writeFileSync(join(dir, "extension.json"), text);
  return dir;
}

function errorOf(text: string): string {
  const loaded = loadManifest(extDir(text));
  if (loaded.ok) throw new Error("expected the manifest to be rejected");
  return loaded.error;
}

describe("loadManifest", () => {
  test("a full manifest: fields as given, unknown fields kept", () => {
    const dir = extDir(
      JSON.stringify({
        name: "weather",
        version: "1.0.0",
        description: "current weather",
        exec: "./weather",
        args: ["--mode", "daemon"],
        language: "go",
        enabled: false,
        priority: -5,
        protocol: "jsonrpc",
        panels: { later: true },
      }),
    );
    const loaded = loadManifest(dir);
    expect(loaded).toEqual({
      ok: true,
      dir,
      file: join(dir, "extension.json"),
      manifest: {
        name: "weather",
        version: "1.0.0",
        description: "current weather",
        exec: "./weather",
        args: ["--mode", "daemon"],
        language: "go",
        enabled: false,
        priority: -5,
        protocol: "jsonrpc",
        panels: { later: true },
      },
    });
  });

  test("defaults: enabled (also when null), priority 0, protocol zot; a byte-order mark is fine", () => {
    const loaded = loadManifest(extDir('\uFEFF{"name": "a", "exec": "./a", "enabled": null}'));
    if (!loaded.ok) throw new Error(loaded.error);
    expect(loaded.manifest).toEqual({ name: "a", exec: "./a", enabled: true, priority: 0, protocol: "zot" });
  });

  test("the name commands is zot's own (its Markdown commands' calls carry it)", () => {
    expect(errorOf('{"name": "Commands", "exec": "./a"}')).toContain('"name" must not be "Commands", which is zot\'s own');
  });

  test("a theme-only extension of the original (theme.json, no exec) loads as a bundle never started", () => {
    const dir = extDir('{"name": "mytheme", "version": "1.0.0"}');
    const refused = loadManifest(dir);
    expect(refused.ok).toBe(false);
    writeFileSync(join(dir, "theme.json"), "{}");
    const loaded = loadManifest(dir);
    if (!loaded.ok) throw new Error(loaded.error);
    expect(loaded.manifest.exec).toBeUndefined();
  });

  test("as the original zot (Go) read them: a null field is absent, and a field's name has no case", () => {
    const loaded = loadManifest(extDir('{"Name": "a", "exec": "./a", "version": null, "description": null, "Priority": 3}'));
    if (!loaded.ok) throw new Error(loaded.error);
    expect(loaded.manifest).toEqual({ name: "a", exec: "./a", enabled: true, priority: 3, protocol: "zot" });
  });

  test("errors name the file and the field", () => {
    const file = (n = count) => join(root, `ext-${n}`, "extension.json");
    expect(errorOf('{"name": "a"}')).toBe(`${file()}: "exec" is required (a string)`);
    expect(errorOf('{"exec": "./a"}')).toBe(`${file()}: "name" is required (a string of letters, digits, ".", "-" and "_")`);
    expect(errorOf('{"name": "a b", "exec": "./a"}')).toBe(
      `${file()}: "name" must be a string of letters, digits, ".", "-" and "_" (got "a b")`,
    );
    expect(errorOf('{"name": "..", "exec": "./a"}')).toContain('"name" must be');
    // zot's own participants' names (and "zot"), in any case: their events would read as zot's.
    for (const own of ["confirm", "Permission-Rules", "settings-hooks", "nested-memory", "deferred-tools", "zot"]) {
      expect(errorOf(`{"name": "${own}", "exec": "./a"}`)).toBe(
        `${file()}: "name" must not be "${own}", which is zot's own in the interception chain (what it does would be reported as zot's); choose another`,
      );
    }
    expect(loadManifest(extDir('{"name": "confirmer", "exec": "./a"}')).ok).toBe(true);
    expect(errorOf('{"name": "a", "exec": ""}')).toBe(`${file()}: "exec" must be a string (got "")`);
    expect(errorOf('{"name": "a", "exec": "./a", "args": ["x", 1]}')).toBe(`${file()}: "args" must be an array of strings (got ["x",1])`);
    expect(errorOf('{"name": "a", "exec": "./a", "enabled": "no"}')).toBe(`${file()}: "enabled" must be true or false (got "no")`);
    expect(errorOf('{"name": "a", "exec": "./a", "protocol": "grpc"}')).toBe(`${file()}: "protocol" must be "zot" or "jsonrpc" (got "grpc")`);
    expect(errorOf('{"name": 7}')).toBe(
      `${file()}: "name" must be a string of letters, digits, ".", "-" and "_" (got 7); "exec" is required (a string)`,
    );
    expect(errorOf("[1, 2]")).toBe(`${file()}: must be a JSON object with "name" and "exec" (got [1,2])`);
  });

  test("bad JSON says where", () => {
    expect(errorOf('{\n  "name": "a",\n  "exec": "./a",\n}\n')).toBe(
      `${join(root, `ext-${count}`, "extension.json")}: not valid JSON (expected a property name in double quotes at line 4, column 1, found "}")`,
    );
    expect(errorOf('{\n  "name": "a"\n  "exec": "./a"\n}')).toContain('(expected "," or "}" at line 3, column 3, found "\\"exec\\": \\"./a")');
    expect(errorOf('{"name": "a",')).toContain("found the end of the file)");
  });

  test("no manifest, or a manifest given as a file", () => {
    const dir = extDir();
    expect(loadManifest(dir)).toEqual({ ok: false, dir, file: join(dir, "extension.json"), error: `no extension.json in ${dir}` });
    const other = extDir('{"name": "b", "exec": "./b"}');
    const loaded = loadManifestFile(join(other, "extension.json"));
    expect(loaded.ok && loaded.manifest.name).toBe("b");
    expect(loaded.dir).toBe(other);
  });
});

describe("resolveExec", () => {
  const zotBinary = "/opt/zot/bin/zot";
  const env = { PATH: process.env.PATH };
  const manifest = (exec: string, args?: string[]): Manifest => ({ name: "m", exec, args, enabled: true, priority: 0, protocol: "zot" });
  function program(dir: string, relative: string, mode = 0o755): string {
    const file = join(dir, relative);
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, "#!/bin/sh\n");
    chmodSync(file, mode);
    return file;
  }

  test("absolute, ./relative, ../relative and dir/relative paths", () => {
    const dir = extDir();
    const abs = program(dir, "abs-tool");
    expect(resolveExec(manifest(abs, ["-x"]), dir, { zotBinary, env })).toEqual({ command: [abs, "-x"] });
    expect(resolveExec(manifest("./abs-tool"), dir, { zotBinary, env })).toEqual({ command: [abs] });
    const nested = program(dir, "bin/tool");
    expect(resolveExec(manifest("bin/tool", ["a", "b"]), dir, { zotBinary, env })).toEqual({ command: [nested, "a", "b"] });
    const shared = program(root, "shared/tool");
    expect(resolveExec(manifest("../shared/tool"), dir, { zotBinary, env })).toEqual({ command: [shared] });
  });

  test("bare names are looked up on the PATH given", () => {
    const dir = extDir();
    const bin = join(dir, "mybin");
    const tool = program(bin, "zot-test-tool");
    expect(resolveExec(manifest("zot-test-tool", ["--serve"]), dir, { zotBinary, env: { PATH: bin } })).toEqual({
      command: [tool, "--serve"],
    });
    expect(resolveExec(manifest("sh"), dir, { zotBinary, env })).toEqual({ command: [Bun.which("sh")!] });
    expect(resolveExec(manifest("zot-test-tool"), dir, { zotBinary, env: { PATH: "/nonexistent" } })).toEqual({
      error: `"exec" is "zot-test-tool", which is not on PATH; install it, or make "exec" a path relative to ${dir} (like "./zot-test-tool")`,
    });
    // A name longer than a path may be is on no PATH (Bun.which throws for it).
    const long = "x".repeat(10_000);
    expect(resolveExec(manifest(long), dir, { zotBinary, env: { PATH: "/nonexistent" } })).toMatchObject({ error: expect.stringContaining("which is not on PATH") });
  });

  test("TypeScript and JavaScript files run on the zot binary with BUN_BE_BUN=1", () => {
    const dir = extDir();
    for (const name of ["main.ts", "main.js", "main.mjs", "main.mts", "main.cjs"]) {
      const file = join(dir, name);
      writeFileSync(file, "");
      expect(resolveExec(manifest(`./${name}`, ["--flag"]), dir, { zotBinary, env })).toEqual({
        command: [zotBinary, "run", "--no-install", file, "--flag"],
        env: { BUN_BE_BUN: "1" },
      });
      // A bare script name can only mean the file beside the manifest.
      expect(resolveExec(manifest(name), dir, { zotBinary, env })).toEqual({
        command: [zotBinary, "run", "--no-install", file],
        env: { BUN_BE_BUN: "1" },
      });
    }
    expect(resolveExec(manifest("zot", ["run", "main.ts"]), dir, { zotBinary, env })).toEqual({
      command: [zotBinary, "run", "main.ts"],
      env: { BUN_BE_BUN: "1" },
    });
    expect(resolveExec(manifest("bun", ["main.ts"]), dir, { zotBinary, env: { PATH: "/nonexistent" } })).toEqual({
      command: [zotBinary, "main.ts"],
      env: { BUN_BE_BUN: "1" },
    });
  });

  test("tsx and npx -y tsx (the original's extensions) run on the zot binary when no tsx is installed; a missing runtime names the script form", () => {
    const dir = extDir();
    const file = join(dir, "index.ts");
    writeFileSync(file, "");
    const noTsx = { PATH: dirname(Bun.which("sh")!) };
    expect(resolveExec(manifest("tsx", ["index.ts", "--flag"]), dir, { zotBinary, env: noTsx })).toEqual({
      command: [zotBinary, "run", "--no-install", file, "--flag"],
      env: { BUN_BE_BUN: "1" },
    });
    expect(resolveExec(manifest("npx", ["-y", "tsx", "index.ts"]), dir, { zotBinary, env: noTsx })).toEqual({
      command: [zotBinary, "run", "--no-install", file],
      env: { BUN_BE_BUN: "1" },
    });
    expect(resolveExec(manifest("deno", ["run", "index.ts"]), dir, { zotBinary, env: { PATH: "/nonexistent" } })).toEqual({
      error: `"exec" is "deno", which is not on PATH; install it, or make "exec" a path relative to ${dir} (like "./deno"), or let zot run the script itself: "exec": "index.ts"`,
    });
  });

  test("a missing file, a directory, a file that is not executable", () => {
    const dir = extDir();
    expect(resolveExec(manifest("./nope"), dir, { zotBinary, env })).toEqual({
      error: `"exec" is "./nope", but ${join(dir, "nope")} does not exist`,
    });
    mkdirSync(join(dir, "sub"));
    expect(resolveExec(manifest("./sub"), dir, { zotBinary, env })).toEqual({
      error: `"exec" is "./sub", but ${join(dir, "sub")} is a directory, not a program`,
    });
    const plain = program(dir, "plain.sh", 0o644);
    expect(resolveExec(manifest("./plain.sh"), dir, { zotBinary, env })).toEqual({
      error: `"exec" is "./plain.sh", but ${plain} is not executable; run chmod +x ${plain}`,
    });
  });

  test("a TypeScript extension really starts that way (bun stands in for the zot binary from source)", async () => {
    const dir = extDir();
    writeFileSync(join(dir, "hello.ts"), readFileSync(join(import.meta.dir, "..", "fixtures", "children", "hello.ts")));
    const resolved = resolveExec(manifest("./hello.ts", ["one"]), dir, { zotBinary: process.execPath, env });
    if ("error" in resolved) throw new Error(resolved.error);
    const child = LineChild.spawn({
      name: "hello",
      command: resolved.command,
      cwd: dir,
      env: { ...process.env, ...resolved.env },
      logFile: join(dir, "ext-hello.log"),
    });
    const messages: unknown[] = [];
    child.onMessage((value) => messages.push(value));
    const info = await new Promise<ChildExitInfo>((resolve) => child.onExit(resolve));
    expect(info.code).toBe(0);
    expect(messages).toEqual([{ hello: "ts", bun: Bun.version, be_bun: "1", argv: ["one"] }]);
  });
});

describe("setManifestEnabled keeps the layout", () => {
  function edit(text: string, enabled: boolean): { changed: boolean; after: string } {
    const file = join(extDir(text), "extension.json");
    const changed = setManifestEnabled(file, enabled);
    const after = readFileSync(file, "utf8");
    // Whatever the layout, the result is a manifest that says what was asked.
    const loaded = loadManifestFile(file);
    if (!loaded.ok) throw new Error(loaded.error);
    expect(loaded.manifest.enabled).toBe(enabled);
    return { changed, after };
  }

  test("a manifest that is not UTF-8 (Latin-1 in its description) is refused, byte for byte as it was; a byte-order mark is kept", () => {
    const dir = extDir("{}");
    const file = join(dir, "extension.json");
    const latin1 = Buffer.concat([Buffer.from('{"name": "w", "exec": "./w", "description": "caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]);
    writeFileSync(file, latin1);
    expect(() => setManifestEnabled(file, false)).toThrow(`${file} is not valid UTF-8 (an editor saved it in another encoding?)`);
    expect(readFileSync(file).equals(latin1)).toBe(true);
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name": "w", "exec": "./w"}\n')]);
    writeFileSync(file, withBom);
    expect(setManifestEnabled(file, false)).toBe(true);
    expect([...readFileSync(file).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  test("an existing value is replaced where it stands, its spacing kept", () => {
    const text = '{\n  "name": "w",\n  "exec": "./w",\n  "enabled" :  true,\n  "args": []\n}\n';
    expect(edit(text, false)).toEqual({ changed: true, after: text.replace("true", "false") });
    const off = '{\n    "enabled": false,\n    "name": "w", "exec": "./w"\n}';
    expect(edit(off, true)).toEqual({ changed: true, after: off.replace("false", "true") });
    expect(edit(off, false)).toEqual({ changed: false, after: off });
  });

  test("absent: inserted after the { line with the file's own indentation", () => {
    expect(edit('{\n  "name": "w",\n  "exec": "./w"\n}\n', false).after).toBe('{\n  "enabled": false,\n  "name": "w",\n  "exec": "./w"\n}\n');
    expect(edit('{\n    "name":"w",\n    "exec":"./w"\n}', false).after).toBe('{\n    "enabled":false,\n    "name":"w",\n    "exec":"./w"\n}');
    expect(edit('{\n\t"name": "w",\n\t"exec": "./w"\n}\n', false).after).toBe('{\n\t"enabled": false,\n\t"name": "w",\n\t"exec": "./w"\n}\n');
    expect(edit('{\r\n  "name": "w",\r\n  "exec": "./w"\r\n}\r\n', false).after).toBe(
      '{\r\n  "enabled": false,\r\n  "name": "w",\r\n  "exec": "./w"\r\n}\r\n',
    );
  });

  test("one-line files keep their spacing", () => {
    expect(edit('{"name":"w","exec":"./w"}', false).after).toBe('{"enabled":false,"name":"w","exec":"./w"}');
    expect(edit('{ "name": "w", "exec": "./w" }\n', false).after).toBe('{ "enabled": false, "name": "w", "exec": "./w" }\n');
  });

  test("the field in another case (a Go program's \"Enabled\") is the one changed, every spelling of it", () => {
    const go = '{"Name":"w","Exec":"./w","Enabled":true}';
    expect(edit(go, false)).toEqual({ changed: true, after: '{"Name":"w","Exec":"./w","Enabled":false}' });
    const off = '{"Name":"w","Exec":"./w","Enabled":false}';
    expect(edit(off, true)).toEqual({ changed: true, after: '{"Name":"w","Exec":"./w","Enabled":true}' });
    const twice = '{"enabled":true,"Name":"w","Exec":"./w","ENABLED":true}';
    expect(edit(twice, false).after).toBe('{"enabled":false,"Name":"w","Exec":"./w","ENABLED":false}');
  });

  test("a nested enabled is not the manifest's", () => {
    const text = '{\n  "config": { "enabled": true },\n  "name": "w",\n  "exec": "./w"\n}\n';
    expect(edit(text, false).after).toBe('{\n  "enabled": false,\n  "config": { "enabled": true },\n  "name": "w",\n  "exec": "./w"\n}\n');
    const both = '{"name": "w", "exec": "./w", "config": {"enabled": false}, "enabled": false}';
    expect(edit(both, true).after).toBe('{"name": "w", "exec": "./w", "config": {"enabled": false}, "enabled": true}');
  });

  test("enabling a manifest without the field changes nothing: absent means enabled", () => {
    const text = '{ "name": "w", "exec": "./w" }';
    expect(edit(text, true)).toEqual({ changed: false, after: text });
  });

  test("a manifest that is not valid JSON is left alone with a sentence naming it", () => {
    const dir = extDir('{"name": "w",, "exec": "./w"}');
    const file = join(dir, "extension.json");
    expect(() => setManifestEnabled(file, false)).toThrow(`${file}: not valid JSON (expected a property name in double quotes at line 1, column 14`);
    expect(readFileSync(file, "utf8")).toBe('{"name": "w",, "exec": "./w"}');
  });
});
