// The proxy a request to a URL goes through, as Bun's fetch picks it from the environment: an
// http URL through http_proxy / HTTP_PROXY, an https one through https_proxy / HTTPS_PROXY (the
// lower-case name first, no fall-back from one scheme to the other), else all_proxy / ALL_PROXY,
// unless no_proxy / NO_PROXY covers the host ("*", the host, a domain it is under, host:port, an
// IPv4 range such as 127.0.0.0/8). Rule: read only to say
// a failure right (a proxy that is off is not the base URL's fault), so it reads the variables the
// process runs with, as fetch does, and only when a failure asks.

export interface ProxyRoute {
  /** the proxy's URL, as the variable gives it */
  proxy: string;
  /** the variable that named it */
  variable: string;
  /** the host the request was for, and the NO_PROXY variable and value that did not cover it */
  host: string;
  noProxy?: { variable: string; value: string };
}

type Env = Record<string, string | undefined>;

/** The proxy a request to `url` goes through, or undefined when it goes directly. */
export function proxyRoute(url: string, env: Env = process.env): ProxyRoute | undefined {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  const scheme = target.protocol === "https:" ? "https" : target.protocol === "http:" ? "http" : undefined;
  if (!scheme) return undefined;
  const named = firstSet(env, `${scheme}_proxy`, `${scheme.toUpperCase()}_PROXY`, "all_proxy", "ALL_PROXY");
  if (!named) return undefined;
  const host = target.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = target.port || (scheme === "https" ? "443" : "80");
  const noProxy = firstSet(env, "no_proxy", "NO_PROXY");
  if (noProxy && covers(noProxy.value, host, port)) return undefined;
  return { proxy: named.value, variable: named.variable, host, ...(noProxy ? { noProxy } : {}) };
}

function firstSet(env: Env, ...names: string[]): { variable: string; value: string } | undefined {
  for (const variable of names) {
    const value = env[variable]?.trim();
    if (value) return { variable, value };
  }
  return undefined;
}

/** Whether `host`, an IPv4 address, is in `base`/`bits`. */
function inRange(host: string, base: string, bits: number): boolean {
  const number = (address: string) => {
    const parts = address.split(".").map(Number);
    return parts.length === 4 && parts.every((part) => Number.isInteger(part) && part >= 0 && part <= 255) ? parts.reduce((sum, part) => sum * 256 + part, 0) : undefined;
  };
  const [a, b] = [number(host), number(base)];
  if (a === undefined || b === undefined || bits > 32) return false;
  const size = 2 ** (32 - bits);
  return Math.floor(a / size) === Math.floor(b / size);
}

/** Whether a NO_PROXY list covers the host (and port). */
function covers(list: string, host: string, port: string): boolean {
  const ip = /^[\d.]+$|:/.test(host);
  return list.split(",").some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (!entry) return false;
    if (entry === "*") return true;
    const [, name = entry, entryPort] = /^(.*?)(?::(\d+))?$/.exec(entry) ?? [];
    if (entryPort !== undefined && entryPort !== port) return false;
    const domain = name.replace(/^\*?\./, "");
    // A range of IPv4 addresses (127.0.0.0/8, 10.0.0.0/8), as Bun takes it.
    const range = /^(\d+\.\d+\.\d+\.\d+)\/(\d{1,2})$/.exec(domain);
    if (range) return inRange(host, range[1]!, Number(range[2]));
    // An address matches only itself; a name, itself and the names under it.
    return host === domain || (!ip && host.endsWith(`.${domain}`));
  });
}
