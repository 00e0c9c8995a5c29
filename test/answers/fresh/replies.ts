import type { OptionMap } from "../../../src/forecast/index.js";
import { type HeldOutReply, normal, split, value, words, yes, Z } from "../held-out/reply.js";

/*
 * Fresh replies across the classes of answer phrasing, written after the readers and never
 * tuned on: figures attributed to others, revisions, points inside ranges, words and odds, the
 * chance of no before the chance of yes, multiple choice in prose and by short names or range
 * labels, continuous answers in other shapes, free response, and replies that state no answer.
 */
type Fresh = Omit<HeldOutReply, "id"> & { id: string };

const fresh = (entry: Fresh): HeldOutReply => ({ ...entry, id: `fresh/replies/${entry.id}` });

const SENATE: OptionMap = { A: "Democratic Party", B: "Republican Party" };
const GB: OptionMap = { A: "Labour", B: "Conservative", C: "Reform UK", D: "Liberal Democrat" };
const FINAL: OptionMap = { A: "Carlos Alcaraz", B: "Jannik Sinner" };
const BY_ELECTION: OptionMap = { A: "Conservative", B: "Liberal Democrat" };
const MAYOR: OptionMap = { A: "Zohran Mamdani", B: "Andrew Cuomo" };
const CLUBS: OptionMap = {
  A: "Real Madrid",
  B: "Manchester City",
  C: "Bayern Munich",
  D: "Another club",
};
const MEXICO: OptionMap = {
  A: "Claudia Sheinbaum",
  B: "Xóchitl Gálvez",
  C: "Jorge Álvarez Máynez",
};
const WESTMINSTER: OptionMap = {
  A: "Labour",
  B: "Reform UK",
  C: "Conservative",
  D: "Liberal Democrat",
  E: "Other",
};
const NOMINEE: OptionMap = {
  A: "Gavin Newsom",
  B: "Kamala Harris",
  C: "Pete Buttigieg",
  D: "Someone else",
};
const LABS: OptionMap = { A: "Google DeepMind", B: "OpenAI", C: "Anthropic", D: "Other" };
const STORMS: OptionMap = { A: "Fewer than 10", B: "10–14", C: "15–19", D: "20 or more" };
const LEAGUE: OptionMap = {
  A: "Manchester City",
  B: "Arsenal",
  C: "Liverpool",
  D: "Another club",
};
const HOUSE: OptionMap = { A: "Republican Party", B: "Democratic Party" };
const COLOURS: OptionMap = { A: "Red", B: "Blue", C: "Green", D: "Yellow" };
const SCOTLAND: OptionMap = {
  A: "Liberal Democrats",
  B: "Scottish National Party",
  C: "Plaid Cymru",
  D: "Green Party",
};
const INFLATION: OptionMap = {
  A: "Below 3.0%",
  B: "3.0%–3.4%",
  C: "3.5%–3.9%",
  D: "4.0% or higher",
};

export const freshReplies: HeldOutReply[] = [
  fresh({
    id: "attributed/market-only",
    kind: "attributed figures only",
    type: "multiple_choice",
    options: SENATE,
    reply:
      "Polymarket trades the Democrats at 41% and Kalshi at 39%. The generic ballot is tied, and the map is poor for them: they must hold Georgia and Michigan and flip two of Texas, Iowa and Ohio.\n\nThe market consensus gives Democrats roughly a 40% chance.",
    expected: null,
  }),
  fresh({
    id: "attributed/past-vote-shares",
    kind: "attributed figures only",
    type: "multiple_choice",
    options: GB,
    reply:
      "In 2024 Labour won 33.7% of the vote, the Conservatives 23.7%, Reform UK 14.3% and the Lib Dems 12.2%. Current polls have Reform UK at 29% and Labour at 21%, with the Conservatives on 17%.\n\nA lot can change before the next election, and the seat count depends heavily on how the right-wing vote splits.",
    expected: null,
  }),
  fresh({
    id: "attributed/bookmakers-then-own",
    kind: "attributed figures then own",
    type: "multiple_choice",
    options: FINAL,
    reply:
      "Bookmakers make Sinner a 4/6 favourite, about 60% implied. Alcaraz won their last two meetings on clay and has the better return game on slow courts.\n\nI give Alcaraz 55% and Sinner 45%.",
    expected: split({ A: 0.55, B: 0.45 }),
  }),
  fresh({
    id: "attributed/base-rate-then-own-side",
    kind: "attributed figures then own",
    type: "multiple_choice",
    options: BY_ELECTION,
    reply:
      "Historically the party defending the seat holds about 60% of such by-elections, but the Lib Dems took 4 of the last 6 in the Blue Wall, and the Tory majority here was only 3,200.\n\nI put the Conservatives at 35%.",
    expected: split({ A: 0.35, B: 0.65 }),
  }),
  fresh({
    id: "attributed/pundits-ratio",
    kind: "attributed figures only",
    type: "multiple_choice",
    options: MAYOR,
    reply:
      "Mamdani leads among voters under 45 by 30 points; Cuomo has the older, higher-turnout electorate.\n\nMost pundits call it 70/30 for Mamdani.",
    expected: null,
  }),
  fresh({
    id: "attributed/bettors-partial",
    kind: "attributed figures only",
    type: "multiple_choice",
    options: CLUBS,
    reply:
      "Real have reached 6 of the last 11 finals, City's xG difference is the best in the competition, and Bayern host the final.\n\nBettors have Real Madrid at 28% and City at 24%.",
    expected: null,
  }),
  fresh({
    id: "attributed/consensus-then-own-lines",
    kind: "attributed figures then own",
    type: "multiple_choice",
    options: MEXICO,
    reply:
      "The consensus among analysts: Sheinbaum 80%, Gálvez 15%, Máynez 5%. I'm a bit less sure of the front-runner given the late swing in the northern states.\n\nSheinbaum: 72%\nGálvez: 22%\nMáynez: 6%",
    expected: split({ A: 0.72, B: 0.22, C: 0.06 }),
  }),
  fresh({
    id: "revision/first-pass",
    kind: "revision",
    type: "binary",
    reply:
      "My first pass put this at 25%, from the base rate of injunctions surviving appeal. The appeals court's order yesterday changes things, so I'm revising upward to 38%.",
    expected: yes(0.38),
  }),
  fresh({
    id: "revision/corrected-tag",
    kind: "revision",
    type: "binary",
    reply:
      "The deadline looks tight and 3 of 5 comparable projects slipped.\n\n<answer>0.3</answer>\n\nWait, I misread the deadline: it is the end of 2026, not 2025. That gives an extra year. Corrected:\n\n<answer>0.45</answer>",
    expected: yes(0.45),
  }),
  fresh({
    id: "range-point/binary",
    kind: "point inside a range",
    type: "binary",
    reply:
      "The committee has blocked 2 of the last 7 similar nominations, and this nominee has two senators opposed.\n\nI'd say somewhere in the 20–30% range, most likely around 24%.",
    expected: yes(0.24),
  }),
  fresh({
    id: "range-point/value",
    kind: "point inside a range",
    type: "continuous_value_only",
    reply:
      "Ticket sales for the first week ran at 310k, and the second week usually does 60–70% of the first. Merchandise and streaming are excluded.\n\nTotal attendance: between 1.9 and 2.3 million, call it 2.1 million.",
    expected: value(2_100_000),
  }),
  fresh({
    id: "words/one-in-five",
    kind: "words and odds",
    type: "binary",
    reply:
      "Only 3 central banks have cut rates by 50 bp at an unscheduled meeting since 2010, and inflation here is still above target.\n\nRoughly one in five.",
    expected: yes(0.2),
  }),
  fresh({
    id: "words/three-to-one-against",
    kind: "words and odds",
    type: "binary",
    reply:
      "The challenger needs a stoppage; she has 9 of her 14 wins inside the distance but the champion has never been down.\n\nI'd make it 3 to 1 against.",
    expected: yes(0.25),
  }),
  fresh({
    id: "words/evens",
    kind: "words and odds",
    type: "binary",
    reply:
      "Both sides have strong arguments, the judge's past rulings split evenly, and neither brief changed much at the hearing.\n\nIt's basically a coin flip: evens.",
    expected: yes(0.5),
  }),
  fresh({
    id: "no-then-yes",
    kind: "chance of no, then of yes",
    type: "binary",
    reply:
      "The bill has 48 sure votes and needs 50; two senators are undecided and leadership has not scheduled a vote.\n\nI put 80% on NO, which means 20% on YES.",
    expected: yes(0.2),
  }),
  fresh({
    id: "choice-prose/reordered-nicknames",
    kind: "multiple choice in prose",
    type: "multiple_choice",
    options: WESTMINSTER,
    reply:
      "Reform UK's lead has held for 9 months, but first-past-the-post punishes a party without a ground game.\n\nI give Reform UK 38%, Labour 30%, the Tories 20%, the Lib Dems 7% and someone else 5%.",
    expected: split({ A: 0.3, B: 0.38, C: 0.2, D: 0.07, E: 0.05 }),
  }),
  fresh({
    id: "choice-prose/surnames-field",
    kind: "multiple choice in prose",
    type: "multiple_choice",
    options: NOMINEE,
    reply:
      "No primary has started, name recognition drives early polls, and the eventual nominee was polling below 10% at this stage in 3 of the last 5 open races.\n\nNewsom 30%, Harris 25%, Buttigieg 15%, the field 30%.",
    expected: split({ A: 0.3, B: 0.25, C: 0.15, D: 0.3 }),
  }),
  fresh({
    id: "choice-prose/short-name-other-labs",
    kind: "multiple choice in prose",
    type: "multiple_choice",
    options: LABS,
    reply:
      "Google has the most compute, OpenAI the most users, and Anthropic has led the coding benchmarks for two quarters.\n\nMy numbers: OpenAI 35%, Google 35%, Anthropic 22%, other labs 8%.",
    expected: split({ A: 0.35, B: 0.35, C: 0.22, D: 0.08 }),
  }),
  fresh({
    id: "choice-labels/storm-counts",
    kind: "multiple choice by range label",
    type: "multiple_choice",
    options: STORMS,
    reply:
      "The seasonal outlook calls for an above-normal season with La Niña developing; the 30-year average is 14 named storms.\n\n<10: 5%\n10-14: 30%\n15-19: 45%\n20+: 20%",
    expected: split({ A: 0.05, B: 0.3, C: 0.45, D: 0.2 }),
  }),
  fresh({
    id: "choice-labels/percent-ranges",
    kind: "multiple choice by range label",
    type: "multiple_choice",
    options: INFLATION,
    reply:
      "Core inflation printed 3.6% last month, shelter is still running hot, and energy base effects turn favourable in the spring.\n\nBelow 3.0%: 10%\n3.0%–3.4%: 40%\n3.5%–3.9%: 35%\n4.0% or higher: 15%",
    expected: split({ A: 0.1, B: 0.4, C: 0.35, D: 0.15 }),
  }),
  fresh({
    id: "choice-names/abbreviated-club",
    kind: "multiple choice naming",
    type: "multiple_choice",
    options: LEAGUE,
    reply:
      "City are 4 points clear with a game in hand; Arsenal have the easier run-in and Liverpool the injury problems.\n\nMan City 45%, Arsenal 30%, Liverpool 20%, anyone else 5%.",
    expected: split({ A: 0.45, B: 0.3, C: 0.2, D: 0.05 }),
  }),
  fresh({
    id: "choice-names/ratio-gop",
    kind: "multiple choice naming",
    type: "multiple_choice",
    options: HOUSE,
    reply:
      "Redistricting netted the GOP about 3 seats, but the president's party has lost House seats in 18 of the last 21 midterms.\n\nNet, I'd call it 60/40 in favour of the GOP.",
    expected: split({ A: 0.6, B: 0.4 }),
  }),
  fresh({
    id: "choice-names/missing-option",
    kind: "multiple choice naming",
    type: "multiple_choice",
    options: COLOURS,
    reply: "The draw favours the first two colours.\n\nRed 50%, Blue 30%, Green 10%.",
    expected: null,
  }),
  fresh({
    id: "choice-names/abbreviation-table",
    kind: "multiple choice naming",
    type: "multiple_choice",
    options: SCOTLAND,
    reply:
      "Seat projections from the last four polls disagree by up to 8 seats.\n\n| Party | P |\n|---|---|\n| LD | 40% |\n| SNP | 35% |\n| PC | 10% |\n| Green | 15% |",
    expected: split({ A: 0.4, B: 0.35, C: 0.1, D: 0.15 }),
  }),
  fresh({
    id: "continuous/percentile-magnitudes",
    kind: "continuous in other shapes",
    type: "continuous",
    reply:
      "Subscribers were 1.9M at the last report and grew 6% a quarter; a price rise is due in March.\n\n10th percentile: 2.1M\n50th: 2.6M\n90th: 3.2M",
    expected: normal(2_600_000, (3_200_000 - 2_100_000) / (2 * Z[80])),
  }),
  fresh({
    id: "continuous/median-interval",
    kind: "continuous in other shapes",
    type: "continuous",
    reply:
      "Quarterly revenue was $3.8bn a year ago and guidance implies 6–9% growth. The company has beaten guidance in 5 of 8 quarters.\n\nMy median is $4.1bn, with an 80% interval of $3.5bn–$4.9bn.",
    expected: normal(4_100_000_000, (4_900_000_000 - 3_500_000_000) / (2 * Z[80])),
  }),
  fresh({
    id: "continuous/scientific-sd",
    kind: "continuous in other shapes",
    type: "continuous",
    reply:
      "Output was 3.9e7 tonnes last year and capacity grows about 5% a year; drought cut 2 of the last 10 harvests by more than 15%.\n\nEstimate: 4.2e7 tonnes, sd 5e6.",
    expected: normal(42_000_000, 5_000_000),
  }),
  fresh({
    id: "continuous/value-magnitude",
    kind: "continuous in other shapes",
    type: "continuous_value_only",
    reply:
      "Median listing prices rose from $81k to $88k over the year, and the last three months ran ahead of that pace.\n\nFinal answer: ~$96k.",
    expected: value(96_000),
  }),
  fresh({
    id: "reasoning/final-over-reasoning",
    kind: "reasoning is not the answer",
    type: "continuous",
    reply:
      "Last year the rate was 3.1%, and the standard deviation of its year-on-year change since 2000 is about 0.4 points. Wage growth is still 4.5%.\n\nI expect 3.6%, give or take 0.3 (one standard deviation).",
    expected: normal(3.6, 0.3),
  }),
  fresh({
    id: "free/bold-then-rivals",
    kind: "free response",
    type: "free_response",
    reply:
      "**Istanbul**\n\nDoha and Ahmedabad remain possible: Doha has the venues, and Ahmedabad has the government's backing. Istanbul's bid has been the committee's stated preference since the spring.",
    expected: words("Istanbul"),
  }),
  fresh({
    id: "free/refusal",
    kind: "not an answer",
    type: "free_response",
    reply:
      "I can't responsibly name a single winner here: the shortlist is open and the judges have not signalled a preference.",
    expected: null,
  }),
  fresh({
    id: "non-answer/template",
    kind: "not an answer",
    type: "binary",
    reply: "Reasoning: the agency has met 4 of its last 6 launch dates.\n\nProbability: XX%",
    expected: null,
  }),
  fresh({
    id: "non-answer/contradiction",
    kind: "not an answer",
    type: "binary",
    reply: "The treaty needs 60 ratifications and has 52.\n\nYes: 70%\nNo: 45%",
    expected: null,
  }),
  fresh({
    id: "non-answer/no-point",
    kind: "not an answer",
    type: "binary",
    reply:
      "This turns entirely on a ruling nobody can predict. I won't give a point estimate; it's anywhere from 10% to 60% depending on the judge.",
    expected: null,
  }),
];
