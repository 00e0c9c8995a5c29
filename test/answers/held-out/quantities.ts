import type { AnswerType, ForecastAnswer } from "../../../src/forecast/index.js";
import { type HeldOutReply, normal, value, Z } from "./reply.js";

const DEBT = `US federal debt held by the public was $1.8 trillion higher last year than the year before, and the deficit ran at 6.3% of GDP. CBO's baseline has net interest at 3.1% of GDP, and the last 4 fiscal years came in between 2% and 9% above the baseline. Historically the year-on-year change had a standard deviation of about 16%.`;
const JOBS = `Payrolls rose by 142k last month and 89k the month before; the 12-month average is 186k. Economists expect about 160k with a range of 90k to 230k. Revisions average ±40k, and the unemployment rate is 4.2%.`;
const REVENUE = `Revenue was $27.4bn last quarter, up 18% year on year, with guidance of $28.0bn ± 2%. The company beat guidance in 7 of the last 8 quarters, by 1.9% on average. Data-centre revenue is 62% of the total.`;
const USERS = `The app had 1.1M daily users in March and 1.35M in June, growing about 7% a month. Churn is 4.5% monthly, and 3 competitors launched in the quarter. Last year's peak was 980k.`;
const STOCK = `The index closed at 5,412 on Friday. Realised volatility is 14% annualised, so over 40 trading days a 1-sd move is roughly 4.4%. The 50-day average is 5,310 and the record close 5,667.`;

const PREAMBLES = [DEBT, JOBS, REVENUE, USERS, STOCK];

type Row = [kind: string, final: string, expected: ForecastAnswer | null, question?: string];

function replies(group: string, type: AnswerType, rows: Row[], offset = 0): HeldOutReply[] {
  return rows.map(([kind, final, expected, question], index) => ({
    id: `${type}/${group}/${index}`,
    kind: `${type} ${kind}`,
    type,
    reply: `${PREAMBLES[(index + offset) % PREAMBLES.length]}\n\n${final}`,
    expected,
    ...(question === undefined ? {} : { question }),
  }));
}

const continuous: Row[] = [
  ["json tag", '<answer>{"mean": 215, "standard_deviation": 38}</answer>', normal(215, 38)],
  ["labels", "Mean: 168k\nStandard deviation: 45k", normal(168_000, 45_000)],
  [
    "percentile list",
    "5th: 120, 25th: 181, 50th: 215, 75th: 250, 95th: 310",
    normal(215, (310 - 120) / (2 * 1.6448536269514722)),
  ],
  [
    "percentile lines",
    "Percentile 10: 5,150\nPercentile 50: 5,420\nPercentile 90: 5,690",
    normal(5420, (5690 - 5150) / (2 * Z[80])),
  ],
  [
    "median with interval",
    "Median 42, with a 90% interval of 30 to 60.",
    normal(42, 30 / (2 * Z[90])),
  ],
  ["scientific with unit and sd", "Estimate: 3.0e10 USD, sd 6e9", normal(3e10, 6e9)],
  ["magnitudes", "My forecast: $95k ± $12k", normal(95_000, 12_000)],
  ["magnitudes", "Final: 3.2bn (sd 0.4bn)", normal(3.2e9, 0.4e9)],
  [
    "give or take",
    "I expect about 1.2M, give or take 150k (one standard deviation).",
    normal(1.2e6, 150_000),
  ],
  [
    "reasoning sd then final",
    "Final estimate: 4.6%, with a standard deviation of 0.5 points.",
    normal(4.6, 0.5),
  ],
  [
    "reasoning magnitudes then final",
    "Putting it together: ~$1.87tn, standard deviation $0.05tn.",
    normal(1.87e12, 0.05e12),
  ],
  [
    "revision",
    "Mean: 4.2%, SD: 0.6%\n\nOn reflection the momentum argues higher, so I revise up to 4.6% and keep the SD at 0.6%.",
    normal(4.6, 0.6),
  ],
  [
    "percentile table",
    "| Percentile | Value |\n|---|---|\n| 5% | 14.1M |\n| 50% | 15.0M |\n| 95% | 15.9M |",
    normal(15e6, 1.8e6 / (2 * 1.6448536269514722)),
  ],
  ["give or take", "Central estimate 28.3bn, give or take 0.6bn (1 sd).", normal(28.3e9, 0.6e9)],
  [
    "question unit",
    "Mean: $28.6 billion, standard deviation $0.5 billion.",
    normal(28.6, 0.5),
    "What will quarterly revenue be, in billions of US dollars?",
  ],
  ["template", "Mean: XX\nStandard deviation: YY", null],
  ["template", '<answer>{"mean": <number>, "standard_deviation": <number>}</answer>', null],
  [
    "refusal",
    "I'm not able to give a point estimate with a spread for this; the data is too thin.",
    null,
  ],
  ["invalid spread", "Mean: 5,400\nStandard deviation: 0", null],
  ["interval only", "80% interval: 5,200 to 5,600.", normal(5400, 400 / (2 * Z[80]))],
  ["mean then plus minus", "Best estimate 172k ± 38k.", normal(172_000, 38_000)],
  ["json fence", '```json\n{"mean": 1450000, "std": 90000}\n```', normal(1_450_000, 90_000)],
];

const valueOnly: Row[] = [
  ["tag", "<answer>5480</answer>", value(5480)],
  ["label", "Final answer: 171k", value(171_000)],
  ["range point", "Somewhere between 60 and 70, call it 65.", value(65)],
  ["range", "Final estimate: 150k–170k", value(160_000)],
  ["magnitudes", "My estimate: $28.9bn.", value(28.9e9)],
  [
    "revision",
    "Estimate: 1.4M.\n\nUpdate: the June figures came in hot, so I revise to 1.55M.",
    value(1.55e6),
  ],
  ["reasoning then final", "Final answer: ~$1.87tn", value(1.87e12)],
  ["scientific", "Answer: 2.4e6", value(2.4e6)],
  ["template", "Final answer: [number]", null],
  ["refusal", "I won't commit to a single figure here.", null],
  ["label", "**Prediction:** 5,520", value(5520)],
  [
    "question unit",
    "Final answer: $28.4 billion",
    value(28.4),
    "What will revenue be, in billions of dollars?",
  ],
  ["revision", "I'd raise my estimate from 165k to 180k.", value(180_000)],
];

export const quantityHeldOut: HeldOutReply[] = [
  ...replies("shapes", "continuous", continuous),
  ...replies("shapes-again", "continuous", continuous, 2),
  ...replies("values", "continuous_value_only", valueOnly, 1),
  ...replies("values-again", "continuous_value_only", valueOnly, 3),
];
