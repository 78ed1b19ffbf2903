// The `bun build` flags every zot binary is compiled with (DESIGN.md: plain --minify would mangle
// the SDKs' class names; .env/bunfig autoload is a hazard). Rule: one list, shared by the build
// and by the bench's floor programs, so the floor is compiled exactly as zot is.
export const COMPILE_FLAGS = [
  "--compile",
  "--splitting",
  "--bytecode",
  "--format=esm",
  "--minify-syntax",
  "--minify-whitespace",
  "--sourcemap",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  // JavaScriptCore's tier-up thresholds ×64 while zot starts (cli/startup-over.ts sets them back
  // once a conversation is open): run-once start-up code stays out of the JIT compilers.
  "--compile-jit-policy=64",
];
