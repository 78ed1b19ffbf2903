// API keys: where zot finds one for a provider, and how it stores one in $ZOT_HOME/auth.json.
// Rule: the lookup order is `--api-key` > environment variable > auth.json, and a broken auth.json
// is reported as a sentence naming the file, never a crash; the file is only ever written whole,
// atomically, with mode 0600.
import fs from "node:fs";
import path from "node:path";
import * as v from "valibot";
import type { ProviderName } from "../protocol/models.ts";
import { ConfigError, type Env, zotPaths } from "./home.ts";

export { ConfigError } from "./home.ts";

/** Providers that talk to a paid API and so need a key. ollama runs locally; scripted is offline. */
const KEY_ENV: Partial<Record<ProviderName, string>> = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
};

/** The token a client of `zot rpc` must present, when it is set. */
export const RPC_TOKEN_ENV = "ZOTCORE_RPC_TOKEN";

/**
 * Every credential zot reads from its environment: the provider keys above, the other secrets the
 * provider SDKs zot constructs read by themselves (a bearer token, webhook secrets, custom headers
 * that may carry an Authorization), and the rpc token. A child zot starts never inherits these
 * (config/child-env.ts); a new provider's key, added to KEY_ENV, is covered by that alone.
 */
export const CREDENTIAL_ENV_VARS: readonly string[] = [
  ...Object.values(KEY_ENV),
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_IDENTITY_TOKEN",
  "ANTHROPIC_CUSTOM_HEADERS",
  "ANTHROPIC_WEBHOOK_SIGNING_KEY",
  "OPENAI_ADMIN_KEY",
  "OPENAI_CUSTOM_HEADERS",
  "OPENAI_WEBHOOK_SECRET",
  RPC_TOKEN_ENV,
];

export function requiresApiKey(provider: ProviderName): boolean {
  return KEY_ENV[provider] !== undefined;
}

/** The environment variable holding the provider's key, if it has one. */
export function apiKeyEnvVar(provider: ProviderName): string | undefined {
  return KEY_ENV[provider];
}

// One provider's entry. Loose: OAuth tokens and fields a newer zot writes survive a rewrite.
const AuthEntry = v.looseObject({ api_key: v.optional(v.string()) });
const AuthFile = v.record(v.string(), v.nullish(AuthEntry));
type AuthFile = v.InferOutput<typeof AuthFile>;

export interface ResolvedKey {
  key: string;
  source: "flag" | "env" | "auth.json";
  /** set when the key came from an auth.json that other users can read */
  warning?: string;
}

export interface KeyLookup {
  /** the `--api-key` value */
  flag?: string;
  env: Env;
  home: string;
}

/**
 * The key for a provider, or undefined when there is none. ollama and scripted need no key: they
 * get the `--api-key` value when one is given (a proxy in front of ollama may want it), else
 * undefined; check `requiresApiKey` before reporting a missing key.
 * Throws ConfigError when auth.json has to be read and is malformed.
 */
export function resolveApiKey(provider: ProviderName, lookup: KeyLookup): ResolvedKey | undefined {
  const flag = lookup.flag?.trim();
  if (flag) return { key: flag, source: "flag" };
  const envVar = KEY_ENV[provider];
  if (!envVar) return undefined;
  const fromEnv = lookup.env[envVar]?.trim();
  if (fromEnv) return { key: fromEnv, source: "env" };
  const file = zotPaths(lookup.home).authFile;
  const auth = readAuthFile(file);
  const key = auth?.[provider]?.api_key?.trim();
  if (!key) return undefined;
  const warning = authFileModeWarning(file);
  return warning ? { key, source: "auth.json", warning } : { key, source: "auth.json" };
}

/**
 * `no API key for anthropic; set ANTHROPIC_API_KEY, pass --api-key, or add it to <home>/auth.json`.
 * Like every message here it has no `zot: ` prefix: the command line adds that when printing.
 */
export function missingKeyMessage(provider: ProviderName, home: string): string {
  const envVar = KEY_ENV[provider] ?? `${provider.toUpperCase()}_API_KEY`;
  return `no API key for ${provider}; set ${envVar}, pass --api-key, or add it to ${zotPaths(home).authFile}`;
}

/**
 * Stores a key for a provider, keeping every other entry. Setting a key drops that provider's
 * OAuth token: two credentials for one provider would leave it unclear which one is used.
 */
export function saveApiKey(home: string, provider: ProviderName, key: string): void {
  const file = zotPaths(home).authFile;
  const auth: AuthFile = readAuthFile(file) ?? {};
  const { oauth: _dropped, ...rest } = auth[provider] ?? {};
  auth[provider] = { ...rest, api_key: key };
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileAtomic(file, `${JSON.stringify(auth, null, 2)}\n`, 0o600);
}

/** Parsed auth.json; undefined when the file does not exist. */
function readAuthFile(file: string): AuthFile | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigError(`cannot read ${file} (${(error as Error).message}); check its permissions.`);
  }
  // An empty file is what an interrupted editor save leaves; it holds no keys, and is not an error.
  if (!text.trim()) return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `${file} is not valid JSON (${(error as Error).message}); fix it or delete it and set your key again.`,
    );
  }
  const parsed = v.safeParse(AuthFile, data);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const field = v.getDotPath(issue);
    const where = field ? `field "${field}"` : "the top level";
    throw new ConfigError(
      `${file} is malformed at ${where}: ${issue.message}; expected {"anthropic": {"api_key": "…"}, "openai": {…}}.`,
    );
  }
  return parsed.output;
}

/** A warning when other users can read the file (the keys in it are secrets). */
export function authFileModeWarning(file: string, platform: string = process.platform): string | undefined {
  // Windows has no POSIX mode bits; stat reports 0666 for every file.
  if (platform === "win32") return undefined;
  let mode: number;
  try {
    mode = fs.statSync(file).mode & 0o777;
  } catch {
    return undefined;
  }
  if ((mode & 0o077) === 0) return undefined;
  return `${file} can be read by other users (mode ${mode.toString(8).padStart(4, "0")}); run: chmod 600 ${JSON.stringify(file)}`;
}

/** Write to a temporary file beside the target, then rename: a reader never sees half a file. */
function writeFileAtomic(file: string, content: string, mode: number): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    fs.writeFileSync(tmp, content, { mode });
    // writeFileSync's mode passes through the umask and is ignored when the file exists.
    fs.chmodSync(tmp, mode);
    fs.renameSync(tmp, file);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
}
