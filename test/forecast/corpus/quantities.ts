import type { ForecastAnswer } from "../../../src/forecast/index.js";
import { type CorpusReply, FENCE, quantity, single } from "./reply.js";

// Upper-bound z-scores of central intervals: 95%, 90%, 80% and 50% (interquartile).
const Z95 = 1.959963984540054;
const Z90 = 1.6448536269514722;
const Z80 = 1.2815515655446004;
const Z50 = 0.6744897501960817;

const interval = (low: number, high: number, z: number, mean = (low + high) / 2) =>
  quantity(mean, (high - low) / (2 * z));

const DELIVERIES = `Tesla delivered 1,808,581 vehicles in 2023 and 1,789,226 in 2024. Q1 2025 came in at 336,681, down 13% year on year. The refreshed Model Y adds maybe 50k per quarter from Q3, while China competition (BYD sold 4.27 million in 2024) caps share gains. Management guided to "growth" without a number; consensus sits at 1.85 million, down from 2.2 million in January.`;

const SEATS = `In 2019 the party won 365 seats; in 2024 it won 121. Current polling (24% ± 3) is 5 points above the 2024 result. Using a uniform swing model, each point is worth about 12 seats in the 60–140 seat range, and tactical voting could move 20–30 seats either way.`;

const PRICES = `The median home price was $398k in 2025, up 4.2% from $382k in 2024. Mortgage rates fell from 7.1% to 6.4%; inventory is 3.8 months of supply versus 6 in a balanced market. Over 2010–2024 annual growth ranged from -3% to +17%.`;

const row = (
  id: string,
  reply: string,
  expected: ForecastAnswer | null,
  question?: string,
): CorpusReply => ({
  id: `continuous/${id}`,
  type: "continuous",
  reply,
  expected,
  ...(question === undefined ? {} : { question }),
});

const valueRow = (
  id: string,
  reply: string,
  expected: ForecastAnswer | null,
  question?: string,
) => ({
  ...row(id, reply, expected, question),
  id: `value/${id}`,
  type: "continuous_value_only" as const,
});

const meanAndSpread: CorpusReply[] = [
  row(
    "mean and sd lines after analysis",
    `${DELIVERIES}\n\nMean: 1,780,000\nStandard deviation: 120,000`,
    quantity(1_780_000, 120_000),
  ),
  row(
    "sigma in brackets",
    `${DELIVERIES}\n\nExpected deliveries: 1,750,000 (σ = 150,000)`,
    quantity(1_750_000, 150_000),
  ),
  row(
    "uncertainty line in seats",
    `${SEATS}\n\nBest estimate: 240 seats. Uncertainty (1 sd): 45 seats`,
    quantity(240, 45),
  ),
  row(
    "json mean and standard deviation",
    `${FENCE}json\n{"mean": 412.5, "standard_deviation": 27.3}\n${FENCE}`,
    quantity(412.5, 27.3),
  ),
  row("json mean and std", '{"mean": 86.4, "std": 7.9}', quantity(86.4, 7.9)),
  row("json mu and sigma", '{"mu": 52.3, "sigma": 6.8}', quantity(52.3, 6.8)),
  row("plus minus", `${SEATS}\n\nMy forecast: 150 ± 25 seats`, quantity(150, 25)),
  row("mean and sigma symbols", "μ = 72, σ = 9", quantity(72, 9)),
  row("sd in brackets after unit", "My forecast: 14.2 goals (SD 2.1)", quantity(14.2, 2.1)),
  row(
    "standard deviation in a sentence",
    "My central estimate is 2.8% with a standard deviation of 0.4.",
    quantity(2.8, 0.4),
  ),
  row("e notation", "Mean: 2.4e9\nStandard deviation: 3.5e8", quantity(2.4e9, 3.5e8)),
  row("times ten to the power", "mean ≈ 3.1 × 10^6, σ ≈ 4 × 10^5", quantity(3.1e6, 4e5)),
  row("superscript exponents", "Mean: 6.2×10⁸\nSD: 1.1×10⁸", quantity(6.2e8, 1.1e8)),
  row(
    "bold labels with million",
    "**Expected value:** 3.6 million\n**Standard deviation:** 0.5 million",
    quantity(3_600_000, 500_000),
  ),
  row(
    "plus minus with scale once",
    "I estimate 3.2 ± 0.4 million visitors.",
    quantity(3_200_000, 400_000),
  ),
  row(
    "table mean and sd",
    `${PRICES}\n\n| Statistic | Value |\n|---|---|\n| Mean | 412.5 |\n| Standard deviation | 27.3 |\n| 2025 actual | 398 |`,
    quantity(412.5, 27.3),
  ),
  row(
    "answer tag json",
    `${PRICES}\n\n<answer>{"mean": 415, "standard_deviation": 22}</answer>`,
    quantity(415, 22),
  ),
  row("German decimal commas", "Mittelwert: 12,5\nStandardabweichung: 2,1", quantity(12.5, 2.1)),
  row("French decimal commas", "Moyenne : 42,5\nÉcart-type : 3,2", quantity(42.5, 3.2)),
  row("Spanish decimal commas", "Media: 7,25\nDesviación estándar: 0,8", quantity(7.25, 0.8)),
  row(
    "revised mean",
    `${SEATS}\n\nFirst pass: mean 200, SD 40.\nRevised after the tactical voting note: mean 185, SD 50.`,
    quantity(185, 50),
  ),
  row(
    "final answer line with sd",
    `${DELIVERIES}\n\n**Final answer:** mean 1.72 million, standard deviation 0.11 million`,
    quantity(1_720_000, 110_000),
  ),
  row("bullets mean and sd", "- Mean: 64.5\n- SD: 5.5\n- Previous value: 61", quantity(64.5, 5.5)),
  row(
    "expected value with one sigma spread",
    "Expected value ~ 3,400 with a 1-sigma spread of 600.",
    quantity(3400, 600),
  ),
  row("mean only is incomplete", "Expected value: 3,400 units.", null),
];

const percentileLists: CorpusReply[] = [
  row(
    "five percentile lines",
    `${SEATS}\n\n- 5th percentile: 110\n- 25th percentile: 140\n- 50th percentile: 160\n- 75th percentile: 180\n- 95th percentile: 210`,
    interval(110, 210, Z90, 160),
  ),
  row(
    "percent colon lines",
    "5%: 134\n25%: 173\n50%: 200\n75%: 227\n95%: 266",
    interval(134, 266, Z90, 200),
  ),
  row(
    "P equals lines",
    "P5 = 134\nP25 = 173\nP50 = 200\nP75 = 227\nP95 = 266",
    interval(134, 266, Z90, 200),
  ),
  row("ordinal colon lines", "5th: 134\n50th: 200\n95th: 266", interval(134, 266, Z90, 200)),
  row(
    "percentiles in sentences",
    "The median is 200. The 5th percentile is 134 and the 95th percentile is 266.",
    interval(134, 266, Z90, 200),
  ),
  row(
    "ten fifty ninety",
    `${PRICES}\n\n10th percentile: 380\n50th percentile: 410\n90th percentile: 440`,
    interval(380, 440, Z80, 410),
  ),
  row(
    "P10 P50 P90 inline",
    "P10: 1.5M, P50: 1.8M, P90: 2.1M",
    interval(1_500_000, 2_100_000, Z80, 1_800_000),
  ),
  row(
    "percentile table",
    "| Percentile | Value |\n|---|---|\n| 5th | 134 |\n| 25th | 173 |\n| 50th | 200 |\n| 75th | 227 |\n| 95th | 266 |",
    interval(134, 266, Z90, 200),
  ),
  row(
    "quartiles and median",
    "Median: 120\n25th percentile: 100\n75th percentile: 140",
    interval(100, 140, Z50, 120),
  ),
  row("percentiles without median", "P5 = 40, P25 = 52, P75 = 68, P95 = 80", interval(40, 80, Z90)),
  row("percentile json", '{"p10": 30, "p50": 45, "p90": 60}', interval(30, 60, Z80, 45)),
  row(
    "ninety fifth sentence after median line",
    "Median estimate: 180\nThe 5th percentile is 150 and the 95th percentile is 210.",
    interval(150, 210, Z90, 180),
  ),
];

const intervals: CorpusReply[] = [
  row(
    "point estimate with a 95% CI",
    `${DELIVERIES}\n\nPoint estimate: 1.75 million (95% CI: 1.5–2.0 million)`,
    interval(1_500_000, 2_000_000, Z95, 1_750_000),
  ),
  row(
    "90% credible interval in brackets",
    "Median: 40\n90% credible interval: [30, 50]",
    interval(30, 50, Z90, 40),
  ),
  row(
    "interquartile range words",
    "Median 40, interquartile range 35 to 45.",
    interval(35, 45, Z50, 40),
  ),
  row("IQR abbreviation", "Median: 120\nIQR: 100–140", interval(100, 140, Z50, 120)),
  row(
    "80% interval",
    "Mean: 1,500 units\nThe 80% prediction interval is 1,200 to 1,800 units.",
    interval(1200, 1800, Z80, 1500),
  ),
  row("95% confidence interval alone", "95% confidence interval: 30 to 50", interval(30, 50, Z95)),
  row(
    "estimate with 90% CI in brackets",
    "Estimate: 4,200 (90% CI 3,500–5,000)",
    interval(3500, 5000, Z90, 4200),
  ),
  row(
    "level after the interval",
    "My range is 0.8 to 1.6 (95% CI), centred at 1.2.",
    interval(0.8, 1.6, Z95),
  ),
  row(
    "95% interval in a sentence",
    `${SEATS}\n\nI expect about 150 seats, with a 95% interval of 100 to 200.`,
    interval(100, 200, Z95, 150),
  ),
  row(
    "German interval",
    "Schätzung: 12,5 (95-%-Konfidenzintervall: 10,5 bis 14,5)",
    interval(10.5, 14.5, Z95, 12.5),
  ),
];

const units: CorpusReply[] = [
  row(
    "billions of dollars from B suffix",
    "Revenue was $61.9B last year.\n\nMean: $68.5B\nStandard deviation: $4.2B",
    quantity(68.5, 4.2),
    "What will the company's revenue be in fiscal 2026, in billions of dollars?",
  ),
  row(
    "millions from words",
    `${DELIVERIES}\n\nMean: 1.78 million\nSD: 0.12 million`,
    quantity(1.78, 0.12),
    "How many vehicles will Tesla deliver in 2025 (in millions)?",
  ),
  row(
    "thousands of dollars from k",
    `${PRICES}\n\nMean: $415k\nStandard deviation: $18k`,
    quantity(415, 18),
    "What will the median home price be in 2026, in thousands of USD?",
  ),
];

const singleValues: CorpusReply[] = [
  valueRow("final answer decimal", `${PRICES}\n\nFinal answer: 42.5`, single(42.5)),
  valueRow("answer tag scientific", "<answer>3.2e4</answer>", single(3.2e4)),
  valueRow(
    "power of ten",
    "Last year's figure was 2.9 × 10^4.\n\nFinal answer: 3.2 × 10^4",
    single(3.2e4),
  ),
  valueRow(
    "point estimate sentence",
    `${DELIVERIES}\n\nMy point estimate is 1,790,000 deliveries.`,
    single(1_790_000),
  ),
  valueRow(
    "billions question",
    "Estimate: $68.5B",
    single(68.5),
    "What will revenue be, in billions of dollars?",
  ),
  valueRow(
    "table forecast row",
    "| Quantity | Value |\n|---|---|\n| 2024 actual | 61 |\n| Forecast | 68.5 |",
    single(68.5),
  ),
  valueRow("bold estimate", `${SEATS}\n\n**Estimate: 165 seats**`, single(165)),
  valueRow("German decimal comma", "Prognose: 3,75", single(3.75)),
  valueRow("json value", '{"value": 1250}', single(1250)),
  valueRow(
    "revised estimate",
    "Initial estimate: 150. Revised estimate after the polls: 170.",
    single(170),
  ),
];

export const quantityReplies: CorpusReply[] = [
  ...meanAndSpread,
  ...percentileLists,
  ...intervals,
  ...units,
  ...singleValues,
];
