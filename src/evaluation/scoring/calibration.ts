/** A binary forecast and what happened (1, 0, or a market price in between). */
export interface ProbabilityPair {
  probability: number;
  outcome: number;
}

export interface ReliabilityBin {
  /** The bin's range of forecast probabilities, [lower, upper). */
  lower: number;
  upper: number;
  n: number;
  meanForecast: number;
  observedFrequency: number;
}

/** Equal-width bins over [0, 1]; empty bins are left out. The last bin includes 1. */
export function reliabilityBins(pairs: ProbabilityPair[], binCount = 10): ReliabilityBin[] {
  const sums = Array.from({ length: binCount }, () => ({ n: 0, forecast: 0, outcome: 0 }));
  for (const { probability, outcome } of pairs) {
    const index = Math.min(binCount - 1, Math.max(0, Math.floor(probability * binCount)));
    const bin = sums[index];
    if (bin === undefined) continue;
    bin.n += 1;
    bin.forecast += probability;
    bin.outcome += outcome;
  }
  return sums.flatMap((bin, index) =>
    bin.n === 0
      ? []
      : [
          {
            lower: index / binCount,
            upper: (index + 1) / binCount,
            n: bin.n,
            meanForecast: bin.forecast / bin.n,
            observedFrequency: bin.outcome / bin.n,
          },
        ],
  );
}

/** Expected calibration error: the bins' |forecast − frequency| weighted by their share. */
export function expectedCalibrationError(pairs: ProbabilityPair[], binCount = 10): number | null {
  if (pairs.length === 0) return null;
  return reliabilityBins(pairs, binCount).reduce(
    (sum, bin) => sum + (bin.n / pairs.length) * Math.abs(bin.meanForecast - bin.observedFrequency),
    0,
  );
}
