#!/usr/bin/env python3
"""A reference client for `zot rpc`, standard library only (docs/rpc.md describes the protocol).

One reader thread owns zot's stdout: responses go to the caller waiting on their id, events go to
one queue that `prompt()` and `compact()` drain until `done`. Rule: nothing here knows more of the
protocol than it needs; unknown events are passed through as dicts, so a newer zot never breaks it.

    python3 zot_rpc.py "what is in this directory?" --provider anthropic

runs one prompt and prints the answer. ZOT_BIN names the zot executable (default: zot on PATH);
arguments after the prompt go to `zot rpc`; with ZOTCORE_RPC_TOKEN set, hello sends it.
"""
import itertools
import json
import os
import queue
import signal
import subprocess
import sys
import threading

_EOF = object()  # what the reader hands out once zot's stdout has closed


class ZotRpcError(Exception):
    """A command zot answered with success:false."""

    def __init__(self, command, message):
        super().__init__(f"{command}: {message}")
        self.command = command
        self.message = message


class ZotExited(Exception):
    """zot's stdout closed (it exited) while something was still waiting for it."""

    def __init__(self, code):
        super().__init__(f"zot rpc exited with code {code}")
        self.code = code


class ZotRpc:
    """One `zot rpc` process: one cwd, one model, one transcript."""

    def __init__(self, args=(), zot=None, cwd=None, env=None):
        command = [zot or os.environ.get("ZOT_BIN", "zot"), "rpc", *args]
        # zot's stderr is left to the terminal: its start-up errors and warnings reach the user.
        self._proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=cwd,
            env=env,
            text=True,
            encoding="utf-8",
            bufsize=1,
            # Its own session: Ctrl+C reaches this client, which aborts the turn over the wire.
            start_new_session=True,
        )
        self._ids = itertools.count(1)
        self._write_lock = threading.RLock()  # a Ctrl+C handler may write while the main thread is writing
        self._waiting = {}  # id -> Queue of its response
        # Re-entrant too: a Ctrl+C handler runs on the main thread, maybe while it holds this lock.
        self._waiting_lock = threading.RLock()
        self._closed = False
        self.events = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # ── the wire ────────────────────────────────────────────────────────────────────────────

    def _read(self):
        for line in self._proc.stdout:
            line = line.strip()
            if not line:
                continue
            try:
                frame = json.loads(line)
            except ValueError:  # zot writes only protocol lines; say so if that ever breaks
                print(f"zot_rpc: not a JSON line from zot: {line[:200]}", file=sys.stderr)
                continue
            if frame.get("type") == "response":
                self._deliver(frame)
            else:
                self.events.put(frame)
        with self._waiting_lock:
            self._closed = True
            for waiter in self._waiting.values():
                waiter.put(_EOF)
        self.events.put(_EOF)

    def _deliver(self, response):
        with self._waiting_lock:
            waiter = self._waiting.pop(response.get("id"), None)
        if waiter is not None:
            waiter.put(response)
        else:
            # A response nobody waits for: a line zot could not parse, or a command sent by hand.
            print(f"zot_rpc: unexpected response: {json.dumps(response)}", file=sys.stderr)

    def _exit_code(self):
        return self._proc.wait()

    def send(self, type, **fields):
        """Writes one command with a fresh numeric id and returns a queue its response arrives on."""
        id = next(self._ids)
        waiter = queue.Queue(maxsize=1)
        with self._waiting_lock:
            if self._closed:
                raise ZotExited(self._exit_code())
            self._waiting[id] = waiter
        line = json.dumps({"id": id, "type": type, **fields}) + "\n"
        try:
            with self._write_lock:
                self._proc.stdin.write(line)
                self._proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass  # zot is gone; the reader wakes the waiter with _EOF
        return waiter

    def request(self, type, **fields):
        """Sends a command and waits for its response; returns its data (or None)."""
        response = self.send(type, **fields).get()
        if response is _EOF:
            raise ZotExited(self._exit_code())
        if not response["success"]:
            raise ZotRpcError(response["command"], response["error"])
        return response.get("data")

    # ── commands ────────────────────────────────────────────────────────────────────────────

    def hello(self, token=None):
        """Protocol version, zot version, provider and model. Required first when zot has a token."""
        token = token if token is not None else os.environ.get("ZOTCORE_RPC_TOKEN")
        return self.request("hello", **({"token": token} if token else {}))

    def prompt(self, message, images=None):
        """Starts a prompt and yields its events, `done` last. Waits while another one runs."""
        fields = {"message": message}
        if images:
            fields["images"] = images  # [{"mime_type": "image/png", "data": "<base64>"}]
        return self._turn("prompt", fields)

    def compact(self, instructions=None):
        """Summarises the transcript; yields compact_start … compact_done, then done."""
        return self._turn("compact", {"instructions": instructions} if instructions else {})

    def _turn(self, type, fields):
        self.request(type, **fields)  # {"started": true} once it starts
        return self._events_until_done()

    def _events_until_done(self):
        while True:
            event = self.events.get()
            if event is _EOF:
                raise ZotExited(self._exit_code())
            yield event
            if event["type"] == "done":
                return

    def abort(self):
        """Cancels the running prompt or compact; its events end with turn_end aborted, then done."""
        self.request("abort")

    def state(self):
        return self.request("get_state")

    def set_reasoning(self, level):
        """Reasoning of later prompts: off, minimum, low, medium, high, xhigh or max. Refused while busy."""
        return self.request("set_reasoning", reasoning=level)  # {"reasoning": level, "applied": …}

    def messages(self):
        return self.request("get_messages")["messages"]

    def kill(self):
        """Ends zot at once (a second Ctrl+C when it does not stop); the reader then sees its end."""
        self._proc.kill()

    def close(self, timeout=None):
        """Closes zot's stdin and waits: zot finishes the prompts it was sent, stops its extensions
        and exits 0 (abort() first to stop a running one). After `timeout` seconds it is killed."""
        try:
            self._proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            return self._proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            return self._proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def text_of(content):
    """The text blocks of a message's content, joined by newlines."""
    return "\n".join(block["text"] for block in content if block["type"] == "text")


def run_prompt(client, message):
    """Runs one prompt; reports tool calls on stderr; returns (answer text, failure or None)."""
    answer, failure = "", None
    presses = 0

    # Ctrl+C asks zot to abort and keeps reading: the events go on to turn_end aborted and done,
    # with the answer so far. (A KeyboardInterrupt raised inside the event generator would end it,
    # and what had streamed would be lost.) A second Ctrl+C ends a zot that does not stop.
    def on_interrupt(signum, frame):
        nonlocal presses
        presses += 1
        if presses == 1:
            client.send("abort")
        else:
            client.kill()

    # Only the main thread may set a signal handler; elsewhere Ctrl+C is left as it is.
    on_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, on_interrupt) if on_main else None
    try:
        for event in client.prompt(message):
            answer, failure = _take(event, answer, failure)
    except ZotExited:
        if presses < 2:
            raise
    finally:
        if on_main:
            signal.signal(signal.SIGINT, previous)
    # Interrupted is what the user did, whatever the events said after it.
    return answer, "interrupted" if presses > 0 else failure


def _take(event, answer, failure):
    """One event's part in the answer and the failure."""
    kind = event["type"]
    if kind == "tool_call":
        args = json.dumps(event["args"], separators=(",", ":"))
        print(f"[tool] {event['name']} {args}", file=sys.stderr)
    elif kind == "tool_result":
        status = "error" if event["is_error"] else "result"
        print(f"[{status}] {text_of(event['content'])}", file=sys.stderr)
    elif kind == "assistant_message":
        answer = text_of(event["content"])
    elif kind == "error":
        failure = event["message"]
    elif kind == "turn_end" and event["stop"] in ("error", "aborted"):
        if failure is None:
            failure = event.get("error") or event["stop"]
    elif kind == "turn_end":
        # The turn went on after an error (an automatic compaction that failed) and ended well.
        failure = None
    return answer, failure


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: zot_rpc.py PROMPT [zot rpc flags...]   (ZOT_BIN picks the zot binary)", file=sys.stderr)
        return 2
    try:
        client = ZotRpc(args=argv[1:])
    except OSError as error:
        print(f"zot_rpc: cannot start {error.filename}: {error.strerror}; set ZOT_BIN or put zot on PATH", file=sys.stderr)
        return 127
    try:
        client.hello()
        answer, failure = run_prompt(client, argv[0])
    except ZotExited as exited:
        print(f"zot_rpc: {exited} before answering (its message is above)", file=sys.stderr)
        return exited.code or 1
    except ZotRpcError as error:
        print(f"zot_rpc: {error}", file=sys.stderr)
        client.close()
        return 1
    client.close()
    if answer:
        print(answer)
    if failure == "interrupted":
        return 130
    if failure:
        print(f"zot_rpc: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
