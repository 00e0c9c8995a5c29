import type { ForecastAnswer, OptionMap } from "../../../src/forecast/index.js";
import { type HeldOutReply, split } from "./reply.js";

const PARTIES: OptionMap = {
  A: "Labour",
  B: "Conservative",
  C: "Reform UK",
  D: "Liberal Democrats",
  E: "Other",
};
const CLUBS: OptionMap = {
  A: "Manchester City",
  B: "Real Madrid",
  C: "Paris Saint-Germain",
  D: "Bayern Munich",
  E: "Another club",
};
const HOUSE: OptionMap = { A: "Democratic Party", B: "Republican Party" };
const LABS: OptionMap = {
  A: "OpenAI",
  B: "Google DeepMind",
  C: "Anthropic",
  D: "xAI",
  E: "Other",
};
const STORMS: OptionMap = { A: "0–1 landfalls", B: "2–3 landfalls", C: "4 or more landfalls" };
const RATES: OptionMap = {
  A: "1.25%–1.50%",
  B: "1.50%–1.75%",
  C: "1.75%–2.00%",
  D: "Above 2.00%",
};
const NOMINEES: OptionMap = {
  A: "Kamala Harris",
  B: "Gavin Newsom",
  C: "Josh Shapiro",
  D: "Pete Buttigieg",
  E: "Someone else",
};

const POLLS = `The last 12 national polls average Labour 29%, Reform UK 27%, Conservative 18% and Liberal Democrats 13%. Polls missed the winner's share by 2.4 points on average since 1997, and seat projections swing by 60 seats on a 3-point move. Turnout was 59.8% last time.`;
const SEASON = `Over the last 8 seasons the pre-quarter-final favourite won 3 times (38%). City have 24 points from 8 group games and an xG difference of +1.6 per game; Real have won 6 of the last 11 finals they reached; PSG's squad value is €1.1bn; Bayern lost 2 of their last 5 away legs.`;
const MIDTERMS = `The president's party has lost House seats in 18 of the last 21 midterms. The generic ballot is D+2.1, approval sits at 43%, and 35 seats are rated toss-ups. A shift of 5 seats decides control.`;
const MODELS = `Release cadence over 24 months: OpenAI 5 frontier releases, Google DeepMind 4, Anthropic 4, xAI 3. The current leaderboard gap is 14 Elo points, and 3 of the last 5 top spots changed hands within 60 days.`;
const HURRICANES = `The seasonal outlook calls for 17 named storms and 8 hurricanes. Since 1990 the basin averaged 1.6 US landfalls a year; 2 or 3 happened in 11 of 34 seasons, and 4 or more in 5 of them (15%). ENSO-neutral years ran 20% above average.`;
const POLICY = `Policy sits at 1.75%–2.00% after 4 cuts. Markets price 70 bp of easing by year end, core inflation is 2.2%, and 5 of 9 members favoured a cut at the last meeting. In 2019 the bank cut 3 times in 5 months.`;
const PRIMARY = `Early primary polls: Harris 24%, Newsom 19%, Shapiro 9%, Buttigieg 8%, with 31% undecided. Since 1976, the poll leader 18 months out won the open nomination 4 times in 7. Fundraising: Newsom $48M, Harris $41M.`;

type Row = [kind: string, final: string, expected: ForecastAnswer | null];

function replies(group: string, options: OptionMap, context: string, rows: Row[]): HeldOutReply[] {
  return rows.map(([kind, final, expected], index) => ({
    id: `choice/${group}/${index}`,
    kind: `multiple choice ${kind}`,
    type: "multiple_choice",
    options,
    reply: `${context}\n\n${final}`,
    expected,
  }));
}

const five = (a: number, b: number, c: number, d: number, e: number) =>
  split({ A: a, B: b, C: c, D: d, E: e });

const parties: Row[] = [
  ["letters", "A: 40%\nB: 10%\nC: 35%\nD: 10%\nE: 5%", five(0.4, 0.1, 0.35, 0.1, 0.05)],
  [
    "json tag",
    '<answer>{"A": 0.42, "B": 0.08, "C": 0.38, "D": 0.09, "E": 0.03}</answer>',
    five(0.42, 0.08, 0.38, 0.09, 0.03),
  ],
  [
    "prose reordered",
    "I give Reform UK 38%, Labour 36%, the Conservatives 14%, the Lib Dems 9% and everyone else 3%.",
    five(0.36, 0.14, 0.38, 0.09, 0.03),
  ],
  [
    "table abbreviations",
    "| Party | Probability |\n|---|---|\n| Lab | 44% |\n| Con | 11% |\n| Ref | 36% |\n| LD | 7% |\n| Oth | 2% |",
    five(0.44, 0.11, 0.36, 0.07, 0.02),
  ],
  [
    "missing option summing to a whole",
    "Labour 50%, Reform UK 35%, Conservative 10%, Liberal Democrats 5%.",
    five(0.5, 0.1, 0.35, 0.05, 0),
  ],
  ["missing option not summing", "Labour 45%, Reform UK 30%, Conservative 10%.", null],
  [
    "revision",
    "Initial split: A 45%, B 10%, C 30%, D 10%, E 5%.\n\nAfter the by-election result I shift five points from Labour to Reform.\n\nFinal: A 40%, B 10%, C 35%, D 10%, E 5%",
    five(0.4, 0.1, 0.35, 0.1, 0.05),
  ],
  ["template", "A: X%\nB: X%\nC: X%\nD: X%\nE: X%", null],
  ["json skeleton", '<answer>{"A": 0.X, "B": 0.X, "C": 0.X, "D": 0.X, "E": 0.X}</answer>', null],
  ["contradiction", "Labour: 60%\nReform UK: 60%\nConservative: 20%", null],
  [
    "bold lines",
    "**Labour:** 41%\n**Reform UK:** 33%\n**Conservative:** 15%\n**Liberal Democrats:** 8%\n**Other:** 3%",
    five(0.41, 0.15, 0.33, 0.08, 0.03),
  ],
  ["refusal", "I'd rather not split probabilities across parties this far out.", null],
];

const clubs: Row[] = [
  [
    "short names",
    "Man City 30%, Real 25%, PSG 20%, Bayern 15%, another club 10%.",
    five(0.3, 0.25, 0.2, 0.15, 0.1),
  ],
  [
    "short name lines",
    "- City: 28%\n- Real Madrid: 27%\n- PSG: 18%\n- Bayern: 17%\n- Field: 10%",
    five(0.28, 0.27, 0.18, 0.17, 0.1),
  ],
  [
    "letters then revision",
    "A: 35%, B: 25%, C: 15%, D: 15%, E: 10%\n\nOn second thought City's injury list matters more.\n\nFinal answer: A: 28%, B: 30%, C: 17%, D: 15%, E: 10%",
    five(0.28, 0.3, 0.17, 0.15, 0.1),
  ],
  [
    "json letters",
    '```json\n{"A": 0.31, "B": 0.29, "C": 0.16, "D": 0.14, "E": 0.1}\n```',
    five(0.31, 0.29, 0.16, 0.14, 0.1),
  ],
  [
    "prose with catch-all",
    "My split: Real Madrid 33%, Manchester City 27%, Bayern 16%, Paris Saint-Germain 14%, and 10% on the rest of the field.",
    five(0.27, 0.33, 0.14, 0.16, 0.1),
  ],
];

const house: Row[] = [
  ["ratio in favour", "I'd call it 60/40 in favour of the Democrats.", split({ A: 0.6, B: 0.4 })],
  ["nicknames", "GOP 55%, Dems 45%.", split({ A: 0.45, B: 0.55 })],
  ["ratio in favour", "Final: 65-35 Republicans.", split({ A: 0.35, B: 0.65 })],
  ["surname-style names", "Democrats: 58%\nRepublicans: 42%", split({ A: 0.58, B: 0.42 })],
  [
    "one side stated",
    "Democrats win the House with probability 0.57.",
    split({ A: 0.57, B: 0.43 }),
  ],
  ["template", "Democratic Party: __%\nRepublican Party: __%", null],
  ["contradiction", "Democrats 70%, Republicans 70%.", null],
];

const labs: Row[] = [
  [
    "shortened names",
    "OpenAI 35%, Google 30%, Anthropic 20%, xAI 10%, other 5%.",
    five(0.35, 0.3, 0.2, 0.1, 0.05),
  ],
  [
    "deepmind alone",
    "- DeepMind: 32%\n- OpenAI: 31%\n- Anthropic: 22%\n- xAI: 9%\n- Other: 6%",
    five(0.31, 0.32, 0.22, 0.09, 0.06),
  ],
  [
    "option lines with letters and names",
    "A) OpenAI — 0.30\nB) Google DeepMind — 0.30\nC) Anthropic — 0.25\nD) xAI — 0.10\nE) Other — 0.05",
    five(0.3, 0.3, 0.25, 0.1, 0.05),
  ],
  [
    "reasoning figures then final",
    "Google DeepMind held the top spot 40% of the time last year. Final probabilities: OpenAI 0.3, Google DeepMind 0.35, Anthropic 0.2, xAI 0.1, Other 0.05.",
    five(0.3, 0.35, 0.2, 0.1, 0.05),
  ],
];

const storms: Row[] = [
  [
    "range labels",
    "0–1 landfalls: 35%\n2–3 landfalls: 45%\n4 or more landfalls: 20%",
    split({ A: 0.35, B: 0.45, C: 0.2 }),
  ],
  ["range labels short", "0-1: 30%, 2-3: 48%, 4+: 22%", split({ A: 0.3, B: 0.48, C: 0.22 })],
  ["letters", "A: 0.3, B: 0.5, C: 0.2", split({ A: 0.3, B: 0.5, C: 0.2 })],
  ["letters prose", "I put 25% on A, 50% on B and 25% on C.", split({ A: 0.25, B: 0.5, C: 0.25 })],
];

const rates: Row[] = [
  [
    "numeric option texts",
    "1.25%–1.50%: 20%\n1.50%–1.75%: 35%\n1.75%–2.00%: 40%\nAbove 2.00%: 5%",
    split({ A: 0.2, B: 0.35, C: 0.4, D: 0.05 }),
  ],
  [
    "letters with option texts",
    "A (1.25–1.50): 15%\nB (1.50–1.75): 40%\nC (1.75–2.00): 40%\nD (above 2.00): 5%",
    split({ A: 0.15, B: 0.4, C: 0.4, D: 0.05 }),
  ],
  [
    "json letters",
    '<answer>{"A": 0.1, "B": 0.3, "C": 0.5, "D": 0.1}</answer>',
    split({ A: 0.1, B: 0.3, C: 0.5, D: 0.1 }),
  ],
];

const nominees: Row[] = [
  [
    "surnames",
    "Newsom 30%, Shapiro 25%, Harris 20%, Buttigieg 15%, someone else 10%.",
    five(0.2, 0.3, 0.25, 0.15, 0.1),
  ],
  [
    "surname lines",
    "Harris: 22%\nNewsom: 28%\nShapiro: 24%\nButtigieg: 11%\nSomeone else: 15%",
    five(0.22, 0.28, 0.24, 0.11, 0.15),
  ],
  [
    "revision sentence",
    "First pass: Harris 30%, Newsom 30%, Shapiro 20%, Buttigieg 10%, someone else 10%. Revised: Harris 25%, Newsom 30%, Shapiro 22%, Buttigieg 10%, someone else 13%.",
    five(0.25, 0.3, 0.22, 0.1, 0.13),
  ],
  [
    "json names",
    '{"Kamala Harris": 0.2, "Gavin Newsom": 0.35, "Josh Shapiro": 0.2, "Pete Buttigieg": 0.1, "Someone else": 0.15}',
    five(0.2, 0.35, 0.2, 0.1, 0.15),
  ],
  ["refusal", "It's too early to assign probabilities to any of these candidates.", null],
];

export const choiceHeldOut: HeldOutReply[] = [
  ...replies("parties", PARTIES, POLLS, parties),
  ...replies("clubs", CLUBS, SEASON, clubs),
  ...replies("house", HOUSE, MIDTERMS, house),
  ...replies("labs", LABS, MODELS, labs),
  ...replies("storms", STORMS, HURRICANES, storms),
  ...replies("rates", RATES, POLICY, rates),
  ...replies("nominees", NOMINEES, PRIMARY, nominees),
  // The same answers with no reasoning before them.
  ...replies("parties-bare", PARTIES, "", parties),
  ...replies("nominees-bare", NOMINEES, "", nominees),
];
