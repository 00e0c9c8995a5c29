import path from "node:path";
import { describe, expect, it } from "vitest";
import { BacktestError } from "../../src/evaluation/errors.js";
import { resolvedBeforePrediction } from "../../src/evaluation/leak-check.js";
import { loadQuestionSet } from "../../src/evaluation/question-sets/load.js";

const fixture = (name: string) => path.join(import.meta.dirname, "fixtures", name);

describe("ForecastBench question and resolution sets", () => {
  it("asks a market question once and a dataset question once per resolution date", async () => {
    const set = await loadQuestionSet(
      fixture("2026-07-05-llm.json"),
      fixture("2026-07-05_resolution_set.json"),
      null,
    );
    expect(set.format).toBe("forecastbench");
    expect(set.name).toBe("2026-07-05-llm.json");
    // 5 market questions + 2 dataset questions × 8 resolution dates
    expect(set.items).toHaveLength(21);
    const fred = set.items.filter((item) => item.source === "fred");
    expect(fred.map((item) => item.resolutionDate)).toEqual([
      "2026-07-12",
      "2026-08-04",
      "2026-10-03",
      "2027-01-01",
      "2027-07-05",
      "2029-07-04",
      "2031-07-04",
      "2036-07-02",
    ]);
    for (const item of set.items) {
      expect(item.predictionDate).toBe("2026-07-05");
      expect(item.dueDate).toBe("2026-07-05");
      expect(item.answerType).toBe("binary");
      expect(item.prompt).not.toContain("{resolution_date}");
      expect(item.prompt).not.toContain("{forecast_due_date}");
      expect(item.forecastBench).toEqual({
        questionSet: "2026-07-05-llm.json",
        forecastDueDate: "2026-07-05",
      });
    }
    const pnc = set.items.find((item) => item.key === "yfinance/PNC@2027-01-01");
    expect(pnc?.prompt).toContain(
      "Will PNC's market close price on 2027-01-01 be higher than its market close price on 2026-07-05?",
    );
    expect(pnc?.marketValue).toBeNull();

    const market = set.items.find((item) => item.key === "metaculus/40701");
    expect(market?.resolutionDate).toBeNull();
    expect(market?.marketValue).toBeTypeOf("number");
    expect(market?.prompt).toContain(
      "We would like you to predict the outcome of a prediction market.",
    );

    // Every resolution entry of these questions: 5 market + 2 × 2 dataset dates.
    expect(set.resolutions).toHaveLength(9);
    expect(set.resolutions.filter((r) => !r.resolved).map((r) => r.itemKey)).toEqual([
      "manifold/SAIUNdCI8U",
    ]);
    expect(set.resolutions.find((r) => r.itemKey === "fred/RRPONTTLD@2026-07-12")).toEqual({
      itemKey: "fred/RRPONTTLD@2026-07-12",
      resolutionDate: "2026-07-12",
      outcome: { type: "binary", value: 0 },
      resolved: true,
    });
    expect(set.skipped).toEqual({
      combination: 0,
      combination_resolutions: 0,
      unsupported: 0,
      over_limit: 0,
    });
  });

  it("counts and leaves out combination questions and their resolutions", async () => {
    const set = await loadQuestionSet(
      fixture("2024-07-21-human.json"),
      fixture("2024-07-21_resolution_set.json"),
      null,
    );
    expect(set.skipped.combination).toBe(1);
    expect(set.skipped.combination_resolutions).toBe(4);
    expect(set.items).toHaveLength(1 + 8);
    expect(set.items.every((item) => typeof item.questionId === "string")).toBe(true);
    expect(set.resolutions).toHaveLength(1 + 5);
  });

  it("--limit draws N questions from every source, with all their resolution dates", async () => {
    const load = (seed: number) =>
      loadQuestionSet(
        fixture("2026-07-05-llm.json"),
        fixture("2026-07-05_resolution_set.json"),
        6,
        seed,
      );
    const set = await load(3);
    const all = await loadQuestionSet(
      fixture("2026-07-05-llm.json"),
      fixture("2026-07-05_resolution_set.json"),
      null,
    );
    expect(new Set(set.items.map((item) => item.questionId)).size).toBe(6);
    expect(set.skipped.over_limit).toBe(1);
    // Six sources, one question each.
    expect(new Set(set.items.map((item) => item.source)).size).toBe(6);
    // A dataset question keeps every resolution date it had.
    for (const item of set.items) {
      const dates = (list: typeof all.items) =>
        list.filter((i) => i.source === item.source && i.questionId === item.questionId).length;
      expect(dates(set.items)).toBe(dates(all.items));
    }
    expect((await load(3)).items.map((item) => item.key)).toEqual(
      set.items.map((item) => item.key),
    );
  });

  it("refuses a resolution set of another forecast due date, and one given as questions", async () => {
    await expect(
      loadQuestionSet(
        fixture("2026-07-05-llm.json"),
        fixture("2024-07-21_resolution_set.json"),
        null,
      ),
    ).rejects.toThrow(/forecast due date 2024-07-21, the question set for 2026-07-05/);
    await expect(
      loadQuestionSet(fixture("2026-07-05_resolution_set.json"), null, null),
    ).rejects.toThrow(/is a resolution set: give it with --resolutions/);
  });
});

describe("Sibyl's JSON Lines questions", () => {
  it("reads binary, multiple-choice and continuous questions with their outcomes", async () => {
    const set = await loadQuestionSet(fixture("questions.jsonl"), null, null);
    expect(set.format).toBe("sibyl_jsonl");
    expect(set.items.map((item) => [item.questionId, item.answerType])).toEqual([
      ["rain", "binary"],
      ["snow", "binary"],
      ["late", "binary"],
      ["open", "binary"],
      ["winner", "multiple_choice"],
      ["temp", "continuous"],
    ]);
    expect(set.skipped.unsupported).toBe(1);
    expect(set.notes[0]).toMatch(/free_response/);
    const outcomes = Object.fromEntries(
      set.resolutions.map((r) => [r.itemKey.split("@")[0], r.outcome]),
    );
    expect(outcomes).toEqual({
      "sibyl/rain": { type: "binary", value: 1 },
      "sibyl/snow": { type: "binary", value: 0 },
      "sibyl/late": { type: "binary", value: 1 },
      "sibyl/winner": { type: "multiple_choice", index: 1 },
      "sibyl/temp": { type: "continuous", value: 18 },
    });
    const winner = set.items.find((item) => item.questionId === "winner");
    expect(winner?.prompt).toContain("Options:\nA) Red\nB) Blue\nC) Green");
    expect(winner?.predictionDate).toBe("2025-03-01");
  });

  it("flags outcomes dated before the prediction date", async () => {
    const set = await loadQuestionSet(fixture("questions.jsonl"), null, null);
    const items = new Map(set.items.map((item) => [item.key, item]));
    expect(resolvedBeforePrediction(set.resolutions, items).map((r) => r.itemKey)).toEqual([
      "sibyl/late@2025-02-20",
    ]);
  });

  it("names the line of a malformed question", async () => {
    const { writeFileSync, mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(path.join(tmpdir(), "sibyl-eval-"));
    const file = path.join(dir, "bad.jsonl");
    writeFileSync(
      file,
      '{"question": "Q?", "answer_type": "binary", "prediction_date": "2025-01-01"}\nnot json\n',
    );
    await expect(loadQuestionSet(file, null, null)).rejects.toThrow(BacktestError);
    await expect(loadQuestionSet(file, null, null)).rejects.toThrow(/line 2: not a JSON object/);
    writeFileSync(file, '{"question": "Q?", "answer_type": "binary", "prediction_date": "soon"}\n');
    await expect(loadQuestionSet(file, null, null)).rejects.toThrow(/line 1: prediction_date/);
    writeFileSync(
      file,
      '{"question": "Q?", "answer_type": "binary", "prediction_date": "2025-01-01", "outcome": "maybe"}\n',
    );
    await expect(loadQuestionSet(file, null, null)).rejects.toThrow(
      /does not fit answer_type binary/,
    );
  });
});
