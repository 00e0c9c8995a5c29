/*
 * Replies that state no answer must read as none, never as a figure taken from elsewhere in
 * the reply: an answer format copied with its placeholder unfilled ("Probability: ZZ%",
 * `<answer>0.XX</answer>`, a JSON skeleton), or a refusal to commit ("I won't put a number on
 * this"). Either counts only when nothing with a figure is stated after it.
 */
import { holdsAny, holdsLetter, holdsWords, matchesOf } from "./matches.js";

// A placeholder where a value belongs: "ZZ", "XX%", "0.XX", "__", "[insert probability]",
// "<your probability>", "N/A", "TBD", "???".
const SLOT_WORDS = "insert|your|probability|number|answer|value|estimate|percent|figure";
const PLACEHOLDER = String.raw`(?:0?\.?[XYZ]{1,3}\b%?|\b[XYZ]{2,3}\b%?|_{2,}%?|\[[^\]\n]{0,40}(?:${SLOT_WORDS})[^\]\n]{0,40}\]|<[^<>\n]{0,40}(?:${SLOT_WORDS})[^<>\n]{0,40}>|\bN\/A\b|\bTBD\b|\?{2,})`;
// The value slot of an answer: after a label and its separator, a JSON key, or inside the tag.
// A label's line at the start of the text is looked at apart: a pattern that may start at "^"
// tries that first at every character, and searches about twice as slowly.
const LABEL_SLOT = String.raw`[^\n:=]{0,60}[:=][ \t*]*`;
const SLOT_AT_START = new RegExp(`^${LABEL_SLOT}${PLACEHOLDER}`, "i");
const SLOT = new RegExp(
  String.raw`(?:\n${LABEL_SLOT}|"[^"\n]{1,40}"\s*:\s*|<answer>\s*)${PLACEHOLDER}`,
  "gi",
);
// What every match of SLOT holds: a line break, a quote or a tag.
const SLOT_SIGNS = ["\n", '"', "<"];
// What every placeholder holds, case-blind as it is: "X", "Y" or "Z", "_", a bracket, "/",
// "?" or "TBD". A reply of labelled lines of figures holds none, and each of its lines would
// otherwise be tried as a slot.
const PLACEHOLDER_WRITTEN = /[xyz_[<?/]|tbd/i;
// The example the guidance shows for a written answer, copied as is.
const EXAMPLE_TAG = /<answer>\s*(?:text|your answer)\s*<\/answer>/gi;
const EMPTY_TAG = /<answer>\s*<\/answer>/gi;

const REFUSAL =
  /\b(?:I(?:\s+(?:won['’]t|will not|can['’]t|cannot|can not|am unable to|am not able to|am not going to|am not willing to|would rather not|decline to|refuse to)|['’](?:m not able to|m unable to|m not going to|m not willing to|d rather not|ll pass on))|[Dd]eclining to|[Uu]nable to|[Nn]ot able to)\b[^.\n]{0,60}?\b(?:give|put|assign|commit|provide|offer|forecast|predict|guess|choose|pick|name|call|single out|split|estimate|say|number|figure|probabilit|point estimate|speculate)/g;
// "I'd need X before committing to any figure": a condition in place of an answer.
const CONDITIONAL_REFUSAL =
  /\bI['’]d need\b[^.\n]{0,80}\bbefore (?:committing|giving|putting|assigning)\b/gi;
// Two answers and a statement that neither is chosen.
const UNDECIDED =
  /\b(?:not sure which|can['’]t (?:choose|decide|pick)|cannot (?:choose|decide|pick)|genuinely can['’]t)\b/gi;
// "I don't know.", "Hard to say.": a line that ends on giving up, with nothing after it on the line.
const GIVES_UP =
  /\b(?:I\s+(?:really\s+|honestly\s+)?(?:don['’]t|do not) know|(?:it['’]s\s+|it is\s+)?(?:hard|impossible|too hard|difficult) to (?:say|tell|predict)|no idea)\b(?=[ \t]*[.!]?[ \t]*(?:\n|$))/gi;
const TOO_EARLY =
  /\b(?:too early|too little information|not enough information)\b[^.\n]{0,60}\b(?:to|for)\b/gi;

function lastEnd(text: string, pattern: RegExp, start = 0): number {
  let end = -1;
  for (const match of matchesOf(text, pattern, start)) end = match.index + match[0].length;
  return end;
}

/** Where the last slot holding a placeholder ends, as one search for `(?:^|\n)…` finds it. */
function lastSlotEnd(text: string): number {
  const first = SLOT_AT_START.exec(text);
  const from = first === null ? 0 : first[0].length;
  const written = holdsAny(text, SLOT_SIGNS) && PLACEHOLDER_WRITTEN.test(text);
  const later = written ? lastEnd(text, SLOT, from) : -1;
  return Math.max(first === null ? -1 : from, later);
}

/**
 * Whether the reply ends without an answer: its last statement is an unfilled placeholder or a
 * refusal, with no figure (or, for written answers, no marked answer) after it.
 */
export function statesNoAnswer(text: string, written: boolean): boolean {
  const tagged = text.includes("<");
  const placeholder = Math.max(
    lastSlotEnd(text),
    tagged ? lastEnd(text, EXAMPLE_TAG) : -1,
    tagged ? lastEnd(text, EMPTY_TAG) : -1,
  );
  // Every refusal is written in words.
  const refusal = holdsLetter(text)
    ? Math.max(
        lastEnd(text, REFUSAL),
        lastEnd(text, CONDITIONAL_REFUSAL),
        lastEnd(text, TOO_EARLY),
        // A figure read from a reply that gives up is no answer anyway: only a written one
        // could take the words themselves for the answer.
        written ? lastEnd(text, GIVES_UP) : -1,
        lastEnd(text, UNDECIDED),
      )
    : -1;
  const last = Math.max(placeholder, refusal);
  if (last === -1) return false;
  const after = text.slice(last);
  if (written) return !/\b(?:answer|prediction)\s*[:：]|<answer>|\\boxed/i.test(after);
  // A figure after a refusal ("I can't be precise, but 30%") is an answer after all.
  return !/\d/.test(after);
}

// "Yes 60% / No 60%": the two sides do not make a whole, so neither can be read as the answer.
const BOTH_SIDES =
  /\byes\W{0,4}(\d+(?:\.\d+)?)\s*%\s*[/|,;]?\s*(?:and\s+)?no\W{0,4}(\d+(?:\.\d+)?)\s*%|\bno\W{0,4}(\d+(?:\.\d+)?)\s*%\s*[/|,;]?\s*(?:and\s+)?yes\W{0,4}(\d+(?:\.\d+)?)\s*%/gi;

const YES = /yes/i;

/** Whether the reply's last statement of both sides gives them chances that do not sum to 100%. */
export function contradictsItself(text: string): boolean {
  if (!holdsWords(text, YES)) return false;
  const last = matchesOf(text, BOTH_SIDES).at(-1);
  if (last === undefined) return false;
  const yes = Number(last[1] ?? last[4]);
  const no = Number(last[2] ?? last[3]);
  return Math.abs(yes + no - 100) > 1;
}
