import { describe, expect, it } from "vitest";
import { extractAnswer } from "../../src/forecast/index.js";
import { sameAnswer } from "./answer-match.js";

/**
 * Replies without an explicit final marker ("Final:", "Bottom line", a label): the answer is the
 * last conclusion the model states in its own voice, not a figure it quotes from others or from a
 * reference class, however "chance"-like that figure is written.
 */
interface Conclusion {
  /** The closing part of a reply, after reasoning full of quoted figures. */
  ending: string;
  /** null: two conclusions with nothing to choose between them, so nothing is read. */
  expected: number | null;
}

type ConclusionClass =
  | "conclusion cue"
  | "conclusion after the figure"
  | "closing statement"
  | "quoted figure in the closing paragraph"
  | "revision of a reference point"
  | "markdown"
  | "no figure of its own"
  | "ambiguous";

// Reasoning as models write it: figures from analysts, markets, polls and reference classes,
// several of them written next to "chance" or "odds".
const PREAMBLES = [
  `## Evidence

- **Base rate:** historically, about 35% of comparable bills passed within a year.
- **Markets:** Polymarket gives a 62% chance of passage; Kalshi trades at 58¢.
- **Experts:** analysts give a 70% chance of a delay past the August recess.
- **Polls:** 54% of voters support the bill, down from 61% last year.

The committee vote was 14-9 on 3 March 2025, and 12 of 40 comparable bills died in conference.`,
  `Let me think step by step.

1. According to Reuters, officials put the odds of a deal at 3 in 4.
2. Last year, 8 out of 10 similar negotiations closed on time.
3. The Metaculus community forecast is 0.66, and the crowd has been overconfident before.
4. Strategists at Goldman see a 40% probability of a breakdown before the deadline.
5. About 90 days remain.`,
  `Futures markets price a 70% chance of a rate cut by September, down from 80% a month ago. Historically, the Fed has cut within three months of such a signal in 5 of 9 cycles (56%), and the base rate of a cut in any given quarter is roughly 25%. Economists polled by Bloomberg put the chance at 65%. Core inflation is 2.8% against a 2% target, and unemployment has risen to 4.1%.`,
];

const CONCLUSIONS: Record<ConclusionClass, Conclusion[]> = {
  "conclusion cue": [
    { ending: "All things considered, it's 30%.", expected: 0.3 },
    { ending: "All in all, 30% seems right.", expected: 0.3 },
    { ending: "So 30%.", expected: 0.3 },
    { ending: "Taking everything together, 40% feels right.", expected: 0.4 },
    { ending: "Overall: 35%", expected: 0.35 },
    { ending: "Overall, I'm at about 0.35.", expected: 0.35 },
    { ending: "Therefore, 27%.", expected: 0.27 },
    { ending: "Net: 30%.", expected: 0.3 },
    { ending: "On net, I come out around 33%.", expected: 0.33 },
    { ending: "I'm going with 40%.", expected: 0.4 },
    { ending: "My estimate is 22%.", expected: 0.22 },
    { ending: "I put it at 0.3.", expected: 0.3 },
    { ending: "I land near 30 percent.", expected: 0.3 },
    { ending: "Weighing all of this, I'd say roughly 45%.", expected: 0.45 },
    { ending: "Putting it together: 38%.", expected: 0.38 },
    { ending: "That leaves me at 0.28.", expected: 0.28 },
    { ending: "Thus ~25%.", expected: 0.25 },
    { ending: "In sum, roughly 1 in 3.", expected: 1 / 3 },
    { ending: "To sum up, about a 20% chance.", expected: 0.2 },
    { ending: "Given all that, I think the answer is about 0.2.", expected: 0.2 },
    { ending: "Call it 15%.", expected: 0.15 },
    { ending: "I agree with the market: 62%.", expected: 0.62 },
    { ending: "On balance I'd go with 0.45, a little under the crowd.", expected: 0.45 },
    { ending: "So roughly 70% that it does not pass, i.e. 30% for Yes.", expected: 0.3 },
    { ending: "Overall I'd say 27,5%.", expected: 0.275 },
  ],
  "conclusion after the figure": [
    { ending: "45% is where I land.", expected: 0.45 },
    { ending: "30% seems about right to me.", expected: 0.3 },
    {
      ending: "Discounting the market for its usual overconfidence, 45% is my number.",
      expected: 0.45,
    },
    { ending: "Something like 0.3 feels right, given the delays.", expected: 0.3 },
  ],
  "closing statement": [
    { ending: "30%", expected: 0.3 },
    { ending: "Roughly 30%, given the delays.", expected: 0.3 },
    { ending: "Around 25 percent, then, with most of the risk in the Senate.", expected: 0.25 },
    { ending: "I think it's more likely than not: 60%.", expected: 0.6 },
    { ending: "Estimate ≈ 30 %", expected: 0.3 },
    {
      ending: "According to the CBO, the chance of a shutdown is 60%. My estimate is lower: 45%.",
      expected: 0.45,
    },
    { ending: "I'd put it a little under the market, at 55%.", expected: 0.55 },
    { ending: "They say 70%. I say 30%.", expected: 0.3 },
    {
      ending: "The 62% price is stale, so 40% is a floor.\n\nThere's a 55% chance it passes.",
      expected: 0.55,
    },
    {
      ending:
        "Markets price 70%, and such bills historically pass 35% of the time. I'm lower: 30%.",
      expected: 0.3,
    },
  ],
  "quoted figure in the closing paragraph": [
    {
      ending: "30% feels right. Last year 45% of similar bills passed, but this one is weaker.",
      expected: 0.3,
    },
    { ending: "30%, well below the 62% chance the market prices.", expected: 0.3 },
    { ending: "It's about 30% then, lower than the 58% on Kalshi.", expected: 0.3 },
    { ending: "Despite the 62% market price, 40% is about right.", expected: 0.4 },
    { ending: "Given the polls, the probability is 30%.", expected: 0.3 },
    { ending: "Analysts' 70% looks stale after the veto threat. 30% feels right.", expected: 0.3 },
    {
      ending:
        "The market's 62% chance looks too rich, and the base rate of 35% too low; I'm around 45%.",
      expected: 0.45,
    },
    { ending: "Polls show 54% support, so around 40% for passage.", expected: 0.4 },
    {
      ending:
        "I'd say 30%. For comparison, analysts give a 70% chance of a delay and markets price 62%.",
      expected: 0.3,
    },
    { ending: "So 30%, even though 54% of voters back the bill.", expected: 0.3 },
    {
      ending:
        "Splitting the difference between the 35% base rate and the 62% market gives roughly 48%.",
      expected: 0.48,
    },
  ],
  "revision of a reference point": [
    {
      ending: "Adjusting the 35% base rate down for the delay risk gets me to 25%.",
      expected: 0.25,
    },
    {
      ending: "Starting from the 35% base rate and the 62% market, I arrive at 30%.",
      expected: 0.3,
    },
    { ending: "My prior was 10%. The new poll moves me to 18%.", expected: 0.18 },
    { ending: "My starting point was the 35% base rate; now I'm at 28%.", expected: 0.28 },
    {
      ending: "Initially I thought 60%, but given the veto threat I revise down to 45%.",
      expected: 0.45,
    },
  ],
  markdown: [
    { ending: "- **Overall:** 30%", expected: 0.3 },
    { ending: "**So: 0.3**", expected: 0.3 },
    {
      ending:
        "### Conclusion\n\n- The market's 62% is too high.\n- The 35% base rate ignores the delay risk.\n- Overall, around 30%.",
      expected: 0.3,
    },
    {
      ending:
        "| Source | Figure |\n|---|---|\n| Market | 62% |\n| Base rate | 35% |\n\nSo I'm at 41%.",
      expected: 0.41,
    },
    { ending: "> Net-net: ~0.3", expected: 0.3 },
    { ending: "Polymarket: 62%. Metaculus: 55%. Mine: 40%.", expected: 0.4 },
  ],
  "no figure of its own": [
    { ending: "Based on the base rate of 35%, I'd go a bit lower.", expected: null },
    { ending: "It's lower than the market's 62%.", expected: null },
    { ending: "Markets price a 70% chance; I have nothing to add.", expected: null },
  ],
  ambiguous: [
    { ending: "Maybe 30%, maybe 45%.", expected: null },
    { ending: "Somewhere around 30%. Could also be 45%.", expected: null },
    { ending: "It's 25% if the court rules first and 60% otherwise.", expected: null },
    {
      ending: "There is a 30% chance of passage in June and a 45% chance by December.",
      expected: null,
    },
  ],
};

// Whole replies in other languages, reasoning and conclusion together.
const OTHER_LANGUAGES: Conclusion[] = [
  {
    ending:
      "Die Basisrate liegt bei etwa 35 %. Analysten sehen eine Wahrscheinlichkeit von 70 % für eine Verzögerung, und die Märkte preisen 62,5 % ein.\n\nAlles in allem halte ich 27,5 % für angemessen.",
    expected: 0.275,
  },
  {
    ending:
      "Im Jahr 2023 scheiterten 3 von 5 ähnlichen Entwürfen; Umfragen zeigen 61,5 % Zustimmung.\n\nInsgesamt: 0,3",
    expected: 0.3,
  },
  {
    ending:
      "Los analistas dan un 70% de probabilidad de retraso y el mercado cotiza un 62,5%. En resumen, estimo un 30%.",
    expected: 0.3,
  },
  {
    ending:
      "Les analystes donnent 70 % de chances d'un report ; historiquement, 35 % des projets similaires ont été adoptés.\n\nAu total, j'estime la probabilité à 27,5 %.",
    expected: 0.275,
  },
  {
    ending:
      "Gli analisti danno una probabilità del 70% di un rinvio, e il mercato è al 62,5%. Nel complesso, direi 0,3.",
    expected: 0.3,
  },
];

interface Row {
  conclusionClass: ConclusionClass | "other language";
  reply: string;
  expected: number | null;
}

const rows: Row[] = [
  ...Object.entries(CONCLUSIONS).flatMap(([conclusionClass, conclusions]) =>
    conclusions.flatMap((conclusion) =>
      PREAMBLES.map((preamble) => ({
        conclusionClass: conclusionClass as ConclusionClass,
        reply: `${preamble}\n\n${conclusion.ending}`,
        expected: conclusion.expected,
      })),
    ),
  ),
  ...OTHER_LANGUAGES.map((conclusion) => ({
    conclusionClass: "other language" as const,
    reply: conclusion.ending,
    expected: conclusion.expected,
  })),
];

function expectedAnswer(row: Row) {
  return row.expected === null ? null : { type: "binary" as const, probability: row.expected };
}

describe("binary extraction reads the last conclusion, not quoted figures", () => {
  it.each(
    rows.map((row, index) => [
      row.conclusionClass,
      `${PREAMBLES.findIndex((preamble) => row.reply.startsWith(preamble))}/${index}`,
      row.reply.split("\n\n").at(-1) ?? "",
      row,
    ]),
  )("%s (%s): %s", (_conclusionClass, _preamble, _ending, row) => {
    const actual = extractAnswer("binary", row.reply, null);
    expect(sameAnswer(actual, expectedAnswer(row), 1e-2), JSON.stringify(actual)).toBe(true);
  });

  it("holds at least 40 distinct conclusions", () => {
    const distinct = new Set(rows.map((row) => row.reply.split("\n\n").at(-1)));
    expect(distinct.size).toBeGreaterThanOrEqual(40);
  });
});
