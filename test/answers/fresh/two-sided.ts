import type { OptionMap } from "../../../src/forecast/index.js";
import { type HeldOutReply, split } from "../held-out/reply.js";

/*
 * Replies to two-option questions that state one side, written after the reader of that class
 * and never tuned on: they check that it generalises beyond the held-out replies it was built
 * from. Some commit to nothing readable; reading an answer from them would be a misread.
 */
const SENATE: OptionMap = { A: "Democratic Party", B: "Republican Party" };
const REFERENDUM: OptionMap = { A: "Remain", B: "Leave" };
const FINAL: OptionMap = { A: "Carlos Alcaraz", B: "Jannik Sinner" };
const MAYOR: OptionMap = { A: "Zohran Mamdani", B: "Andrew Cuomo" };

const entry = (
  id: string,
  options: OptionMap,
  reply: string,
  expected: Record<string, number> | null,
): HeldOutReply => ({
  id: `fresh/two-sided/${id}`,
  kind: "two options, one side stated",
  type: "multiple_choice",
  options,
  reply,
  expected: expected === null ? null : split(expected),
});

export const freshTwoSided: HeldOutReply[] = [
  entry(
    "senate-ratio",
    SENATE,
    "Republicans defend 13 seats, Democrats 20. Maine and North Carolina are the likeliest flips; Ohio polls within 2 points.\n\nNet of all that I land on 55/45 in favour of the Republicans.",
    { A: 0.45, B: 0.55 },
  ),
  entry(
    "senate-one-side",
    SENATE,
    "The map favours the GOP: of the 8 competitive races, 5 are in states Trump carried by 10+ points.\n\nI give the Democrats a 28% chance of taking the Senate.",
    { A: 0.28, B: 0.72 },
  ),
  entry(
    "referendum-leave",
    REFERENDUM,
    "Online panels show Leave 3 points ahead, phone polls Remain 4 ahead. Turnout among over-65s ran at 78% last time.\n\nLeave wins with probability 0.46.",
    { A: 0.54, B: 0.46 },
  ),
  entry(
    "final-ratio-dash",
    FINAL,
    "Head to head they are 6-4 over the last two seasons; on hard courts it is 3-3. Sinner served 71% first serves in the semi.\n\nCall it 58-42 Sinner.",
    { A: 0.42, B: 0.58 },
  ),
  entry(
    "final-surname-for",
    FINAL,
    "Alcaraz has won 4 of their 5 finals, but Sinner's hard-court hold rate is 89%.\n\n62% for Alcaraz.",
    { A: 0.62, B: 0.38 },
  ),
  entry(
    "mayor-favoured",
    MAYOR,
    "Ranked-choice transfers from the third candidate split roughly 2 to 1. Early vote is up 40% on 2021.\n\nMamdani is favoured, at 71%.",
    { A: 0.71, B: 0.29 },
  ),
  entry(
    "mayor-loses",
    MAYOR,
    "Cuomo leads among voters over 65 by 20 points; Mamdani leads among under-35s by 30.\n\nCuomo loses with probability 0.6.",
    null,
  ),
  entry(
    "referendum-quoted",
    REFERENDUM,
    "Betting exchanges price Remain at 1.6, which is a 62% chance. I think that is about right.\n\nThe market gives Remain a 62% chance, and I don't see a reason to move away from it in either direction.",
    null,
  ),
  entry(
    "senate-two-statements",
    SENATE,
    "Too close to call.\n\nDemocrats win with probability 0.5, or perhaps 0.4 if the economy slows.",
    null,
  ),
  entry(
    "final-smaller-first",
    FINAL,
    "Sinner's form is the better of the two.\n\nI'd put it at 45/55 in favour of Sinner.",
    null,
  ),
];
