// A reference beside the one-shot floor (scripts/bench floor): oneshot-sdk.ts with the runtime's
// file and path modules (node:fs, node:path, node:os) loaded before it, which a program that reads
// its configuration and writes a session cannot start without. Rule: the modules are imported
// statically ahead of the SDK program, as the SDK is (the same chunk layout); nothing else is added,
// so zot's ratio to this is what zot adds over what it must load: its own code and its other
// libraries (valibot).
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import "./oneshot-sdk.ts";

// Touched once, after the answer, so the modules are used and not only linked.
statSync(join(homedir(), "."));
