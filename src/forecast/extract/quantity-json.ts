import { findJsonObjects, type JsonObject, normalizeKey, withNested } from "./json-objects.js";
import { normalFromPercentiles, type Percentiles } from "./percentiles.js";
import { rawNumberFrom } from "./validate.js";

/** What a reply object says about a quantity; either part may be missing. */
export interface QuantityFields {
  mean?: number;
  standardDeviation?: number;
}

const MEAN_KEYS = [
  "mean",
  "mu",
  "expectedvalue",
  "expected",
  "average",
  "pointestimate",
  "median",
  "estimate",
  "prediction",
  "forecast",
  "value",
  "answer",
  "finalanswer",
];
const STANDARD_DEVIATION_KEYS = [
  "standarddeviation",
  "std",
  "stdev",
  "stddev",
  "stdeviation",
  "sd",
  "sigma",
];
const PERCENTILE_KEY = /^(?:p|percentile|pct|q)?(\d{1,2})(?:st|nd|rd|th)?(?:percentile)?$/;

/** A single figure, for answers that are one value. */
const VALUE_KEYS = [
  "value",
  "answer",
  "finalanswer",
  "prediction",
  "forecast",
  "estimate",
  "pointestimate",
  "mean",
  "median",
  "expectedvalue",
];

function figures(object: JsonObject): Map<string, number> {
  const byKey = new Map<string, number>();
  for (const [key, value] of Object.entries(object)) {
    const raw = rawNumberFrom(value);
    if (raw !== null) byKey.set(normalizeKey(key), raw.value);
  }
  return byKey;
}

function firstOf(byKey: Map<string, number>, keys: string[]): number | undefined {
  const key = keys.find((candidate) => byKey.has(candidate));
  return key === undefined ? undefined : byKey.get(key);
}

function fieldsOf(object: JsonObject): QuantityFields {
  const byKey = figures(object);
  const percentiles: Percentiles = new Map();
  for (const [key, value] of byKey) {
    const percentile = Number(PERCENTILE_KEY.exec(key)?.[1]);
    if (percentile > 0 && percentile < 100) percentiles.set(percentile, value);
  }
  const fitted = normalFromPercentiles(percentiles);
  return {
    mean: firstOf(byKey, MEAN_KEYS) ?? fitted.mean,
    standardDeviation: firstOf(byKey, STANDARD_DEVIATION_KEYS) ?? fitted.standardDeviation,
  };
}

/** The fields of the last object in `text` that describes a quantity. */
export function jsonQuantity(text: string): QuantityFields {
  let last: QuantityFields = {};
  for (const { value } of findJsonObjects(text)) {
    for (const object of withNested(value)) {
      const fields = fieldsOf(object);
      if (fields.mean !== undefined || fields.standardDeviation !== undefined) last = fields;
    }
  }
  return last;
}

/** The figure of each object in `text` that states a single value, in order. */
export function jsonValues(text: string): number[] {
  const found: number[] = [];
  for (const { value } of findJsonObjects(text)) {
    for (const object of withNested(value)) {
      const figure = firstOf(figures(object), VALUE_KEYS);
      if (figure !== undefined) found.push(figure);
    }
  }
  return found;
}
