// Which Claude models take a thinking budget and which think adaptively, by id (dated snapshots
// and future versions included): a budget sent to an adaptive model is a 400 on every request.
import { expect, test } from "bun:test";
import { claudeThinking } from "../../src/providers/claude-thinking.ts";

test("budget for the older models, adaptive from Opus 4.7 and every 5.x model and Fable; binding from 5.5 (Fable 5.1)", () => {
  const style = (id: string) => {
    const t = claudeThinking(id);
    return `${t.style}${t.unasked ? " unasked" : ""}${t.bindsBlocks ? " binds" : ""}`;
  };
  expect(
    Object.fromEntries(
      [
        "claude-3-7-sonnet-20250219",
        "claude-sonnet-4-5",
        "claude-sonnet-4-6",
        "claude-opus-4-6",
        "claude-opus-4-7",
        "claude-opus-4-8-20260528",
        "claude-sonnet-5",
        "claude-opus-5",
        "claude-fable-5",
        "claude-fable-5-1",
        "claude-sonnet-5-5",
        "claude-haiku-5-5",
        "claude-mythos-5-2",
        "claude-sonnet-6",
        "claude-future-9",
        "anthropic/claude-sonnet-5-5",
        "us.anthropic.claude-opus-4-7-v1:0",
        "claude-opus-4-7@20260416",
        "anthropic/claude-opus-4.7",
        "anthropic/claude-sonnet-5.5",
        "claude-opus-4-20250514",
        "claude-sonnet-4-5-20250929",
      ].map((id) => [id, style(id)]),
    ),
  ).toEqual({
    "claude-3-7-sonnet-20250219": "budget",
    "claude-sonnet-4-5": "budget",
    "claude-sonnet-4-6": "budget",
    "claude-opus-4-6": "budget",
    "claude-opus-4-7": "adaptive",
    "claude-opus-4-8-20260528": "adaptive",
    "claude-sonnet-5": "adaptive unasked",
    "claude-opus-5": "adaptive unasked",
    "claude-fable-5": "adaptive unasked",
    "claude-fable-5-1": "adaptive unasked binds",
    "claude-sonnet-5-5": "adaptive unasked binds",
    "claude-haiku-5-5": "adaptive unasked binds",
    "claude-mythos-5-2": "adaptive unasked binds",
    "claude-sonnet-6": "adaptive unasked binds",
    "claude-future-9": "budget",
    // As proxies, Bedrock and Vertex name them.
    "anthropic/claude-sonnet-5-5": "adaptive unasked binds",
    "us.anthropic.claude-opus-4-7-v1:0": "adaptive",
    "claude-opus-4-7@20260416": "adaptive",
    // OpenRouter's spelling: the minor after a dot.
    "anthropic/claude-opus-4.7": "adaptive",
    "anthropic/claude-sonnet-5.5": "adaptive unasked binds",
    "claude-opus-4-20250514": "budget",
    "claude-sonnet-4-5-20250929": "budget",
  });
});
