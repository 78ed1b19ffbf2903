// redact: replaces secrets in the assistant's messages with [redacted] before you see them (API
// keys, AWS keys, GitHub tokens, private keys, `password: …`). Written with the zot SDK; zot runs
// this file itself, nothing to install.
// What it changes is what the user sees (the terminal, -p output, events); the transcript keeps
// the model's own text, so the model still knows what it said. It does not stop a secret from
// reaching a tool: that is a job for a tool_call interceptor like the guard example.
import { display, extension } from "@zot/sdk";

const MASK = "[redacted]";

interface Pattern {
  name: string;
  regex: RegExp;
  /** keeps a label in front of the mask (`password: [redacted]`) */
  replace: (match: string, ...groups: string[]) => string;
}

const PATTERNS: Pattern[] = [
  {
    name: "private key block",
    regex: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
    replace: () => MASK,
  },
  // sk-…: OpenAI (sk-proj-…) and Anthropic (sk-ant-…) keys.
  { name: "sk- API key", regex: /\bsk-[A-Za-z0-9_-]{16,}/g, replace: () => MASK },
  { name: "AWS access key id", regex: /\b(AKIA|ASIA)[0-9A-Z]{16}\b/g, replace: () => MASK },
  {
    name: "AWS secret access key",
    regex: /\b(aws_secret_access_key\s*[=:]\s*)["']?[A-Za-z0-9/+=]{40,}["']?/gi,
    replace: (_match, label) => `${label}${MASK}`,
  },
  { name: "GitHub token", regex: /\b(gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/g, replace: () => MASK },
  {
    name: "password/secret/token assignment",
    regex: /\b((?:password|passwd|pwd|secret|api[_-]?key|token)\s*[:=]\s*)("[^"\n]*"|'[^'\n]*'|[^\s,;]+)/gi,
    replace: (_match, label) => `${label}${MASK}`,
  },
];

/** `text` with every secret masked, and how many were. */
function redact(text: string): { text: string; count: number } {
  let count = 0;
  let out = text;
  for (const pattern of PATTERNS) {
    out = out.replace(pattern.regex, (...match: string[]) => {
      // Already masked by an earlier pattern (a key inside `api_key = sk-…`): leave it.
      if (match[0] === MASK || match[0]!.endsWith(MASK)) return match[0]!;
      count++;
      return pattern.replace(match[0]!, ...match.slice(1));
    });
  }
  return { text: out, count };
}

const ext = extension({ name: "redact", version: "1.0.0" });
let total = 0;

ext.interceptAssistantMessage((message) => {
  const { text, count } = redact(message.text);
  if (count === 0) return undefined;
  total += count;
  ext.log(`masked ${count} secret(s)`);
  return { text };
});

ext.command("redact", "show what redact masks", () =>
  display([`redact masks, in assistant messages:`, ...PATTERNS.map((p) => `  ${p.name}`), `masked so far: ${total}`].join("\n")),
);

await ext.run();
