import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { extractAnswer, type OptionMap, readAnswer } from "../../src/forecast/index.js";

/*
 * A figure the reply attributes to someone or something else (a market, the polls, pundits,
 * bookmakers, the consensus, a model, a base rate, a past result or vote share) is evidence,
 * not the model's forecast. A reply whose only figures are attributed has no answer (and gets a
 * repair); the model's own statement beside attributed figures is still read.
 */

interface Question {
  options: OptionMap;
  /** Ways a reply names each option: full name, short name, nickname, letter. */
  names: Record<string, string[]>;
}

const SENATE: Question = {
  options: { A: "Democratic Party", B: "Republican Party" },
  names: {
    A: ["Democrats", "the Democratic Party", "Dems", "Democratic Party", "option A"],
    B: ["Republicans", "the GOP", "Republican Party", "option B"],
  },
};
const FINAL: Question = {
  options: { A: "Carlos Alcaraz", B: "Jannik Sinner" },
  names: { A: ["Alcaraz", "Carlos Alcaraz", "A"], B: ["Sinner", "Jannik Sinner", "B"] },
};
const LEADERS: Question = {
  options: { A: "Keir Starmer", B: "Kemi Badenoch", C: "Ed Davey", D: "Nigel Farage" },
  names: {
    A: ["Starmer", "Keir Starmer"],
    B: ["Badenoch", "Kemi Badenoch"],
    C: ["Davey", "Ed Davey"],
    D: ["Farage", "Nigel Farage"],
  },
};
const CLUBS: Question = {
  options: {
    A: "Manchester City",
    B: "Real Madrid",
    C: "Paris Saint-Germain",
    D: "Another club",
  },
  names: {
    A: ["Manchester City", "City", "Man City"],
    B: ["Real Madrid", "Real", "Madrid"],
    C: ["PSG", "Paris Saint-Germain"],
    D: ["the rest of the field", "another club", "someone else"],
  },
};
const QUESTIONS = [SENATE, FINAL, LEADERS, CLUBS];

/** A figure as a chance: "99%", "99 percent", "a 99% chance". */
const chanceForms: ((percent: number) => string)[] = [
  (percent) => `${percent}%`,
  (percent) => `${percent} percent`,
  (percent) => `${percent} per cent`,
  (percent) => `a ${percent}% chance`,
  (percent) => `about ${percent}%`,
  (percent) => String(percent / 100),
  (percent) => `${percent}% odds`,
];
/** A figure as a result: "99%", "99 percent". */
const resultForms: ((percent: number) => string)[] = [
  (percent) => `${percent}%`,
  (percent) => `${percent} percent`,
];

/** Sentences giving one option a chance that is someone else's. */
const attributedChances: ((name: string, figure: string) => string)[] = [
  (name, figure) => `The market gives ${name} ${figure}.`,
  (name, figure) => `Polymarket has ${name} at ${figure}.`,
  (name, figure) => `Polymarket: ${name} ${figure}`,
  (name, figure) => `Bookmakers price ${name} at ${figure}.`,
  (name, figure) => `The bookies make ${name} ${figure}.`,
  (name, figure) => `Pundits put ${name} at ${figure}.`,
  (name, figure) => `The consensus gives ${name} ${figure}.`,
  (name, figure) => `According to the polls, ${name} have ${figure}.`,
  (name, figure) => `FiveThirtyEight's model gave ${name} ${figure}.`,
  (name, figure) => `Betting markets imply ${figure} for ${name}.`,
  (name, figure) => `Historically, ${name} won ${figure} of such contests.`,
  (name, figure) => `The base rate for ${name} is ${figure}.`,
  (name, figure) => `Forecasters on Metaculus put ${name} at ${figure}.`,
  (name, figure) => `Kalshi traders have ${name} on ${figure}.`,
  (name, figure) => `Nate Silver gives ${name} ${figure}.`,
  (name, figure) => `Goldman Sachs puts ${name} at ${figure}.`,
];
/** Sentences stating a past result or a vote share. */
const attributedResults: ((name: string, figure: string) => string)[] = [
  (name, figure) => `${name} won ${figure} of the vote last time.`,
  (name, figure) => `In 2020 ${name} got ${figure}.`,
  (name, figure) => `${name} took ${figure} in 2019.`,
  (name, figure) => `Last time ${name} won with ${figure}.`,
  (name, figure) => `${name} polled ${figure} last week.`,
  (name, figure) => `${name} have a ${figure} vote share in the latest survey.`,
];
/** A whole split attributed to someone else. */
const attributedSplits: ((stated: [string, string][]) => string)[] = [
  (stated) =>
    `The market has ${stated.map(([name, figure]) => `${name} at ${figure}`).join(", ")}.`,
  (stated) =>
    `Bookmakers: ${stated.map(([name, figure]) => `${name} ${figure}`).join(", ")}, per the latest odds.`,
  (stated) =>
    `Last time the result was ${stated.map(([name, figure]) => `${name} ${figure}`).join(", ")}.`,
];

const REASONING = [
  "",
  "Turnout will decide this, and the incumbent's record is mixed.\n\n",
  "## Reasoning\n\nFundamentals point both ways; I weigh them below.\n\n",
];

const pick = <T>(items: T[]) => fc.constantFrom(...items);

/** One attributed sentence about one option of `question`. */
function attributedSentence(question: Question): fc.Arbitrary<string> {
  const letters = Object.keys(question.options);
  const name = pick(letters).chain((letter) => pick(question.names[letter] ?? []));
  const percent = fc.integer({ min: 1, max: 99 });
  const chance = fc
    .tuple(pick(attributedChances), name, pick(chanceForms), percent)
    .map(([sentence, who, form, figure]) => sentence(who, form(figure)));
  const result = fc
    .tuple(pick(attributedResults), name, pick(resultForms), percent)
    .map(([sentence, who, form, figure]) => sentence(who, form(figure)));
  const split = fc
    .tuple(
      pick(attributedSplits),
      fc.tuple(...letters.map((letter) => pick(question.names[letter] ?? []))),
      fc.integer({ min: 1, max: 97 }),
    )
    .map(([sentence, who, first]) =>
      sentence(
        who.map((name, index): [string, string] => [
          name,
          `${index === 0 ? first : index === 1 ? 100 - first - (who.length - 2) : 1}%`,
        ]),
      ),
    );
  return fc.oneof(chance, result, split);
}

/** A reply whose only figures are attributed. */
const attributedOnly = pick(QUESTIONS).chain((question) =>
  fc
    .tuple(
      pick(REASONING),
      fc.array(attributedSentence(question), { minLength: 1, maxLength: 3 }),
      pick([" ", "\n", "\n\n"]),
    )
    .map(([reasoning, sentences, gap]) => ({
      question,
      reply: `${reasoning}${sentences.join(gap)}`,
    })),
);

/** The model's own split over every option, in one of the ways it commits to one. */
const ownForms: ((stated: [string, number][]) => string)[] = [
  (stated) => `I give ${stated.map(([name, percent]) => `${name} ${percent}%`).join(", ")}.`,
  (stated) => stated.map(([name, percent]) => `${name}: ${percent}%`).join("\n"),
  (stated) => `My forecast: ${stated.map(([name, percent]) => `${name} ${percent}%`).join(", ")}.`,
  (stated) =>
    `Final answer:\n${stated.map(([name, percent]) => `- ${name}: ${percent}%`).join("\n")}`,
];

/** Shares of 100 for `count` options, each at least 1. */
const shares = (count: number) =>
  fc
    .array(fc.integer({ min: 1, max: 20 }), { minLength: count, maxLength: count })
    .map((weights) => {
      const total = weights.reduce((sum, weight) => sum + weight, 0);
      const percents = weights.map((weight) => Math.floor((100 * weight) / total));
      percents[0] = (percents[0] ?? 0) + 100 - percents.reduce((sum, percent) => sum + percent, 0);
      return percents;
    });

const ownAndAttributed = pick(QUESTIONS).chain((question) => {
  const letters = Object.keys(question.options);
  return fc
    .tuple(
      pick(REASONING),
      fc.array(attributedSentence(question), { minLength: 1, maxLength: 2 }),
      pick(ownForms),
      fc.tuple(
        ...letters.map((letter) =>
          pick((question.names[letter] ?? []).filter((name) => !/^(?:option )?[A-Z]$/.test(name))),
        ),
      ),
      shares(letters.length),
      fc.boolean(),
    )
    .map(([reasoning, attributed, own, names, percents, ownFirst]) => {
      const statement = own(names.map((name, index) => [name, percents[index] ?? 0]));
      const evidence = attributed.join(" ");
      const body = ownFirst ? `${statement}\n\n${evidence}` : `${evidence}\n\n${statement}`;
      const expected = Object.fromEntries(
        letters.map((letter, index) => [letter, (percents[index] ?? 0) / 100]),
      );
      return { question, reply: `${reasoning}${body}`, expected };
    });
});

describe("figures attributed to others in a multiple-choice reply", () => {
  it("are no answer when they are the only figures", async () => {
    await fc.assert(
      fc.property(attributedOnly, ({ question, reply }) => {
        expect(extractAnswer("multiple_choice", reply, question.options), reply).toBeNull();
      }),
      { numRuns: 600 },
    );
  });

  it("leave the model's own split to be read", async () => {
    await fc.assert(
      fc.property(ownAndAttributed, ({ question, reply, expected }) => {
        const answer = extractAnswer("multiple_choice", reply, question.options);
        expect(answer, reply).not.toBeNull();
        if (answer?.type !== "multiple_choice") return;
        for (const [letter, share] of Object.entries(expected)) {
          expect(answer.probabilities[letter], reply).toBeCloseTo(share, 6);
        }
      }),
      { numRuns: 600 },
    );
  });

  const twoSided: [string, string, Record<string, number> | null][] = [
    ["the market's chance alone", "The market gives Democrats a 99% chance.", null],
    ["a past vote share alone", "Democrats won 99% of the vote last time.", null],
    [
      "a consensus chance in the last paragraph",
      "Seats in play: 8.\n\nThe consensus gives Democrats a 62% chance of holding the Senate.",
      null,
    ],
    ["a bookmakers' ratio", "Bookmakers have it 60/40 in favour of the Republicans.", null],
    [
      "the model's own side after the market's",
      "The market gives Democrats a 70% chance.\n\nI give Democrats 60%.",
      { A: 0.6, B: 0.4 },
    ],
    [
      "the model's own side after a past result, in one paragraph",
      "Democrats won 52% of the vote last time. I give the Democrats a 58% chance of winning.",
      { A: 0.58, B: 0.42 },
    ],
    ["a label of the model's own", "Democrats: 60%", { A: 0.6, B: 0.4 }],
    ["a label with its source in brackets", "Democrats: 60% (polls)", null],
    ["the model's own vote share, not a chance", "I put the Democrats' vote share at 52%.", null],
    ["the model's own side at a chance", "I put the Democrats at about 52%.", { A: 0.52, B: 0.48 }],
    ["a named analyst's chance", "Nate Silver gives Democrats a 45% chance of holding on.", null],
    ["a named bank's chance", "Goldman Sachs puts the Democrats at 45%.", null],
    ["a firm's split", "JPMorgan has Democrats on 45% and Republicans on 55%.", null],
    [
      "the model's own split opening with a discourse word",
      "Overall this leaves Democrats at 45% and Republicans at 55%.",
      { A: 0.45, B: 0.55 },
    ],
    [
      "the model's own side after a named source's",
      "Nate Silver gives Democrats 45%, but I give Democrats 52%.",
      { A: 0.52, B: 0.48 },
    ],
  ];
  for (const [name, reply, expected] of twoSided) {
    it(`over two options: ${name}`, () => {
      const answer = readAnswer("multiple_choice", reply, SENATE.options).answer;
      if (expected === null) {
        expect(answer).toBeNull();
        return;
      }
      expect(answer?.type).toBe("multiple_choice");
      if (answer?.type !== "multiple_choice") return;
      for (const [letter, share] of Object.entries(expected)) {
        expect(answer.probabilities[letter]).toBeCloseTo(share, 6);
      }
    });
  }

  it("in brackets after each labelled line are no answer", () => {
    const reply =
      "Starmer: 40% (Betfair)\nBadenoch: 30% (Betfair)\nDavey: 10% (Betfair)\nFarage: 20% (Betfair)";
    expect(extractAnswer("multiple_choice", reply, LEADERS.options)).toBeNull();
  });

  it("beside the model's own figure on each line leave the own figure to be read", () => {
    const reply =
      "Starmer: 35% (market: 40%)\nBadenoch: 30% (market: 30%)\nDavey: 10% (market: 10%)\nFarage: 25% (market: 20%)";
    expect(extractAnswer("multiple_choice", reply, LEADERS.options)).toEqual({
      type: "multiple_choice",
      probabilities: { A: 0.35, B: 0.3, C: 0.1, D: 0.25 },
    });
  });

  const LISTS: [string, string, Record<string, number> | null][] = [
    [
      "under a market heading",
      "Market prices:\n- Starmer: 40%\n- Badenoch: 30%\n- Davey: 10%\n- Farage: 20%",
      null,
    ],
    [
      "under a bold polling heading",
      "**Polling average, last 10 polls:**\n\nStarmer 40%, Badenoch 30%, Davey 10%, Farage 20%.",
      null,
    ],
    [
      "under a markdown heading of odds",
      "## Betting odds\n\nStarmer: 40%\nBadenoch: 30%\nDavey: 10%\nFarage: 20%",
      null,
    ],
    [
      "in a table whose column is a market",
      "| Candidate | Polymarket |\n|---|---|\n| Starmer | 40% |\n| Badenoch | 30% |\n| Davey | 10% |\n| Farage | 20% |",
      null,
    ],
    [
      "under a market heading, then the model's own under its own",
      "Market prices:\n- Starmer: 40%\n- Badenoch: 30%\n- Davey: 10%\n- Farage: 20%\n\nI think the market overrates Starmer.\n\nMy forecast:\n- Starmer: 35%\n- Badenoch: 30%\n- Davey: 10%\n- Farage: 25%",
      { A: 0.35, B: 0.3, C: 0.1, D: 0.25 },
    ],
    [
      "under a heading that weighs the polls in the model's own view",
      "Here is how I see it, given the polls:\n- Starmer: 35%\n- Badenoch: 30%\n- Davey: 10%\n- Farage: 25%",
      { A: 0.35, B: 0.3, C: 0.1, D: 0.25 },
    ],
  ];
  for (const [name, reply, expected] of LISTS) {
    it(`in a list or table ${name}`, () => {
      expect(extractAnswer("multiple_choice", reply, LEADERS.options)).toEqual(
        expected === null ? null : { type: "multiple_choice", probabilities: expected },
      );
    });
  }
});
