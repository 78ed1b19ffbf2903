// The environment a process zot starts inherits: the bash tool's commands, extensions, hooks, git.
// Rule: zot's own credentials (config/credentials.ts CREDENTIAL_ENV_VARS, and the variables
// models.json names as keys, config/model-key-variables.ts) never reach a child unless the user
// names them in ZOT_PASS_ENV; one `env` in a bash call would otherwise put them in the transcript,
// the session file and the provider's logs. Everything else is inherited as is; what a child's own
// configuration gives it (an MCP server's or a hook's `env`) is added after, by the caller.
import { CREDENTIAL_ENV_VARS } from "./credentials.ts";
import { zotHome } from "./home.ts";
import { modelKeyVariables } from "./model-key-variables.ts";

/** `ZOT_PASS_ENV=NAME,NAME`: credentials the user passes to children on purpose. */
export const PASS_ENV_VAR = "ZOT_PASS_ENV";

/**
 * `env` without zot's credentials, except those ZOT_PASS_ENV (in `env`) names. `home` is the
 * $ZOT_HOME whose models.json names more of them (default: the one `env` points at).
 */
export function childEnv(env: Readonly<Record<string, string | undefined>>, home: string = zotHome(env)): Record<string, string | undefined> {
  const passed = new Set(
    (env[PASS_ENV_VAR] ?? "")
      .split(/[,\s]+/)
      .map((name) => name.trim())
      .filter(Boolean),
  );
  const out = { ...env };
  for (const name of [...CREDENTIAL_ENV_VARS, ...modelKeyVariables(home)]) if (!passed.has(name)) delete out[name];
  return out;
}
