/*
 * A figure the reply gives the "no" side ("NO: 80%", "I'd put 80% on no", "I lean NO at 80%",
 * "I'm 80% confident the answer is no") is the chance of "no", not of "yes". A reading of the
 * chance of "yes" that is the figure of the reply's last such statement has read the wrong side.
 */
import { findNumbers } from "../numbers.js";
import { holdsWords, matchesOf } from "./matches.js";
import { toProbability } from "./validate.js";

// "no" as an answer's side: followed by the end of its clause or by what links it to a figure,
// not by the noun it negates ("no deal", "no 80% threshold").
const NO_SIDE =
  /\bno\b["'”’*]*(?=[ \t]*(?:[.,;:)!?(—–=-]|$|\n|[ \t](?:at|with|side|outcome|resolution)\b))/gi;
const NO_WORD = /\bno\b/i;
// A clause ends at a stop, a semicolon, a comma or a line; read at most this far either side.
const CLAUSE_REACH = 60;
const CLAUSE_BREAK = /[.;,\n](?!\d)/g;
const YES = /\byes\b/i;

/** The clause around `index`: from the break before it to the break after it. */
function clauseAround(text: string, index: number, end: number): string {
  const before = text.slice(Math.max(0, index - CLAUSE_REACH), index);
  const breaks = matchesOf(before, CLAUSE_BREAK);
  const start = breaks.length === 0 ? 0 : (breaks.at(-1)?.index ?? -1) + 1;
  const after = text.slice(end, end + CLAUSE_REACH);
  const stop = matchesOf(after, CLAUSE_BREAK)[0]?.index ?? after.length;
  return before.slice(start) + text.slice(index, end) + after.slice(0, stop);
}

/**
 * The chance of "no" in the reply's last statement of one, as a fraction: the single figure
 * of a clause that names "no" as a side and not "yes". Null when there is none.
 */
export function lastNoSideChance(text: string): number | null {
  if (!holdsWords(text, NO_WORD)) return null;
  const sides = matchesOf(text, NO_SIDE);
  for (let index = sides.length - 1; index >= 0; index--) {
    const side = sides[index] as RegExpExecArray;
    const clause = clauseAround(text, side.index, side.index + side[0].length);
    if (YES.test(clause)) continue;
    const figures = findNumbers(clause);
    if (figures.length === 1) return toProbability(figures[0] as (typeof figures)[number]);
  }
  return null;
}
