// The proxy a request goes through, as Bun's fetch picks it from the environment (checked against
// Bun 1.4's fetch on loopback: the lower-case name first, no fall-back between schemes, NO_PROXY
// by host, domain, host:port or *), and the sentence a proxy that cannot be reached gets.
import { afterEach, describe, expect, test } from "bun:test";
import { failureText } from "../../src/providers/provider-error-text.ts";
import { proxyRoute } from "../../src/providers/proxy-route.ts";

describe("proxyRoute", () => {
  test("an http URL through HTTP_PROXY, an https one through HTTPS_PROXY, never the other's", () => {
    const env = { HTTP_PROXY: "http://127.0.0.1:9", HTTPS_PROXY: "http://corp:3128" };
    expect(proxyRoute("http://127.0.0.1:8080", env)).toEqual({ proxy: "http://127.0.0.1:9", variable: "HTTP_PROXY", host: "127.0.0.1" });
    expect(proxyRoute("https://api.anthropic.com", env)).toMatchObject({ proxy: "http://corp:3128", variable: "HTTPS_PROXY" });
    expect(proxyRoute("https://api.anthropic.com", { HTTP_PROXY: "http://127.0.0.1:9" })).toBeUndefined();
    expect(proxyRoute("http://x", { http_proxy: "http://a:1", HTTP_PROXY: "http://b:2" })).toMatchObject({ variable: "http_proxy" });
    expect(proxyRoute("http://x", { HTTP_PROXY: "  " })).toBeUndefined();
    expect(proxyRoute("http://x", {})).toBeUndefined();
  });

  test("NO_PROXY: *, the host, a domain it is under, host:port; no_proxy first", () => {
    const via = (noProxy: string, url = "https://api.example.com") => proxyRoute(url, { HTTPS_PROXY: "http://p:1", NO_PROXY: noProxy });
    expect(via("*")).toBeUndefined();
    expect(via("api.example.com")).toBeUndefined();
    expect(via("example.com")).toBeUndefined();
    expect(via(".example.com")).toBeUndefined();
    expect(via("foo, EXAMPLE.com ")).toBeUndefined();
    expect(via("ample.com")).toBeDefined();
    expect(via("api.example.com:443")).toBeUndefined();
    expect(via("api.example.com:8443")).toBeDefined();
    expect(via("other", "http://127.0.0.1:8080")).toBeUndefined(); // HTTP_PROXY unset: no proxy for http at all
    expect(proxyRoute("http://127.0.0.1:8080", { HTTP_PROXY: "http://p:1", NO_PROXY: "127.0.0.1" })).toBeUndefined();
    expect(proxyRoute("http://127.0.0.1:8080", { HTTP_PROXY: "http://p:1", NO_PROXY: ".0.0.1" })).toBeDefined();
    expect(proxyRoute("http://x", { HTTP_PROXY: "http://p:1", no_proxy: "other", NO_PROXY: "x" })).toEqual({
      proxy: "http://p:1",
      variable: "HTTP_PROXY",
      host: "x",
      noProxy: { variable: "no_proxy", value: "other" },
    });
  });
});

describe("the sentence of a proxy that cannot be reached", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy"]) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });
  const clear = () => {
    for (const name of ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy"]) delete process.env[name];
  };

  test("names the proxy and its variable, not the base URL, and says how to go around it (NO_PROXY)", () => {
    clear();
    process.env.HTTPS_PROXY = "http://user:s3cretpass@127.0.0.1:9";
    const speaker = { provider: "anthropic", baseUrl: "https://api.anthropic.com" };
    expect(failureText(speaker, { code: "network", shape: "unreachable", detail: "Connection error: ECONNREFUSED" })).toBe(
      "anthropic: cannot reach the proxy http://user:***@127.0.0.1:9 (HTTPS_PROXY) that zot goes through to https://api.anthropic.com (Connection error: ECONNREFUSED); " +
        "check that the proxy runs and HTTPS_PROXY names it, or connect directly: unset HTTPS_PROXY, or set NO_PROXY=api.anthropic.com",
    );
    process.env.NO_PROXY = "localhost";
    expect(failureText(speaker, { code: "network", shape: "unreachable", detail: "x" })).toEndWith('or add api.anthropic.com to NO_PROXY (now "localhost")');
    expect(failureText(speaker, { code: "network", shape: "silent", detail: "10 s" })).toBe(
      "anthropic: https://api.anthropic.com (through the proxy http://user:***@127.0.0.1:9, from HTTPS_PROXY) took the request but sent no answer within 10 s; the server or the proxy may be stuck or overloaded (API_TIMEOUT_MS, in ms, sets how long zot waits)",
    );
  });

  test("a host NO_PROXY covers, or no proxy at all: the base URL's sentence", () => {
    clear();
    process.env.HTTP_PROXY = "http://127.0.0.1:9";
    process.env.NO_PROXY = "localhost";
    expect(failureText({ provider: "ollama", baseUrl: "http://localhost:11434/v1" }, { code: "network", shape: "unreachable", detail: "x" })).toStartWith(
      "ollama: cannot reach http://localhost:11434/v1 (x); is ollama running",
    );
  });
});

test("ALL_PROXY when no scheme's variable is set, and NO_PROXY's IPv4 ranges, as Bun's fetch takes them", () => {
  expect(proxyRoute("http://127.0.0.1:11434/v1", { ALL_PROXY: "http://proxy:3128" })?.variable).toBe("ALL_PROXY");
  expect(proxyRoute("http://127.0.0.1:11434/v1", { HTTP_PROXY: "http://proxy:3128", NO_PROXY: "localhost,127.0.0.0/8" })).toBeUndefined();
  expect(proxyRoute("http://10.2.3.4/v1", { HTTP_PROXY: "http://proxy:3128", NO_PROXY: "10.0.0.0/8" })).toBeUndefined();
  expect(proxyRoute("http://11.2.3.4/v1", { HTTP_PROXY: "http://proxy:3128", NO_PROXY: "10.0.0.0/8" })?.proxy).toBe("http://proxy:3128");
});
