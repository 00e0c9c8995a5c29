import type { ForecastAnswer, OptionMap } from "../../../src/forecast/index.js";
import { type CorpusReply, choices, FENCE } from "./reply.js";

const PARTIES: OptionMap = {
  A: "Labour",
  B: "Conservative",
  C: "Liberal Democrats",
  D: "Reform UK",
};
const LABS: OptionMap = {
  A: "OpenAI",
  B: "Google DeepMind",
  C: "Anthropic",
  D: "Meta",
  E: "Other",
};
const CITIES: OptionMap = { A: "São Paulo", B: "Bogotá", C: "Ciudad de México", D: "Buenos Aires" };
const COUNTS: OptionMap = { A: "0–2", B: "3–5", C: "6 or more" };
const CANDIDATES: OptionMap = {
  A: "Marine Le Pen",
  B: "Jordan Bardella",
  C: "Édouard Philippe",
  D: "Gabriel Attal",
};
const DECISIONS: OptionMap = { A: "Cut by 25 bp", B: "Hold", C: "Hike by 25 bp" };
const TIMING: OptionMap = { A: "Before June 2025", B: "June–December 2025", C: "2026 or later" };

const ELECTION = `Let me work through the polling. The last 10 national polls average Labour 41%, Reform UK 24%, Conservative 20% and Liberal Democrats 11%, with a typical error of ±3 points. In 2019 the polls missed the Conservative share by 2.1 points; in 2017 by 5. Seat models translate a 15-point lead into roughly 400 of 650 seats. Turnout was 67.3% in 2019 and 59.8% in 2024.`;

const AI_RACE = `Benchmarks as of this month: the top model scores 88.7 on MMLU-Pro, 2.3 points ahead of second place. Compute budgets: roughly 5×10^26 FLOP for the largest runs, and 3 labs have announced clusters above 100k GPUs. Release cadence over the past 24 months: 4 frontier releases from OpenAI, 3 from Google DeepMind, 3 from Anthropic and 2 from Meta.`;

const FED = `The committee has held at 5.25–5.50% for 9 meetings. Core PCE is 2.8%, unemployment 4.1%, and futures imply a 62% chance of a cut by September. 2 of 12 voters dissented in favour of a cut last time.`;

const row = (
  id: string,
  options: OptionMap,
  reply: string,
  expected: ForecastAnswer | null,
): CorpusReply => ({ id: `choice/${id}`, type: "multiple_choice", options, reply, expected });

const parties = (a: number, b: number, c: number, d: number) => choices({ A: a, B: b, C: c, D: d });

const lettered: CorpusReply[] = [
  row(
    "letter lines after analysis",
    PARTIES,
    `${ELECTION}\n\nA: 45%\nB: 15%\nC: 5%\nD: 35%`,
    parties(0.45, 0.15, 0.05, 0.35),
  ),
  row(
    "json letters in a fence",
    PARTIES,
    `${ELECTION}\n\n${FENCE}json\n{"A": 0.5, "B": 0.2, "C": 0.05, "D": 0.25}\n${FENCE}`,
    parties(0.5, 0.2, 0.05, 0.25),
  ),
  row(
    "inline letters without signs",
    PARTIES,
    "A 45, B 15, C 35, D 5",
    parties(0.45, 0.15, 0.35, 0.05),
  ),
  row(
    "ordered with brackets",
    COUNTS,
    "Most likely B (55%), then C (25%), then A (20%).",
    choices({ A: 0.2, B: 0.55, C: 0.25 }),
  ),
  row(
    "answer tag json",
    DECISIONS,
    `${FED}\n\n<answer>{"A": 0.3, "B": 0.65, "C": 0.05}</answer>`,
    choices({ A: 0.3, B: 0.65, C: 0.05 }),
  ),
  row(
    "bullets with letter and name in bold",
    PARTIES,
    "- **A (Labour):** 45%\n- **B (Conservative):** 15%\n- **C (Liberal Democrats):** 5%\n- **D (Reform UK):** 35%",
    parties(0.45, 0.15, 0.05, 0.35),
  ),
  row(
    "figure before letter",
    COUNTS,
    "I'd put 55% on B, 30% on C and 15% on A.",
    choices({ A: 0.15, B: 0.55, C: 0.3 }),
  ),
  row(
    "option letters with parentheses",
    DECISIONS,
    "(A) 0.25\n(B) 0.70\n(C) 0.05",
    choices({ A: 0.25, B: 0.7, C: 0.05 }),
  ),
  row(
    "sums to 98 normalised",
    COUNTS,
    "A: 20%, B: 48%, C: 30%",
    choices({ A: 20 / 98, B: 48 / 98, C: 30 / 98 }),
  ),
  row(
    "unmentioned option with a complete distribution",
    PARTIES,
    "A: 60%\nB: 25%\nD: 15%",
    parties(0.6, 0.25, 0, 0.15),
  ),
  row(
    "letter equals decimal",
    DECISIONS,
    `${FED}\n\nFinal probabilities: A = 0.2, B = 0.75, C = 0.05`,
    choices({ A: 0.2, B: 0.75, C: 0.05 }),
  ),
  row(
    "option label words",
    COUNTS,
    "Option A: 10%\nOption B: 60%\nOption C: 30%",
    choices({ A: 0.1, B: 0.6, C: 0.3 }),
  ),
  row(
    "table with letter and name columns",
    PARTIES,
    `| Option | Party | Probability |\n|---|---|---|\n| A | Labour | 62% |\n| B | Conservative | 8% |\n| C | Liberal Democrats | 3% |\n| D | Reform UK | 27% |`,
    parties(0.62, 0.08, 0.03, 0.27),
  ),
  row(
    "final line after draft distribution",
    DECISIONS,
    "Draft: A 40%, B 55%, C 5%.\n\nAfter the jobs report: A: 25%, B: 70%, C: 5%.",
    choices({ A: 0.25, B: 0.7, C: 0.05 }),
  ),
];

const byName: CorpusReply[] = [
  row(
    "figure before name",
    PARTIES,
    `${ELECTION}\n\nMy forecast: 45% Labour, 35% Reform UK, 15% Conservative, 5% Liberal Democrats.`,
    parties(0.45, 0.15, 0.05, 0.35),
  ),
  row(
    "prose with names and a chance",
    PARTIES,
    "I give Labour a 45% chance, Reform UK 35%, the Conservatives 15% and the Liberal Democrats 5%.",
    parties(0.45, 0.15, 0.05, 0.35),
  ),
  row(
    "short names in a sentence",
    PARTIES,
    "Labour 50%, Reform 30%, Conservatives 15%, Lib Dems 5%.",
    parties(0.5, 0.15, 0.05, 0.3),
  ),
  row(
    "names with colons",
    PARTIES,
    `${ELECTION}\n\nLabour: 55%\nConservative: 12%\nLiberal Democrats: 3%\nReform UK: 30%`,
    parties(0.55, 0.12, 0.03, 0.3),
  ),
  row(
    "json keyed by names",
    PARTIES,
    '{"Labour": 0.6, "Conservative": 0.1, "Liberal Democrats": 0.05, "Reform UK": 0.25}',
    parties(0.6, 0.1, 0.05, 0.25),
  ),
  row(
    "Google for Google DeepMind",
    LABS,
    `${AI_RACE}\n\nOpenAI: 40%\nGoogle: 30%\nAnthropic: 20%\nMeta: 5%\nOther: 5%`,
    choices({ A: 0.4, B: 0.3, C: 0.2, D: 0.05, E: 0.05 }),
  ),
  row(
    "DeepMind alone",
    LABS,
    "OpenAI 35%, DeepMind 35%, Anthropic 20%, Meta 5%, Other 5%",
    choices({ A: 0.35, B: 0.35, C: 0.2, D: 0.05, E: 0.05 }),
  ),
  row(
    "accents dropped",
    CITIES,
    "Sao Paulo: 40%\nBogota: 25%\nCiudad de Mexico: 20%\nBuenos Aires: 15%",
    choices({ A: 0.4, B: 0.25, C: 0.2, D: 0.15 }),
  ),
  row(
    "surnames only",
    CANDIDATES,
    "Le Pen 40%, Bardella 30%, Philippe 20%, Attal 10%",
    choices({ A: 0.4, B: 0.3, C: 0.2, D: 0.1 }),
  ),
  row(
    "surnames in prose",
    CANDIDATES,
    "I see Bardella as the favourite at 45%, with Le Pen at 25%, Philippe at 20% and Attal at 10%.",
    choices({ A: 0.25, B: 0.45, C: 0.2, D: 0.1 }),
  ),
  row(
    "hyphen for en dash",
    COUNTS,
    "0-2: 15%\n3-5: 50%\n6 or more: 35%",
    choices({ A: 0.15, B: 0.5, C: 0.35 }),
  ),
  row(
    "names with the party suffix",
    PARTIES,
    "Labour Party: 48%, Conservative Party: 14%, Liberal Democrats: 6%, Reform UK: 32%",
    parties(0.48, 0.14, 0.06, 0.32),
  ),
  row(
    "ordered by name",
    DECISIONS,
    `${FED}\n\nMost likely a hold (70%), then a cut by 25 bp (25%), then a hike by 25 bp (5%).`,
    choices({ A: 0.25, B: 0.7, C: 0.05 }),
  ),
  row(
    "table keyed by name",
    LABS,
    `| Lab | Probability |\n|---|---|\n| OpenAI | 35% |\n| Google DeepMind | 30% |\n| Anthropic | 25% |\n| Meta | 5% |\n| Other | 5% |`,
    choices({ A: 0.35, B: 0.3, C: 0.25, D: 0.05, E: 0.05 }),
  ),
  row(
    "bullets with names and dashes",
    CITIES,
    "- São Paulo — 35%\n- Bogotá — 30%\n- Ciudad de México — 25%\n- Buenos Aires — 10%",
    choices({ A: 0.35, B: 0.3, C: 0.25, D: 0.1 }),
  ),
  row(
    "timing with month names",
    TIMING,
    "Before June 2025: 10%\nJune–December 2025: 35%\n2026 or later: 55%",
    choices({ A: 0.1, B: 0.35, C: 0.55 }),
  ),
  row(
    "figures after names in a long sentence",
    LABS,
    `${AI_RACE}\n\nPutting it together, I'd give OpenAI 38%, Google DeepMind 32%, Anthropic 22%, Meta 4% and Other 4%.`,
    choices({ A: 0.38, B: 0.32, C: 0.22, D: 0.04, E: 0.04 }),
  ),
  row(
    "lower case names",
    PARTIES,
    "labour 44%, reform uk 33%, conservative 17%, liberal democrats 6%",
    parties(0.44, 0.17, 0.06, 0.33),
  ),
  row(
    "decimal probabilities after names",
    DECISIONS,
    "Hold: 0.8\nCut by 25 bp: 0.15\nHike by 25 bp: 0.05",
    choices({ A: 0.15, B: 0.8, C: 0.05 }),
  ),
  row(
    "json keyed by short names",
    CANDIDATES,
    '{"Le Pen": 0.35, "Bardella": 0.35, "Philippe": 0.2, "Attal": 0.1}',
    choices({ A: 0.35, B: 0.35, C: 0.2, D: 0.1 }),
  ),
];

const notAllStated: CorpusReply[] = [
  row(
    "partial distribution with an unstated remainder",
    PARTIES,
    "Labour 50%, Reform UK 30%.",
    null,
  ),
  row("only the favourite", LABS, "OpenAI is the most likely, at about 45%.", null),
  row(
    "no figures at all",
    DECISIONS,
    "A hold is most likely, with a cut possible if the jobs data weaken.",
    null,
  ),
];

const otherLanguages: CorpusReply[] = [
  row(
    "German decimal commas",
    DECISIONS,
    "Zinssenkung (A): 22,5 %\nHalten (B): 72,5 %\nErhöhung (C): 5 %",
    choices({ A: 0.225, B: 0.725, C: 0.05 }),
  ),
  row(
    "Spanish letter lines",
    COUNTS,
    "Probabilidades finales:\nA: 12,5%\nB: 57,5%\nC: 30%",
    choices({ A: 0.125, B: 0.575, C: 0.3 }),
  ),
  row(
    "French letter lines with spaces",
    CANDIDATES,
    "Probabilités :\nA : 30 %\nB : 40 %\nC : 20 %\nD : 10 %",
    choices({ A: 0.3, B: 0.4, C: 0.2, D: 0.1 }),
  ),
];

const moreStyles: CorpusReply[] = [
  row(
    "chain of thought with revision then letters",
    PARTIES,
    `${ELECTION}\n\nInitial split: A 50%, B 20%, C 5%, D 25%.\nReform's momentum is real, so I shift 5 points.\n\nFinal: A: 45%, B: 20%, C: 5%, D: 30%`,
    parties(0.45, 0.2, 0.05, 0.3),
  ),
  row(
    "probabilities header then bullets",
    DECISIONS,
    `${FED}\n\n## Probabilities\n\n* A — 20%\n* B — 75%\n* C — 5%`,
    choices({ A: 0.2, B: 0.75, C: 0.05 }),
  ),
  row(
    "json with names and percent strings",
    COUNTS,
    '{"0–2": "20%", "3–5": "50%", "6 or more": "30%"}',
    choices({ A: 0.2, B: 0.5, C: 0.3 }),
  ),
  row(
    "nested json probabilities",
    DECISIONS,
    '{"reasoning": "Core PCE at 2.8% argues for patience.", "probabilities": {"A": 0.1, "B": 0.85, "C": 0.05}}',
    choices({ A: 0.1, B: 0.85, C: 0.05 }),
  ),
  row(
    "letters with option text after",
    TIMING,
    "A) Before June 2025 — 5%\nB) June–December 2025 — 40%\nC) 2026 or later — 55%",
    choices({ A: 0.05, B: 0.4, C: 0.55 }),
  ),
  row(
    "names then others",
    LABS,
    "Anthropic 30%, OpenAI 30%, Google DeepMind 25%, Meta 10%, Other 5%",
    choices({ A: 0.3, B: 0.25, C: 0.3, D: 0.1, E: 0.05 }),
  ),
  row(
    "percent signs dropped with names",
    CITIES,
    "São Paulo 45, Bogotá 20, Ciudad de México 25, Buenos Aires 10",
    choices({ A: 0.45, B: 0.2, C: 0.25, D: 0.1 }),
  ),
  row(
    "prose with a date before the figures",
    TIMING,
    "Given the 12 March deadline and 2 missed filings, I put 2026 or later at 60%, June–December 2025 at 30% and before June 2025 at 10%.",
    choices({ A: 0.1, B: 0.3, C: 0.6 }),
  ),
  row(
    "letters in a table with reasons",
    COUNTS,
    "| Option | Probability | Why |\n|---|---|---|\n| A | 10% | 2 launches already done |\n| B | 65% | 4 planned in Q3 |\n| C | 25% | needs 6 or more |",
    choices({ A: 0.1, B: 0.65, C: 0.25 }),
  ),
  row(
    "decimals on letters in prose",
    DECISIONS,
    "I assign 0.15 to A, 0.8 to B and 0.05 to C.",
    choices({ A: 0.15, B: 0.8, C: 0.05 }),
  ),
  row(
    "surnames with colons and a reason each",
    CANDIDATES,
    "- Bardella: 40% (leads first-round polls)\n- Le Pen: 20% (ineligibility risk)\n- Philippe: 30% (best second-round numbers)\n- Attal: 10%",
    choices({ A: 0.2, B: 0.4, C: 0.3, D: 0.1 }),
  ),
  row(
    "figures before surnames",
    CANDIDATES,
    "My distribution: 35% Bardella, 30% Philippe, 25% Le Pen, 10% Attal.",
    choices({ A: 0.25, B: 0.35, C: 0.3, D: 0.1 }),
  ),
  row(
    "answer tag with json after reasoning with percentages",
    PARTIES,
    `${ELECTION}\n\n<answer>{"A": 0.55, "B": 0.1, "C": 0.05, "D": 0.3}</answer>`,
    parties(0.55, 0.1, 0.05, 0.3),
  ),
  row(
    "sums to 105 normalised",
    DECISIONS,
    "A: 30%\nB: 70%\nC: 5%",
    choices({ A: 30 / 105, B: 70 / 105, C: 5 / 105 }),
  ),
  row(
    "figure before name with the article",
    PARTIES,
    "55% the Labour Party, 25% Reform UK, 15% the Conservatives, 5% the Liberal Democrats.",
    parties(0.55, 0.15, 0.05, 0.25),
  ),
  row(
    "on letter with percent",
    COUNTS,
    "60% on B, 25% on C, 15% on A",
    choices({ A: 0.15, B: 0.6, C: 0.25 }),
  ),
];

export const choiceReplies: CorpusReply[] = [
  ...lettered,
  ...byName,
  ...notAllStated,
  ...otherLanguages,
  ...moreStyles,
];
