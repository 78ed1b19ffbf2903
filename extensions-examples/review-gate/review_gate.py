#!/usr/bin/env python3
"""A review gate: a PicoClaw-protocol process hook (JSON-RPC 2.0 over stdio), python3 stdlib only.

- hook.before_tool: refuses bash commands that would wreck the machine (deny_tool, with the rule).
- hook.approve_tool: refuses sudo and writes to secrets or git internals (approved: false).
- hook.event: writes "observed event: <Kind>" to stderr (zot's log for the hook).

Every message it receives is also appended, as JSON, to $REVIEW_GATE_LOG (or PicoClaw's
$PICOCLAW_HOOK_LOG_FILE) when that is set. It exits when its stdin closes.
"""
from __future__ import annotations

import json
import os
import re
import sys

NAME = "python-review-gate"
LOG_FILE = os.environ.get("REVIEW_GATE_LOG") or os.environ.get("PICOCLAW_HOOK_LOG_FILE")

# before_tool: (rule, pattern) pairs matched against bash commands.
DANGEROUS = [
    # rm with a recursive flag, aimed at / or ~ themselves (or everything in them)
    ("rm-root-or-home", re.compile(r"\brm\s+(?=(?:-[\w-]*\s+)*-(?:\w*[rR]|-recursive))(?:-[\w-]*\s+)+(?:/|~|\$HOME)/?\*?(?:\s|$)")),
    ("disk-format", re.compile(r"\bmkfs(\.\w+)?\b")),
    ("raw-disk-write", re.compile(r"\bdd\b.*\bof=/dev/")),
    ("pipe-to-shell", re.compile(r"\b(curl|wget)\b[^|]*\|\s*(sudo\s+)?(ba|z)?sh\b")),
    ("fork-bomb", re.compile(r":\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:")),
]

# approve_tool: paths a write or edit may not touch.
PROTECTED = re.compile(r"(^|/)(\.env(\.[\w-]+)?|\.git/.*|\.ssh/.*|id_rsa\w*)$")


def log(message: dict) -> None:
    if LOG_FILE:
        with open(LOG_FILE, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(message) + "\n")


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def before_tool(params: dict) -> dict:
    if params.get("tool") != "bash":
        return {"action": "continue"}
    command = str((params.get("arguments") or {}).get("command", ""))
    for rule, pattern in DANGEROUS:
        if pattern.search(command):
            return {"action": "deny_tool", "reason": f"review gate rule {rule}: {command!r} is not run"}
    return {"action": "continue"}


def approve_tool(params: dict) -> dict:
    tool = params.get("tool", "")
    args = params.get("arguments") or {}
    if tool == "bash" and re.search(r"(^|[;&|]\s*)sudo\b", str(args.get("command", ""))):
        return {"approved": False, "reason": "sudo needs a person at the keyboard"}
    if tool in ("write", "edit") and PROTECTED.search(str(args.get("path", ""))):
        return {"approved": False, "reason": f"{args.get('path')} holds secrets or git internals; edit it by hand"}
    return {"approved": True}


HANDLERS = {
    "hook.hello": lambda params: {"ok": True, "name": NAME},
    "hook.before_tool": before_tool,
    # The tool mode brings after_tool too: answer it, or zot waits for a reply that never comes.
    "hook.after_tool": lambda params: {"action": "continue"},
    "hook.approve_tool": approve_tool,
}


def main() -> None:
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError as err:
            print(f"review gate: undecodable input: {err}", file=sys.stderr, flush=True)
            continue
        log(message)
        if "id" not in message:
            if message.get("method") == "hook.event":
                print(f"observed event: {message['params'].get('Kind')}", file=sys.stderr, flush=True)
            continue
        handler = HANDLERS.get(message.get("method"))
        if handler is None:
            send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": f"method not found: {message.get('method')}"}})
            continue
        send({"jsonrpc": "2.0", "id": message["id"], "result": handler(message.get("params") or {})})


if __name__ == "__main__":
    main()
