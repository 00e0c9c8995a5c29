import { describe, expect, it } from "vitest";
import {
  type AnswerType,
  extractAnswer,
  type ForecastAnswer,
  type OptionMap,
} from "../../src/forecast/index.js";
import { sameAnswer } from "./answer-match.js";

interface Row {
  name: string;
  type: AnswerType;
  reply: string;
  options?: OptionMap;
  /** null: the reply states no valid answer and extraction must say so. */
  expected: ForecastAnswer | null;
}

const binary = (probability: number): ForecastAnswer => ({ type: "binary", probability });
const choices = (probabilities: Record<string, number>): ForecastAnswer => ({
  type: "multiple_choice",
  probabilities,
});
const quantity = (mean: number, standardDeviation: number): ForecastAnswer => ({
  type: "continuous",
  mean,
  standardDeviation,
});
const value = (figure: number): ForecastAnswer => ({
  type: "continuous_value_only",
  value: figure,
});
const text = (written: string): ForecastAnswer => ({ type: "free_response", text: written });

// z(0.9) − z(0.1): the width of the 10th–90th percentile interval in standard deviations.
const SPAN_10_90 = 2 * 1.2815515655446004;

const COLOURS: OptionMap = { A: "Red", B: "Blue", C: "Green" };
const LAUNCHES: OptionMap = { A: "0 or 1", B: "2 or 3", C: "4 or more" };
const RATES: OptionMap = { A: "Above 5%", B: "3–5%", C: "Below 3%" };
const PARTIES: OptionMap = {
  A: "Labour",
  B: "Conservative",
  C: "Liberal Democrat",
  D: "Reform UK",
};

const rows: Row[] = [
  // ── binary: Metaculus bot template ────────────────────────────────────────────────────────
  {
    name: "metaculus template, Probability: ZZ% after scenarios",
    type: "binary",
    reply: `(a) The time left until the outcome is known: about 7 months (the question closes 2025-12-31).
(b) The status quo outcome if nothing changed: No. The bill has stalled in committee.
(c) A scenario that results in a No outcome: leadership keeps it off the floor through the recess.
(d) A scenario that results in a Yes outcome: a bipartisan deal attaches it to the appropriations package.

Bills stalled this long pass within a year roughly 10–15% of the time. The recent hearing adds a little momentum, so I sit slightly above that base rate.

Probability: 18%`,
    expected: binary(0.18),
  },
  {
    name: "metaculus template with the format line echoed before the answer",
    type: "binary",
    reply: `I am asked to finish with "Probability: ZZ%", so let me first weigh the evidence.

Polymarket currently prices this at 44%, and the latest poll (June 3) shows the incumbent up 2 points.
Markets have overreacted to single polls before.

Probability: 38%`,
    expected: binary(0.38),
  },
  {
    name: "bold final probability line",
    type: "binary",
    reply: `**Outside view:** similar referendums passed 3 of the last 11 times.
**Inside view:** turnout models favour the No side.

**Final Probability: 23%**`,
    expected: binary(0.23),
  },
  {
    name: "final probability written in words",
    type: "binary",
    reply: `Taking everything into account, the strike is likely to be called off before the deadline.

Final probability: 62 percent`,
    expected: binary(0.62),
  },
  {
    name: "probability with a decimal percentage",
    type: "binary",
    reply: `Launch failures of a new vehicle on its first flight run near 30%, but this is a reflight.\n\nProbability: 7.5%`,
    expected: binary(0.075),
  },
  {
    name: "probability (Yes) label with a fraction",
    type: "binary",
    reply: `Summary of key drivers:\n- Supply constraints easing\n- Demand flat\n\nProbability (Yes): 0.08`,
    expected: binary(0.08),
  },
  {
    name: "0% stays 0, as the model gave it",
    type: "binary",
    reply: `The event already failed to occur before the deadline passed.\n\nProbability: 0%`,
    expected: binary(0),
  },
  {
    name: "100% stays 1, as the model gave it",
    type: "binary",
    reply: `The result was certified yesterday, so this has effectively resolved.\n\nProbability: 100%`,
    expected: binary(1),
  },
  {
    name: "draft probability revised further down",
    type: "binary",
    reply: `Initial estimate from base rates — Probability: 30%.

After reading the March filings, the company clearly intends to proceed, which pushes me up.

Probability: 45%`,
    expected: binary(0.45),
  },
  // ── binary: ForecastBench ─────────────────────────────────────────────────────────────────
  {
    name: "forecastbench asterisks after reasons",
    type: "binary",
    reply: `Reasons the answer might be no:
1. The Fed signalled patience at the last meeting.
2. Core inflation is still at 3.1%.

Reasons the answer might be yes:
1. The labour market is softening quickly.

Aggregating these, and weighting the market-implied odds of about 35%, my final forecast is

*0.41*`,
    expected: binary(0.41),
  },
  {
    name: "forecastbench asterisks inline at the end",
    type: "binary",
    reply: `Weighing the base rate of 12% for such upsets against the current polling lead, I arrive at *0.17*.`,
    expected: binary(0.17),
  },
  {
    name: "forecastbench bold asterisks",
    type: "binary",
    reply: `Considering the scheduled vote on 14 May and the whip count, my prediction is:\n\n**0.66**`,
    expected: binary(0.66),
  },
  // ── binary: answer tags ───────────────────────────────────────────────────────────────────
  {
    name: "answer tag with a fraction",
    type: "binary",
    reply: `The ceasefire has held for six weeks, but both sides are rearming.\n\n<answer>0.27</answer>`,
    expected: binary(0.27),
  },
  {
    name: "answer tag with spaces and newlines",
    type: "binary",
    reply: `Reasoning complete.\n<answer>\n   0.73\n</answer>`,
    expected: binary(0.73),
  },
  {
    name: "answer tag with a percentage",
    type: "binary",
    reply: `My estimate is 70% given the trend.\n<answer>73%</answer>`,
    expected: binary(0.73),
  },
  {
    name: "last of several answer tags wins",
    type: "binary",
    reply: `The required format is <answer>0.5</answer>, so let me reason first.

Approval has fallen 6 points since January and two senators defected.

<answer>0.35</answer>`,
    expected: binary(0.35),
  },
  {
    name: "answer tag cut off by a stop sequence",
    type: "binary",
    reply: `Given the delays so far, I put this at <answer>0.12`,
    expected: binary(0.12),
  },
  {
    name: "answer tag holding a percentage without sign",
    type: "binary",
    reply: `Considering everything, final answer below.\n<answer>62</answer>`,
    expected: binary(0.62),
  },
  {
    name: "answer tag holding JSON",
    type: "binary",
    reply: `<answer>{"probability": 0.81}</answer>`,
    expected: binary(0.81),
  },
  // ── binary: JSON replies ──────────────────────────────────────────────────────────────────
  {
    name: "fenced json with probability",
    type: "binary",
    reply: `Here is my forecast:

\`\`\`json
{
  "reasoning": "Incumbents in this position won 7 of 9 recent races.",
  "probability": 0.78
}
\`\`\``,
    expected: binary(0.78),
  },
  {
    name: "json prediction as a percentage number",
    type: "binary",
    reply: `{"prediction": 62, "confidence": "medium"}`,
    expected: binary(0.62),
  },
  {
    name: "json probability as a string with percent",
    type: "binary",
    reply: `Final output: {'probability': '55%', 'rationale': 'coin flip with slight lean'}`,
    expected: binary(0.55),
  },
  {
    name: "nested json with other figures",
    type: "binary",
    reply: `{"forecast": {"probability": 0.3, "sources": {"value": 12}}, "notes": "two polls"}`,
    expected: binary(0.3),
  },
  // ── binary: chat prose ────────────────────────────────────────────────────────────────────
  {
    name: "prose chance with an older figure mentioned after",
    type: "binary",
    reply: `I'd estimate a 62% chance that the measure passes, up from roughly 45% in January, mainly because the opposition has split.`,
    expected: binary(0.62),
  },
  {
    name: "prose odds of 3 in 10",
    type: "binary",
    reply: `Honestly, it is a long shot but not negligible — roughly 3 in 10.`,
    expected: binary(0.3),
  },
  {
    name: "prose decimal after a percentage about something else",
    type: "binary",
    reply: `GDP grew 2.4% last quarter and unemployment is 4.1%, so a recession call by June looks premature. Overall I'd put this at 0.15.`,
    expected: binary(0.15),
  },
  {
    name: "prose likelihood at about",
    type: "binary",
    reply: `Given the committee schedule, I estimate the likelihood at about 0.3, though a surprise floor vote could change that.`,
    expected: binary(0.3),
  },
  {
    name: "answer yes with a percentage in brackets",
    type: "binary",
    reply: `Answer: Yes (about 80%). The company has already filed the paperwork.`,
    expected: binary(0.8),
  },
  {
    name: "final answer label with a fraction",
    type: "binary",
    reply: `Let me think step by step.
1. There have been 4 such launches since 2019.
2. Only 1 slipped past its window.

Final answer: 0.62`,
    expected: binary(0.62),
  },
  {
    name: "thinking block with drafts, then the final line",
    type: "binary",
    reply: `<think>Maybe 40%... no, the new polling moves it. Something like 55% feels right. Probability: 40% was my first guess.</think>
Final answer: 0.55`,
    expected: binary(0.55),
  },
  {
    name: "reasoning whose opening tag the server dropped",
    type: "binary",
    reply: `Okay, the base rate is maybe 40%. Probability: 40% feels too high given the veto threat.
</think>

Probability: 28%`,
    expected: binary(0.28),
  },
  {
    name: "odds one in four stated as the answer",
    type: "binary",
    reply: `The base rate for a sitting governor losing a primary is low, and the challenger is underfunded. I'd say the odds are 1 in 4.`,
    expected: binary(0.25),
  },
  {
    name: "plain last figure as a percentage",
    type: "binary",
    reply: `Too many unknowns to be confident either way. My number: 35`,
    expected: binary(0.35),
  },
  {
    name: "two attached percentages, the later one is the forecast",
    type: "binary",
    reply: `There's a 70% chance of rain that weekend, but I estimate the probability of flooding at 15%.`,
    expected: binary(0.15),
  },
  {
    name: "someone else's probability, then the forecaster's own figure",
    type: "binary",
    reply: `The probability of a recession is often cited as 30% by analysts. Weighing the strong jobs data, I land on 22%.`,
    expected: binary(0.22),
  },
  {
    name: "labelled answer beats a later aside",
    type: "binary",
    reply: `My forecast: 35%.

Key uncertainties: a 10% chance of a court injunction, and the community probability is 45%.`,
    expected: binary(0.35),
  },
  {
    name: "yes and no split",
    type: "binary",
    reply: `Scenario weights:
Yes: 65%
No: 35%`,
    expected: binary(0.65),
  },
  {
    name: "heading then a bold figure",
    type: "binary",
    reply: `## Analysis
The regulator has approved 4 of 5 similar mergers since 2015.

## Final Forecast

**62%**`,
    expected: binary(0.62),
  },
  {
    name: "P(yes) notation",
    type: "binary",
    reply: `Combining the two paths: P(yes) = 0.4`,
    expected: binary(0.4),
  },
  // ── multiple choice ───────────────────────────────────────────────────────────────────────
  {
    name: "metaculus Option_X lines",
    type: "multiple_choice",
    options: COLOURS,
    reply: `The status quo favours Red, but Blue has momentum in the late polls.

Option_A: 20%
Option_B: 30%
Option_C: 50%`,
    expected: choices({ A: 0.2, B: 0.3, C: 0.5 }),
  },
  {
    name: "option names as labels (forecasting-tools style)",
    type: "multiple_choice",
    options: LAUNCHES,
    reply: `The company has 2 vehicles ready and a third in testing. Weather scrubs are common in Q4.

0 or 1: 25%
2 or 3: 55%
4 or more: 20%`,
    expected: choices({ A: 0.25, B: 0.55, C: 0.2 }),
  },
  {
    name: "markdown table with letters",
    type: "multiple_choice",
    reply: `| Option | Probability |
|--------|-------------|
| A      | 50%         |
| B      | 30%         |
| C      | 20%         |`,
    expected: choices({ A: 0.5, B: 0.3, C: 0.2 }),
  },
  {
    name: "markdown table with option names and a 0% row",
    type: "multiple_choice",
    options: PARTIES,
    reply: `Seat projections put Labour well ahead.

| Party | Probability of most seats |
|---|---|
| Labour | 82% |
| Conservative | 15% |
| Liberal Democrat | 0% |
| Reform UK | 3% |`,
    expected: choices({ A: 0.82, B: 0.15, C: 0, D: 0.03 }),
  },
  {
    name: "bullets with lettered options",
    type: "multiple_choice",
    reply: `Final distribution:
- A) 45%
- B) 35%
- C) 20%`,
    expected: choices({ A: 0.45, B: 0.35, C: 0.2 }),
  },
  {
    name: "inline letters on one line",
    type: "multiple_choice",
    reply: `After weighing the polls, my probabilities are A: 50%, B: 30%, C: 20%.`,
    expected: choices({ A: 0.5, B: 0.3, C: 0.2 }),
  },
  {
    name: "json keyed by letters",
    type: "multiple_choice",
    options: COLOURS,
    reply: `\`\`\`json\n{"A": 0.2, "B": 0.5, "C": 0.3}\n\`\`\``,
    expected: choices({ A: 0.2, B: 0.5, C: 0.3 }),
  },
  {
    name: "json keyed by Option X with percentages",
    type: "multiple_choice",
    reply: `{"Option A": 20, "Option B": 80}`,
    expected: choices({ A: 0.2, B: 0.8 }),
  },
  {
    name: "tag with percentage strings",
    type: "multiple_choice",
    options: { A: "Yes", B: "No" },
    reply: `Both outcomes remain plausible.\n<answer>{"A": "55%", "B": "45%"}</answer>`,
    expected: choices({ A: 0.55, B: 0.45 }),
  },
  {
    name: "json with the probabilities nested",
    type: "multiple_choice",
    options: COLOURS,
    reply: `{"reasoning": "Red leads every poll since May.", "probabilities": {"Red": 0.6, "Blue": 0.3, "Green": 0.1}}`,
    expected: choices({ A: 0.6, B: 0.3, C: 0.1 }),
  },
  {
    name: "tag with a python dict",
    type: "multiple_choice",
    reply: `<answer>{'A': 0.7, 'B': 0.3}</answer>`,
    expected: choices({ A: 0.7, B: 0.3 }),
  },
  {
    name: "a 0% option is kept",
    type: "multiple_choice",
    options: COLOURS,
    reply: `Red has been eliminated from contention.\n\nOption_A: 0%\nOption_B: 70%\nOption_C: 30%`,
    expected: choices({ A: 0, B: 0.7, C: 0.3 }),
  },
  {
    name: "a known option left out gets 0",
    type: "multiple_choice",
    options: PARTIES,
    reply: `A: 60%\nB: 30%\nC: 10%`,
    expected: choices({ A: 0.6, B: 0.3, C: 0.1, D: 0 }),
  },
  {
    name: "draft list replaced by the final list",
    type: "multiple_choice",
    options: COLOURS,
    reply: `First pass:
A: 30%
B: 70%

On reflection Green's late surge matters more than I allowed for.

Final:
A: 40%
B: 35%
C: 25%`,
    expected: choices({ A: 0.4, B: 0.35, C: 0.25 }),
  },
  {
    name: "probabilities a few points off 100 are normalized",
    type: "multiple_choice",
    reply: `A: 50%\nB: 40%\nC: 15%`,
    expected: choices({ A: 0.5 / 1.05, B: 0.4 / 1.05, C: 0.15 / 1.05 }),
  },
  {
    name: "probabilities summing to 120% contradict each other: no answer",
    type: "multiple_choice",
    reply: `A: 50%\nB: 40%\nC: 30%`,
    expected: null,
  },
  {
    name: "bold option labels",
    type: "multiple_choice",
    reply: `**Option A:** 35%\n**Option B:** 40%\n**Option C:** 25%`,
    expected: choices({ A: 0.35, B: 0.4, C: 0.25 }),
  },
  {
    name: "parenthesized letters with option text",
    type: "multiple_choice",
    reply: `(A) Yes, before July: 60%\n(B) Yes, after July: 25%\n(C) No: 15%`,
    expected: choices({ A: 0.6, B: 0.25, C: 0.15 }),
  },
  {
    name: "em dash separators",
    type: "multiple_choice",
    reply: `Option A — 50%\nOption B — 30%\nOption C — 20%`,
    expected: choices({ A: 0.5, B: 0.3, C: 0.2 }),
  },
  {
    name: "reasoning between the option lines",
    type: "multiple_choice",
    options: COLOURS,
    reply: `A) Red: 50% — strong polling lead in the north.
The incumbent also has the larger ground game.
B) Blue: 30%
Blue's recent endorsements matter, but late.
C) Green: 20%`,
    expected: choices({ A: 0.5, B: 0.3, C: 0.2 }),
  },
  {
    name: "option texts that contain percentages",
    type: "multiple_choice",
    options: RATES,
    reply: `A) Above 5%: 30%\nB) 3–5%: 50%\nC) Below 3%: 20%`,
    expected: choices({ A: 0.3, B: 0.5, C: 0.2 }),
  },
  {
    name: "fractions instead of percentages",
    type: "multiple_choice",
    reply: `Option_A: 0.1\nOption_B: 0.6\nOption_C: 0.3`,
    expected: choices({ A: 0.1, B: 0.6, C: 0.3 }),
  },
  {
    name: "numbered list of option names with dashes",
    type: "multiple_choice",
    options: COLOURS,
    reply: `Probabilities:
1. Red - 50%
2. Blue - 30%
3. Green - 20%`,
    expected: choices({ A: 0.5, B: 0.3, C: 0.2 }),
  },
  {
    name: "percentages in brackets after the options",
    type: "multiple_choice",
    options: COLOURS,
    reply: `A) Red (50%)
B) Blue (30%)
C) Green (20%)`,
    expected: choices({ A: 0.5, B: 0.3, C: 0.2 }),
  },
  {
    name: "option names in a sentence",
    type: "multiple_choice",
    options: COLOURS,
    reply: `Putting it together, I'd give Red 50%, Blue 30%, and Green 20%.`,
    expected: choices({ A: 0.5, B: 0.3, C: 0.2 }),
  },
  {
    name: "letters and percentages without colons",
    type: "multiple_choice",
    reply: `Final probabilities: A 50%, B 30%, C 20%`,
    expected: choices({ A: 0.5, B: 0.3, C: 0.2 }),
  },
  {
    name: "letters separated by pipes",
    type: "multiple_choice",
    reply: `A: 40% | B: 35% | C: 25%`,
    expected: choices({ A: 0.4, B: 0.35, C: 0.25 }),
  },
  // ── continuous ────────────────────────────────────────────────────────────────────────────
  {
    name: "metaculus percentile lines with thousands separators",
    type: "continuous",
    reply: `The last thing I write is my final answer as:
Percentile 10: XX (lowest number value)
...

Historical monthly sales ranged from 900 to 1,800 units.

Percentile 10: 1,200
Percentile 20: 1,300
Percentile 40: 1,420
Percentile 60: 1,500
Percentile 80: 1,640
Percentile 90: 1,750`,
    expected: quantity(1475, 550 / SPAN_10_90),
  },
  {
    name: "percentiles with a stated median",
    type: "continuous",
    reply: `10th percentile: 30\n50th percentile: 40\n90th percentile: 55`,
    expected: quantity(40, 25 / SPAN_10_90),
  },
  {
    name: "answer tag with mean and standard_deviation",
    type: "continuous",
    reply: `Based on the trend since 2021:\n<answer>{"mean": 42.5, "standard_deviation": 5.2}</answer>`,
    expected: quantity(42.5, 5.2),
  },
  {
    name: "answer tag JSON across lines",
    type: "continuous",
    reply: `<answer>
{
  "mean": 3.4,
  "standard_deviation": 0.25
}
</answer>`,
    expected: quantity(3.4, 0.25),
  },
  {
    name: "tag JSON with percentiles",
    type: "continuous",
    reply: `<answer>{"p10": 120, "p50": 150, "p90": 190}</answer>`,
    expected: quantity(150, 70 / SPAN_10_90),
  },
  {
    name: "json with std",
    type: "continuous",
    reply: `My forecast: {"mean": 118.2, "std": 7}`,
    expected: quantity(118.2, 7),
  },
  {
    name: "prose mean and standard deviation",
    type: "continuous",
    reply: `I would centre the distribution on a mean 42.5 with a standard deviation 5.2, reflecting the volatile recent months.`,
    expected: quantity(42.5, 5.2),
  },
  {
    name: "median and std dev labels",
    type: "continuous",
    reply: `Median: 40\nStd dev = 5`,
    expected: quantity(40, 5),
  },
  {
    name: "greek letters",
    type: "continuous",
    reply: `Modelling this as a normal distribution: μ = 100, σ = 12.`,
    expected: quantity(100, 12),
  },
  {
    name: "expected value and SD",
    type: "continuous",
    reply: `Expected value: 3.2\nSD: 0.4`,
    expected: quantity(3.2, 0.4),
  },
  {
    name: "plus-minus",
    type: "continuous",
    reply: `Final estimate: 42.5 ± 5.2 points.`,
    expected: quantity(42.5, 5.2),
  },
  {
    name: "range as the last resort",
    type: "continuous",
    reply: `I expect the reading to land between 30 and 50, most likely near the middle.`,
    expected: quantity(40, 20 / SPAN_10_90),
  },
  {
    name: "dollar amounts with k",
    type: "continuous",
    reply: `Mean: $42.5k\nStandard deviation: $5k`,
    expected: quantity(42500, 5000),
  },
  {
    name: "negative mean",
    type: "continuous",
    reply: `GDP growth for the quarter:\nMean: -1.5\nStandard deviation: 0.8`,
    expected: quantity(-1.5, 0.8),
  },
  {
    name: "point estimate with thousands",
    type: "continuous",
    reply: `Point estimate: 1,250\nStandard deviation: 150`,
    expected: quantity(1250, 150),
  },
  {
    name: "millions in words",
    type: "continuous",
    reply: `Expected value: 5 million viewers, standard deviation 1.2 million.`,
    expected: quantity(5e6, 1.2e6),
  },
  {
    name: "percentages kept on their own scale",
    type: "continuous",
    reply: `Unemployment in December:\nPercentile 10: 3.9%\nPercentile 90: 4.7%`,
    expected: quantity(4.3, 0.8 / SPAN_10_90),
  },
  {
    name: "forecast figure with a standard deviation of",
    type: "continuous",
    reply: `I forecast 42.5 with a standard deviation of 5, since the last six prints varied that much.`,
    expected: quantity(42.5, 5),
  },
  {
    name: "median estimate and an 80% interval",
    type: "continuous",
    reply: `My median estimate is 40 with an 80% interval of 30 to 50.`,
    expected: quantity(40, 20 / SPAN_10_90),
  },
  {
    name: "5th and 95th percentiles",
    type: "continuous",
    reply: `Percentile 5: 10
Percentile 95: 50`,
    expected: quantity(30, 40 / (2 * 1.6448536269514722)),
  },
  // ── continuous, value only ────────────────────────────────────────────────────────────────
  {
    name: "value tag",
    type: "continuous_value_only",
    reply: `Based on the seasonal pattern:\n<answer>42.5</answer>`,
    expected: value(42.5),
  },
  {
    name: "final answer with thousands separators",
    type: "continuous_value_only",
    reply: `Adding the three regional estimates gives the total.\n\nFinal answer: 1,250`,
    expected: value(1250),
  },
  {
    name: "best estimate in billions",
    type: "continuous_value_only",
    reply: `My best estimate is around $3.2 billion, given last year's $2.9 billion.`,
    expected: value(3.2e9),
  },
  {
    name: "negative prediction",
    type: "continuous_value_only",
    reply: `The anomaly has been negative all winter.\nPrediction: -4.5`,
    expected: value(-4.5),
  },
  {
    name: "prose figure with a year after it",
    type: "continuous_value_only",
    reply: `I expect roughly 4,500 units by 2030.`,
    expected: value(4500),
  },
  {
    name: "median only",
    type: "continuous_value_only",
    reply: `Median: 72`,
    expected: value(72),
  },
  {
    name: "the answer is",
    type: "continuous_value_only",
    reply: `Summing the district counts, the answer is 42.`,
    expected: value(42),
  },
  {
    name: "a rate written with a percent sign keeps its scale",
    type: "continuous_value_only",
    reply: `Inflation should ease slightly, to around 3.5%.`,
    expected: value(3.5),
  },
  // ── free response ─────────────────────────────────────────────────────────────────────────
  {
    name: "free response tag",
    type: "free_response",
    reply: `Looking at the seat projections...\n<answer>The incumbent party retains control of the chamber.</answer>`,
    expected: text("The incumbent party retains control of the chamber."),
  },
  {
    name: "free response last paragraph with an answer label",
    type: "free_response",
    reply: `The party leadership rules make a contest unlikely before the conference.

The most likely successor is the current deputy.

Final answer: Angela Rayner`,
    expected: text("Angela Rayner"),
  },
  {
    name: "free response tag with newlines",
    type: "free_response",
    reply: `<answer>\n  Paris\n</answer>`,
    expected: text("Paris"),
  },
  // ── no valid answer ───────────────────────────────────────────────────────────────────────
  {
    name: "binary without any figure",
    type: "binary",
    reply: `I don't have enough information to forecast this question.`,
    expected: null,
  },
  {
    name: "binary with an out-of-range percentage",
    type: "binary",
    reply: `Probability: 150%`,
    expected: null,
  },
  {
    name: "binary tag with a negative number",
    type: "binary",
    reply: `<answer>-0.3</answer>`,
    expected: null,
  },
  {
    name: "binary tag with an out-of-range figure",
    type: "binary",
    reply: `Hard to say.\n<answer>350</answer>`,
    expected: null,
  },
  {
    name: "multiple choice without figures",
    type: "multiple_choice",
    options: COLOURS,
    reply: `I can't decide between Red and Blue; both seem plausible.`,
    expected: null,
  },
  {
    name: "multiple choice with every option at 0%",
    type: "multiple_choice",
    reply: `A: 0%\nB: 0%`,
    expected: null,
  },
  {
    name: "continuous with a mean but no spread",
    type: "continuous",
    reply: `Mean: 40`,
    expected: null,
  },
  {
    name: "continuous with a negative standard deviation",
    type: "continuous",
    reply: `Mean: 40\nStandard deviation: -3`,
    expected: null,
  },
  {
    name: "value only without a figure",
    type: "continuous_value_only",
    reply: `It is impossible to say.`,
    expected: null,
  },
  {
    name: "free response with an empty reply",
    type: "free_response",
    reply: "   \n  ",
    expected: null,
  },
];

function extractedCorrectly(row: Row): boolean {
  return sameAnswer(extractAnswer(row.type, row.reply, row.options ?? null), row.expected);
}

describe("extractAnswer over real-world reply phrasings", () => {
  it.each(rows)("$type: $name", (row) => {
    const actual = extractAnswer(row.type, row.reply, row.options ?? null);
    expect(sameAnswer(actual, row.expected), `got ${JSON.stringify(actual)}`).toBe(true);
  });

  it("covers every answer type with at least 60 answerable rows", () => {
    const answerable = rows.filter((row) => row.expected !== null);
    expect(answerable.length).toBeGreaterThanOrEqual(60);
    expect(new Set(answerable.map((row) => row.type)).size).toBe(5);
  });

  it("extracts every answerable row (extraction rate)", () => {
    const answerable = rows.filter((row) => row.expected !== null);
    const correct = answerable.filter(extractedCorrectly).length;
    const rate = correct / answerable.length;
    console.log(`extraction rate: ${correct}/${answerable.length} = ${(rate * 100).toFixed(1)}%`);
    expect(rate).toBe(1);
  });
});
