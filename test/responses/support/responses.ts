import type OpenAI from "openai";

/** Sibyl's Responses usage: OpenAI's, plus the cost fields. */
export interface SibylResponseUsage extends OpenAI.Responses.ResponseUsage {
  cost_usd: number;
  inference_cost_usd: number;
  research_cost_usd?: number;
  classification_cost_usd?: number;
}

export function responseUsage(
  usage: OpenAI.Responses.ResponseUsage | null | undefined,
): SibylResponseUsage {
  if (!usage) throw new Error("the response carries no usage");
  const withCost = usage as SibylResponseUsage;
  if (typeof withCost.cost_usd !== "number") throw new Error("usage carries no cost_usd");
  return withCost;
}

export type Json = Record<string, unknown>;

/** A parsed server-sent event: its `event:` name and its JSON `data:`. */
export interface NamedEvent {
  event: string;
  data: Json;
}

/** The events of a complete Responses stream body; fails on anything but `event:` + `data:`. */
export function namedEvents(text: string): NamedEvent[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const match = /^event: (\S+)\ndata: (.*)$/s.exec(block);
      if (!match?.[1] || match[2] === undefined) throw new Error(`not a named SSE event: ${block}`);
      return { event: match[1], data: JSON.parse(match[2]) as Json };
    });
}

/** The response object a lifecycle event (response.created, .completed, …) carries. */
export function responseOf(event: NamedEvent | undefined): Json & { output: Json[]; usage: Json } {
  const response = event?.data.response;
  if (typeof response !== "object" || response === null) {
    throw new Error(`no response in ${JSON.stringify(event)}`);
  }
  return response as Json & { output: Json[]; usage: Json };
}
