import type { ForecastAnswer } from "../../../src/forecast/index.js";
import { type HeldOutReply, yes } from "./reply.js";

const CUTS = `The central bank has cut twice this year, from 4.50% to 4.00%. Headline inflation is 2.6% and core 3.1%. Swaps price a 48% chance of another cut in December, and in 7 of the last 10 easing cycles the bank cut at least three times. Two of nine committee members dissented in October.`;

const CEASEFIRE = `Talks resumed on 14 May after a 6-week pause. Of 31 ceasefires brokered in comparable conflicts since 1990, 12 held beyond 90 days (39%). Polymarket trades at 27¢, and the mediator called the chances "better than even". Reported casualties fell 40% month on month.`;

const ROCKET = `### Reasoning

- The vehicle has flown 4 times: 2 successes, 1 partial, 1 failure.
- New launchers historically reach orbit on about 55% of their first five flights.
- The company has met only 1 of its last 6 schedule dates.
- Licensing takes a median of 62 days; the application was filed 40 days ago.`;

const TURNOUT = `Turnout was 58.4% in 2019 and 61.2% in 2015. Early voting is up 12% on last time, and registration hit a record 47.6 million. A 1.6-point rise would clear the 60% threshold; polls put enthusiasm at 71%, close to its 2015 level.`;

const MERGER = `Regulators in 3 of 4 jurisdictions have cleared the deal. The remaining authority blocked 2 of its last 15 large mergers (13%) and opened a phase-2 review 45 days ago; reviews of this size take 90 to 120 days. The spread on the target's shares is 8%, which implies roughly 70% odds of closing.`;

const PREAMBLES = [CUTS, CEASEFIRE, ROCKET, TURNOUT, MERGER];

type Row = [kind: string, final: string, expected: ForecastAnswer | null];

/** Each final statement after one of the reasoning passages, in turn. */
function replies(group: string, rows: Row[], offset = 0): HeldOutReply[] {
  return rows.map(([kind, final, expected], index) => ({
    id: `binary/${group}/${index}`,
    kind: `binary ${kind}`,
    type: "binary",
    reply: `${PREAMBLES[(index + offset) % PREAMBLES.length]}\n\n${final}`,
    expected,
  }));
}

const committed: Row[] = [
  ["label", "Probability: 23%", yes(0.23)],
  ["label", "**Final answer:** 0.41", yes(0.41)],
  ["label", "Forecast — 12%", yes(0.12)],
  ["tag", "<answer>0.18</answer>", yes(0.18)],
  ["tag", "So my number is a bit under the market.\n\n<answer>0.215</answer>", yes(0.215)],
  ["label", "## Final probability\n\n9%", yes(0.09)],
  ["label", "My final forecast is 0.56.", yes(0.56)],
  ["label", "Probability of YES: 64%", yes(0.64)],
  ["tag", "<answer>1</answer>", yes(1)],
  ["tag", "<answer>0</answer>", yes(0)],
  ["label", "Probability: 100%", yes(1)],
  ["tag", "<answer>0.0005</answer>", yes(0.0005)],
  ["tag", "<answer>0.9995</answer>", yes(0.9995)],
  ["label", "Final answer: 0%", yes(0)],
  ["conclusion", "All things considered, I land at 37%.", yes(0.37)],
  ["conclusion", "Weighing it all, I'd put this at about 0.3.", yes(0.3)],
];

const revisions: Row[] = [
  [
    "revision",
    "The dissent pattern pushes me up, so I'm raising my forecast from 30% to 35%.",
    yes(0.35),
  ],
  [
    "revision",
    "Probability: 40%\n\nUpdate: after re-reading the statement from the mediator, I revise to 33%.",
    yes(0.33),
  ],
  [
    "revision",
    "<answer>0.30</answer>\n\nCorrection: I misread the pricing above.\n\n<answer>0.24</answer>",
    yes(0.24),
  ],
  [
    "revision",
    "My first estimate was 55%. That ignores the licensing delay, so my revised estimate is 38%.",
    yes(0.38),
  ],
  ["revision", "On reflection I'm lowering my estimate from 45% to 31%.", yes(0.31)],
  ["revision", "Initially 60%, now 48%.", yes(0.48)],
  ["revision", "Earlier I said 0.2; I'll update that to 0.27.", yes(0.27)],
  ["revision", "Forecast: 25% → 32% after accounting for the early vote.", yes(0.32)],
  ["revision", "I'd cut my number from 70% to 62%.", yes(0.62)],
  ["revision", "Revised down to 0.15 from 0.22.", yes(0.15)],
  ["revision", "Bumping it up to 44% (was 38%).", yes(0.44)],
  [
    "revision",
    "Final probability: 20%\n\nEdit: raising this to 26% given the October vote.",
    yes(0.26),
  ],
  ["revision", "I move from 52% down to 47%.", yes(0.47)],
  ["revision", "Going from 0.35 to 0.4 on the new information.", yes(0.4)],
];

const ranges: Row[] = [
  ["range point", "Somewhere in the 15–20% range, leaning towards 17%.", yes(0.17)],
  ["range point", "I'd say between 60 and 70 percent, call it 65%.", yes(0.65)],
  ["range point", "Range: 0.30–0.40; point estimate 0.34.", yes(0.34)],
  ["range point", "Probability: 25-35%, most likely around 28%.", yes(0.28)],
  ["range point", "My probability is 40–50%, with 44% as my central estimate.", yes(0.44)],
  ["range point", "Something like 10 to 20%, I'd pick 12%.", yes(0.12)],
  ["range", "Probability: 20–30%", yes(0.25)],
  ["range", "Final answer: between 0.6 and 0.7", yes(0.65)],
];

const wordsAndOdds: Row[] = [
  ["words", "I'd put it at one-in-three.", yes(1 / 3)],
  ["words", "Overall it's about a one in four chance.", yes(0.25)],
  ["odds", "Odds: 3:1 against.", yes(0.25)],
  ["words", "I make it evens.", yes(0.5)],
  ["odds", "My final call: 2 to 1 on.", yes(2 / 3)],
  ["words", "Final answer: roughly a one-in-five shot.", yes(0.2)],
  ["odds", "I'd price it at 4 to 1 against.", yes(0.2)],
  ["words", "Probability: a two-in-three chance.", yes(2 / 3)],
  ["words", "Final answer: thirty-five percent.", yes(0.35)],
  ["words", "Final: three in ten.", yes(0.3)],
  ["odds", "Call it 7 to 3 in favour.", yes(0.7)],
  ["odds", "I'd give it 9-to-1 against.", yes(0.1)],
  ["words", "Overall this looks like a coin flip.", yes(0.5)],
  ["words", "Bottom line: fifty-fifty.", yes(0.5)],
  ["words", "Probability: one in ten.", yes(0.1)],
  ["odds", "Final odds: 3/1 against.", yes(0.25)],
];

const sides: Row[] = [
  ["no then yes", "70% on NO, i.e. 30% on YES.", yes(0.3)],
  ["no then yes", "I'd put 80% on No, so Yes gets 20%.", yes(0.2)],
  ["no then yes", "P(No) = 0.65 → P(Yes) = 0.35", yes(0.35)],
  ["no then yes", "No: 75% | Yes: 25%", yes(0.25)],
  ["no then yes", "Chance it fails: 60%. Chance it passes: 40%.", yes(0.4)],
  ["no", "Probability of NO: 0.9", yes(0.1)],
  ["no then yes", "NO — 85%\nYES — 15%", yes(0.15)],
  ["no then yes", "I lean No at 55%, which leaves 45% for Yes.", yes(0.45)],
];

const notAnswers: Row[] = [
  ["template", "Probability: ZZ%", null],
  ["template", "<answer>0.XX</answer>", null],
  ["template", '```json\n{"probability": <your probability>}\n```', null],
  ["contradiction", "Yes 60% / No 60%", null],
  [
    "refusal",
    "I won't put a single number on this: the uncertainty is too deep for a point estimate.",
    null,
  ],
  ["refusal", "I can't give a meaningful probability for this question.", null],
  ["template", "Probability: [insert probability]", null],
  ["undecided", "Maybe 30%, maybe 45%; I genuinely can't choose between them.", null],
  ["template", "Answer: N/A", null],
  ["template", "<answer></answer>", null],
  ["refusal", "I'd need the committee's schedule before committing to any figure.", null],
  ["not a probability", "Probability: 130%", null],
  ["template", "Final answer: __%", null],
  ["contradiction", "Probability: 30%\nProbability: 70%\n(not sure which)", null],
  ["refusal", "Declining to forecast: too little information to go on.", null],
];

const reasoningNotAnswer: Row[] = [
  [
    "reasoning figures",
    "Final: 12%. For reference, the polls had a standard deviation of about 16% last cycle.",
    yes(0.12),
  ],
  ["reasoning figures", "Markets: 62%. Base rate: 39%. My number: 33%.", yes(0.33)],
  [
    "reasoning figures",
    "The 48% in the swaps market looks too high to me. I'd go with 41%.",
    yes(0.41),
  ],
  [
    "reasoning figures",
    "So my final answer is 0.7, though the market's 0.62 is not far off.",
    yes(0.7),
  ],
  [
    "reasoning figures",
    "Probability: 0.27\n\nKey risks: a 10% chance of a snap election and a 15% chance the court intervenes.",
    yes(0.27),
  ],
  [
    "reasoning figures",
    "Analysts give it 70%, but I think that's too generous. My forecast: 52%.",
    yes(0.52),
  ],
  [
    "reasoning figures",
    "Putting it together: base rate 39%, adjusted up for the ceasefire momentum, gives me 46%.",
    yes(0.46),
  ],
];

export const binaryHeldOut: HeldOutReply[] = [
  ...replies("committed", committed),
  ...replies("revisions", revisions, 1),
  ...replies("ranges", ranges, 2),
  ...replies("words", wordsAndOdds, 3),
  ...replies("sides", sides, 4),
  ...replies("not-answers", notAnswers),
  ...replies("reasoning", reasoningNotAnswer, 2),
  // The same statements after other reasoning: the figures before must not change the reading.
  ...replies("revisions-again", revisions, 3),
  ...replies("words-again", wordsAndOdds, 1),
  ...replies("not-answers-again", notAnswers, 2),
];
