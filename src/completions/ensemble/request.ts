import { invalidRequest } from "../../errors.js";
import {
  type AggregatableType,
  isAggregatable,
} from "../../forecast/aggregation/aggregate-answers.js";
import type { Aggregate } from "../../forecast/aggregation/combine.js";
import type { AnswerType } from "../../forecast/types.js";
import type { EnsembleOptionsBody } from "./schema.js";

/** An ensemble the request asks for, its rules checked. */
export interface EnsembleSpec {
  samples: number;
  aggregate: Aggregate;
}

interface EnsembleFields {
  ensemble?: EnsembleOptionsBody | null;
  answer_type?: string | null;
  n?: number | null;
}

/** Reads `ensemble` from a chat request; a request it cannot serve is a 400 naming the field. */
export function ensembleRequest(body: EnsembleFields): EnsembleSpec | null {
  const options = body.ensemble;
  if (!options) return null;
  if (!body.answer_type) {
    throw invalidRequest(
      "ensemble needs an answer_type (binary, multiple_choice, continuous, continuous_value_only or auto): the samples' answers are what is combined.",
      "ensemble_answer_type_required",
      "answer_type",
    );
  }
  const requested = body.answer_type.toLowerCase();
  if (requested !== "auto" && !isAggregatable(requested)) {
    throw unaggregatable(requested);
  }
  if ((body.n ?? 1) > 1) {
    throw invalidRequest(
      "ensemble returns one choice holding the aggregate of its samples; leave n at 1 and set ensemble.samples instead.",
      "ensemble_with_n",
      "n",
    );
  }
  return { samples: options.samples, aggregate: options.aggregate ?? "median" };
}

/** An `auto` question classified as free text cannot be combined: the hold is then released. */
export function ensembleAnswerType(type: AnswerType): AggregatableType {
  if (!isAggregatable(type)) throw unaggregatable(type);
  return type;
}

/** Streaming would send one sample's text while the answer is the aggregate of all of them. */
export function ensembleStreamUnsupported() {
  return invalidRequest(
    "ensemble replies cannot be streamed: the answer is known only once every sample is in. Send the request without stream.",
    "ensemble_stream_unsupported",
    "stream",
  );
}

function unaggregatable(type: string) {
  return invalidRequest(
    `ensemble cannot combine ${type} answers: only numeric answers (binary, multiple_choice, continuous, continuous_value_only) can be aggregated.`,
    "ensemble_answer_type_unsupported",
    "answer_type",
  );
}
