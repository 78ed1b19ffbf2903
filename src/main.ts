// Entry point. Rule: `zot --version` loads nothing else, so it stays near the bare runtime's start;
// every other path imports its command lazily.
import { VERSION } from "./version.ts";

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
  console.log(`zot ${VERSION}`);
} else {
  const { runCli } = await import("./cli/router.ts");
  process.exitCode = await runCli(argv);
}
