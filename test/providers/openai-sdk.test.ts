// openaiSdk (providers/openai-sdk.ts): the openai SDK loads without asking for node:util, and
// process.getBuiltinModule is the same plain property afterwards. Each case runs in a fresh Bun
// process, since this one may have loaded the SDK already. The control case shows the SDK does ask
// when imported plainly: if a release stops asking, that case fails and the loader can go.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

interface Seen {
  asked: string[];
  plainPropertyBack: boolean;
  clientClass: string;
  loadedOnce: boolean;
}

/** Runs `load` (an expression giving the SDK's module) in a fresh Bun whose getBuiltinModule is counted. */
async function loadCounted(load: string): Promise<Seen> {
  const script = `
    const original = process.getBuiltinModule;
    const asked = [];
    process.getBuiltinModule = function (id) { asked.push(id); return original.call(process, id); };
    const counted = process.getBuiltinModule;
    const { openaiSdk } = await import("./src/providers/openai-sdk.ts");
    const sdk = await (${load});
    const after = Object.getOwnPropertyDescriptor(process, "getBuiltinModule");
    const again = await openaiSdk();
    console.log(JSON.stringify({
      asked,
      plainPropertyBack: "value" in after && after.value === counted && after.writable === true && after.configurable === true,
      clientClass: typeof sdk.default === "function" ? sdk.default.name : typeof sdk.default,
      loadedOnce: again === (await openaiSdk()),
    }));
  `;
  const proc = Bun.spawn([process.execPath, "-e", script], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`the script failed (exit ${code}): ${err}`);
  return JSON.parse(out) as Seen;
}

describe("openaiSdk", () => {
  test("loads the SDK's client without node:util, and puts getBuiltinModule back as it was", async () => {
    const seen = await loadCounted("openaiSdk()");
    expect(seen.clientClass).toBe("OpenAI");
    expect(seen.asked).not.toContain("node:util");
    expect(seen.plainPropertyBack).toBe(true);
    expect(seen.loadedOnce).toBe(true);
  });

  test("control: imported plainly, the SDK asks for node:util as it loads", async () => {
    const seen = await loadCounted('import("openai")');
    expect(seen.clientClass).toBe("OpenAI");
    expect(seen.asked).toContain("node:util");
  });
});
