#!/usr/bin/env bash
# A reference client for `zot rpc` in bash + jq (docs/rpc.md describes the protocol): zot runs as
# a coprocess; this script sends hello and one prompt, streams the answer's text to stderr as it
# arrives, prints the final answer on stdout, and exits 0 (done), 1 (the turn failed), 130 (Ctrl+C)
# or zot's own exit code when zot stops before answering.
# Rule: closing zot's stdin is how it is told to exit once it has finished what it was sent; this
# script closes it after `done` (a one-shot `echo '{"type":"prompt",…}' | zot rpc` works too).
#
#   ZOT_BIN=./dist/zot ./zot-rpc.sh "what is in this directory?" --provider anthropic
#
# Arguments after the prompt go to `zot rpc`; with ZOTCORE_RPC_TOKEN set, hello sends it.
set -u

if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
  echo "usage: zot-rpc.sh PROMPT [zot rpc flags...]   (ZOT_BIN picks the zot binary)" >&2
  exit 2
fi
command -v jq >/dev/null || { echo "zot-rpc.sh: needs jq (https://jqlang.github.io/jq/)" >&2; exit 2; }
prompt=$1
shift
zot=${ZOT_BIN:-zot}
command -v "$zot" >/dev/null || { echo "zot-rpc.sh: cannot start $zot: not found; set ZOT_BIN or put zot on PATH" >&2; exit 127; }

trap '' PIPE # a write to a zot that is gone fails instead of killing this script
coproc ZOT { exec "$zot" rpc "$@"; }
zot_pid=$ZOT_PID
# Own copies of the pipe ends: bash closes the coprocess's when it exits, and its last lines
# must still be readable then.
exec {to_zot}>&"${ZOT[1]}" {from_zot}<&"${ZOT[0]}"
eval "exec ${ZOT[1]}>&- ${ZOT[0]}<&-" # only the copies stay, so closing to_zot is zot's EOF

send() { printf '%s\n' "$1" >&"$to_zot" 2>/dev/null; }

finish() { # closes zot's stdin, waits for it, prints the answer, exits with $1
  exec {to_zot}>&-
  wait "$zot_pid" 2>/dev/null
  [[ -n $answer ]] && printf '%s\n' "$answer"
  [[ -n $failure ]] && echo "zot-rpc.sh: $failure" >&2
  exit "$1"
}

answer="" failure="" streaming=0 interrupted=0
trap 'interrupted=1; send "{\"id\":3,\"type\":\"abort\"}"' INT

send "$(jq -cn --arg token "${ZOTCORE_RPC_TOKEN:-}" '{id: 1, type: "hello"} + (if $token == "" then {} else {token: $token} end)')"
send "$(jq -cn --arg message "$prompt" '{id: 2, type: "prompt", message: $message}')"

# One line, one frame: jq turns the fields used below into shell assignments (@sh quotes them).
fields='@sh "type=\(.type) id=\(.id // "" | tostring) success=\(.success // "" | tostring)
  error=\(.error // .message // "") delta=\(.delta // "") name=\(.name // "") args=\(.args // {} | tojson)
  is_error=\(.is_error // false | tostring) stop=\(.stop // "")
  text=\([(.content // [])[] | select(.type == "text") | .text] | join("\n"))"'

end_stream() { ((streaming)) && echo >&2; streaming=0; }

while IFS= read -r line <&"$from_zot"; do
  [[ -z $line ]] && continue
  assignments=$(jq -r "$fields" <<<"$line" 2>/dev/null) || { end_stream; echo "zot-rpc.sh: not a JSON line: $line" >&2; continue; }
  eval "$assignments"
  case $type in
    response)
      if [[ $success != true ]]; then
        failure="$error" # a bad token (zot exits 1), a refused prompt…
        [[ $id == 3 ]] || finish 1
      fi
      ;;
    text_delta) printf '%s' "$delta" >&2; streaming=1 ;;
    tool_call) end_stream; echo "[tool] $name $args" >&2 ;;
    tool_result) end_stream; [[ $is_error == true ]] && echo "[error] $text" >&2 || echo "[result] $text" >&2 ;;
    assistant_message) end_stream; answer=$text ;;
    error) failure=$error ;;
    # A turn that went on after an error (an automatic compaction that failed) and ended well clears it.
    turn_end) if [[ $stop == error || $stop == aborted ]]; then failure=${failure:-${error:-$stop}}; else failure=""; fi ;;
    done) ((interrupted)) && finish 130; [[ -n $failure ]] && finish 1; finish 0 ;;
  esac
done

# zot's stdout closed before `done`: it could not start, or it died. Its own message is on stderr.
exec {to_zot}>&-
wait "$zot_pid" 2>/dev/null
code=$?
echo "zot-rpc.sh: zot rpc exited with code $code before answering (its message is above)" >&2
exit $((code == 0 ? 1 : code))
