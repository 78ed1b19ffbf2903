// A reference beside the one-shot floor (scripts/bench floor): oneshot-sdk.ts after loading the
// runtime's file and path modules (node:fs, node:path, node:os), which a program that reads its
// configuration and writes a session cannot start without. Rule: each is loaded and touched once,
// nothing more, so zot's ratio to this is what zot's own code costs over what it must load.
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

statSync(join(homedir(), "."));
await import("./oneshot-sdk.ts");
