// OLLAMA_HOST read as the ollama CLI reads it: a bare host gets port 11434, `:port` is 127.0.0.1,
// a URL keeps its scheme's port; a path is kept. Before, `0.0.0.0` (how people make ollama listen
// everywhere) went to port 80, and `:11434` was an invalid URL.
import { expect, test } from "bun:test";
import { ollamaHostUrl } from "../../src/config/provider-env.ts";

test("every form the ollama CLI takes", () => {
  const forms: [string, string][] = [
    ["0.0.0.0", "http://0.0.0.0:11434"],
    ["localhost", "http://localhost:11434"],
    [":11434", "http://127.0.0.1:11434"],
    ["127.0.0.1:8080", "http://127.0.0.1:8080"],
    ["gpu-box:1234/prefix", "http://gpu-box:1234/prefix"],
    ["[::1]", "http://[::1]:11434"],
    ["[::1]:9", "http://[::1]:9"],
    ["http://gpu-box", "http://gpu-box"],
    ["https://ollama.example", "https://ollama.example"],
    ["http://gpu-box:8080/x", "http://gpu-box:8080/x"],
  ];
  for (const [value, url] of forms) expect([value, ollamaHostUrl(value)]).toEqual([value, url]);
});
