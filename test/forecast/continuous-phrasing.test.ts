import { describe, expect, it } from "vitest";
import { extractAnswer, type ForecastAnswer } from "../../src/forecast/index.js";
import { sameAnswer } from "./answer-match.js";

interface Row {
  name: string;
  reply: string;
  /** null: the reply states no complete answer and extraction must say so. */
  expected: ForecastAnswer | null;
}

const quantity = (mean: number, standardDeviation: number): ForecastAnswer => ({
  type: "continuous",
  mean,
  standardDeviation,
});

// Upper-bound z-scores of central intervals: 95%, 90%, 80% and 50% (interquartile).
const Z95 = 1.959963984540054;
const Z90 = 1.6448536269514722;
const Z80 = 1.2815515655446004;
const Z50 = 0.6744897501960817;

const fromInterval = (low: number, high: number, z: number, mean = (low + high) / 2) =>
  quantity(mean, (high - low) / (2 * z));

const wordsAndSymbols: Row[] = [
  {
    name: "σ in brackets after a labelled figure",
    reply: `Tesla delivered 1,808,581 vehicles in 2023 and 1,789,226 in 2024. Q1 2025 came in at
336,681, down 13% year on year, and the new Model Y ramp adds maybe 50k per quarter.

Expected deliveries: 1,750,000 (σ = 150,000)`,
    expected: quantity(1_750_000, 150_000),
  },
  {
    name: "best estimate with an uncertainty line",
    reply: `The party won 211 seats in 2019 and 365 in the landslide before that; the current
polling average (34%) maps to a wide band.

Best estimate: 240 seats. Uncertainty (1 sd): 45 seats`,
    expected: quantity(240, 45),
  },
  {
    name: "SD in brackets after the figure and its unit",
    reply: `Across the last 6 seasons the average was 12.1 goals with a peak of 17.

My forecast: 14.2 goals (SD 2.1)`,
    expected: quantity(14.2, 2.1),
  },
  {
    name: "μ and σ symbols",
    reply: `Historical monthly values range from 58 to 91 (2015–2024).

μ = 72, σ = 9`,
    expected: quantity(72, 9),
  },
  {
    name: "expected value with a one-sigma spread",
    reply: `Sales were 2,950 units last quarter and 3,120 the one before.

Expected value ~ 3,400 with a 1-sigma spread of 600.`,
    expected: quantity(3400, 600),
  },
  {
    name: "plus-minus with the scale written once",
    reply: `Attendance in 2022 was 2.7 million and in 2023 2.9 million.

I estimate 3.2 ± 0.4 million visitors.`,
    expected: quantity(3_200_000, 400_000),
  },
  {
    name: "standard deviation in a sentence",
    reply: `Inflation printed 3.1% in March after 3.4% in February.

My central estimate is 2.8% with a standard deviation of 0.4.`,
    expected: quantity(2.8, 0.4),
  },
  {
    name: "a poll's margin of error before the answer lines",
    reply: `The latest poll had the measure at 45% ± 3 (n = 1,000), and 41% of voters ± 4 in the
spring wave.

Mean: 48%
SD: 4%`,
    expected: quantity(48, 4),
  },
  {
    name: "a historical average with its SD before the forecast",
    reply: `The average was 40 (SD 5) over 2010–2020.

My forecast: 48 ± 4`,
    expected: quantity(48, 4),
  },
  {
    name: "standard deviation labelled in bold",
    reply: `**Expected value:** 3.6 million
**Standard deviation:** 0.5 million

Last year: 3.1 million; the year before: 2.8 million.`,
    expected: quantity(3_600_000, 500_000),
  },
  {
    name: "plus-minus with scales on both figures",
    reply: `Shipments were 1.62M in 2024.\n\nForecast: 1.75M ± 0.15M`,
    expected: quantity(1_750_000, 150_000),
  },
  {
    name: "mean and sigma on one line",
    reply: `Prior readings: 48.1, 50.6, 49.9.\n\nMean = 52.3; σ = 6.8`,
    expected: quantity(52.3, 6.8),
  },
  {
    name: "mean stated in a sentence with its SD",
    reply: `Looking at the 12 comparable cases, I'd put the mean at 72 with SD 9.`,
    expected: quantity(72, 9),
  },
  {
    name: "figures written as words in a JSON object",
    reply: '```json\n{"mean": "1.75 million", "standard_deviation": "150k"}\n```',
    expected: quantity(1_750_000, 150_000),
  },
];

const scientific: Row[] = [
  {
    name: "times ten to the power",
    reply: `The 2024 count was 2.6 × 10^6 and growth has averaged 12% a year since 2019.

mean ≈ 3.1 × 10^6, σ ≈ 4 × 10^5`,
    expected: quantity(3.1e6, 4e5),
  },
  {
    name: "e-notation labels",
    reply: `Mean: 2.4e9
Standard deviation: 3.5e8`,
    expected: quantity(2.4e9, 3.5e8),
  },
  {
    name: "superscript exponents",
    reply: `Estimated particles detected: mean 6.2×10⁸, standard deviation 1.1×10⁸ (previous run: 5.9×10⁸).

Mean: 6.2×10⁸
SD: 1.1×10⁸`,
    expected: quantity(6.2e8, 1.1e8),
  },
];

const tables: Row[] = [
  {
    name: "statistic/value table",
    reply: `Summary of my forecast for the 2026 median home price (USD thousands):

| Statistic | Value |
|---|---|
| Mean | 412.5 |
| Standard deviation | 27.3 |
| 2025 actual | 398 |`,
    expected: quantity(412.5, 27.3),
  },
  {
    name: "one row under a header",
    reply: `Based on the 14 most recent launches:

| Mean | Std. dev. |
|:----:|:---------:|
| 86.4 | 7.9 |`,
    expected: quantity(86.4, 7.9),
  },
  {
    name: "percentile table",
    reply: `| Percentile | Value |
|---|---|
| 5th | 134 |
| 25th | 173 |
| 50th | 200 |
| 75th | 227 |
| 95th | 266 |`,
    expected: fromInterval(134, 266, Z90, 200),
  },
];

const percentiles: Row[] = [
  {
    name: "5/25/50/75/95 percentile list",
    reply: `Ridership in 2024 was 1.21 billion trips; 2019 had 1.69 billion.

- 5th percentile: 1.10 billion
- 25th percentile: 1.22 billion
- 50th percentile: 1.30 billion
- 75th percentile: 1.38 billion
- 95th percentile: 1.50 billion`,
    expected: fromInterval(1.1e9, 1.5e9, Z90, 1.3e9),
  },
  {
    name: "P-labels without a median",
    reply: `P5 = 40, P25 = 52, P75 = 68, P95 = 80`,
    expected: fromInterval(40, 80, Z90),
  },
];

const intervals: Row[] = [
  {
    name: "point estimate with a 95% CI",
    reply: `The last 3 quarters grew 41, 47 and 50 thousand.

Point estimate: 52 (95% CI: 40–64)`,
    expected: fromInterval(40, 64, Z95, 52),
  },
  {
    name: "90% credible interval in brackets",
    reply: `Median: 40
90% credible interval: [30, 50]`,
    expected: fromInterval(30, 50, Z90, 40),
  },
  {
    name: "interquartile range",
    reply: `Over 2015–2024 the figure ranged from 22 to 61.

Median 40, interquartile range 35 to 45.`,
    expected: fromInterval(35, 45, Z50, 40),
  },
  {
    name: "IQR abbreviation",
    reply: `Median: 120
IQR: 100–140`,
    expected: fromInterval(100, 140, Z50, 120),
  },
  {
    name: "level stated after the interval",
    reply: `Comparable launches sold between 0.5 and 2.5 million units.

My range is 0.8 to 1.6 (95% CI), centred at 1.2.`,
    expected: fromInterval(0.8, 1.6, Z95),
  },
  {
    name: "80% interval keeps the usual reading",
    reply: `Mean: 1,500 units
The 80% prediction interval is 1,200 to 1,800 units.`,
    expected: fromInterval(1200, 1800, Z80, 1500),
  },
  {
    name: "25th–75th percentile range",
    reply: `Median forecast: 160
25th–75th percentile: 140–180`,
    expected: fromInterval(140, 180, Z50, 160),
  },
  {
    name: "estimate with a 90% CI in brackets",
    reply: `Q2 came in at 3,950 and Q1 at 3,610.\n\nEstimate: 4,200 (90% CI 3,500–5,000)`,
    expected: fromInterval(3500, 5000, Z90, 4200),
  },
  {
    name: "95% confidence interval alone",
    reply: `Past values: 22 (2021), 27 (2022), 35 (2023).\n\n95% confidence interval: 30 to 50`,
    expected: fromInterval(30, 50, Z95),
  },
  {
    name: "level in brackets after the word range",
    reply: `Range (95%): 30–50`,
    expected: fromInterval(30, 50, Z95),
  },
  {
    name: "10th–90th percentile range with a median",
    reply: `Median 50, 10th–90th percentile: 40–60`,
    expected: fromInterval(40, 60, Z80, 50),
  },
  {
    name: "mean with a bracketed 95% CI and a year span before it",
    reply: `The 2019–2023 average was 61.\n\nMean: 70\n95% CI: [55, 85]`,
    expected: fromInterval(55, 85, Z95, 70),
  },
];

// Percentile lists without the word "percentile" on every line.
const unlabelledPercentiles: Row[] = [
  ...[
    "5%: 134\n25%: 173\n50%: 200\n75%: 227\n95%: 266",
    "- 5%: 134\n- 50%: 200\n- 95%: 266",
    "P5 = 134\nP25 = 173\nP50 = 200\nP75 = 227\nP95 = 266",
    "P5: 134, P50: 200, P95: 266",
    "5th: 134\n25th: 173\n50th: 200\n75th: 227\n95th: 266",
    "The median is 200. The 5th percentile is 134 and the 95th percentile is 266.",
    "Median estimate: 200\nThe 5th percentile is 134 and the 95th is 266.",
    "Percentiles:\n* 5th: 134\n* 50th: 200\n* 95th: 266",
  ].map((reply) => ({ name: reply, reply, expected: fromInterval(134, 266, Z90, 200) })),
  {
    name: "10/90 lines with percent signs",
    reply: "10%: 30\n50%: 45\n90%: 60",
    expected: fromInterval(30, 60, Z80, 45),
  },
  {
    name: "quartile lines",
    reply: "25th: 100\n50th: 120\n75th: 140",
    expected: fromInterval(100, 140, Z50, 120),
  },
];

// A spread in the reasoning ("polling at 24% ± 3") is evidence; a later statement is the answer.
const spreadInReasoning: Row[] = [
  {
    name: "poll margin, then a percentile list",
    reply:
      "Current polling is 24% ± 3.\n\n- 5th percentile: 110\n- 50th percentile: 160\n- 95th percentile: 210",
    expected: fromInterval(110, 210, Z90, 160),
  },
  {
    name: "poll margin, then an interval with its level",
    reply: "Polling: 24% ± 3.\n\nI expect about 150 seats, with a 95% interval of 100 to 200.",
    expected: fromInterval(100, 200, Z95, 150),
  },
  {
    name: "poll margin, then a revised mean and SD",
    reply: "Polling: 24% ± 3.\n\nFirst pass: mean 200, SD 40.\nRevised: mean 185, SD 50.",
    expected: quantity(185, 50),
  },
  {
    name: "historical figure with a spread, then the forecast with its own",
    reply: "The average was 40 ± 5 over 2010–2020.\n\nMy forecast: 48 ± 4",
    expected: quantity(48, 4),
  },
];

const intervalScalesAndLanguages: Row[] = [
  {
    name: "scale written once at the end of a 95% CI",
    reply: "Point estimate: 1.75 million (95% CI: 1.5–2.0 million)",
    expected: fromInterval(1_500_000, 2_000_000, Z95, 1_750_000),
  },
  {
    name: "scale on both ends of a 90% interval",
    reply: "Median: 2.4bn\n90% interval: 2.0bn–2.8bn",
    expected: fromInterval(2e9, 2.8e9, Z90, 2.4e9),
  },
  {
    name: "German labels with decimal commas",
    reply: "Mittelwert: 12,5\nStandardabweichung: 2,1",
    expected: quantity(12.5, 2.1),
  },
  {
    name: "French labels with decimal commas",
    reply: "Moyenne : 42,5\nÉcart-type : 3,2",
    expected: quantity(42.5, 3.2),
  },
  {
    name: "Spanish labels with decimal commas",
    reply: "Media: 7,25\nDesviación estándar: 0,8",
    expected: quantity(7.25, 0.8),
  },
  {
    name: "German interval with bis",
    reply: "Schätzung: 12,5 (95-%-Konfidenzintervall: 10,5 bis 14,5)",
    expected: fromInterval(10.5, 14.5, Z95, 12.5),
  },
  {
    name: "thousands separators stay thousands",
    reply: "Mean: 1,250\nSD: 150",
    expected: quantity(1250, 150),
  },
];

const incomplete: Row[] = [
  {
    name: "a mean with no spread",
    reply: `Expected value: 3,400 units.`,
    expected: null,
  },
  {
    name: "a negative standard deviation",
    reply: `{"mean": 40, "standard_deviation": -5}`,
    expected: null,
  },
];

const rows = [
  ...wordsAndSymbols,
  ...scientific,
  ...tables,
  ...percentiles,
  ...intervals,
  ...unlabelledPercentiles,
  ...spreadInReasoning,
  ...intervalScalesAndLanguages,
  ...incomplete,
];

function extractedCorrectly(row: Row): boolean {
  return sameAnswer(extractAnswer("continuous", row.reply, null), row.expected);
}

describe("continuous answers however the model phrases them", () => {
  it.each(rows)("$name", (row) => {
    const actual = extractAnswer("continuous", row.reply, null);
    expect(sameAnswer(actual, row.expected), `got ${JSON.stringify(actual)}`).toBe(true);
  });

  it("reads every answerable row", () => {
    const answerable = rows.filter((row) => row.expected !== null);
    expect(answerable.filter(extractedCorrectly).length).toBe(answerable.length);
  });
});

describe("single values however the model phrases them", () => {
  const value = (figure: number): ForecastAnswer => ({
    type: "continuous_value_only",
    value: figure,
  });
  const singles: { name: string; reply: string; expected: ForecastAnswer }[] = [
    {
      name: "power of ten",
      reply: `Last year's figure was 2.9 × 10^4.\n\nFinal answer: 3.2 × 10^4`,
      expected: value(3.2e4),
    },
    {
      name: "decimal comma",
      reply: "Prognose: 3,75",
      expected: value(3.75),
    },
    {
      name: "revised estimate after an initial one",
      reply: "Initial estimate: 150. Revised estimate after the polls: 170.",
      expected: value(170),
    },
    {
      name: "table row",
      reply: `| Quantity | Value |\n|---|---|\n| 2024 actual | 61 |\n| Forecast | 68.5 |`,
      expected: value(68.5),
    },
  ];
  it.each(singles)("$name", (row) => {
    const actual = extractAnswer("continuous_value_only", row.reply, null);
    expect(sameAnswer(actual, row.expected), `got ${JSON.stringify(actual)}`).toBe(true);
  });
});
