// The rules the real provider APIs enforce on a request's conversation, checked on the bodies the
// mock LLM records: a request that breaks one is refused whole (HTTP 400) by the real API, and so
// is every later turn of a session that carries it. Rule: each function returns every violation
// as a sentence naming the message, [] for a request the provider accepts.

type Json = any;

/** Anthropic Messages: tool_use answered by tool_result in the very next user message, and nothing else. */
export function anthropicViolations(body: Json): string[] {
  const problems: string[] = [];
  const messages: Json[] = body?.messages ?? [];
  if (messages.length === 0) problems.push("messages is empty");
  if (messages[0] && messages[0].role !== "user") problems.push(`messages[0] has role ${messages[0].role}; the first message must be the user's`);
  const seenToolUse = new Set<string>();
  messages.forEach((message, i) => {
    const blocks: Json[] = typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content ?? []);
    if (message.role !== "user" && message.role !== "assistant") problems.push(`messages[${i}] has role ${message.role}`);
    const last = i === messages.length - 1 && message.role === "assistant";
    if (blocks.length === 0 && !last) problems.push(`messages[${i}] has no content`);
    const uses = blocks.filter((b) => b.type === "tool_use").map((b) => b.id as string);
    for (const id of uses) {
      if (seenToolUse.has(id)) problems.push(`messages[${i}]: tool_use id ${id} is used twice`);
      seenToolUse.add(id);
    }
    if (message.role === "assistant" && uses.length > 0) {
      const next = messages[i + 1];
      const answers = new Set(next?.role === "user" && Array.isArray(next.content) ? next.content.filter((b: Json) => b.type === "tool_result").map((b: Json) => b.tool_use_id) : []);
      for (const id of uses) {
        if (!answers.has(id)) problems.push(`messages[${i}]: tool_use ${id} has no tool_result in the message right after it`);
      }
    }
    const results = blocks.filter((b) => b.type === "tool_result");
    if (results.length > 0) {
      if (message.role !== "user") problems.push(`messages[${i}]: tool_result in a ${message.role} message`);
      const before = messages[i - 1];
      const calls = new Set(before?.role === "assistant" && Array.isArray(before.content) ? before.content.filter((b: Json) => b.type === "tool_use").map((b: Json) => b.id) : []);
      const ids = new Set<string>();
      for (const result of results) {
        if (!calls.has(result.tool_use_id)) problems.push(`messages[${i}]: tool_result ${result.tool_use_id} answers no tool_use of the message before it`);
        if (ids.has(result.tool_use_id)) problems.push(`messages[${i}]: two tool_results for ${result.tool_use_id}`);
        ids.add(result.tool_use_id);
      }
      const firstOther = blocks.findIndex((b) => b.type !== "tool_result");
      if (firstOther !== -1 && blocks.slice(firstOther).some((b) => b.type === "tool_result")) {
        problems.push(`messages[${i}]: tool_result blocks must come before any other content`);
      }
    }
  });
  return problems;
}

/** OpenAI Chat Completions: an assistant's tool_calls answered by the tool messages right after it, and only those. */
export function openaiChatViolations(body: Json): string[] {
  const problems: string[] = [];
  const messages: Json[] = body?.messages ?? [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (message.role === "tool") {
      problems.push(`messages[${i}]: a tool message (${message.tool_call_id}) that follows no assistant message with tool_calls`);
      continue;
    }
    if (message.role !== "assistant" || !message.tool_calls?.length) continue;
    const open = new Set<string>(message.tool_calls.map((c: Json) => c.id));
    while (messages[i + 1]?.role === "tool") {
      i++;
      const id = messages[i].tool_call_id;
      if (!open.has(id)) problems.push(`messages[${i}]: tool message for ${id}, which the assistant message before did not call (or was answered already)`);
      open.delete(id);
    }
    for (const id of open) problems.push(`messages[${i}]: tool_call ${id} has no tool message after it`);
  }
  return problems;
}

/** OpenAI Responses: every function_call has one function_call_output, and every output a call before it. */
export function openaiResponsesViolations(body: Json): string[] {
  const problems: string[] = [];
  const items: Json[] = Array.isArray(body?.input) ? body.input : [];
  const calls = new Set<string>();
  const answered = new Set<string>();
  items.forEach((item, i) => {
    if (item.type === "function_call") {
      if (calls.has(item.call_id)) problems.push(`input[${i}]: function_call ${item.call_id} twice`);
      calls.add(item.call_id);
    } else if (item.type === "function_call_output") {
      if (!calls.has(item.call_id)) problems.push(`input[${i}]: function_call_output for ${item.call_id}, which no function_call before it made`);
      if (answered.has(item.call_id)) problems.push(`input[${i}]: a second function_call_output for ${item.call_id}`);
      answered.add(item.call_id);
    }
  });
  for (const id of calls) if (!answered.has(id)) problems.push(`function_call ${id} has no function_call_output`);
  return problems;
}

/** The violations of a recorded request, by the API its path names. */
export function requestViolations(request: { path: string; body: Json }): string[] {
  if (request.path === "/v1/messages") return anthropicViolations(request.body);
  if (request.path === "/v1/chat/completions") return openaiChatViolations(request.body);
  if (request.path === "/v1/responses") return openaiResponsesViolations(request.body);
  return [`unknown API ${request.path}`];
}
