import type { AnswerType } from "../../forecast/types.js";
import { annotationsOf } from "../annotations.js";
import { openAIFinishReason } from "../finish-reason.js";
import type { PreparedCompletion } from "../plan.js";
import { researchReport } from "../research-report.js";
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
  const annotations = annotationsOf(plan, combined.content);
  const research = researchReport(plan);
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
          refusal: null,
          thinking: null,
          ...(annotations ? { annotations } : {}),
        },
        logprobs: null,
        finish_reason: openAIFinishReason(combined.finishReason, "chat"),
      },
    ],
    usage,
    ensemble: combined.ensemble,
    ...(research ? { research } : {}),
  };
}
