// One sentence per way a model call fails, whichever provider failed; an auth failure names where
// the key came from.
import { describe, expect, test } from "bun:test";
import { type Failure, failureText, type ProviderSpeaker } from "../../src/providers/provider-error-text.ts";
import { codeOf, streamErrorFailure } from "../../src/providers/provider-failure.ts";

const speaker: ProviderSpeaker = { provider: "ollama", baseUrl: "http://localhost:11434/v1" };
const text = (failure: Omit<Failure, "code"> & { code?: Failure["code"] }, who: ProviderSpeaker = speaker) =>
  failureText(who, { code: "server_error", ...failure });

describe("failureText", () => {
  test("each shape has its one sentence, led by the provider's name", () => {
    expect(text({ shape: "http", status: 503, detail: "busy" })).toBe("ollama: HTTP 503: busy");
    expect(text({ shape: "stream_error", detail: "Overloaded" })).toBe("ollama: the model stopped with an error: Overloaded");
    expect(text({ shape: "unreachable", detail: "Unable to connect" })).toBe(
      "ollama: cannot reach http://localhost:11434/v1 (Unable to connect); is ollama running (ollama serve)? OLLAMA_HOST or --base-url may point elsewhere",
    );
    expect(text({ shape: "unreachable", detail: "Unable to connect" }, { ...speaker, provider: "openai" })).toEndWith("(Unable to connect); check the network and the base URL");
    expect(text({ shape: "dropped", detail: "socket closed" })).toBe("ollama: the connection dropped mid-stream (socket closed); try again");
    expect(text({ shape: "malformed", detail: "JSON Parse error" })).toBe("ollama: the server sent a malformed stream (JSON Parse error)");
    expect(text({ shape: "truncated", detail: "" })).toBe("ollama: the stream ended before the model finished; try again");
    expect(text({ shape: "local", detail: "bad URL" })).toBe("ollama: the request to http://localhost:11434/v1 failed (bad URL)");
  });

  test("no secret in a sentence: a base URL's password is ***, and a key the server quotes back is shortened to its ends", () => {
    const proxied: ProviderSpeaker = { provider: "openai", baseUrl: "http://proxyuser:pr0xyPASS@127.0.0.1:1/v1", secret: "sk-SECRETKEY1234" };
    const unreachable = text({ shape: "unreachable", detail: "Unable to connect to http://proxyuser:pr0xyPASS@127.0.0.1:1/v1" }, proxied);
    expect(unreachable).toBe("openai: cannot reach http://proxyuser:***@127.0.0.1:1/v1 (Unable to connect to http://proxyuser:***@127.0.0.1:1/v1); check the network and the base URL");
    const echoed = text({ code: "auth", shape: "http", status: 401, detail: "Invalid token: Bearer sk-SECRETKEY1234" }, { ...proxied, key: { from: "OPENAI_API_KEY" } });
    expect(echoed).not.toContain("sk-SECRETKEY1234");
    expect(echoed).toContain("Invalid token: Bearer sk-…1234");
    expect(echoed).not.toContain("pr0xyPASS");
    // A one-letter password is taken out of the URL only, not out of every word.
    const short = text({ shape: "unreachable", detail: "Unable to connect" }, { provider: "openai", baseUrl: "http://bob:p@proxy.local:8080/v1" });
    expect(short).toBe("openai: cannot reach http://bob:***@proxy.local:8080/v1 (Unable to connect); check the network and the base URL");
    // A long one is taken out where a server quotes it too, as written and unescaped.
    const quoted = text({ shape: "http", status: 407, detail: "invalid credentials bob/p@ssword123" }, { provider: "openai", baseUrl: "http://bob:p%40ssword123@proxy.local/v1" });
    expect(quoted).not.toContain("p@ssword123");
  });

  test("an auth failure names the key's origin, or says none was sent and where one goes", () => {
    const auth = { code: "auth", shape: "http", status: 401, label: "authentication_error", detail: "invalid x-api-key" } as const;
    const as = (key: ProviderSpeaker["key"]) => text(auth, { provider: "anthropic", baseUrl: "https://api.anthropic.com", key });
    expect(as({ from: "ANTHROPIC_API_KEY" })).toBe(
      "anthropic rejected the API key from ANTHROPIC_API_KEY (401 authentication_error: invalid x-api-key); check it, or pass --api-key",
    );
    expect(as({ from: "ANTHROPIC_AUTH_TOKEN", kind: "auth_token" })).toBe(
      "anthropic rejected the auth token from ANTHROPIC_AUTH_TOKEN (401 authentication_error: invalid x-api-key); check it, or pass --api-key",
    );
    expect(as({ from: "--api-key" })).toBe("anthropic rejected the API key from --api-key (401 authentication_error: invalid x-api-key); check it");
    expect(as({ variable: "ANTHROPIC_API_KEY" })).toBe(
      "anthropic rejected the request, which carried no API key (401 authentication_error: invalid x-api-key); set ANTHROPIC_API_KEY or pass --api-key",
    );
    expect(as(undefined)).toBe("anthropic rejected the request, which carried no API key (401 authentication_error: invalid x-api-key); pass --api-key");
    // Inside a stream there is no status: the label and the words still say it.
    expect(text({ code: "auth", shape: "stream_error", label: "authentication_error", detail: "expired" }, { ...speaker, key: { from: "OLLAMA_API_KEY" } })).toBe(
      "ollama rejected the API key from OLLAMA_API_KEY (authentication_error: expired); check it, or pass --api-key",
    );
  });
});

describe("codeOf", () => {
  test("the status decides; inside a stream the API's labels do; a context overflow by its words", () => {
    expect(codeOf(401, "invalid_request_error", "invalid_api_key", "Incorrect API key")).toBe("auth");
    expect(codeOf(403, "permission_error", undefined, "no access")).toBe("auth");
    expect(codeOf(429, "requests", "rate_limit_exceeded", "slow down")).toBe("rate_limit");
    expect(codeOf(529, "overloaded_error", undefined, "Overloaded")).toBe("overloaded");
    expect(codeOf(503, undefined, undefined, "server busy")).toBe("overloaded");
    expect(codeOf(500, "api_error", undefined, "boom")).toBe("server_error");
    expect(codeOf(404, "not_found_error", undefined, "model: nope")).toBe("bad_request");
    expect(codeOf(400, "invalid_request_error", undefined, "prompt is too long: 210000 tokens > 200000 maximum")).toBe("context_overflow");
    expect(codeOf(400, "invalid_request_error", "context_length_exceeded", "too long")).toBe("context_overflow");
    expect(codeOf(undefined, "overloaded_error", undefined, "Overloaded")).toBe("overloaded");
    expect(codeOf(undefined, "rate_limit_error", undefined, "slow down")).toBe("rate_limit");
    expect(codeOf(undefined, "authentication_error", undefined, "expired")).toBe("auth");
    expect(codeOf(undefined, "invalid_request_error", undefined, "bad tool schema")).toBe("bad_request");
    expect(codeOf(undefined, "server_error", "server_error", "upstream timeout")).toBe("server_error");
    expect(codeOf(undefined, undefined, undefined, "anything")).toBe("server_error");
  });

  test("a status named inside the stream (LiteLLM's \"code\": \"400\") is that status; a 503 is a busy server only when it says so", () => {
    expect(codeOf(undefined, "error", "400", "litellm.BadRequestError: bad tool schema")).toBe("bad_request");
    expect(codeOf(undefined, undefined, "429", "slow down")).toBe("rate_limit");
    expect(codeOf(503, undefined, undefined, "<html>upstream connect error or disconnect/reset before headers</html>")).toBe("server_error");
    expect(codeOf(503, undefined, undefined, "The engine is currently overloaded, please try again later")).toBe("overloaded");
  });
});

test("a server error is marked local for a server on this machine or its network, so it gets a few retries, not minutes of them", () => {
  const payload = { type: "error", error: { type: "api_error", message: "model requires more system memory" } };
  for (const baseUrl of ["http://127.0.0.1:11434", "http://localhost:8000/v1", "http://192.168.1.20:8000/v1", "http://gpu-box:8000/v1"]) {
    expect({ baseUrl, local: streamErrorFailure({ provider: "openai", baseUrl }, payload).local }).toEqual({ baseUrl, local: true });
  }
  for (const baseUrl of ["http://[::1]:8000/v1", "http://[fd12:3456::1]:8000/v1"]) {
    expect({ baseUrl, local: streamErrorFailure({ provider: "openai", baseUrl }, payload).local }).toEqual({ baseUrl, local: true });
  }
  for (const baseUrl of ["https://api.anthropic.com", "https://openrouter.ai/api/v1", "http://[2001:db8::1]:8000/v1"]) {
    expect({ baseUrl, local: streamErrorFailure({ provider: "anthropic", baseUrl }, payload).local }).toEqual({ baseUrl, local: undefined });
  }
});
