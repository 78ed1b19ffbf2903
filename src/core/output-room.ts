// How much output a model call may ask for: the model's max output (or a hook's), but never more
// than the model's window leaves over what the request already holds. A server that serves a model
// with a small window (vLLM's --max-model-len, SGLang, TGI, llama.cpp's -c) refuses a request whose
// prompt plus max_tokens exceed it, so asking for a whole 8K window as output refuses every request.
// Rule: only a window the user gave (models.json's contextWindow, for such a server) caps the
// output: the catalog's windows are not all prompt and output together (OpenAI's are the input's
// alone), and a guessed one (an ollama model models.json does not list) would cut answers the
// server has room for; a server that refuses names its window, and the call is asked again for
// what fits (model-call.ts). The prompt is estimated on the high side (the calibrated estimate, an
// eighth more, and a chat template's tokens); the room never falls below MIN_OUTPUT_ROOM, since a
// conversation that leaves less is too long, and the server's refusal of it (an overflow) is what compacts it.
import type { ModelRequest } from "../protocol/provider.ts";
import { estimateContextTokens } from "./compact.ts";

/** The least output a call asks for, however full the window: a shorter answer is no answer. */
export const MIN_OUTPUT_ROOM = 1024;
/** What a server's chat template adds around the messages (role markers, the tools' preamble). */
const TEMPLATE_TOKENS = 256;

/**
 * The request with its `outputRoom` set where the window leaves less than the output it asks for
 * (or a room set already, when smaller); the request as it is otherwise. `scale`: the provider's tokens per estimated token (ContextCount.scale).
 */
export function withOutputRoom(request: ModelRequest, scale: number): ModelRequest {
  const { model } = request;
  const asked = request.maxTokens ?? model.max_output;
  if (model.source !== "user" || !(model.context_window > 0)) return request;
  const prompt = Math.ceil(estimateContextTokens(request.system, request.messages, request.tools) * scale);
  const estimated = Math.max(MIN_OUTPUT_ROOM, model.context_window - prompt - Math.ceil(prompt / 8) - TEMPLATE_TOKENS);
  // A room already set (what a server's own count left) is kept where it is smaller.
  const room = Math.min(estimated, request.outputRoom ?? estimated);
  return asked > room && room !== request.outputRoom ? { ...request, outputRoom: room } : request;
}
