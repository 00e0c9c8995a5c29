import { describe, expect, it } from "vitest";
import { extractAnswer } from "../../src/forecast/index.js";
import { sameAnswer } from "./answer-match.js";

interface Phrasing {
  /** The closing part of a reply, where the model states its answer. */
  ending: string;
  /** null: the reply is ambiguous and extraction must return nothing. */
  expected: number | null;
}

type PhrasingClass =
  | "explicit marker"
  | "probability of NO"
  | "range"
  | "words and odds"
  | "decimal comma"
  | "margin"
  | "last conclusion"
  | "NO in prose"
  | "marker scope"
  | "bare number after a final marker"
  | "verbal chance"
  | "headings and tables"
  | "ambiguous";

// Reasoning as models write it, full of figures that are not the answer.
const PREAMBLES = [
  `The question asks whether the Senate passes the bill before 2025-07-01.

Base rates: since 2015, 45% of bills that cleared committee passed the floor within 6 months, and about 12 of 40 comparable bills died in conference. The current majority is 51-49.

Recent news (March 3) suggests two moderates are undecided; prediction markets sit at 62%.`,
  `Let me think step by step.

1. Status quo: the company has shipped 3 products in 2024 and guided for 4 in 2025.
2. Analysts give a 70% chance of a delay, although last year 8 out of 10 analyst calls were wrong.
3. Time left: roughly 90 days.

Weighing these, the outside view and inside view point in different directions.`,
  `Outside view: over the last 20 years, incumbents in this position won 14 times (70%).
Inside view: polling averages show a 3.5 point gap, down from 6 points in January; turnout in 2022 was 48.2%.

Key uncertainties: the debate on 12 October and a possible 0.25 point rate cut.`,
];

const PHRASINGS: Record<PhrasingClass, Phrasing[]> = {
  "explicit marker": [
    { ending: "The verdict is due in 3 weeks.\n\nProbability: 40%", expected: 0.4 },
    { ending: "Final answer: 35\n\nThat is 10 points under the 45% base rate.", expected: 0.35 },
    { ending: "My final probability is 0.41, versus 0.55 on Polymarket.", expected: 0.41 },
    { ending: "Final estimate: 28%.\nBase rate: 40%. Market: 50%.", expected: 0.28 },

    { ending: "Final: 20%. For context, last year 45% of similar bills passed.", expected: 0.2 },
    { ending: "My final forecast: 35%\nConfidence in this forecast: 80%", expected: 0.35 },
    {
      ending: "Initial estimate: 50%\n\nAfter weighing the delays, I land at 40%.",
      expected: 0.4,
    },
    {
      ending: "Final answer: 0.27 (the market's 0.62 looks overconfident to me).",
      expected: 0.27,
    },
    {
      ending:
        "Probability: 30%\n\nOn reflection that is too high given the 45% base rate.\nFinal probability: 22%",
      expected: 0.22,
    },
    {
      ending: "Bottom line: 15%. Note that a 60% chance of committee delay was already priced in.",
      expected: 0.15,
    },
    {
      ending: "Final forecast — 65%\n\nConfidence level: 90% that the figure is within 10 points.",
      expected: 0.65,
    },
    {
      ending: "Preliminary estimate: 25%\nAfter adjusting for the news, I settle on 33%.",
      expected: 0.33,
    },
    { ending: "My prior was 10%, and my final estimate is 18%.", expected: 0.18 },
    {
      ending: "Final prediction: 72%\n\n(For reference, Metaculus community forecast: 58%.)",
      expected: 0.72,
    },
    {
      ending: "Base rate probability: 45%\nConfidence: 70%\n\nSo I'll go with 38%.",
      expected: 0.38,
    },
    {
      ending: "In conclusion, 12% seems right; 3 of 25 similar cases resolved Yes.",
      expected: 0.12,
    },
  ],
  "probability of NO": [
    { ending: "P(NO): 65%\n\nSo P(YES) is what remains.", expected: 0.35 },
    { ending: "Probability of NO (status quo holds): 80%", expected: 0.2 },

    { ending: "Probability of NO: 85%", expected: 0.15 },
    { ending: "P(NO) = 0.7", expected: 0.3 },
    { ending: "Probability of a No outcome: 60%", expected: 0.4 },
    { ending: "Chance of NO: 92%\n\n(That is, roughly 8% for Yes.)", expected: 0.08 },
    { ending: "Final probability of NO: 75%", expected: 0.25 },
    { ending: "Probability of YES: 35%", expected: 0.35 },
    { ending: 'Likelihood of "No": 55%', expected: 0.45 },
    { ending: "Probability for NO: 0.9", expected: 0.1 },
  ],
  range: [
    {
      ending: "Probability: 30%-40%, leaning to the lower end of a 25 point swing.",
      expected: 0.35,
    },
    { ending: "Final probability: 5–10%", expected: 0.075 },
    { ending: "My forecast: between 55 and 65 percent.", expected: 0.6 },

    { ending: "Probability: between 30% and 40%", expected: 0.35 },
    { ending: "Probability: 20-30%", expected: 0.25 },
    { ending: "Probability: 60–70%", expected: 0.65 },
    { ending: "I'd put it at 10% to 20%.", expected: 0.15 },
    { ending: "Final forecast: 45%–55%", expected: 0.5 },
    { ending: "Probability: 0.3-0.4", expected: 0.35 },
    { ending: "My estimate: somewhere in the 25 – 35% range.", expected: 0.3 },
    { ending: "Probability: between 0.15 and 0.25", expected: 0.2 },
    { ending: "Forecast: 70 to 80 percent", expected: 0.75 },
  ],
  "words and odds": [
    { ending: "Probability: about one in five.", expected: 0.2 },
    { ending: "Final forecast: forty-two percent", expected: 0.42 },
    { ending: "I'd put it at roughly 1 in 3.", expected: 1 / 3 },
    {
      ending: "This happens maybe three times out of four, so 4 to 1 against is too bearish.",
      expected: 0.75,
    },

    { ending: "I think there is about one in four chance this happens.", expected: 0.25 },
    { ending: "Overall, a two in three chance that it passes.", expected: 2 / 3 },
    { ending: "It will pass nine times out of ten.", expected: 0.9 },
    { ending: "My forecast is thirty-five percent.", expected: 0.35 },
    { ending: "I'd put the odds at 3:1 against.", expected: 0.25 },
    { ending: "Odds: 4 to 1 against.", expected: 0.2 },
    { ending: "I'd say 3 to 1 in favour of Yes.", expected: 0.75 },
    { ending: "Probability: twenty percent", expected: 0.2 },
    { ending: "Roughly a one in ten chance.", expected: 0.1 },
    { ending: "Final answer: seventy five percent", expected: 0.75 },
    { ending: "The odds are three to one against.", expected: 0.25 },
    { ending: "Odds of 2:1 in favor, so about 67%.", expected: 0.67 },
  ],
  "decimal comma": [
    { ending: "Probabilidad final: 62,5 %", expected: 0.625 },
    { ending: "Prognose: 7,5 Prozent", expected: 0.075 },
    { ending: "Probabilità: 0,15", expected: 0.15 },

    { ending: "Wahrscheinlichkeit: 35,5 %", expected: 0.355 },
    { ending: "Probabilidad: 12,5%", expected: 0.125 },
    { ending: "Prognose: 0,3 %", expected: 0.003 },
    { ending: "Probabilité : 42,5 %", expected: 0.425 },
    { ending: "Wahrscheinlichkeit: 0,35", expected: 0.35 },
    { ending: "Probability: 27,5%", expected: 0.275 },
  ],
  margin: [
    { ending: "So I think it's ~20% (±5%).", expected: 0.2 },
    { ending: "All told, roughly 35%, give or take ± 10%.", expected: 0.35 },
    { ending: "I'm at 55% (+/- 5%) on this one.", expected: 0.55 },
    { ending: "That gives me ~30% (± 7.5%) overall.", expected: 0.3 },

    { ending: "Final answer: 25% (+- 5%), 10 points below the market.", expected: 0.25 },
    { ending: "Forecast: 70% ±15%", expected: 0.7 },

    { ending: "Probability: ~20% (±5%)", expected: 0.2 },
    { ending: "Probability: 35% ± 10%", expected: 0.35 },
    { ending: "Final forecast: 60% (+/- 8%)", expected: 0.6 },
    { ending: "I estimate 45% (± 5 pp).", expected: 0.45 },
    { ending: "Probability: 0.3 (±0.05)", expected: 0.3 },
  ],
  "last conclusion": [
    { ending: "In conclusion, the 45% base rate is too high.\n\nProbability: 30%", expected: 0.3 },
    { ending: "I think the 62% market price is too rich. Probability: 41%", expected: 0.41 },

    { ending: "Taking all of this into account, I think 30% is about right.", expected: 0.3 },
    {
      ending: "The market's 62% looks rich. All things considered, I'm at 48%.",
      expected: 0.48,
    },
    { ending: "My best guess is 0.22, well below the 45% base rate.", expected: 0.22 },
    { ending: "On balance, 55% — a coin flip with a slight lean to Yes.", expected: 0.55 },
    {
      ending: "I'd estimate 15%. Analysts said 40%, but 3 of their last 5 calls missed.",
      expected: 0.15,
    },
    { ending: "So I would say about 27%.", expected: 0.27 },
  ],
  "NO in prose": [
    { ending: "I put the chance it does not pass at 85%.", expected: 0.15 },
    { ending: "The measure is 85% likely to fail.", expected: 0.15 },
    { ending: "Odds it won't happen: 85%", expected: 0.15 },
    { ending: "I see a 70% chance that the deal doesn't close on time.", expected: 0.3 },
    { ending: "There's a 60% probability the launch will not happen this year.", expected: 0.4 },
    { ending: "The probability that the bill fails is 65%.", expected: 0.35 },
    { ending: "I'm 90% sure it won't be approved.", expected: 0.1 },
    { ending: "My estimate: 75% that it does not happen.", expected: 0.25 },
    { ending: "Chance it never gets a floor vote: 0.8", expected: 0.2 },
    { ending: "I'd put the odds of it not happening at 2 in 3.", expected: 1 / 3 },
    { ending: "I put 80% on the court not ruling before June.", expected: 0.2 },
    { ending: "Probability it can't be finished in time: 55%", expected: 0.45 },
    { ending: "I'd put the chance of it not passing at 70%.", expected: 0.3 },
    { ending: "The probability isn't 50%; I'd say 30%.", expected: 0.3 },
    { ending: "The chance it passes if the court does not intervene: 40%", expected: 0.4 },
    { ending: "Probability it does not fail: 70%", expected: 0.7 },
    { ending: "There's a 40% chance it passes, not much more.", expected: 0.4 },
  ],
  "marker scope": [
    {
      ending:
        "Final: I expect only modest 60% support in the chamber, well short of the 67% needed. Probability: 30%",
      expected: 0.3,
    },
    {
      ending:
        "Final assessment: turnout near 55% and a 20% swing are needed, which is a stretch.\nProbability: 12%",
      expected: 0.12,
    },
    {
      ending: "In conclusion, support sits at 48% among likely voters. Probability: 35%",
      expected: 0.35,
    },
    { ending: "Final thoughts: 70% of experts disagree.\n\nForecast: 0.25", expected: 0.25 },
    { ending: "Bottom line: the 45% market price is too rich. I'd estimate 30%.", expected: 0.3 },
    { ending: "Final answer: it is about 40%.", expected: 0.4 },
    { ending: "Final answer: I'd say roughly 22%.", expected: 0.22 },
  ],
  "bare number after a final marker": [
    { ending: "Final answer: 35", expected: 0.35 },
    { ending: "Final answer: 35.", expected: 0.35 },
    { ending: "FINAL ANSWER: 7", expected: 0.07 },
    { ending: "Final answer — 62", expected: 0.62 },
    { ending: "My final answer is 80.", expected: 0.8 },
    { ending: "Final forecast: 12", expected: 0.12 },
    { ending: "Final probability = 90", expected: 0.9 },
    { ending: "Final answer: 0.35", expected: 0.35 },
  ],
  "verbal chance": [
    { ending: "Honestly, it's a coin flip.", expected: 0.5 },
    { ending: "Final answer: even odds.", expected: 0.5 },
    { ending: "Fifty-fifty.", expected: 0.5 },
    { ending: "I see it as a toss-up.", expected: 0.5 },
    { ending: "My forecast: 50/50.", expected: 0.5 },
    { ending: "I put it at roughly two-thirds.", expected: 2 / 3 },
    { ending: "I'd put it at three-quarters.", expected: 0.75 },
    { ending: "About a one-third chance.", expected: 1 / 3 },
    { ending: "I'd say about a quarter.", expected: 0.25 },
    { ending: "I'd put it at about half.", expected: 0.5 },
    { ending: "I'd give it a 1-in-5 chance.", expected: 0.2 },
    { ending: "Roughly a 1-in-4 shot.", expected: 0.25 },
    { ending: "It's a near certainty.", expected: null },
    { ending: "Very likely, but not certain.", expected: null },
    { ending: "I'd say it's unlikely.", expected: null },
    { ending: "Highly improbable given the timeline.", expected: null },
    { ending: "Better than 50/50, but not by much.", expected: null },
  ],
  "headings and tables": [
    { ending: "## Answer\n0.45", expected: 0.45 },
    { ending: "### Probability\n\n**61%**", expected: 0.61 },
    { ending: "# Final forecast\n17%", expected: 0.17 },
    { ending: "| Outcome | Probability |\n|---|---|\n| Yes | 40% |\n| No | 60% |", expected: 0.4 },
    { ending: "| Outcome | Chance |\n|---|---|\n| No | 75% |\n| Yes | 25% |", expected: 0.25 },
    { ending: "| Item | Value |\n|---|---|\n| Final probability | 14% |", expected: 0.14 },
  ],
  ambiguous: [
    { ending: "Probability: 0.2 or 0.3 depending on the ruling.", expected: null },
    { ending: "Final probability: 40% / 45%", expected: null },

    { ending: "Probability: 30% or 40%, I can't decide.", expected: null },
    { ending: "Final answer: 0.3 / 0.4", expected: null },
    { ending: "Final forecast: 25% or maybe 35%", expected: null },
  ],
};

interface Row {
  phrasingClass: PhrasingClass;
  reply: string;
  expected: number | null;
}

const rows: Row[] = Object.entries(PHRASINGS).flatMap(([phrasingClass, phrasings]) =>
  phrasings.flatMap((phrasing) =>
    PREAMBLES.map((preamble) => ({
      phrasingClass: phrasingClass as PhrasingClass,
      reply: `${preamble}\n\n${phrasing.ending}`,
      expected: phrasing.expected,
    })),
  ),
);

function extracted(row: Row): boolean {
  const expected =
    row.expected === null ? null : { type: "binary" as const, probability: row.expected };
  return sameAnswer(extractAnswer("binary", row.reply, null), expected, 1e-2);
}

describe("binary extraction over phrasings models use", () => {
  it.each(rows.map((row) => [row.phrasingClass, row.reply.split("\n").at(-1) ?? "", row] as const))(
    "%s: %s",
    (_phrasingClass, _ending, row) => {
      const expected =
        row.expected === null ? null : { type: "binary" as const, probability: row.expected };
      const actual = extractAnswer("binary", row.reply, null);
      expect(sameAnswer(actual, expected, 1e-2), JSON.stringify(actual)).toBe(true);
    },
  );

  it("gets at least 99.5% of the table right", () => {
    const right = rows.filter(extracted).length;
    expect(right / rows.length).toBeGreaterThanOrEqual(0.995);
  });

  // Its speed is measured by `npm run bench -- extraction`, not here.
  it("reads the final answer of a 10 kB reply", () => {
    const reply = `${PREAMBLES.join("\n\n").repeat(11)}\n\nFinal probability: 22%`;
    expect(reply.length).toBeGreaterThan(10_000);
    expect(extractAnswer("binary", reply, null)).toEqual({ type: "binary", probability: 0.22 });
  });
});
