// The reasoning effort an OpenAI model is sent for zot's level. Rule: OpenAI's models take low,
// medium and high (some more, each its own set), so xhigh and max are sent as high: a value a
// model does not take is a 400 on every request, where high is taken by every reasoning model.
import type { ReasoningLevel } from "../protocol/models.ts";

export type OpenAIEffort = "low" | "medium" | "high";

export function openaiEffort(level: ReasoningLevel): OpenAIEffort {
  return level === "xhigh" || level === "max" ? "high" : level;
}
