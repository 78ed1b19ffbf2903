// The proxy a request to a URL goes through, as Bun's fetch picks it from the environment: an
// http URL through http_proxy / HTTP_PROXY, an https one through https_proxy / HTTPS_PROXY (the
// lower-case name first, and no fall-back from one scheme to the other), unless no_proxy /
// NO_PROXY covers the host ("*", the host, a domain it is under, host:port). Rule: read only to say
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
  const named = firstSet(env, `${scheme}_proxy`, `${scheme.toUpperCase()}_PROXY`);
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
    // An address matches only itself; a name, itself and the names under it.
    return host === domain || (!ip && host.endsWith(`.${domain}`));
  });
}
