import { matchesOf } from "./matches.js";
import { nextWordMayStart } from "./next-word.js";

// A chance stated for the event not happening: "the chance it does not pass at 85%", "85%
// likely to fail", "odds it won't happen: 85%", "a 90% chance this doesn't happen", "85% it
// doesn't happen".
const NEGATION = /\b(?:not|never|fail(?:s|ing|ed)?|cannot|\w+n['’]t)\b/gi;
// "not high", "isn't negligible" qualify the chance itself, not the event.
const QUALIFIER_AFTER =
  /^\s+(?:\d|(?:very\s+|that\s+)?(?:high|low|great|large|small|negligible|trivial|zero|much|clear|sure|certain|quite|exactly|only|just|unreasonable|insignificant|bad|good|far)\b)/i;
// A condition ("if the court does not intervene") describes a scenario, not the event.
const CONDITION = /\b(?:if|unless|when|provided|assuming|even|without)\b/i;
const CHANCE_BEFORE = /\b(?:chances?|probability|likelihood|odds|risk)\b/gi;
// "70% it doesn't happen": a figure followed by its event, with no chance word at all.
const CHANCE_AFTER =
  /^\s*(?:chance|probability|likelihood|odds|likely|confident|sure|certain|that|on|it|this)\b/i;
const BEFORE_CLAUSE_END = /[;!?\n]|\.(?!\d)/g;
const AFTER_CLAUSE_END =
  /[;:!?\n,]|\.(?!\d)|\b(?:but|and|or|so|although|though|while|whereas|because|given|since)\b/i;
export const NEGATION_REACH = 80;
const REACH = NEGATION_REACH;
/** Every chance word the span before a figure may start with, for a quick check before it. */
export const CHANCE_WORDS = /chance|probabilit|likelihood|odds|risk/gi;

function negations(span: string): number {
  if (span === "" || CONDITION.test(span)) return 0;
  let count = 0;
  for (const match of matchesOf(span, NEGATION)) {
    if (!QUALIFIER_AFTER.test(span.slice(match.index + match[0].length))) count++;
  }
  return count;
}

/** The words between the last chance word of the clause and the figure at `start`. */
function spanBefore(text: string, start: number): string {
  const window = text.slice(Math.max(0, start - REACH), start);
  const clauseStart = matchesOf(window, BEFORE_CLAUSE_END).at(-1);
  const clause = clauseStart === undefined ? window : window.slice(clauseStart.index + 1);
  const chance = matchesOf(clause, CHANCE_BEFORE).at(-1);
  return chance === undefined ? "" : clause.slice(chance.index);
}

/** The words after the figure ending at `end` that say what it is the chance of. */
function spanAfter(text: string, end: number): string {
  if (!nextWordMayStart(text, end, "cplosti")) return "";
  const window = text.slice(end, end + REACH);
  if (!CHANCE_AFTER.test(window)) return "";
  const clauseEnd = AFTER_CLAUSE_END.exec(window);
  return clauseEnd === null ? window : window.slice(0, clauseEnd.index);
}

/**
 * Whether the figure written from `start` to `end` is the chance of the event not happening.
 * `chanceWordBefore` false says no chance word stands in the reach before it (checked by the
 * caller in one pass over a long text), so only the words after it are read.
 */
export function statesChanceOfNo(
  text: string,
  start: number,
  end: number,
  chanceWordBefore = true,
): boolean {
  const before = chanceWordBefore ? negations(spanBefore(text, start)) : 0;
  return (before + negations(spanAfter(text, end))) % 2 === 1;
}
