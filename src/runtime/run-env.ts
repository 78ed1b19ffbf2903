// The environment a run works in: the one zot was started with, Claude Code's settings `env` over
// it (config/settings-choices.ts), and the run's $ZOT_HOME said outright. Rule: one reading for the
// runtime and for the commands that show what a run would start (`zot mcp list`, `zot ext`), so
// what they say is what a run does; a folder's settings count once the folder is trusted.
import { homedir } from "node:os";
import { PROVIDER_ENV } from "../config/provider-env.ts";
import type { SettingSourceName } from "../protocol/setting-sources.ts";
import { readSettingsChoices, type SettingsChoices, withSettingsEnv } from "../config/settings-choices.ts";
import { folderAnswer } from "../config/trust-store.ts";
import { settingsSources } from "../settings-hooks/settings-locations.ts";

export interface RunEnv {
  /** the variables every process of the run gets (less zot's credentials, config/child-env.ts) */
  env: Readonly<Record<string, string | undefined>>;
  /** the files' model and env, and their warnings */
  settings: SettingsChoices;
  /** providers whose base URL a settings file set: their key comes from the files or --api-key, never auth.json */
  paired: string[];
}

/** A provider's base-URL variable and its credential variables, as settings-choices.ts pairs them. */
const PROVIDER_VARIABLES = Object.fromEntries(
  Object.entries(PROVIDER_ENV).map(([name, vars]) => [name, { baseUrl: vars.baseUrl, credentials: [vars.key, vars.token].filter((v): v is string => v !== undefined) }]),
);

export function runEnv(options: {
  cwd: string;
  home: string;
  started: Readonly<Record<string, string | undefined>>;
  /** --trust: the folder's files count this run */
  trust?: boolean;
  /** the folder's trust as the caller already read it (else read here) */
  projectTrusted?: boolean;
  /** --setting-sources */
  settingSources?: readonly SettingSourceName[];
  /** --base-url: the user named the server, so the keys are as they are */
  baseUrlGiven?: boolean;
}): RunEnv {
  const { cwd, home, started } = options;
  const projectTrusted = options.projectTrusted ?? (options.trust === true || folderAnswer(home, cwd)?.trusted === true);
  const settings = readSettingsChoices(
    settingsSources({ cwd, home, userHome: started.HOME || homedir(), projectTrusted, only: options.settingSources, codexHome: started.CODEX_HOME }),
  );
  const merged = withSettingsEnv(started, settings, options.baseUrlGiven ? {} : PROVIDER_VARIABLES);
  // Said outright: every process the run starts (and the credentials kept from them, which
  // models.json there names) goes by this $ZOT_HOME, whatever a settings file's XDG_STATE_HOME or
  // a createZot({ home }) would make of the rest.
  return { env: { ...merged.env, ZOT_HOME: home }, settings, paired: merged.paired };
}
