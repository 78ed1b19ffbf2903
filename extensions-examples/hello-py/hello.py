#!/usr/bin/env python3
"""hello-py: a zot extension in plain Python 3 (standard library only, no SDK).

It registers two slash commands and speaks the wire protocol directly:
  /hellopy [name]  -> "prompt": asks the model to greet you
  /echo <text>     -> "display": shows <text> back as a note

The protocol is one JSON object per line: frames to zot on stdout, frames from zot on stdin.
stdout is reserved for frames; logs go to stderr, which zot keeps in
$ZOT_HOME/logs/ext-hello-py.log (`zot ext logs hello-py`).
"""
import json
import sys


def send(frame):
    # One line per frame, flushed at once: zot waits for whole lines, and a pipe buffers otherwise.
    sys.stdout.write(json.dumps(frame, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write(f"[hello-py] {text}\n")
    sys.stderr.flush()


def reply(frame_id, action, **fields):
    # The id goes back exactly as it came (zot may send a string or a number).
    send({"type": "command_response", "id": frame_id, "action": action, **fields})


def on_command(frame):
    name = frame.get("name", "")
    args = frame.get("args", "")
    if name == "hellopy":
        who = args or "me"
        reply(frame["id"], "prompt", prompt=f"Greet {who} in one short, cheerful sentence (this came from a Python extension).")
    elif name == "echo":
        if args:
            reply(frame["id"], "display", display=args)
        else:
            reply(frame["id"], "noop", error="echo: usage is /echo <text>")
    else:
        reply(frame["id"], "noop", error=f"hello-py has no command /{name}")


def main():
    send({"type": "hello", "name": "hello-py", "version": "1.0.0", "capabilities": ["commands"]})
    send({"type": "register_command", "name": "hellopy", "description": "ask the model to greet you (Python)"})
    send({"type": "register_command", "name": "echo", "description": "show the text you give it"})
    send({"type": "ready"})

    while True:
        # readline() hands over each line as soon as it arrives; zot waits for answers one by one.
        line = sys.stdin.readline()
        if line == "":
            return  # stdin closed: zot is gone
        line = line.strip()
        if not line:
            continue
        try:
            frame = json.loads(line)
        except json.JSONDecodeError:
            log(f"ignoring a line that is not JSON: {line[:200]}")
            continue
        kind = frame.get("type")
        if kind == "hello_ack":
            log(f"connected to zot {frame.get('zot_version')} ({frame.get('provider')}/{frame.get('model')})")
        elif kind == "command_invoked":
            on_command(frame)
        elif kind == "shutdown":
            send({"type": "shutdown_ack"})
            return
        # Other frames (events, tool calls) are not for this extension: it registered none.


if __name__ == "__main__":
    main()
