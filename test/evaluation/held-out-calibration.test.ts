// `sibyl eval --calibrate`: maps fitted on half a question set and scored on the other half. On
// questions whose outcomes are drawn from a known truth, an over-confident scripted model
// (sigmoid(2·logit(p))) scores a lower held-out Brier once calibrated, and a well-calibrated one
// gets no map applied. On a real ForecastBench round (2024-07-21), the split and its report.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { heldOutCalibration } from "../../src/evaluation/held-out-calibration.js";
import { loadQuestionSet } from "../../src/evaluation/question-sets/load.js";
import type { ForecastRecord } from "../../src/evaluation/results/records.js";
import type { EvalItem, QuestionSet, Resolution } from "../../src/evaluation/types.js";
import {
  overConfident,
  scriptedForecasts,
  wellCalibrated,
} from "../track/support/scripted-forecasts.js";

const FIXTURE = path.join(import.meta.dirname, "fixtures", "forecastbench-real-2024-07-21");
const SUPERFORECASTER = path.join(FIXTURE, "input", "2024-07-21.superforecaster-SUpgMvejGk.json");

const clamp = (p: number) => Math.min(0.99, Math.max(0.01, p));

async function realSet(): Promise<QuestionSet> {
  return loadQuestionSet(
    path.join(FIXTURE, "run", "2024-07-21-human.json"),
    path.join(FIXTURE, "run", "2024-07-21_resolution_set.json"),
    null,
  );
}

/** A model answering every question with `forecast` of the superforecaster's probability. */
function scriptedRecords(
  set: QuestionSet,
  model: string,
  forecast: (p: number) => number,
): ForecastRecord[] {
  const { forecasts } = JSON.parse(readFileSync(SUPERFORECASTER, "utf8")) as {
    forecasts: { id: string; source: string; forecast: number; resolution_date: string | null }[];
  };
  const byQuestion = new Map(
    forecasts.map((row) => [`${row.source}|${row.id}|${row.resolution_date ?? ""}`, row.forecast]),
  );
  return set.items.flatMap((item) => {
    const p = byQuestion.get(`${item.source}|${item.questionId}|${item.resolutionDate ?? ""}`);
    if (p === undefined || item.answerType !== "binary") return [];
    const answer = { type: "binary" as const, probability: forecast(clamp(p)) };
    return [
      {
        item,
        model,
        asked: 1,
        samples: [answer],
        forecast: answer,
        reasoning: null,
        thinking: null,
        citations: [],
        costUsd: 0,
        error: null,
        statusCode: 200,
      },
    ];
  });
}

const record = (item: EvalItem, model: string, probability: number): ForecastRecord => {
  const answer = { type: "binary" as const, probability };
  return {
    item,
    model,
    asked: 1,
    samples: [answer],
    forecast: answer,
    reasoning: null,
    thinking: null,
    citations: [],
    costUsd: 0,
    error: null,
    statusCode: 200,
  };
};

/** 600 questions resolved by a known truth, and what each scripted model forecast on them. */
function truthSet(seed: number) {
  const over = scriptedForecasts(600, seed, overConfident);
  const well = scriptedForecasts(600, seed, wellCalibrated);
  const items: EvalItem[] = over.map((_, index) => ({
    key: `scripted/q${index}`,
    questionId: `q${index}`,
    source: "scripted",
    answerType: "binary",
    prompt: `Will event ${index} happen?`,
    predictionDate: "2025-01-01",
    dueDate: "2025-01-01",
    resolutionDate: null,
    options: null,
    marketValue: null,
    forecastBench: null,
  }));
  const resolutions: Resolution[] = over.map((pair, index) => ({
    itemKey: `scripted/q${index}`,
    resolutionDate: null,
    outcome: { type: "binary", value: pair.outcome },
    resolved: true,
  }));
  const set: QuestionSet = {
    format: "sibyl_jsonl",
    name: "scripted",
    items,
    resolutions,
    skipped: { combination: 0, combination_resolutions: 0, unsupported: 0, over_limit: 0 },
    notes: [],
  };
  const records = new Map([
    [
      "over-confident",
      items.map((item, i) => record(item, "over-confident", over[i]?.probability ?? 0.5)),
    ],
    ["calibrated", items.map((item, i) => record(item, "calibrated", well[i]?.probability ?? 0.5))],
  ]);
  return { set, records };
}

/** Questions of several sources, one resolved row each, forecast by a model per source. */
function sourcedSet(counts: Record<string, number>) {
  const items: EvalItem[] = Object.entries(counts).flatMap(([source, count]) =>
    Array.from({ length: count }, (_, index) => ({
      key: `${source}/q${index}`,
      questionId: `q${index}`,
      source,
      answerType: "binary" as const,
      prompt: `Will ${source} event ${index} happen?`,
      predictionDate: "2025-01-01",
      dueDate: "2025-01-01",
      resolutionDate: null,
      options: null,
      marketValue: null,
      forecastBench: null,
    })),
  );
  const set: QuestionSet = {
    format: "sibyl_jsonl",
    name: "sourced",
    items,
    resolutions: items.map((item, index) => ({
      itemKey: item.key,
      resolutionDate: null,
      outcome: { type: "binary", value: (index * 7) % 5 < 2 ? 1 : 0 },
      resolved: true,
    })),
    skipped: { combination: 0, combination_resolutions: 0, unsupported: 0, over_limit: 0 },
    notes: [],
  };
  const records = new Map(
    Object.keys(counts).map((source) => [
      source,
      items
        .filter((item) => item.source === source)
        .map((item, index) => record(item, source, ((index % 9) + 1) / 10)),
    ]),
  );
  return { set, records };
}

describe("held-out calibration split", () => {
  it("gives each half about half of every source's questions, whatever the seed", () => {
    const { set, records } = sourcedSet({ acled: 80, manifold: 31, yfinance: 33 });
    const halves = new Set<string>();
    for (let seed = 0; seed < 10; seed++) {
      const report = heldOutCalibration(set, records, seed);
      expect(report).toMatchObject({ fit_questions: 72, held_out_questions: 72 });
      expect(report.models.acled).toMatchObject({ fit_n: 40, held_out_n: 40 });
      for (const source of ["manifold", "yfinance"]) {
        const model = report.models[source];
        expect(Math.abs((model?.fit_n ?? 0) - (model?.held_out_n ?? 0))).toBe(1);
      }
      halves.add(JSON.stringify(report.models.acled?.parameters));
    }
    // The seed still decides which questions fall in which half.
    expect(halves.size).toBeGreaterThan(1);
  });
});

describe("held-out calibration on questions of known truth", () => {
  it("lowers an over-confident model's held-out Brier and leaves a calibrated one alone", () => {
    const { set, records } = truthSet(36);
    const report = heldOutCalibration(set, records, 0);
    expect(report).toMatchObject({ fit_questions: 300, held_out_questions: 300 });
    const over = report.models["over-confident"];
    expect(over?.cross_validated?.improved).toBe(true);
    expect(over?.held_out_brier_calibrated).toBeLessThan(over?.held_out_brier_raw ?? 0);
    expect(report.models.calibrated?.cross_validated?.improved).toBe(false);
  });
});

describe("held-out calibration on a real ForecastBench round", () => {
  it("keeps every resolution date of a question in one half, the same for one seed", async () => {
    const set = await realSet();
    const records = new Map([["m", scriptedRecords(set, "m", (p) => p)]]);
    const first = heldOutCalibration(set, records, 7);
    // 162 questions; dataset questions have a row per resolution date, all in one half.
    expect(first.fit_questions + first.held_out_questions).toBe(162);
    expect(first.models.m?.fit_n).toBeGreaterThan(100);
    expect(first.models.m?.held_out_n).toBeGreaterThan(100);
    expect(heldOutCalibration(set, records, 7)).toEqual(first);
    expect(heldOutCalibration(set, records, 8).models.m).not.toEqual(first.models.m);
  });

  it("says so when the fitting half has too few forecasts", async () => {
    const set = await realSet();
    const few = scriptedRecords(set, "few", (p) => p).slice(0, 20);
    const report = heldOutCalibration(set, new Map([["few", few]]), 0);
    expect(report.models.few).toMatchObject({ method: null, cross_validated: null });
    expect(report.models.few?.note).toContain("at least 30");
  });
});
