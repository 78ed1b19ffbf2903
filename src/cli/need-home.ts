// zot keeps its state under the user's home and reads ~/.claude: with HOME unset (or empty) and no
// entry for the user in the password database there is none, which is said before anything starts
// (a usage error, exit 2), instead of the runtime's ENOENT from the first look at the home.
import { homedir } from "node:os";
import { UsageError } from "../config/usage-error.ts";

export function needHome(): void {
  if (process.env.HOME) return;
  try {
    if (homedir()) return;
  } catch {}
  throw new UsageError(`cannot tell your home directory: HOME is not set and user ${process.getuid?.() ?? "?"} has no entry in the password database; set HOME (HOME=/some/dir zot …)`);
}
