// clock: a zot extension in plain Node.js (no SDK, no dependencies).
//   /time  -> "display": the current local time and UTC, as a note
//   /date  -> "insert": today's date (YYYY-MM-DD) into the editor at the cursor
// The protocol is one JSON object per line: frames to zot on stdout, frames from zot on stdin.
// stdout is reserved for frames; logs go to stderr (zot keeps them: `zot ext logs clock`).
import { createInterface } from "node:readline";

function send(frame, then) {
  process.stdout.write(`${JSON.stringify(frame)}\n`, then);
}

function log(text) {
  process.stderr.write(`[clock] ${text}\n`);
}

function pad(n) {
  return String(n).padStart(2, "0");
}

function today(now) {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function commandResponse(frame) {
  const now = new Date();
  switch (frame.name) {
    case "time":
      return { action: "display", display: `${now.toLocaleTimeString()} local, ${now.toISOString()} UTC` };
    case "date":
      return { action: "insert", insert: today(now) };
    default:
      return { action: "noop", error: `clock has no command /${frame.name}` };
  }
}

send({ type: "hello", name: "clock", version: "1.0.0", capabilities: ["commands"] });
send({ type: "register_command", name: "time", description: "show the current time" });
send({ type: "register_command", name: "date", description: "insert today's date (YYYY-MM-DD)" });
send({ type: "ready" });

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  let frame;
  try {
    frame = JSON.parse(line);
  } catch {
    log(`ignoring a line that is not JSON: ${line.slice(0, 200)}`);
    return;
  }
  if (frame.type === "hello_ack") {
    log(`connected to zot ${frame.zot_version}`);
  } else if (frame.type === "command_invoked") {
    // The id goes back exactly as it came (zot may send a string or a number).
    send({ type: "command_response", id: frame.id, ...commandResponse(frame) });
  } else if (frame.type === "shutdown") {
    // Exit once the ack is out: on some systems a pipe write finishes after process.exit would.
    send({ type: "shutdown_ack" }, () => process.exit(0));
  }
});
// When stdin closes without a shutdown (zot died), nothing keeps the process alive: it ends.
