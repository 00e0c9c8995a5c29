import type { EvalItem, Forecast } from "../types.js";

/** The last `<answer>…</answer>` of a reply: Sibyl appends it at the end of `content`. */
const ANSWER_TAG = /<answer>([\s\S]*?)<\/answer>/gi;

function lastAnswer(content: string): string | null {
  let last: string | null = null;
  for (const match of content.matchAll(ANSWER_TAG)) last = match[1] ?? null;
  return last === null ? null : last.trim();
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function probability(text: string): number | null {
  const percent = text.endsWith("%");
  const value = Number(percent ? text.slice(0, -1) : text);
  if (!Number.isFinite(value)) return null;
  const fraction = percent ? value / 100 : value;
  return fraction >= 0 && fraction <= 1 ? fraction : null;
}

function choices(text: string, optionCount: number): number[] | null {
  const object = parseObject(text);
  if (object === null) return null;
  const values = Array.from({ length: optionCount }, (_, index) => {
    const value = object[String.fromCharCode(65 + index)];
    return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
  });
  const total = values.reduce((sum, value) => sum + value, 0);
  return total > 0 ? values.map((value) => value / total) : null;
}

function normal(text: string): { mean: number; sd: number } | null {
  const object = parseObject(text);
  if (object === null) return null;
  const mean = object.mean;
  const sd = object.standard_deviation ?? object.sd;
  if (typeof mean !== "number" || !Number.isFinite(mean)) return null;
  if (typeof sd !== "number" || !Number.isFinite(sd) || sd <= 0) return null;
  return { mean, sd };
}

/** The forecast in a reply's answer tag, or null when it has none of the item's kind. */
export function parseAnswer(content: string, item: EvalItem): Forecast | null {
  const answer = lastAnswer(content);
  if (answer === null) return null;
  switch (item.answerType) {
    case "binary": {
      const p = probability(answer);
      return p === null ? null : { type: "binary", probability: p };
    }
    case "multiple_choice": {
      const probabilities = choices(answer, item.options?.length ?? 0);
      return probabilities === null ? null : { type: "multiple_choice", probabilities };
    }
    case "continuous": {
      const parsed = normal(answer);
      return parsed === null ? null : { type: "continuous", ...parsed };
    }
  }
}

/** The reply without its answer tags: what a submission file calls the reasoning. */
export function reasoningOf(content: string): string {
  return content
    .replace(ANSWER_TAG, "")
    .replace(/<options>[\s\S]*?<\/options>/gi, "")
    .trim();
}
