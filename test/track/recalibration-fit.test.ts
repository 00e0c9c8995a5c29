import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applyMap,
  applyMapToChoices,
  type CalibrationMap,
  fitCalibration,
  fitIsotonic,
  fitLogistic,
  MIN_FIT_FORECASTS,
  meanBrier,
} from "../../src/evaluation/scoring/recalibration.js";
import { overConfident, scriptedForecasts, wellCalibrated } from "./support/scripted-forecasts.js";

const pairArbitrary = fc.record({
  probability: fc.double({ min: 0, max: 1, noNaN: true }),
  outcome: fc.constantFrom(0, 1),
});
const pairsArbitrary = fc.array(pairArbitrary, { minLength: 1, maxLength: 200 });
const fitters = [fitLogistic, fitIsotonic];

describe("recalibration fit", () => {
  it("over-confident forecasts: the map fitted on one half lowers the Brier score of the other", () => {
    const forecasts = scriptedForecasts(600, 36, overConfident);
    const fitted = fitCalibration(forecasts.slice(0, 300));
    const held = forecasts.slice(300);
    const raw = meanBrier(held);
    const calibrated = meanBrier(held, (p) => applyMap(fitted.map, p));
    expect(fitted.improved).toBe(true);
    expect(fitted.brierAfter).toBeLessThan(fitted.brierBefore);
    expect(calibrated).toBeLessThan(raw);
    // The logistic fit finds the model's doubling of the logit: b near 1/2.
    const logistic = fitLogistic(forecasts);
    expect(logistic.method === "logistic" && logistic.b).toBeGreaterThan(0.35);
    expect(logistic.method === "logistic" && logistic.b).toBeLessThan(0.65);
  });

  it("well-calibrated forecasts keep their own; over-confident ones get a map", () => {
    const seeds = Array.from({ length: 100 }, (_, index) => index + 1);
    const improvedSets = (model: (truth: number) => number) =>
      seeds.filter((seed) => fitCalibration(scriptedForecasts(300, seed, model)).improved).length;
    // Counted over 100 fixed seeds: a map is applied to a well-calibrated model by chance alone.
    expect(improvedSets(wellCalibrated)).toBeLessThanOrEqual(10);
    expect(improvedSets(overConfident)).toBeGreaterThanOrEqual(80);
  });

  it("tries isotonic regression only from 100 forecasts on", () => {
    const few = fitCalibration(scriptedForecasts(99, 5, overConfident));
    expect(few.candidates.map((c) => c.method)).toEqual(["logistic"]);
    const many = fitCalibration(scriptedForecasts(100, 5, overConfident));
    expect(many.candidates.map((c) => c.method)).toEqual(["logistic", "isotonic"]);
  });

  it("refuses fewer forecasts than a fit needs", () => {
    expect(() =>
      fitCalibration(scriptedForecasts(MIN_FIT_FORECASTS - 1, 5, overConfident)),
    ).toThrow(`at least ${MIN_FIT_FORECASTS}`);
  });

  it("isotonic regression maps tied forecasts to one value, their mean outcome", () => {
    // Round numbers repeat: four forecasts of 0.5, two of them right, between two others.
    const pairs = [0, 0, 1, 1].map((outcome) => ({ probability: 0.5, outcome }));
    for (const order of [pairs, [...pairs].reverse()]) {
      const map = fitIsotonic([
        { probability: 0.2, outcome: 0 },
        ...order,
        { probability: 0.9, outcome: 1 },
      ]);
      expect(map).toEqual({ method: "isotonic", x: [0.2, 0.5, 0.9], y: [0.001, 0.5, 0.999] });
      expect(applyMap(map, 0.5)).toBe(0.5);
    }
  });

  it("fits converge on separable outcomes and stay finite", () => {
    const separable = Array.from({ length: 40 }, (_, i) => ({
      probability: i / 39,
      outcome: i >= 20 ? 1 : 0,
    }));
    const map = fitLogistic(separable);
    expect(map.method === "logistic" && Number.isFinite(map.a) && Number.isFinite(map.b)).toBe(
      true,
    );
    expect(applyMap(map, 0.9)).toBeGreaterThan(0.9);
    expect(applyMap(map, 0.1)).toBeLessThan(0.1);
  });

  it("every fitted map is non-decreasing and keeps probabilities inside (0, 1)", () => {
    fc.assert(
      fc.property(
        pairsArbitrary,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 20 }),
        fc.constantFrom(...fitters),
        (pairs, probes, fitter) => {
          const map = fitter(pairs);
          const mapped = [...probes].sort((a, b) => a - b).map((p) => applyMap(map, p));
          for (const [index, value] of mapped.entries()) {
            expect(value).toBeGreaterThan(0);
            expect(value).toBeLessThan(1);
            if (index > 0) expect(value).toBeGreaterThanOrEqual((mapped[index - 1] ?? 0) - 1e-12);
          }
        },
      ),
    );
  });

  it("a logistic map fitted again on its own calibrated forecasts is near the identity", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000 }), (seed) => {
        const forecasts = scriptedForecasts(400, seed, overConfident);
        const first = fitLogistic(forecasts);
        const calibrated = forecasts.map((pair) => ({
          ...pair,
          probability: applyMap(first, pair.probability),
        }));
        const second = fitLogistic(calibrated) as Extract<CalibrationMap, { method: "logistic" }>;
        expect(Math.abs(second.a)).toBeLessThan(0.05);
        expect(Math.abs(second.b - 1)).toBeLessThan(0.05);
      }),
      { numRuns: 20 },
    );
  });

  it("multiple-choice probabilities are mapped then sum to 1 again", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.001, max: 1, noNaN: true }), { minLength: 2, maxLength: 8 }),
        (weights) => {
          const total = weights.reduce((sum, w) => sum + w, 0);
          const choices = Object.fromEntries(
            weights.map((w, i) => [String.fromCharCode(65 + i), w / total]),
          );
          const map = fitLogistic(scriptedForecasts(60, 9, overConfident));
          const mapped = applyMapToChoices(map, choices);
          const sum = Object.values(mapped).reduce((s, p) => s + p, 0);
          expect(sum).toBeCloseTo(1, 12);
          // Order of options is kept.
          const letters = Object.keys(choices);
          for (const a of letters) {
            for (const b of letters) {
              if ((choices[a] ?? 0) < (choices[b] ?? 0)) {
                expect(mapped[a] ?? 0).toBeLessThanOrEqual((mapped[b] ?? 0) + 1e-12);
              }
            }
          }
        },
      ),
    );
  });
});
