/**
 * Proper scoring rules. Brier scores and CRPS: lower is better. Log scores are the natural log of
 * the probability (density) given to what happened: higher is better, 0 at best.
 */

/**
 * Inside log scores only, probabilities are kept within [ε, 1 − ε] so that one certain miss
 * scores ln ε ≈ −6.91 rather than −∞. Every other score uses the forecast as the model gave it.
 */
export const LOG_EPSILON = 0.001;

const clampProbability = (p: number): number => Math.min(1 - LOG_EPSILON, Math.max(LOG_EPSILON, p));

/** `outcome` is 1 or 0, or a market's price for a question still open. */
export function brierScore(probability: number, outcome: number): number {
  return (probability - outcome) ** 2;
}

export function binaryLogScore(probability: number, outcome: number): number {
  const p = clampProbability(probability);
  return outcome * Math.log(p) + (1 - outcome) * Math.log(1 - p);
}

/** Sum over options of the squared error: 0 (certain and right) to 2 (certain and wrong). */
export function multiclassBrierScore(probabilities: number[], outcomeIndex: number): number {
  return probabilities.reduce(
    (sum, p, index) => sum + (p - (index === outcomeIndex ? 1 : 0)) ** 2,
    0,
  );
}

export function multiclassLogScore(probabilities: number[], outcomeIndex: number): number {
  return Math.log(Math.max(LOG_EPSILON, probabilities[outcomeIndex] ?? 0));
}

/** CRPS of a normal forecast N(mean, sd²) against the value that happened (Gneiting et al. 2005). */
export function normalCrps(mean: number, sd: number, value: number): number {
  const z = (value - mean) / sd;
  return sd * (z * (2 * normalCdf(z) - 1) + 2 * normalPdf(z) - 1 / Math.sqrt(Math.PI));
}

/** Log density of the value under N(mean, sd²). */
export function gaussianLogScore(mean: number, sd: number, value: number): number {
  const z = (value - mean) / sd;
  return -0.5 * Math.log(2 * Math.PI) - Math.log(sd) - 0.5 * z * z;
}

export function normalPdf(z: number): number {
  return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
}

export function normalCdf(z: number): number {
  return 0.5 * (1 + erf(z / Math.SQRT2));
}

/** Through the Chebyshev fit of erfc in Numerical Recipes (`erfcc`): fractional error < 1.2e-7. */
function erf(x: number): number {
  const t = 1 / (1 + 0.5 * Math.abs(x));
  const y =
    1 -
    t *
      Math.exp(
        -x * x -
          1.26551223 +
          t *
            (1.00002368 +
              t *
                (0.37409196 +
                  t *
                    (0.09678418 +
                      t *
                        (-0.18628806 +
                          t *
                            (0.27886807 +
                              t *
                                (-1.13520398 +
                                  t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
      );
  return x >= 0 ? y : -y;
}
