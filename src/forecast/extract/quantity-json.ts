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

function describesQuantity(fields: QuantityFields): boolean {
  return fields.mean !== undefined || fields.standardDeviation !== undefined;
}

/** The fields of the last object in `text` that describes a quantity (or holds one that does). */
export function jsonQuantity(text: string): QuantityFields {
  let last: QuantityFields = {};
  for (const object of findJsonObjects(text)) {
    const fields = withNested(object).map(fieldsOf).find(describesQuantity);
    if (fields !== undefined) last = fields;
  }
  return last;
}

/** The figure each object in `text` states as a single value, in order. */
export function jsonValues(text: string): number[] {
  return findJsonObjects(text).flatMap((object) => {
    const figure = withNested(object)
      .map((inner) => firstOf(figures(inner), VALUE_KEYS))
      .find((found) => found !== undefined);
    return figure === undefined ? [] : [figure];
  });
}
