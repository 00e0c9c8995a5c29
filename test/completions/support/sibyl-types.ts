import type OpenAI from "openai";

/** Sibyl's usage: OpenAI's, plus the cost fields. */
export interface SibylUsage extends OpenAI.CompletionUsage {
  cost_usd: number;
  inference_cost_usd: number;
  research_cost_usd?: number;
  classification_cost_usd?: number;
}

export function sibylUsage(usage: OpenAI.CompletionUsage | null | undefined): SibylUsage {
  if (!usage) throw new Error("the response carries no usage");
  const withCost = usage as SibylUsage;
  if (typeof withCost.cost_usd !== "number") throw new Error("usage carries no cost_usd");
  return withCost;
}

/** The `thinking` extension of a message or a stream delta. */
export function thinkingOf(carrier: object | null | undefined): unknown {
  if (!carrier || !("thinking" in carrier)) return undefined;
  return carrier.thinking;
}

/** The JSON body the fake upstream received. */
export type UpstreamBody = Record<string, unknown> & {
  model?: string;
  messages?: { role: string; content: string }[];
  prompt?: string | string[];
};

export function upstreamBody(body: unknown): UpstreamBody {
  if (typeof body !== "object" || body === null) throw new Error("upstream body is not JSON");
  return body as UpstreamBody;
}
