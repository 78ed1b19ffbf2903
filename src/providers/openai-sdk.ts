// Loads the openai SDK, once, on the first model call of an OpenAI route (Chat or Responses).
// Why not a plain import: the SDK's module looks up `process.getBuiltinModule("node:util")` as it
// loads, only to find `util.types.isProxy` for sizing the events its stream helpers buffer
// (lib/EventStream.mjs). zot never uses those helpers: it reads each raw response itself. In a
// compiled Bun program node:util is a JavaScript module that costs 1.7 ms to load, which was most
// of why an OpenAI start was 1.8 ms slower than an Anthropic one (scripts/bench floor).
// Rule: while the SDK's module loads, `process.getBuiltinModule` is the same function behind a
// getter, so the SDK takes the path it takes on a runtime without one (its own fallback: no proxy
// check); the plain property is put back the moment the import settles, whether or not it failed.

type OpenAISdk = typeof import("openai");

let loading: Promise<OpenAISdk> | undefined;

/** The openai SDK's module, loaded without node:util. */
export function openaiSdk(): Promise<OpenAISdk> {
  return (loading ??= importWithoutBuiltinLoader());
}

async function importWithoutBuiltinLoader(): Promise<OpenAISdk> {
  const loader = Object.getOwnPropertyDescriptor(process, "getBuiltinModule");
  if (!loader?.configurable || !("value" in loader)) return import("openai");
  let current: unknown = loader.value;
  Object.defineProperty(process, "getBuiltinModule", {
    configurable: true,
    enumerable: loader.enumerable,
    get: () => current,
    set: (replaced: unknown) => (current = replaced), // whoever assigns it meanwhile keeps their function
  });
  try {
    return await import("openai");
  } finally {
    Object.defineProperty(process, "getBuiltinModule", { ...loader, value: current });
  }
}
