import { aggregateForecasts } from "../aggregate.js";
import type { Aggregate, EvalItem, Forecast } from "../types.js";
import { parseAnswer, reasoningOf } from "./answers.js";
import { type ReplyReading, replyReading } from "./first-reply.js";
import type { Citation, ModelReply } from "./replies.js";

/** What one model answered for one item. */
export interface ForecastRecord {
  item: EvalItem;
  model: string;
  /** Samples asked for (`n`) and those whose answer could be read. */
  asked: number;
  samples: Forecast[];
  /** How each reply's answer was had, in reply order (absent: not known). */
  readings?: ReplyReading[];
  /** The samples' aggregate; null when none could be read. */
  forecast: Forecast | null;
  reasoning: string | null;
  thinking: string | null;
  citations: Citation[];
  costUsd: number;
  error: string | null;
  /** The reply's HTTP status; null when the line never ran or has no result. */
  statusCode: number | null;
}

export function buildRecords(
  items: EvalItem[],
  replies: Map<string, ModelReply>,
  model: string,
  samples: number,
  aggregate: Aggregate,
): ForecastRecord[] {
  return items.map((item) => {
    const reply = replies.get(item.key);
    const answers = (reply?.contents ?? []).map((content) => {
      const forecast = parseAnswer(content, item);
      return { forecast, reading: replyReading(item, content, forecast !== null) };
    });
    const parsed = answers.flatMap(({ forecast }) => (forecast === null ? [] : [forecast]));
    const first = reply?.contents[0];
    return {
      item,
      model,
      asked: samples,
      samples: parsed,
      readings: answers.map(({ reading }) => reading),
      forecast: aggregateForecasts(parsed, aggregate),
      reasoning: first === undefined ? null : reasoningOf(first),
      thinking: reply?.thinking ?? null,
      citations: reply?.citations ?? [],
      costUsd: reply?.costUsd ?? 0,
      error: reply === undefined ? "no result for this request" : reply.error,
      statusCode: reply?.statusCode ?? null,
    };
  });
}
