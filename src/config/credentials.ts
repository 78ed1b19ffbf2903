// API keys: where zot finds one for a provider, and how it stores one in $ZOT_HOME/auth.json.
// Rule: the lookup order is `--api-key` > environment variable > (anthropic: a settings file's
// apiKeyHelper) > auth.json, the same for every provider, and a broken or mis-keyed auth.json is reported as a sentence naming the file and the
// field, never a crash and never a silent fallback; the file is only ever written whole,
// atomically, with mode 0600.
import { writeFileAtomic } from "./write-file-atomic.ts";
import { firstIssue } from "../protocol/schema-issue.ts";
import fs from "node:fs";
import path from "node:path";
import * as v from "valibot";
import type { ProviderName } from "../protocol/models.ts";
import { ConfigError, type Env, zotPaths } from "./home.ts";
import { PROVIDER_ENV } from "./provider-env.ts";
import { readRegularFile } from "./regular-file.ts";
import { errnoWords } from "../protocol/errno-words.ts";
import type { KeySource } from "../protocol/key-source.ts";

export { ConfigError } from "./home.ts";

/** Providers that talk to a paid API and so need a key. ollama runs locally; scripted is offline. */
const NEEDS_KEY: ReadonlySet<ProviderName> = new Set(["anthropic", "openai"]);

/** The token a client of `zot rpc` must present, when it is set. */
export const RPC_TOKEN_ENV = "ZOTCORE_RPC_TOKEN";

/**
 * Every credential zot reads from its environment: the provider keys above, the other secrets the
 * provider SDKs zot constructs read by themselves (a bearer token, webhook secrets, custom headers
 * that may carry an Authorization), and the rpc token. A child zot starts never inherits these
 * (config/child-env.ts); a new provider's key or token, added to PROVIDER_ENV, is covered by that alone.
 */
export const CREDENTIAL_ENV_VARS: readonly string[] = [
  ...new Set(Object.values(PROVIDER_ENV).flatMap((env) => [env.key, env.token].filter((name): name is string => name !== undefined))),
  "ANTHROPIC_IDENTITY_TOKEN",
  "ANTHROPIC_CUSTOM_HEADERS",
  "ANTHROPIC_WEBHOOK_SIGNING_KEY",
  "OPENAI_ADMIN_KEY",
  "OPENAI_CUSTOM_HEADERS",
  "OPENAI_WEBHOOK_SECRET",
  RPC_TOKEN_ENV,
];

export function requiresApiKey(provider: ProviderName): boolean {
  return NEEDS_KEY.has(provider);
}

/** The environment variable holding the provider's key, if it has one. */
export function apiKeyEnvVar(provider: ProviderName): string | undefined {
  return PROVIDER_ENV[provider].key;
}

// One provider's entry. Loose: OAuth tokens and fields a newer zot writes survive a rewrite.
const AuthEntry = v.looseObject({ api_key: v.optional(v.string()) });
const AuthFile = v.record(v.string(), v.nullish(AuthEntry));
type AuthFile = v.InferOutput<typeof AuthFile>;

export interface ResolvedKey {
  key: string;
  /** "auth_token": sent as `Authorization: Bearer` to a gateway (ANTHROPIC_AUTH_TOKEN), not as an API key */
  kind: "api_key" | "auth_token";
  source: "flag" | "env" | "apiKeyHelper" | "auth.json" | "models.json";
  /** where it came from, for --verbose: `--api-key`, the variable's name, or the file */
  from: string;
  /** set when the key came from an auth.json that other users can read */
  warning?: string;
  /** where a key that changes comes from (an apiKeyHelper): the client asks it before each call */
  keySource?: KeySource;
}

export interface KeyLookup {
  /** the `--api-key` value */
  flag?: string;
  env: Env;
  home: string;
  /** providers whose base URL a settings file set: their key comes from the files' env (or --api-key), never auth.json */
  paired?: readonly string[];
  /** the key a settings file's apiKeyHelper gave (anthropic's): after the variables, before auth.json, as in Claude Code */
  helper?: ResolvedKey;
}

/**
 * The key for a provider, or undefined when there is none: `--api-key`, then the provider's key
 * variable, then its token variable, then the apiKeyHelper's key (`helper`), then auth.json. ollama and scripted need no key (check
 * `requiresApiKey` before reporting a missing one); ollama takes one when given (a proxy or
 * ollama's cloud may want it).
 * Throws ConfigError when auth.json has to be read and is malformed, or holds an entry for the
 * provider without an "api_key" (a mis-keyed file must not quietly become the demo).
 */
export function resolveApiKey(provider: ProviderName, lookup: KeyLookup): ResolvedKey | undefined {
  const flag = lookup.flag?.trim();
  if (flag) return { key: flag, kind: "api_key", source: "flag", from: "--api-key" };
  const vars = PROVIDER_ENV[provider];
  for (const [variable, kind] of [[vars.key, "api_key"], [vars.token, "auth_token"]] as const) {
    const value = variable ? lookup.env[variable]?.trim() : undefined;
    if (variable && value) return { key: value, kind, source: "env", from: variable };
  }
  if (lookup.helper) return lookup.helper;
  if (!requiresApiKey(provider) || lookup.paired?.includes(provider)) return undefined;
  const file = zotPaths(lookup.home).authFile;
  const auth = readAuthFile(file);
  const entry = auth?.[provider];
  const key = entry?.api_key?.trim();
  if (!key) {
    if (entry && !("oauth" in entry)) throw misKeyed(file, provider, entry);
    return undefined;
  }
  const warning = authFileModeWarning(file);
  const found: ResolvedKey = { key, kind: "api_key", source: "auth.json", from: file };
  return warning ? { ...found, warning } : found;
}

/** An auth.json entry for the provider that holds no key zot can use: name the file and the field. */
function misKeyed(file: string, provider: ProviderName, entry: Record<string, unknown>): ConfigError {
  // A field's name is shown only when it is a short word: the name itself may be the key (`{"anthropic": {"sk-ant-…": true}}`).
  const fields = Object.keys(entry).map((field) => (/^[A-Za-z_-]{1,24}$/.test(field) ? `"${field}"` : "a field whose name is not shown (it may be a key)"));
  const found = fields.length > 0 ? `it has ${fields.join(", ")}` : "it is empty";
  const empty = typeof entry.api_key === "string" ? `field "${provider}.api_key" is empty` : `"${provider}" has no "api_key" field (${found})`;
  return new ConfigError(`${file}: ${empty}; write {"${provider}": {"api_key": "…"}}, or remove the entry.`);
}

/**
 * `no API key for anthropic; set ANTHROPIC_API_KEY, pass --api-key, or add it to <home>/auth.json`.
 * Like every message here it has no `zot: ` prefix: the command line adds that when printing.
 */
export function missingKeyMessage(provider: ProviderName, home: string): string {
  const vars = PROVIDER_ENV[provider];
  const envVars = [vars.key ?? `${provider.toUpperCase()}_API_KEY`, vars.token].filter(Boolean).join(" or ");
  return `no API key for ${provider}; set ${envVars}, pass --api-key, or add it to ${zotPaths(home).authFile}`;
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
    text = readRegularFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    // The first file zot reads from its home: a home under a file is said as that.
    if (code === "ENOTDIR") {
      throw new ConfigError(`zot's home ${path.dirname(file)} is not a directory (a part of that path is a file); point ZOT_HOME at a directory, or move the file away.`);
    }
    if (code === "EISDIR") throw new ConfigError(`${file} is a directory, not zot's key file; remove it, or set your key again (zot keeps keys there as JSON).`);
    // No code: a named pipe or a device, said as such (regular-file.ts); permissions are not the matter then.
    throw new ConfigError(`cannot read ${file} (${errnoWords(error)})${code === undefined ? "; make it a file, or remove it" : "; check its permissions"}.`);
  }
  // An empty file is what an interrupted editor save leaves; it holds no keys, and is not an error.
  if (!text.trim()) return {};
  let data: unknown;
  try {
    // A byte-order mark (an editor's "UTF-8 with BOM") is no part of the JSON, as in zot's other files.
    data = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new ConfigError(
      `${file} is not valid JSON (${(error as Error).message}); fix it or delete it and set your key again.`,
    );
  }
  // A list passes for a record of nothing: it holds no keys, and a user who wrote one meant some.
  if (Array.isArray(data) || typeof data !== "object" || data === null) {
    throw new ConfigError(`${file} must be a JSON object of keys per provider, {"anthropic": {"api_key": "…"}}; fix it or delete it and set your key again.`);
  }
  const parsed = v.safeParse(AuthFile, data);
  if (!parsed.success) {
    // Any string in this file may be a key: none is repeated.
    const { path, message } = firstIssue(parsed.issues, "", { secrets: "all" });
    // A field is named only when its entry's name is a provider's or a short word: the name itself may be the key (`{"sk-ant-…": …}`).
    const entry = path.split(".")[0] ?? "";
    const named = Object.hasOwn(PROVIDER_ENV, entry) || /^[A-Za-z_-]{1,24}$/.test(entry);
    const where = !path ? "the top level" : named ? `field "${path}"` : "an entry whose name is not shown (it may be a key)";
    // `"anthropic": "sk-…"`: the key itself where its entry belongs, the likeliest slip.
    const first = parsed.issues[0];
    if (first?.path?.length === 1 && typeof first.input === "string") {
      const shape = named ? `{"${path}": {"api_key": "<your key>"}}` : `{"anthropic": {"api_key": "<your key>"}}`;
      throw new ConfigError(`${file} is malformed at ${where}: it is a string where an object belongs (the key itself, not shown?); write ${shape}.`);
    }
    throw new ConfigError(
      `${file} is malformed at ${where}: ${message}; expected {"anthropic": {"api_key": "…"}, "openai": {…}}.`,
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
