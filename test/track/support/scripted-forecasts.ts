import type { ProbabilityPair } from "../../../src/evaluation/scoring/calibration.js";

/** A seeded generator (mulberry32): the same forecasts and outcomes on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** A model that pushes the truth away from 0.5: sigmoid(2·logit(p)). */
export const overConfident = (truth: number) => sigmoid(2 * logit(truth));
/** A model that says the truth. */
export const wellCalibrated = (truth: number) => truth;

/**
 * Questions whose outcome is drawn from a known probability (uniform in [0.05, 0.95]), and what
 * a scripted model forecast on each, rounded to the 3 decimals an answer tag carries.
 */
export function scriptedForecasts(
  count: number,
  seed: number,
  model: (truth: number) => number,
): (ProbabilityPair & { truth: number })[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const truth = 0.05 + 0.9 * random();
    const outcome = random() < truth ? 1 : 0;
    return { truth, probability: Math.round(model(truth) * 1000) / 1000, outcome };
  });
}
