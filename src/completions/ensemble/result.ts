import {
  type AggregatableAnswer,
  type AggregatableType,
  aggregateAnswers,
} from "../../forecast/aggregation/aggregate-answers.js";
import type { Aggregate } from "../../forecast/aggregation/combine.js";
import { formatAnswerTag } from "../../forecast/index.js";
import type { AnswerOutcome } from "../forecast-step.js";
import { answerValue, readAnswerTag } from "./answer-tag.js";
import type { EnsembleSpec } from "./request.js";
import type { EnsembleResult, EnsembleSample } from "./schema.js";

/** One sample as the pipeline finished it: the reply, and the tags it appended (if any). */
export interface SampleReply {
  index: number;
  reply: string;
  thinking: string | null;
  finishReason: string | null;
  /** The answer tags appended to the reply; empty when none were. */
  tags: string;
  outcome: AnswerOutcome;
}

/** The one choice an ensemble returns. */
export interface EnsembleChoice {
  content: string;
  finishReason: string | null;
  ensemble: EnsembleResult;
}

const AGGREGATE_NAMES: Record<Aggregate, string> = {
  median: "Median",
  mean: "Mean",
  logit_mean: "Mean in log-odds",
  trimmed_mean: "Trimmed mean",
};

/**
 * Combines the samples' answers into the choice's answer tag. Samples without a readable answer,
 * and those whose call failed (absent from `replies`), are left out and counted; with none left
 * there is no tag, and `status` says why.
 */
export function ensembleChoice(
  spec: EnsembleSpec,
  type: AggregatableType,
  replies: readonly SampleReply[],
): EnsembleChoice {
  const read = replies.map((reply) => ({
    reply,
    answer: reply.outcome === "failed" ? null : readAnswerTag(type, reply.tags),
  }));
  const answers = read.flatMap(({ answer }) => (answer ? [answer] : []));
  const aggregated = aggregateAnswers(type, answers, spec.aggregate);
  const tag = aggregated ? formatAnswerTag(aggregated) : null;
  // The reported aggregate is what the tag states, rounded and clamped as tags are.
  const stated = tag ? readAnswerTag(type, tag) : null;
  const samples = read.map(({ reply, answer }) => sampleOf(reply, answer));
  const unanswered = spec.samples - answers.length;
  const failed = spec.samples - replies.length;
  const gaps = [
    ...(replies.length > answers.length
      ? [`${replies.length - answers.length} without a readable answer`]
      : []),
    ...(failed > 0 ? [`${failed} with no reply from the model`] : []),
  ];
  const summary = stated
    ? `${AGGREGATE_NAMES[spec.aggregate]} of ${answers.length} answer${answers.length === 1 ? "" : "s"} from ${spec.samples} samples${gaps.length > 0 ? ` (${gaps.join(", ")})` : ""}.`
    : `None of the ${spec.samples} samples gave a readable answer, so there is no aggregate.`;
  return {
    content: tag ? `${summary}\n\n${tag}` : summary,
    finishReason: stated ? "stop" : (replies[0]?.finishReason ?? null),
    ensemble: {
      aggregate: spec.aggregate,
      answer_type: type,
      status: stated ? "aggregated" : "no_answers",
      aggregated_answer: stated ? answerValue(stated) : null,
      samples_requested: spec.samples,
      samples_answered: answers.length,
      samples_unanswered: unanswered,
      samples_failed: failed,
      samples,
    },
  };
}

function sampleOf(reply: SampleReply, answer: AggregatableAnswer | null): EnsembleSample {
  return {
    index: reply.index,
    content: reply.reply,
    thinking: reply.thinking,
    finish_reason: reply.finishReason,
    answer: answer ? answerValue(answer) : null,
    answer_status: answer ? reply.outcome : "failed",
  };
}
