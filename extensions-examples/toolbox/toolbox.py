#!/usr/bin/env python3
"""Deferred tools, the way an MCP bridge with hundreds of tools keeps every model request small.

The catalog's tools are registered with "exposure": "deferred": zot knows them but does not offer
them to the model. The one direct tool, toolbox_search, finds the tools that match a query and
names them in its result's activate_tools; from the model's next request on they are offered like
any tool. python3, standard library only, raw protocol (no SDK).
"""
import json
import sys

# name -> (description, factor table or a function); a real bridge would list hundreds.
LENGTH = {"m": 1.0, "km": 1000.0, "cm": 0.01, "mi": 1609.344, "ft": 0.3048, "in": 0.0254}
WEIGHT = {"kg": 1.0, "g": 0.001, "lb": 0.45359237, "oz": 0.028349523125}
VOLUME = {"l": 1.0, "ml": 0.001, "gal": 3.785411784, "cup": 0.2365882365}


def by_factor(table):
    def convert(value, src, dst):
        if src not in table or dst not in table:
            raise ValueError("units are %s" % ", ".join(sorted(table)))
        return value * table[src] / table[dst]
    return convert


def temperature(value, src, dst):
    to_c = {"c": lambda v: v, "f": lambda v: (v - 32) * 5 / 9, "k": lambda v: v - 273.15}
    from_c = {"c": lambda v: v, "f": lambda v: v * 9 / 5 + 32, "k": lambda v: v + 273.15}
    if src not in to_c or dst not in from_c:
        raise ValueError("units are c, f, k")
    return from_c[dst](to_c[src](value))


CATALOG = {
    "convert_length": ("Convert a length between m, km, cm, mi, ft and in.", by_factor(LENGTH)),
    "convert_weight": ("Convert a weight between kg, g, lb and oz.", by_factor(WEIGHT)),
    "convert_volume": ("Convert a volume between l, ml, gal and cup.", by_factor(VOLUME)),
    "convert_temperature": ("Convert a temperature between c, f and k.", temperature),
}
SCHEMA = {
    "type": "object",
    "properties": {
        "value": {"type": "number"},
        "from": {"type": "string", "description": "unit to convert from"},
        "to": {"type": "string", "description": "unit to convert to"},
    },
    "required": ["value", "from", "to"],
}


def send(frame):
    sys.stdout.write(json.dumps(frame) + "\n")
    sys.stdout.flush()


def text(frame_id, message, **extra):
    send(dict({"type": "tool_result", "id": frame_id, "content": [{"type": "text", "text": message}]}, **extra))


def search(frame_id, query):
    words = [w for w in query.lower().split() if w]
    found = [name for name, (description, _) in CATALOG.items() if any(w in name or w in description.lower() for w in words)]
    if not found:
        return text(frame_id, "no tool matches %r; the toolbox has: %s" % (query, ", ".join(CATALOG)))
    lines = ["- `%s`: %s" % (name, CATALOG[name][0]) for name in found]
    # activate_tools: these are offered to the model from its next request on.
    send({"type": "tool_result", "id": frame_id, "activate_tools": found,
          "content": [{"type": "text", "format": "markdown", "text": "**Now available:**\n" + "\n".join(lines)}]})


def run_tool(frame_id, name, args):
    try:
        value = CATALOG[name][1](float(args["value"]), str(args["from"]).lower(), str(args["to"]).lower())
    except (KeyError, ValueError, TypeError) as error:
        return text(frame_id, "%s: %s" % (name, error), is_error=True)
    text(frame_id, "%g %s = %g %s" % (float(args["value"]), args["from"], round(value, 4), args["to"]))


send({"type": "hello", "name": "toolbox", "version": "1.0.0", "capabilities": ["tools"]})
send({"type": "register_tool", "name": "toolbox_search",
      "description": "Find unit-conversion tools by what they convert (length, weight, volume, temperature); the tools found become available.",
      "schema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}})
for name, (description, _) in CATALOG.items():
    send({"type": "register_tool", "name": name, "description": description, "schema": SCHEMA, "exposure": "deferred"})
send({"type": "ready"})

for line in sys.stdin:
    try:
        frame = json.loads(line)
    except ValueError:
        continue
    if frame.get("type") == "tool_call":
        name, args = frame["name"], frame.get("args") or {}
        if name == "toolbox_search":
            search(frame["id"], str(args.get("query", "")))
        else:
            run_tool(frame["id"], name, args)
    elif frame.get("type") == "shutdown":
        send({"type": "shutdown_ack"})
        break
