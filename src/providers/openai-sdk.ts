// Loads the openai SDK, once, at the warm-up or the first model call of an OpenAI route (Chat or Responses).
// Why not a plain import: the SDK's module looks up `process.getBuiltinModule("node:util")` as it
// loads, only to find `util.types.isProxy` for sizing the events its stream helpers buffer
// (lib/EventStream.mjs). zot never uses those helpers: it reads each raw response itself. In a
// compiled Bun program node:util is a JavaScript module that costs 0.5–1.7 ms to load (less when
// node:fs has loaded the internals they share): about 0.7 ms of an OpenAI one-shot.
// Rule: while the SDK's module loads, `process.getBuiltinModule` is the same function behind a
// getter (an assignment meanwhile is kept), so the SDK takes the path it takes on a runtime without
// one (its own fallback: no proxy check); the plain property is put back the moment the import
// settles, whether or not it failed, unless someone else redefined it meanwhile.

type OpenAIEntry = typeof import("./openai-entry.ts");

let loading: Promise<OpenAIEntry> | undefined;

/** The openai SDK's client and error classes, loaded without node:util. */
export function openaiSdk(): Promise<OpenAIEntry> {
  return (loading ??= withoutBuiltinLoader(() => import("./openai-entry.ts")));
}

/** Runs `load` with `process.getBuiltinModule` behind a getter until what it returns settles. */
export async function withoutBuiltinLoader<T>(load: () => Promise<T>): Promise<T> {
  const loader = Object.getOwnPropertyDescriptor(process, "getBuiltinModule");
  if (!loader?.configurable || !("value" in loader)) return load();
  let current: unknown = loader.value;
  const get = () => current;
  Object.defineProperty(process, "getBuiltinModule", {
    configurable: true,
    enumerable: loader.enumerable,
    get,
    set: (replaced: unknown) => (current = replaced), // whoever assigns it meanwhile keeps their function
  });
  try {
    return await load();
  } finally {
    if (Object.getOwnPropertyDescriptor(process, "getBuiltinModule")?.get === get) {
      Object.defineProperty(process, "getBuiltinModule", { ...loader, value: current });
    }
  }
}
