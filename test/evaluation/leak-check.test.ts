import { describe, expect, it } from "vitest";
import {
  auditCitations,
  auditRequests,
  emptyRequestAudit,
  knowledgeCutoffWarnings,
  requestsPass,
} from "../../src/evaluation/leak-check.js";
import { parseAnswer, reasoningOf } from "../../src/evaluation/results/answers.js";
import type { ForecastRecord } from "../../src/evaluation/results/records.js";
import type { EvalItem } from "../../src/evaluation/types.js";

const item = (key: string, predictionDate: string, dueDate = predictionDate): EvalItem => ({
  key,
  questionId: key,
  source: "fred",
  answerType: "binary",
  prompt: key,
  predictionDate,
  dueDate,
  resolutionDate: null,
  options: null,
  marketValue: null,
  forecastBench: null,
});

const line = (customId: string, body: Record<string, unknown>) =>
  JSON.stringify({ custom_id: customId, method: "POST", url: "/v1/chat/completions", body });

describe("leak check", () => {
  it("passes requests that carry an answer type and an as-of date no later than the due date", () => {
    const items = new Map([
      ["a", item("a", "2026-07-05")],
      ["b", item("b", "2026-07-05")],
    ]);
    const audit = emptyRequestAudit();
    auditRequests(
      audit,
      [
        line("a", { answer_type: "binary", prediction_date: "2026-07-05" }),
        // Within the due day is still on time.
        line("b", { answer_type: "binary", prediction_date: "2026-07-05T18:00:00" }),
      ].join("\n"),
      items,
    );
    expect(audit).toMatchObject({ lines: 2, prediction_date_after_due_date: 0 });
    expect(requestsPass(audit, 2)).toBe(true);
    expect(requestsPass(audit, 3)).toBe(false);
  });

  it("fails requests without an as-of date or answer type, or dated after the due date", () => {
    const items = new Map([
      ["a", item("a", "2026-07-05")],
      ["b", item("b", "2026-07-05")],
      ["c", item("c", "2026-07-05")],
    ]);
    const audit = emptyRequestAudit();
    auditRequests(
      audit,
      [
        line("a", { answer_type: "binary" }),
        line("b", { prediction_date: "2026-07-05" }),
        line("c", { answer_type: "binary", prediction_date: "2026-07-06" }),
        line("zzz", { answer_type: "binary", prediction_date: "2026-07-01" }),
      ].join("\n"),
      items,
    );
    expect(audit).toMatchObject({
      lines: 4,
      missing_prediction_date: 1,
      missing_answer_type: 1,
      prediction_date_after_due_date: 1,
      unknown_custom_id: 1,
    });
    expect(requestsPass(audit, 4)).toBe(false);
  });

  it("warns about models whose knowledge cutoff is after the as-of dates", () => {
    const items = [item("a", "2025-01-10"), item("b", "2025-06-01")];
    expect(
      knowledgeCutoffWarnings(
        new Map([
          ["old", "2024-10-01"],
          ["new", "2025-03-01"],
        ]),
        items,
      ),
    ).toEqual([
      {
        model: "new",
        knowledge_cutoff: "2025-03-01",
        requests_before_cutoff: 1,
        earliest_prediction_date: "2025-01-10",
      },
    ]);
  });

  it("counts cited sources dated after the as-of date, from given dates or the URL", () => {
    const record = (citations: ForecastRecord["citations"]): ForecastRecord => ({
      item: item("a", "2025-03-01"),
      model: "m",
      asked: 1,
      samples: [],
      forecast: null,
      reasoning: null,
      thinking: null,
      citations,
      costUsd: 0,
      error: null,
      statusCode: 200,
    });
    const audit = auditCitations([
      record([
        { url: "https://news.example/2025/02/27/story", title: null, dates: [] },
        { url: "https://news.example/2025/03/04/later", title: null, dates: [] },
        { url: "https://news.example/about", title: null, dates: [] },
        { url: "https://news.example/x", title: "t", dates: ["2025-03-02T08:00:00Z"] },
      ]),
    ]);
    expect(audit).toMatchObject({ citations: 4, dated: 3, leaks: 2 });
    expect(audit.examples.map((example) => example.url)).toEqual([
      "https://news.example/2025/03/04/later",
      "https://news.example/x",
    ]);
  });

  it("re-reads what an untrusted source showed for later times, and any of its dates", () => {
    const record = (citations: ForecastRecord["citations"]): ForecastRecord => ({
      item: item("a", "2025-03-01"),
      model: "m",
      asked: 1,
      samples: [],
      forecast: null,
      reasoning: null,
      thinking: null,
      citations,
      costUsd: 0,
      error: null,
      statusCode: 200,
    });
    const dates = ["2025-02-20T00:00:00.000Z"];
    const audit = auditCitations([
      record([
        { url: "https://a.example/1", title: "Vote held on March 4", dates, trust: "untrusted" },
        { url: "https://a.example/Q2-2025-outlook", title: "Outlook", dates, trust: "untrusted" },
        { url: "https://a.example/2", title: "Vote set for March 4", dates, trust: "trusted" },
        { url: "https://a.example/3", title: "Vote held on February 4", dates, trust: "untrusted" },
        {
          url: "https://a.example/4",
          title: "Edited",
          dates: ["2025-02-20T00:00:00.000Z", "2025-03-05T00:00:00.000Z"],
          trust: "trusted",
        },
      ]),
    ]);
    expect(audit).toMatchObject({ citations: 5, leaks: 3 });
    expect(audit.examples.map((example) => [example.url, example.date])).toEqual([
      ["https://a.example/1", "March 4"],
      ["https://a.example/Q2-2025-outlook", "Q2-2025"],
      ["https://a.example/4", "2025-03-05T00:00:00.000Z"],
    ]);
  });
});

describe("answer tags", () => {
  const binary = item("a", "2025-01-01");
  const choice: EvalItem = { ...binary, answerType: "multiple_choice", options: ["x", "y", "z"] };
  const continuous: EvalItem = { ...binary, answerType: "continuous" };

  it("reads the last answer tag of each kind", () => {
    expect(
      parseAnswer("Thinking <answer>0.2</answer> then\n<answer>0.62</answer>", binary),
    ).toEqual({
      type: "binary",
      probability: 0.62,
    });
    expect(parseAnswer("<answer>62%</answer>", binary)).toEqual({
      type: "binary",
      probability: 0.62,
    });
    expect(parseAnswer("no tag, 62%", binary)).toBeNull();
    expect(parseAnswer("<answer>1.5</answer>", binary)).toBeNull();
    expect(parseAnswer('<answer>{"A": 0.2, "B": 0.6, "C": 0.2}</answer>', choice)).toEqual({
      type: "multiple_choice",
      probabilities: [0.2, 0.6, 0.2],
    });
    expect(
      parseAnswer('<answer>{"mean": 42.5, "standard_deviation": 5.2}</answer>', continuous),
    ).toEqual({ type: "continuous", mean: 42.5, sd: 5.2 });
    expect(
      parseAnswer('<answer>{"mean": 42.5, "standard_deviation": 0}</answer>', continuous),
    ).toBeNull();
    expect(reasoningOf('Because.\n<options>{"A":"x"}</options><answer>{"A":1}</answer>')).toBe(
      "Because.",
    );
  });
});
