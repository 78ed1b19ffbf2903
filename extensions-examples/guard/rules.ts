// The guard's rules: which bash commands it refuses, and the one it rewrites. Pure functions of the
// command text, kept apart from index.ts so they read as a list.
// Rule: a refusal says what was matched, why it is dangerous and what to do instead, because the
// model reads it as the tool's error and acts on it.

/** What the guard does with one bash command. */
export type Verdict =
  | { kind: "allow" }
  | { kind: "block"; rule: string; reason: string }
  | { kind: "rewrite"; rule: string; command: string };

/** One refusal rule, as `/guard` lists it. */
export interface BlockRule {
  name: string;
  /** what `/guard` shows */
  description: string;
  /** the matched text if the command breaks the rule */
  match(command: string): string | undefined;
  /** what the model should do instead */
  advice: string;
}

// A command line in pieces: `a && b; c | d` → ["a", "b", "c", "d"]. Quotes are not parsed; the
// rules err on the side of refusing `echo "rm -rf /"`, which costs the model one retry.
function segments(command: string): string[] {
  return command
    .split(/&&|\|\||[;|&\n]/)
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

function words(segment: string): string[] {
  const tokens = segment.split(/\s+/).map((token) => token.replace(/^["']|["']$/g, ""));
  // `sudo rm …`, `env X=1 rm …`, `command rm …`: the program is the first word after these.
  while (tokens.length > 0 && /^(sudo|doas|env|command|exec|nice|nohup|time|[A-Za-z_][A-Za-z0-9_]*=.*)$/.test(tokens[0]!)) tokens.shift();
  return tokens;
}

const HOME_OR_ROOT = new Set(["/", "/*", "/.", "~", "~/", "~/*", "$HOME", "$HOME/", "$HOME/*", "${HOME}", "${HOME}/", "${HOME}/*"]);

function rmEverything(command: string): string | undefined {
  for (const segment of segments(command)) {
    const [program, ...rest] = words(segment);
    if (program !== "rm" && !program?.endsWith("/rm")) continue;
    const flags = rest.filter((word) => word.startsWith("-"));
    const recursive = flags.some((flag) => flag === "--recursive" || /^-[a-zA-Z]*[rR]/.test(flag));
    const targets = rest.filter((word) => !word.startsWith("-"));
    if (flags.includes("--no-preserve-root")) return segment;
    if (recursive && targets.some((target) => HOME_OR_ROOT.has(target))) return segment;
  }
  return undefined;
}

function firstMatch(pattern: RegExp): (command: string) => string | undefined {
  return (command) => pattern.exec(command)?.[0];
}

/** The refusals, in the order they are checked. */
export const BLOCK_RULES: BlockRule[] = [
  {
    name: "rm-everything",
    description: "rm -r of /, ~ or $HOME (and --no-preserve-root)",
    match: rmEverything,
    advice: "it would delete the whole disk or home directory. Delete only the specific paths you mean, inside the project",
  },
  {
    name: "mkfs",
    description: "mkfs (formats a filesystem)",
    match: firstMatch(/\bmkfs(\.[a-z0-9]+)?\b[^;&|\n]*/),
    advice: "it erases a whole device. If the user really wants a device formatted, ask them to run it themselves",
  },
  {
    name: "dd-to-device",
    description: "dd writing to a device (dd … of=/dev/…, except /dev/null)",
    match: (command) => {
      const hit = /\bdd\b[^;&|\n]*\bof=\/dev\/([A-Za-z0-9_/-]+)/.exec(command);
      return hit && !/^(null|zero|stdout|stderr)$/.test(hit[1]!) ? hit[0] : undefined;
    },
    advice: "it overwrites a raw device. Write to a regular file instead, or ask the user to run it",
  },
  {
    name: "fork-bomb",
    description: "fork bombs like :(){ :|:& };:",
    match: firstMatch(/([A-Za-z_:][A-Za-z0-9_:]*)\s*\(\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}/),
    advice: "it starts processes until the machine stops responding. There is no safe way to run it",
  },
  {
    name: "pipe-to-shell",
    description: "downloading a script straight into a shell (curl … | sh, wget … | bash)",
    match: firstMatch(/\b(curl|wget)\b[^;&|\n]*\|\s*(sudo\s+)?(ba|z|da|k|fi)?sh\b/),
    advice: "it runs code from the network unseen. Download the script to a file, show it to the user and run it only if they agree",
  },
];

/** The rewrite, as `/guard` lists it. */
export const REWRITE_RULE = {
  name: "force-with-lease",
  description: "git push --force / -f becomes git push --force-with-lease",
  why: "--force-with-lease refuses to overwrite commits on the remote that you have not seen, which is what a plain force push silently destroys",
};

function forceWithLease(command: string): string | undefined {
  let changed = false;
  // Only inside a `git push` segment, so `grep -f`, `cp --force` and the like are left alone.
  const rewritten = command.replace(/\bgit\s+push\b[^;&|\n]*/g, (push) =>
    push.replace(/(\s)(--force|-f)(?=\s|$)/g, (_match, space: string) => {
      changed = true;
      return `${space}--force-with-lease`;
    }),
  );
  return changed ? rewritten : undefined;
}

/** Judges one bash command. */
export function judge(command: string): Verdict {
  for (const rule of BLOCK_RULES) {
    const matched = rule.match(command);
    if (matched !== undefined) {
      return {
        kind: "block",
        rule: rule.name,
        reason: `guard refused this command: "${matched.trim()}" matches the rule ${rule.name}: ${rule.advice}.`,
      };
    }
  }
  const rewritten = forceWithLease(command);
  if (rewritten !== undefined) return { kind: "rewrite", rule: REWRITE_RULE.name, command: rewritten };
  return { kind: "allow" };
}
