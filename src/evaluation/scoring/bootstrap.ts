/** Percentile bootstrap of a mean, reproducible: the same scores give the same interval. */

export const RESAMPLES = 1000;
export const SEED = 0x5eed;

/** mulberry32: a small, fast, seedable generator; statistical quality is ample for resampling. */
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

export function mean(values: number[]): number | null {
  if (values.length === 0) return null;
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** The 95% interval of the mean of `values`, or null for fewer than two values. */
export function bootstrapInterval(values: number[]): [number, number] | null {
  if (values.length < 2) return null;
  const random = seededRandom(SEED);
  const means = new Float64Array(RESAMPLES);
  for (let resample = 0; resample < RESAMPLES; resample++) {
    let sum = 0;
    for (let draw = 0; draw < values.length; draw++) {
      sum += values[Math.floor(random() * values.length)] ?? 0;
    }
    means[resample] = sum / values.length;
  }
  return percentileInterval(means);
}

/** The 2.5th and 97.5th percentiles of bootstrap replicates (sorted in place). */
export function percentileInterval(replicates: Float64Array): [number, number] {
  replicates.sort();
  const count = replicates.length;
  return [
    replicates[Math.floor(0.025 * count)] ?? 0,
    replicates[Math.ceil(0.975 * count) - 1] ?? 0,
  ];
}
