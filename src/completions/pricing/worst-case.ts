import type { CatalogueEntry } from "../../models/catalogue.js";
import { REPAIR_INSTRUCTION_TOKENS, REPAIR_MAX_TOKENS } from "../repair-limits.js";
import { inferenceCostNanos, scaleCost } from "./token-cost.js";

/** What a request's hold depends on, but for the completion tokens each choice may generate. */
export interface WorstCase {
  price: CatalogueEntry["price"];
  /** An ensemble sends the whole prompt once per sample. */
  samples: number;
  promptTokens: number;
  choiceCount: number;
  /** Whether a repair call per choice may follow (a forecast request). */
  repairs: boolean;
  classificationNanos: number;
  multiplier: number;
  researchFeesNanos: number;
}

/** The hold of a request whose choices may each generate `maxTokens` completion tokens. */
export function worstCaseNanos(worst: WorstCase, maxTokens: number): number {
  const { price, choiceCount, promptTokens } = worst;
  const inference = inferenceCostNanos(price, {
    promptTokens: worst.samples * promptTokens,
    completionTokens: choiceCount * maxTokens,
  });
  // A repair call per choice re-sends the prompt and the reply and asks for a short answer.
  const repairs = worst.repairs
    ? inferenceCostNanos(price, {
        promptTokens: choiceCount * (promptTokens + maxTokens + REPAIR_INSTRUCTION_TOKENS),
        completionTokens: choiceCount * REPAIR_MAX_TOKENS,
      })
    : 0;
  return (
    scaleCost(inference + repairs + worst.classificationNanos, worst.multiplier) +
    worst.researchFeesNanos
  );
}

/** What the sources a request asks may charge if all of them answer: each scaled on its own. */
export function researchFeesNanos(sourceCostsNanos: number[], multiplier: number): number {
  return sourceCostsNanos.reduce((sum, nanos) => sum + scaleCost(nanos, multiplier), 0);
}
