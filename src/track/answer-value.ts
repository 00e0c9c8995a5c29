import { answerValue, readAnswerTag } from "../completions/ensemble/answer-tag.js";
import { isAggregatable } from "../forecast/aggregation/aggregate-answers.js";
import { formatAnswerTag } from "../forecast/format.js";
import type { AnswerType } from "../forecast/types.js";

/** A forecast as recorded: a probability, an option distribution, a normal, a value or text. */
export type RecordedAnswer =
  | number
  | Record<string, number>
  | { mean: number; standard_deviation: number }
  | string;

const FREE_TEXT_TAG = /<answer>([\s\S]*)<\/answer>\s*$/;

/**
 * The answer a reply's answer tag states, as the pipeline appended it; null when the reply has
 * none (the answer could not be read). Tags are Sibyl's own, so reading them back is exact.
 */
export function recordedAnswer(type: AnswerType, content: string): RecordedAnswer | null {
  if (isAggregatable(type)) {
    const answer = readAnswerTag(type, content);
    return answer ? answerValue(answer) : null;
  }
  return FREE_TEXT_TAG.exec(content)?.[1] ?? null;
}

/**
 * The model's own answer before a calibration map, as its tag would have stated it: recorded
 * the way `recordedAnswer` records what was returned (4 decimals per option, a probability as
 * given), so that it equals what the track record would hold had no map been applied.
 */
export function recordedRawAnswer(
  type: AnswerType,
  raw: number | Record<string, number>,
): RecordedAnswer | null {
  const tag = formatAnswerTag(
    typeof raw === "number"
      ? { type: "binary", probability: raw }
      : { type: "multiple_choice", probabilities: raw },
  );
  return recordedAnswer(type, tag);
}
