import type { EvalItem } from "../types.js";

/** Sibyl's cap on `n`; larger ensembles would need repeated lines. */
export const MAX_SAMPLES = 64;
/** The batch API's cap on lines per input file. */
export const MAX_BATCH_LINES = 50_000;

export interface LineOptions {
  research: boolean;
  samples: number;
}

/**
 * A model's batch input: one chat request per item, each carrying the as-of date
 * (`prediction_date`) and the `answer_type`; samples ride as `n` on the same line.
 */
export function batchInput(items: EvalItem[], model: string, options: LineOptions): string {
  return items
    .map((item) =>
      JSON.stringify({
        custom_id: item.key,
        method: "POST",
        url: "/v1/chat/completions",
        body: {
          model,
          messages: [{ role: "user", content: item.prompt }],
          answer_type: item.answerType,
          prediction_date: item.predictionDate,
          ...(options.research ? { research: true } : {}),
          ...(options.samples > 1 ? { n: options.samples } : {}),
        },
      }),
    )
    .join("\n")
    .concat("\n");
}
