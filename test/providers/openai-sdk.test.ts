// openaiSdk and withoutBuiltinLoader (providers/openai-sdk.ts): the openai SDK loads without asking
// for node:util; meanwhile process.getBuiltinModule still works and an assignment to it is kept;
// afterwards it is the same plain property, after a failed load too, unless someone redefined it
// meanwhile. Each case runs in a fresh Bun process, since this one may have loaded the SDK already
// and a broken restore must not touch it. The control case shows the SDK does ask when imported
// plainly: if a release stops asking, that case fails and the loader can go.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

/**
 * Runs `body` (statements that end by returning a JSON value) in a fresh Bun whose
 * getBuiltinModule is a counting wrapper (`counted`, with the ids asked in `asked`), where `shape`
 * describes a property's descriptor and `loader` is openai-sdk.ts; returns what `body` returned.
 */
async function inFreshBun(body: string): Promise<Record<string, unknown>> {
  const script = `
    const original = process.getBuiltinModule;
    const asked = [];
    process.getBuiltinModule = function (id) { asked.push(id); return original.call(process, id); };
    const counted = process.getBuiltinModule;
    const shape = () => {
      const d = Object.getOwnPropertyDescriptor(process, "getBuiltinModule");
      return { plain: "value" in d, writable: d.writable, enumerable: d.enumerable, configurable: d.configurable };
    };
    const before = shape();
    const loader = await import("./src/providers/openai-sdk.ts");
    const result = await (async () => { ${body} })();
    console.log(JSON.stringify(result));
  `;
  const proc = Bun.spawn([process.execPath, "-e", script], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`the script failed (exit ${code}): ${err}`);
  return JSON.parse(out) as Record<string, unknown>;
}

describe("openaiSdk", () => {
  test("loads the SDK's client without node:util; getBuiltinModule works meanwhile and is the same plain property after", async () => {
    const seen = await inFreshBun(`
      const pending = loader.openaiSdk();
      const usableMeanwhile = typeof process.getBuiltinModule("node:path").join === "function";
      const sdk = await pending;
      return {
        client: sdk.default.name,
        errors: [sdk.APIError, sdk.APIConnectionError, sdk.APIUserAbortError].map((c) => c.name),
        asked,
        usableMeanwhile,
        sameFunction: process.getBuiltinModule === counted,
        before,
        after: shape(),
      };
    `);
    expect(seen.client).toBe("OpenAI");
    expect(seen.errors).toEqual(["APIError", "APIConnectionError", "APIUserAbortError"]);
    expect(seen.asked).not.toContain("node:util");
    expect(seen.usableMeanwhile).toBe(true);
    expect(seen.sameFunction).toBe(true);
    expect(seen.after).toEqual(seen.before);
    expect(seen.before).toEqual({ plain: true, writable: true, enumerable: true, configurable: true });
  });

  test("loads once: a second call neither loads again nor touches getBuiltinModule", async () => {
    const seen = await inFreshBun(`
      const define = Object.defineProperty;
      let redefined = 0;
      Object.defineProperty = function (target, key, descriptor) {
        if (target === process && key === "getBuiltinModule") redefined++;
        return define.call(Object, target, key, descriptor);
      };
      const first = await loader.openaiSdk();
      const second = await loader.openaiSdk();
      Object.defineProperty = define;
      return { redefined, same: first === second };
    `);
    expect(seen.redefined).toBe(2); // the getter on, the property back
    expect(seen.same).toBe(true);
  });

  test("a function assigned to getBuiltinModule while the SDK loads is the one left after", async () => {
    const seen = await inFreshBun(`
      const pending = loader.openaiSdk();
      const mine = function (id) { return original.call(process, id); };
      process.getBuiltinModule = mine;
      await pending;
      return { kept: process.getBuiltinModule === mine, after: shape(), before };
    `);
    expect(seen.kept).toBe(true);
    expect(seen.after).toEqual(seen.before);
  });

  test("control: imported plainly, the SDK asks for node:util as it loads", async () => {
    const seen = await inFreshBun(`
      const sdk = await import("openai");
      return { client: sdk.default.name, asked };
    `);
    expect(seen.client).toBe("OpenAI");
    expect(seen.asked).toContain("node:util");
  });
});

describe("withoutBuiltinLoader", () => {
  test("a load that fails: its error comes through and getBuiltinModule is put back as it was", async () => {
    const seen = await inFreshBun(`
      let during;
      const failed = await loader.withoutBuiltinLoader(async () => {
        during = "get" in Object.getOwnPropertyDescriptor(process, "getBuiltinModule");
        throw new Error("the module failed");
      }).then(() => "resolved", (error) => error.message);
      return { failed, during, sameFunction: process.getBuiltinModule === counted, after: shape(), before };
    `);
    expect(seen.failed).toBe("the module failed");
    expect(seen.during).toBe(true);
    expect(seen.sameFunction).toBe(true);
    expect(seen.after).toEqual(seen.before);
  });

  test("a property someone else redefined meanwhile is left as they made it", async () => {
    const seen = await inFreshBun(`
      const theirs = function theirs() {};
      await loader.withoutBuiltinLoader(async () => {
        Object.defineProperty(process, "getBuiltinModule", { value: theirs, writable: false, enumerable: false, configurable: true });
      });
      const d = Object.getOwnPropertyDescriptor(process, "getBuiltinModule");
      return { theirs: d.value === theirs, writable: d.writable, enumerable: d.enumerable };
    `);
    expect(seen).toEqual({ theirs: true, writable: false, enumerable: false });
  });
});
