#!/usr/bin/env python3
"""A plugin tool with no tool registry: a PicoClaw-protocol process hook, python3 stdlib only.

- hook.before_llm: adds the get_weather tool to every model request (action modify, request.tools).
- hook.before_tool: answers get_weather calls itself (action respond); zot runs nothing.

The weather is a deterministic table, so the example runs offline. It exits when its stdin closes.
Adapted from PicoClaw's docs/hooks/plugin-tool-injection.md (MIT).
"""
from __future__ import annotations

import json
import sys

TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather for a city (from the weather-plugin hook)",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "City name, like Beijing"}},
            "required": ["city"],
        },
    },
}

WEATHER = {
    "beijing": "Sunny, temperature 15°C, humidity 45%",
    "shanghai": "Cloudy, temperature 18°C, humidity 70%",
    "berlin": "Light rain, temperature 9°C, humidity 80%",
}


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def before_llm(params: dict) -> dict:
    tools = list(params.get("tools") or [])
    if any(t.get("function", {}).get("name") == "get_weather" for t in tools):
        return {"action": "continue"}
    request = {
        "model": params.get("model"),
        "messages": params.get("messages", []),
        "tools": tools + [TOOL],
        "options": params.get("options", {}),
    }
    return {"action": "modify", "request": request}


def before_tool(params: dict) -> dict:
    if params.get("tool") != "get_weather":
        return {"action": "continue"}
    city = str((params.get("arguments") or {}).get("city", "")).strip()
    weather = WEATHER.get(city.lower())
    if weather is None:
        result = {"for_llm": f"Weather data not found for city {city}", "is_error": True}
    else:
        result = {"for_llm": f"{city} weather: {weather}", "for_user": f"weather-plugin looked up {city}", "is_error": False}
    return {"action": "respond", "result": result}


HANDLERS = {
    "hook.hello": lambda params: {"ok": True, "name": "weather-plugin"},
    "hook.before_llm": before_llm,
    # llm and tool modes each bring a second method; both pass through.
    "hook.after_llm": lambda params: {"action": "continue"},
    "hook.before_tool": before_tool,
    "hook.after_tool": lambda params: {"action": "continue"},
}


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if "id" not in message:
            continue
        handler = HANDLERS.get(message.get("method"))
        if handler is None:
            send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "method not found"}})
            continue
        send({"jsonrpc": "2.0", "id": message["id"], "result": handler(message.get("params") or {})})


if __name__ == "__main__":
    main()
