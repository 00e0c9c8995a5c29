import { describe, expect, it } from "vitest";
import { extractAnswer, type ForecastAnswer, type OptionMap } from "../../src/forecast/index.js";
import { sameAnswer } from "./answer-match.js";

interface Row {
  name: string;
  reply: string;
  options: OptionMap;
  /** null: the reply is ambiguous and extraction must return nothing rather than guess. */
  expected: Record<string, number> | null;
}

const LEADERS: OptionMap = {
  A: "Keir Starmer",
  B: "Rishi Sunak",
  C: "Ed Davey",
  D: "Nigel Farage",
};
const MEXICO: OptionMap = {
  A: "Claudia Sheinbaum",
  B: "Xóchitl Gálvez",
  C: "Jorge Álvarez Máynez",
};
const LABS: OptionMap = { A: "OpenAI", B: "Google DeepMind", C: "Anthropic", D: "Meta" };
const WINDOWS: OptionMap = { A: "Q1–Q2 2026", B: "Q3–Q4 2026", C: "2027 or later" };
const PARTIES: OptionMap = {
  A: "Labour",
  B: "Conservative",
  C: "Liberal Democrat",
  D: "Reform UK",
};
const LETTERS: OptionMap = { A: "Red", B: "Blue", C: "Green", D: "Yellow" };
const SMITHS: OptionMap = { A: "John Smith", B: "Jane Smith", C: "Someone else" };

const byName: Row[] = [
  {
    name: "accents dropped in labelled lines",
    options: MEXICO,
    reply: `Sheinbaum led every poll since January 2024 by 20+ points.

Sheinbaum: 85%
Galvez: 12%
Alvarez Maynez: 3%`,
    expected: { A: 0.85, B: 0.12, C: 0.03 },
  },
  {
    name: "accents dropped, surname only in bullets",
    options: MEXICO,
    reply: `Turnout in 2018 was 63%, and the ruling coalition holds 2 of 3 governorships.

- Sheinbaum — 80%
- Galvez — 15%
- Maynez — 5%`,
    expected: { A: 0.8, B: 0.15, C: 0.05 },
  },
  {
    name: "surnames only",
    options: LEADERS,
    reply: `Polling average (12 polls, n≈1,500 each) shows Labour on 40%.

Starmer: 70%
Sunak: 20%
Davey: 2%
Farage: 8%`,
    expected: { A: 0.7, B: 0.2, C: 0.02, D: 0.08 },
  },
  {
    name: "surnames in a markdown table",
    options: LEADERS,
    reply: `| Candidate | Probability |
|---|---|
| Starmer | 65% |
| Sunak | 25% |
| Davey | 3% |
| Farage | 7% |`,
    expected: { A: 0.65, B: 0.25, C: 0.03, D: 0.07 },
  },
  {
    name: "hyphen instead of the option's en dash",
    options: WINDOWS,
    reply: `The vendor slipped 2 of its last 3 launches by about 6 months.

Q1-Q2 2026: 30%
Q3-Q4 2026: 45%
2027 or later: 25%`,
    expected: { A: 0.3, B: 0.45, C: 0.25 },
  },
  {
    name: "first word of a two-word option",
    options: LABS,
    reply: `Benchmarks from March: 3 of the top 5 models came from 2 labs.

OpenAI: 35%
Google: 30%
Anthropic: 25%
Meta: 10%`,
    expected: { A: 0.35, B: 0.3, C: 0.25, D: 0.1 },
  },
  {
    name: "case and punctuation differences",
    options: LABS,
    reply: `- openai — 40%
- GOOGLE DEEPMIND — 30%
- anthropic. — 20%
- "Meta" — 10%`,
    expected: { A: 0.4, B: 0.3, C: 0.2, D: 0.1 },
  },
  {
    name: "plural of an option name",
    options: PARTIES,
    reply: `Labour: 55%
Conservatives: 20%
Liberal Democrats: 5%
Reform UK: 20%`,
    expected: { A: 0.55, B: 0.2, C: 0.05, D: 0.2 },
  },
  {
    name: "surname with a comment in brackets",
    options: LEADERS,
    reply: `Starmer (incumbent, 2024 mandate): 60%
Sunak (resigned as leader): 10%
Davey: 5%
Farage (Reform, 5 MPs): 25%`,
    expected: { A: 0.6, B: 0.1, C: 0.05, D: 0.25 },
  },
  {
    name: "bold surnames",
    options: MEXICO,
    reply: `**Sheinbaum**: 88%\n**Galvez**: 10%\n**Maynez**: 2%`,
    expected: { A: 0.88, B: 0.1, C: 0.02 },
  },
  {
    name: "accents dropped in json keys",
    options: MEXICO,
    reply: `Given the 2024 result (59.8% for the winner):\n\n\`\`\`json\n{"Sheinbaum": 0.82, "Galvez": 0.14, "Maynez": 0.04}\n\`\`\``,
    expected: { A: 0.82, B: 0.14, C: 0.04 },
  },
  {
    name: "surnames as json keys",
    options: LEADERS,
    reply: `{"Starmer": 55, "Sunak": 30, "Davey": 5, "Farage": 10}`,
    expected: { A: 0.55, B: 0.3, C: 0.05, D: 0.1 },
  },
  {
    name: "accented names written with accents still match",
    options: { A: "Ana López", B: "José Martín", C: "Other" },
    reply: `López: 50%\nMartín: 40%\nOther: 10%`,
    expected: { A: 0.5, B: 0.4, C: 0.1 },
  },
  {
    name: "accents added where the option has none",
    options: { A: "Ana Lopez", B: "Jose Martin", C: "Other" },
    reply: `1. López — 45%\n2. Martín — 45%\n3. Other — 10%`,
    expected: { A: 0.45, B: 0.45, C: 0.1 },
  },
  {
    name: "en dash written where the option has a hyphen",
    options: { A: "1-2 launches", B: "3-4 launches", C: "5 or more launches" },
    reply: `They flew 3 times in 2024.\n\n1–2 launches: 20%\n3–4 launches: 50%\n5 or more launches: 30%`,
    expected: { A: 0.2, B: 0.5, C: 0.3 },
  },
  {
    name: "short name with trailing explanation after a dash",
    options: LABS,
    reply: `- OpenAI: 30% - largest compute budget in 2025
- Google: 40% - TPU v6 and 2 frontier teams
- Anthropic: 20%
- Meta: 10%`,
    expected: { A: 0.3, B: 0.4, C: 0.2, D: 0.1 },
  },
  {
    name: "full reply with surnames, base rates and a numbered list",
    options: LEADERS,
    reply: `## Analysis

Since 1945, 9 of 14 sitting PMs survived their first 2 years. Starmer's net approval is -35, the
lowest for a new PM since 1977, but his majority is 174 seats.

## Probabilities

1. Starmer — 72%
2. Farage — 15%
3. Sunak — 9%
4. Davey — 4%`,
    expected: { A: 0.72, B: 0.09, C: 0.04, D: 0.15 },
  },
  {
    name: "short names with trailing parenthetical reasons",
    options: LABS,
    reply: `Compute budgets (2025, est.): $40B, $35B, $15B, $30B.

OpenAI: 35% (largest cluster, 2 releases a year)
Google: 35% (TPU advantage)
Anthropic: 20% (fast cadence since 2023)
Meta: 10% (open weights focus)`,
    expected: { A: 0.35, B: 0.35, C: 0.2, D: 0.1 },
  },
  {
    name: "lowercase accents-free surnames after a question echo",
    options: MEXICO,
    reply: `Question: who wins the 2024 Mexican presidential election (June 2)?

sheinbaum: 0.9
galvez: 0.08
maynez: 0.02`,
    expected: { A: 0.9, B: 0.08, C: 0.02 },
  },
];

const inProse: Row[] = [
  {
    name: "sentence with percentages after names",
    options: PARTIES,
    reply: `Labour won 411 seats in 2024 and still leads by 4 points. I give Labour a 45% chance, Reform UK 35%, the Conservatives 15% and the Liberal Democrats 5%.`,
    expected: { A: 0.45, B: 0.15, C: 0.05, D: 0.35 },
  },
  {
    name: "sentence with about and at",
    options: LABS,
    reply: `Over the last 18 months 4 labs traded the lead. I'd put OpenAI at about 40%, Google at 30%, Anthropic at 20% and Meta at 10%.`,
    expected: { A: 0.4, B: 0.3, C: 0.2, D: 0.1 },
  },
  {
    name: "surnames in prose with accents dropped",
    options: MEXICO,
    reply: `With a 30-point lead in 2 polls, Sheinbaum gets 90%, Galvez 8%, Maynez 2%.`,
    expected: { A: 0.9, B: 0.08, C: 0.02 },
  },
  {
    name: "inline letters without percent signs",
    options: LETTERS,
    reply: `Weighing the 3 scenarios above, my forecast: A 45, B 15, C 35, D 5`,
    expected: { A: 0.45, B: 0.15, C: 0.35, D: 0.05 },
  },
  {
    name: "inline letters with percent signs and spaces",
    options: LETTERS,
    reply: `Out of 12 comparable contests, 5 went to the leader.\n\nA 40%, B 30%, C 20%, D 10%`,
    expected: { A: 0.4, B: 0.3, C: 0.2, D: 0.1 },
  },
  {
    name: "ordered letters with bracketed percentages",
    options: { A: "Red", B: "Blue", C: "Green" },
    reply: `Three of the last 4 cycles broke late. Most likely B (55%), then C (25%), then A (20%).`,
    expected: { A: 0.2, B: 0.55, C: 0.25 },
  },
  {
    name: "ordered names with bracketed percentages",
    options: PARTIES,
    reply: `Since 2019 the swing has been 8 points. Most likely Labour (50%), then Reform UK (30%), then Conservative (15%), then Liberal Democrat (5%).`,
    expected: { A: 0.5, B: 0.15, C: 0.05, D: 0.3 },
  },
  {
    name: "ordered surnames with bracketed percentages",
    options: LEADERS,
    reply: `Ranking: Starmer (60%), Farage (25%), Sunak (10%), Davey (5%).`,
    expected: { A: 0.6, B: 0.1, C: 0.05, D: 0.25 },
  },
  {
    name: "percentages after names with chance of winning",
    options: LEADERS,
    reply: `Starmer has a 60% chance of remaining PM through 2026, Farage 25%, Sunak 10%, Davey 5%.`,
    expected: { A: 0.6, B: 0.1, C: 0.05, D: 0.25 },
  },
  {
    name: "names with roughly and tildes",
    options: LABS,
    reply: `Scores moved 5 points in 3 months. OpenAI ~35%, Google DeepMind roughly 35%, Anthropic around 20%, Meta about 10%.`,
    expected: { A: 0.35, B: 0.35, C: 0.2, D: 0.1 },
  },
  {
    name: "inline letters with equals signs and fractions",
    options: LETTERS,
    reply: `Based on 40 years of data: A=0.4, B=0.3, C=0.2, D=0.1`,
    expected: { A: 0.4, B: 0.3, C: 0.2, D: 0.1 },
  },
  {
    name: "inline bare figures joined with and",
    options: { A: "Red", B: "Blue", C: "Green" },
    reply: `So: A 50, B 30 and C 20.`,
    expected: { A: 0.5, B: 0.3, C: 0.2 },
  },
  {
    name: "ordered letters with colons",
    options: { A: "Red", B: "Blue", C: "Green" },
    reply: `In order of likelihood: C: 50%, A: 30%, B: 20%.`,
    expected: { A: 0.3, B: 0.2, C: 0.5 },
  },
  {
    name: "letters in a sentence with a and at",
    options: { A: "Red", B: "Blue", C: "Green" },
    reply: `After 3 rounds of polling I give A a 50% chance, B 30% and C at 20%.`,
    expected: { A: 0.5, B: 0.3, C: 0.2 },
  },
  {
    name: "full reply ending in a prose distribution with distracting figures",
    options: PARTIES,
    reply: `Reform UK won 5 seats on 14.3% in July 2024 and has led 9 of the last 12 polls by 2–4 points.
Labour's 2024 majority was built on 33.7% of the vote.

Putting this together, I give Reform UK a 40% chance, Labour 38%, the Conservatives 18% and the Liberal Democrats 4%.`,
    expected: { A: 0.38, B: 0.18, C: 0.04, D: 0.4 },
  },
  {
    name: "ordered names with colons in a sentence",
    options: LABS,
    reply: `Ranking after 6 benchmark rounds — Google DeepMind: 40%, OpenAI: 35%, Anthropic: 20%, Meta: 5%.`,
    expected: { A: 0.35, B: 0.4, C: 0.2, D: 0.05 },
  },
];

const finalMarked: Row[] = [
  {
    name: "final answer after a draft list",
    options: LETTERS,
    reply: `Draft:
A: 50%
B: 20%
C: 20%
D: 10%

Yellow's 2 recent wins matter more than I allowed.

Final answer:
A: 40%
B: 20%
C: 20%
D: 20%`,
    expected: { A: 0.4, B: 0.2, C: 0.2, D: 0.2 },
  },
  {
    name: "final distribution followed by a market comparison",
    options: PARTIES,
    reply: `Final distribution:
- Labour: 50%
- Conservative: 20%
- Liberal Democrat: 5%
- Reform UK: 25%

For comparison, Betfair has Labour at 60% and Reform UK at 22%.`,
    expected: { A: 0.5, B: 0.2, C: 0.05, D: 0.25 },
  },
  {
    name: "complete distribution then a passing mention, no marker",
    options: LABS,
    reply: `OpenAI: 35%
Google DeepMind: 35%
Anthropic: 20%
Meta: 10%

Note that a year ago I would have put OpenAI at 60%.`,
    expected: { A: 0.35, B: 0.35, C: 0.2, D: 0.1 },
  },
  {
    name: "prose draft then a marked final line",
    options: LETTERS,
    reply: `At first I had A: 30%, B: 30%, C: 30%, D: 10%. After checking the 2025 data:

My final probabilities: A: 25%, B: 35%, C: 30%, D: 10%`,
    expected: { A: 0.25, B: 0.35, C: 0.3, D: 0.1 },
  },
  {
    name: "two complete lists without a marker, the last wins",
    options: { A: "Red", B: "Blue", C: "Green" },
    reply: `Red: 50%\nBlue: 30%\nGreen: 20%\n\nRevisiting 3 more polls:\n\nRed: 45%\nBlue: 35%\nGreen: 20%`,
    expected: { A: 0.45, B: 0.35, C: 0.2 },
  },
  {
    name: "final forecast heading after a table draft",
    options: LABS,
    reply: `| Lab | Initial |
|---|---|
| OpenAI | 50% |
| Google DeepMind | 20% |
| Anthropic | 20% |
| Meta | 10% |

Adjusting for the 2 releases in May.

## Final forecast
- OpenAI: 40%
- Google DeepMind: 30%
- Anthropic: 20%
- Meta: 10%`,
    expected: { A: 0.4, B: 0.3, C: 0.2, D: 0.1 },
  },
  {
    name: "final answer then a restatement of the leader",
    options: LEADERS,
    reply: `Final answer:
Starmer: 55%
Sunak: 15%
Davey: 5%
Farage: 25%

In short, Starmer at 55% remains the favourite.`,
    expected: { A: 0.55, B: 0.15, C: 0.05, D: 0.25 },
  },
  {
    name: "final line in prose after labelled drafts",
    options: { A: "Red", B: "Blue", C: "Green" },
    reply: `A: 40%\nB: 40%\nC: 20%\n\nThe 2 late polls tip it. Final answer: A 35%, B 45%, C 20%.`,
    expected: { A: 0.35, B: 0.45, C: 0.2 },
  },
  {
    name: "marker sentence that quotes polls before the final list",
    options: PARTIES,
    reply: `Before giving my final probabilities, the polls: Labour at 41% and Reform UK at 14% (YouGov, n=2,000).

- Labour: 60%
- Conservative: 20%
- Liberal Democrat: 5%
- Reform UK: 15%`,
    expected: { A: 0.6, B: 0.2, C: 0.05, D: 0.15 },
  },
  {
    name: "final probabilities in a json block after a prose draft",
    options: LETTERS,
    reply: `Roughly Red 40%, Blue 30%, Green 20%, Yellow 10% at first glance.

Final answer:
\`\`\`json
{"Red": 0.35, "Blue": 0.35, "Green": 0.2, "Yellow": 0.1}
\`\`\``,
    expected: { A: 0.35, B: 0.35, C: 0.2, D: 0.1 },
  },
];

const ambiguous: Row[] = [
  {
    name: "a surname shared by two options",
    options: SMITHS,
    reply: `Smith: 70%\nSomeone else: 30%`,
    expected: null,
  },
  {
    name: "a shared surname in prose",
    options: SMITHS,
    reply: `I give Smith a 70% chance and someone else 30%.`,
    expected: null,
  },
  {
    name: "a shared surname as a json key",
    options: SMITHS,
    reply: `{"Smith": 0.7, "Someone else": 0.3}`,
    expected: null,
  },
  {
    name: "full names are not ambiguous",
    options: SMITHS,
    reply: `John Smith: 55%\nJane Smith: 35%\nSomeone else: 10%`,
    expected: { A: 0.55, B: 0.35, C: 0.1 },
  },
  {
    name: "a shared surname in a bullet list",
    options: SMITHS,
    reply: `- Smith — 65%\n- Someone else — 35%`,
    expected: null,
  },
  {
    name: "a shared first word",
    options: { A: "Google DeepMind", B: "Google Research", C: "OpenAI" },
    reply: `Google: 60%\nOpenAI: 40%`,
    expected: null,
  },
  {
    name: "an exact option name beats a longer option sharing it",
    options: { A: "Reform", B: "Reform UK", C: "Labour" },
    reply: `Reform: 20%\nReform UK: 30%\nLabour: 50%`,
    expected: { A: 0.2, B: 0.3, C: 0.5 },
  },
  {
    name: "a shared surname in the answer tag after a clear draft",
    options: SMITHS,
    reply: `Draft: John Smith 50%, Jane Smith 40%, someone else 10%.

<answer>Smith: 70%, Someone else: 30%</answer>`,
    expected: null,
  },
  {
    name: "a shared surname under a final marker after a clear draft",
    options: SMITHS,
    reply: `John Smith: 50%
Jane Smith: 40%
Someone else: 10%

Polls from 2 weeks ago moved 6 points.

Final answer:
Smith: 75%
Someone else: 25%`,
    expected: null,
  },
  {
    name: "an unknown nickname in a marked list that leaves an option out",
    options: PARTIES,
    reply: `Final answer:
Labour: 50%
Blues: 25%
Lib Dems: 5%
Reform: 20%`,
    expected: null,
  },
  {
    name: "an unrelated label next to a list that names every option",
    options: { A: "Red", B: "Blue", C: "Green" },
    reply: `Base rate: 30%

Red: 50%
Blue: 30%
Green: 20%`,
    expected: { A: 0.5, B: 0.3, C: 0.2 },
  },
  {
    name: "a total line under a list that names every option",
    options: LABS,
    reply: `- OpenAI: 35%\n- Google: 35%\n- Anthropic: 20%\n- Meta: 10%\n- Total: 100%`,
    expected: { A: 0.35, B: 0.35, C: 0.2, D: 0.1 },
  },
];

const CANDIDATES: OptionMap = {
  A: "Marine Le Pen",
  B: "Jordan Bardella",
  C: "Édouard Philippe",
  D: "Gabriel Attal",
};
const DECISIONS: OptionMap = { A: "Cut by 25 bp", B: "Hold", C: "Hike by 25 bp" };
const PARTY_SPLIT = { A: 0.45, B: 0.15, C: 0.05, D: 0.35 };
const CANDIDATE_SPLIT = { A: 0.25, B: 0.35, C: 0.3, D: 0.1 };

// The figure written before the option: "45% Labour", "55% on B", "0.15 to A".
const figureFirst: Row[] = [
  ...[
    "45% Labour, 15% Conservative, 5% Liberal Democrat, 35% Reform UK.",
    "My forecast: 45% Labour, 35% Reform UK, 15% Conservative, 5% Liberal Democrat.",
    "45% the Labour Party, 35% Reform UK, 15% the Conservatives and 5% the Lib Dems.",
    "I'd put 45% on Labour, 35% on Reform, 15% on the Conservatives and 5% on the Lib Dems.",
    "Labour 45%, Reform 35%, Conservatives 15%, Lib Dems 5%.",
    "I give Labour a 45% chance, Reform UK 35%, the Conservatives 15% and the Liberal Democrats 5%.",
    "Labour Party: 45%, Conservative Party: 15%, Liberal Democrat: 5%, Reform UK: 35%",
    "45% A, 15% B, 5% C, 35% D",
    "I'd put 45% on A, 15% on B, 5% on C and 35% on D.",
    "I assign 0.45 to A, 0.15 to B, 0.05 to C and 0.35 to D.",
  ].map((reply) => ({ name: reply, options: PARTIES, reply, expected: PARTY_SPLIT })),
  ...[
    "My distribution: 35% Bardella, 30% Philippe, 25% Le Pen, 10% Attal.",
    "Bardella 35%, Philippe 30%, Le Pen 25%, Attal 10%",
    "I see Bardella as the favourite at 35%, with Philippe at 30%, Le Pen at 25% and Attal at 10%.",
    "- Bardella: 35% (leads first-round polls)\n- Philippe: 30%\n- Le Pen: 25% (eligibility risk)\n- Attal: 10%",
    '{"Le Pen": 0.25, "Bardella": 0.35, "Philippe": 0.3, "Attal": 0.1}',
    "Jordan Bardella 35, Edouard Philippe 30, Marine Le Pen 25, Gabriel Attal 10",
  ].map((reply) => ({ name: reply, options: CANDIDATES, reply, expected: CANDIDATE_SPLIT })),
  {
    name: "ordered by name after reasoning that mentions an option",
    options: DECISIONS,
    reply: `Core PCE is 2.8% and futures imply a 62% chance of a cut by September.

Most likely a hold (70%), then a cut by 25 bp (25%), then a hike by 25 bp (5%).`,
    expected: { A: 0.25, B: 0.7, C: 0.05 },
  },
  {
    name: "a final sentence after a poll sentence naming every option",
    options: PARTIES,
    reply: `Polls average Labour 41%, Reform UK 24%, Conservative 20% and Liberal Democrat 11%.

My forecast: 50% Labour, 30% Reform UK, 15% Conservative, 5% Liberal Democrat.`,
    expected: { A: 0.5, B: 0.15, C: 0.05, D: 0.3 },
  },
  {
    name: "decimal commas on letter lines",
    options: DECISIONS,
    reply: "A: 22,5 %\nB: 72,5 %\nC: 5 %",
    expected: { A: 0.225, B: 0.725, C: 0.05 },
  },
];

// An option never mentioned is 0 only when the rest make a whole; otherwise nothing is read.
const leftOut: Row[] = [
  {
    name: "unmentioned option beside a complete distribution",
    options: PARTIES,
    reply: "Labour 60%, Conservative 25%, Reform UK 15%.",
    expected: { A: 0.6, B: 0.25, C: 0, D: 0.15 },
  },
  {
    name: "unmentioned options with an unstated remainder",
    options: PARTIES,
    reply: "Labour 50%, Reform UK 30%.",
    expected: null,
  },
  {
    name: "letters with an unstated remainder",
    options: DECISIONS,
    reply: "A: 30%\nB: 50%",
    expected: null,
  },
  {
    name: "JSON with an unstated remainder",
    options: CANDIDATES,
    reply: '{"Bardella": 0.4, "Philippe": 0.3}',
    expected: null,
  },
  {
    name: "an unknown nickname in a sentence that leaves an option out",
    options: PARTIES,
    reply: "Labour 50%, Blues 15%, Lib Dems 5%, Reform 30%.",
    expected: null,
  },
  {
    name: "a figure between two names",
    options: PARTIES,
    reply: "Labour and Reform UK together 80%, Conservative 15%, Liberal Democrat 5%.",
    expected: null,
  },
  {
    name: "every option stated, summing to 105%",
    options: DECISIONS,
    reply: "A: 30%\nB: 70%\nC: 5%",
    expected: { A: 30 / 105, B: 70 / 105, C: 5 / 105 },
  },
];

const classes: [string, Row[]][] = [
  ["figure before the option", figureFirst],
  ["options left out", leftOut],
  ["options named with small differences", byName],
  ["probabilities in prose, inline or ordered", inProse],
  ["marked final distribution", finalMarked],
  ["ambiguous replies", ambiguous],
];

function answerFor(row: Row): ForecastAnswer | null {
  return row.expected === null ? null : { type: "multiple_choice", probabilities: row.expected };
}

describe.each(classes)("multiple choice: %s", (_, rows) => {
  it.each(rows)("$name", (row) => {
    const actual = extractAnswer("multiple_choice", row.reply, row.options);
    expect(sameAnswer(actual, answerFor(row)), `got ${JSON.stringify(actual)}`).toBe(true);
  });
});

// Its speed is measured by `npm run bench -- extraction`, not here.
describe("multiple choice in a long reply", () => {
  it("reads a 10 kB reply of distracting mentions", () => {
    const filler = "Labour polled 41% in 2024 and Reform UK (14%) gained 5 seats. ".repeat(160);
    const reply = `${filler}\n\nLabour: 50%\nConservative: 20%\nLiberal Democrat: 5%\nReform UK: 25%`;
    const actual = extractAnswer("multiple_choice", reply, PARTIES);
    const expected = answerFor({
      name: "",
      options: PARTIES,
      reply,
      expected: { A: 0.5, B: 0.2, C: 0.05, D: 0.25 },
    });
    expect(sameAnswer(actual, expected), JSON.stringify(actual)).toBe(true);
  });
});
