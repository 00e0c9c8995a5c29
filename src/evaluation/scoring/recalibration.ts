/**
 * Recalibration maps for binary probabilities, fitted on forecasts and their outcomes:
 * logistic recalibration in logit space (Platt scaling of the model's own logit) and isotonic
 * regression (pool adjacent violators). Cross-validation on deterministic folds picks the map
 * and says what it does out of sample.
 */
import type { ProbabilityPair } from "./calibration.js";
import { brierScore } from "./rules.js";

/** Probabilities are held within [ε, 1 − ε]: a logit stays finite and a mapped forecast in (0, 1). */
export const MAP_EPSILON = 0.001;

export type CalibrationMap =
  | { method: "logistic"; a: number; b: number }
  | {
      method: "isotonic";
      /** Increasing forecast probabilities and the calibrated value at each; linear between. */
      x: number[];
      y: number[];
    };

export type CalibrationMethod = CalibrationMap["method"];

/**
 * A forecast and its outcome; `group` names its question. Forecasts of one question (asked again,
 * or once per resolution date) share much of their error: they stay in one fold, and count as
 * one cluster in the standard error, so that the fit is not judged on rows it has half seen.
 */
export type CalibrationPair = ProbabilityPair & { group?: string };

/** Fewest resolved forecasts a map is fitted on: five folds of six. */
export const MIN_FIT_FORECASTS = 30;
/** Isotonic regression has a step per block: below this count it fits noise. */
export const MIN_ISOTONIC_FORECASTS = 100;
export const FOLDS = 5;

/** Pulls the fit towards the identity map (a = 0, b = 1): finite on separable data. */
const RIDGE = 0.1;
const NEWTON_STEPS = 100;

const clamp = (p: number) => Math.min(1 - MAP_EPSILON, Math.max(MAP_EPSILON, p));
const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The map's parameters as stored and reported. */
export function mapParameters(map: CalibrationMap): Record<string, number | number[]> {
  return map.method === "logistic" ? { a: map.a, b: map.b } : { x: map.x, y: map.y };
}

export function applyMap(map: CalibrationMap, probability: number): number {
  const p = clamp(probability);
  if (map.method === "logistic") return clamp(sigmoid(map.a + map.b * logit(p)));
  return clamp(interpolate(map.x, map.y, p));
}

/**
 * Fits logit(p') = a + b·logit(p) by maximum likelihood with a small ridge towards the identity,
 * by Newton's method with step halving. b is kept ≥ 0: the map never reverses the order of
 * forecasts (a model worse than chance gets a constant instead).
 */
export function fitLogistic(pairs: ProbabilityPair[]): CalibrationMap {
  const xs = pairs.map((pair) => logit(clamp(pair.probability)));
  const ys = pairs.map((pair) => pair.outcome);
  let a = 0;
  let b = 1;
  const loss = (a: number, b: number) =>
    xs.reduce((sum, x, i) => {
      const z = a + b * x;
      // log(1 + e^z) − y·z, written to stay finite for large |z|.
      const softplus = z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
      return sum + softplus - (ys[i] ?? 0) * z;
    }, 0) +
    (RIDGE / 2) * (a * a + (b - 1) ** 2);
  for (let step = 0; step < NEWTON_STEPS; step++) {
    let ga = RIDGE * a;
    let gb = RIDGE * (b - 1);
    let haa = RIDGE;
    let hab = 0;
    let hbb = RIDGE;
    xs.forEach((x, i) => {
      const q = sigmoid(a + b * x);
      const r = q - (ys[i] ?? 0);
      const w = q * (1 - q);
      ga += r;
      gb += r * x;
      haa += w;
      hab += w * x;
      hbb += w * x * x;
    });
    const det = haa * hbb - hab * hab;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    const before = loss(a, b);
    let t = 1;
    while (t > 1e-8 && loss(a - t * da, b - t * db) > before) t /= 2;
    a -= t * da;
    b -= t * db;
    if (Math.abs(t * da) + Math.abs(t * db) < 1e-10) break;
  }
  if (b < 0) return { method: "logistic", a: fitIntercept(xs, ys), b: 0 };
  return { method: "logistic", a, b };
}

/** The ridge-held intercept alone (b = 0): a constant forecast near the base rate. */
function fitIntercept(xs: number[], ys: number[]): number {
  let a = 0;
  for (let step = 0; step < NEWTON_STEPS; step++) {
    const q = sigmoid(a);
    const gradient = xs.length * q - ys.reduce((sum, y) => sum + y, 0) + RIDGE * a;
    const delta = gradient / (xs.length * q * (1 - q) + RIDGE);
    a -= delta;
    if (Math.abs(delta) < 1e-12) break;
  }
  return a;
}

/**
 * Isotonic regression by pool adjacent violators: the non-decreasing step function of the
 * forecast closest (least squares) to the outcomes. Forecasts of one probability start as one
 * block: models repeat round numbers (0.5, 0.7), and tied forecasts kept apart became blocks at
 * the same x, of which the map applied the last (the highest) to all. Each block is kept as its
 * mean forecast and mean outcome, and the map interpolates linearly between blocks.
 */
export function fitIsotonic(pairs: ProbabilityPair[]): CalibrationMap {
  const blocks: Block[] = [];
  for (const tie of tiedBlocks(pairs)) {
    blocks.push(tie);
    while (blocks.length > 1) {
      const last = blocks[blocks.length - 1];
      const previous = blocks[blocks.length - 2];
      if (!last || !previous || previous.y < last.y) break;
      blocks.pop();
      const n = previous.n + last.n;
      previous.x = (previous.x * previous.n + last.x * last.n) / n;
      previous.y = (previous.y * previous.n + last.y * last.n) / n;
      previous.n = n;
    }
  }
  return { method: "isotonic", x: blocks.map((b) => b.x), y: blocks.map((b) => clamp(b.y)) };
}

interface Block {
  x: number;
  y: number;
  n: number;
}

/** One block per distinct (clamped) forecast, with its mean outcome, in increasing order. */
function tiedBlocks(pairs: ProbabilityPair[]): Block[] {
  const byForecast = new Map<number, Block>();
  for (const pair of pairs) {
    const x = clamp(pair.probability);
    const block = byForecast.get(x) ?? { x, y: 0, n: 0 };
    block.y = (block.y * block.n + pair.outcome) / (block.n + 1);
    block.n += 1;
    byForecast.set(x, block);
  }
  return [...byForecast.values()].sort((a, b) => a.x - b.x);
}

function interpolate(xs: number[], ys: number[], p: number): number {
  const last = xs.length - 1;
  if (last < 0) return p;
  if (p <= (xs[0] ?? 0)) return ys[0] ?? p;
  if (p >= (xs[last] ?? 1)) return ys[last] ?? p;
  let low = 0;
  let high = last;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if ((xs[middle] ?? 0) <= p) low = middle;
    else high = middle;
  }
  const x0 = xs[low] ?? 0;
  const x1 = xs[high] ?? 1;
  const y0 = ys[low] ?? 0;
  const y1 = ys[high] ?? 1;
  return x1 === x0 ? y1 : y0 + ((y1 - y0) * (p - x0)) / (x1 - x0);
}

export function fitMap(method: CalibrationMethod, pairs: ProbabilityPair[]): CalibrationMap {
  return method === "logistic" ? fitLogistic(pairs) : fitIsotonic(pairs);
}

export const meanBrier = (pairs: ProbabilityPair[], forecast = (p: number) => p): number =>
  pairs.reduce((sum, pair) => sum + brierScore(forecast(pair.probability), pair.outcome), 0) /
  pairs.length;

/**
 * Each pair's fold: its group's (by order of first appearance; a pair without a group is its
 * own) modulo k. Deterministic: the same pairs in the same order get the same folds.
 */
function foldsOf(pairs: CalibrationPair[], folds: number): number[] {
  const groupIndex = new Map<string, number>();
  return pairs.map((pair, index) => {
    const key = pair.group ?? `#${index}`;
    let found = groupIndex.get(key);
    if (found === undefined) {
      found = groupIndex.size;
      groupIndex.set(key, found);
    }
    return found % folds;
  });
}

/** Each pair's Brier score out of sample: its fold forecast by the map fitted on the others. */
export function crossValidatedScores(
  method: CalibrationMethod,
  pairs: CalibrationPair[],
  folds = FOLDS,
): number[] {
  const foldOf = foldsOf(pairs, folds);
  const scores = new Array<number>(pairs.length).fill(0);
  for (let fold = 0; fold < folds; fold++) {
    const training = pairs.filter((_, index) => foldOf[index] !== fold);
    if (training.length === pairs.length || training.length === 0) continue;
    const map = fitMap(method, training);
    pairs.forEach((pair, index) => {
      if (foldOf[index] === fold) {
        scores[index] = brierScore(applyMap(map, pair.probability), pair.outcome);
      }
    });
  }
  return scores;
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/**
 * Whether the calibrated scores beat the raw ones by more than chance: the mean paired
 * improvement exceeds its standard error, taken over questions (a cluster-robust standard
 * error: the forecasts of one question are not independent draws). A model already calibrated
 * gains nothing but the noise of the fit, and keeps its own forecasts: on 200 scripted
 * well-calibrated sets of 200 forecasts, a bare "lower" applied a map to a quarter of them,
 * this rule to 3.5%, while it still applied one to 77% of over-confident sets (logit doubled)
 * of that size.
 */
function improvesOnRaw(pairs: CalibrationPair[], raw: number[], calibrated: number[]): boolean {
  const gains = raw.map((score, index) => score - (calibrated[index] ?? score));
  const gain = mean(gains);
  const clusters = new Map<string, number>();
  gains.forEach((g, index) => {
    const key = pairs[index]?.group ?? `#${index}`;
    clusters.set(key, (clusters.get(key) ?? 0) + (g - gain));
  });
  const count = clusters.size;
  if (count < 2) return false;
  const squares = [...clusters.values()].reduce((sum, total) => sum + total * total, 0);
  const standardError = Math.sqrt((squares * count) / (count - 1)) / gains.length;
  return gain > 0 && gain > standardError;
}

export interface FittedCalibration {
  map: CalibrationMap;
  n: number;
  folds: number;
  /** The Brier score of the forecasts as given: nothing is fitted, so it is out of sample. */
  brierBefore: number;
  /** The chosen method's cross-validated Brier score. */
  brierAfter: number;
  /** Each method tried, with its cross-validated Brier score. */
  candidates: { method: CalibrationMethod; brier: number }[];
  /**
   * The map lowered the out-of-sample Brier score by more than a standard error of the paired
   * difference: only then is it applied.
   */
  improved: boolean;
}

/**
 * Fits the map for these forecasts: each method allowed at this count is cross-validated, the
 * one with the lowest out-of-sample Brier score is fitted again on every pair.
 */
export function fitCalibration(pairs: CalibrationPair[]): FittedCalibration {
  if (pairs.length < MIN_FIT_FORECASTS) {
    throw new RangeError(`at least ${MIN_FIT_FORECASTS} forecasts are needed`);
  }
  const methods: CalibrationMethod[] =
    pairs.length >= MIN_ISOTONIC_FORECASTS ? ["logistic", "isotonic"] : ["logistic"];
  const outOfSample = methods.map((method) => ({
    method,
    scores: crossValidatedScores(method, pairs),
  }));
  const candidates = outOfSample.map(({ method, scores }) => ({ method, brier: mean(scores) }));
  const best = outOfSample.reduce((winner, candidate) =>
    mean(candidate.scores) < mean(winner.scores) ? candidate : winner,
  );
  const raw = pairs.map((pair) => brierScore(pair.probability, pair.outcome));
  return {
    map: fitMap(best.method, pairs),
    n: pairs.length,
    folds: FOLDS,
    brierBefore: mean(raw),
    brierAfter: mean(best.scores),
    candidates,
    improved: improvesOnRaw(pairs, raw, best.scores),
  };
}

/** Maps each option's probability, then scales them to sum to 1 again. */
export function applyMapToChoices(
  map: CalibrationMap,
  probabilities: Record<string, number>,
): Record<string, number> {
  const mapped = Object.entries(probabilities).map(
    ([letter, p]) => [letter, applyMap(map, p)] as const,
  );
  const total = mapped.reduce((sum, [, p]) => sum + p, 0);
  return Object.fromEntries(mapped.map(([letter, p]) => [letter, p / total]));
}
