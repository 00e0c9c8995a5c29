import type { AnswerType } from "../../forecast/types.js";
import { annotationsOf } from "../annotations.js";
import type { PreparedCompletion } from "../plan.js";
import type { ChatCompletionResponse, Usage } from "../types.js";
import type { EnsembleSpec } from "./request.js";
import { ensembleAnswerType } from "./request.js";
import { ensembleChoice, type SampleReply } from "./result.js";

/** An ensemble's reply: one choice whose answer tag is the aggregate, the samples beside it. */
export function ensembleResponse(
  plan: PreparedCompletion,
  spec: EnsembleSpec,
  answerType: AnswerType,
  samples: readonly SampleReply[],
  usage: Usage,
): ChatCompletionResponse {
  const combined = ensembleChoice(spec, ensembleAnswerType(answerType), samples);
  const annotations = annotationsOf(plan);
  return {
    id: plan.id,
    object: "chat.completion",
    created: plan.created,
    model: plan.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: combined.content,
          thinking: null,
          ...(annotations ? { annotations } : {}),
        },
        finish_reason: combined.finishReason,
      },
    ],
    usage,
    ensemble: combined.ensemble,
  };
}
