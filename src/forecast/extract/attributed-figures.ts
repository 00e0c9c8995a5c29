import { isEvidence } from "./evidence.js";
import type { Mention, OptionNames } from "./option-names.js";

/**
 * `text` with the option names in it blanked out (same length), so a name that holds a word of
 * attribution ("Market crash", "Others", "In 2026") is not read as someone else's figure.
 */
export function withNamesBlanked(text: string, names: OptionNames | null): string {
  return names === null ? text : blankMentions(text, names.mentions(text));
}

/** `text` with the names found in it blanked out, as withNamesBlanked. */
export function blankMentions(text: string, mentions: readonly Mention[]): string {
  let blanked = "";
  let from = 0;
  for (const mention of mentions) {
    blanked += text.slice(from, mention.start) + "_".repeat(mention.end - mention.start);
    from = mention.end;
  }
  return blanked + text.slice(from);
}

// More than the evidence checks look at around a figure: 160 characters before, 60 after.
const BEFORE_REACH = 200;
const AFTER_REACH = 80;
// A source in brackets right after the figure, with no figure of its own: "60% (polls)",
// "40% (per the market)"; but in "35% (market: 40%)" the market's figure is the other one.
const BRACKETED_SOURCE = /^(\s*)[([]([^()[\]\d\n]*)[)\]]/;

// A named source giving the figure, earlier in its sentence: "Nate Silver gives Democrats 45%",
// "Goldman Sachs puts them at 30%". Option names are blanked, so "Democrats have 45%" is not one;
// the first person and words that only open a sentence are not sources.
const NAMED_SOURCE =
  /(?:^|[^\p{L}])(?!(?:I|We|It|This|That|These|Which|Overall|So|Then|Now|Still|Here|There|Everything|All|Net|Together|Realistically|Honestly|Altogether)\b)\p{Lu}[\p{L}'’.&-]*(?:\s+\p{Lu}[\p{L}'’.&-]*){0,2}\s+(?:gives?|gave|puts?|has|had|makes?|made|rates?|rated|sees?|saw|prices?|priced|projects?|projected)\b[^.!?;\n]{0,60}$/u;
const FIRST_PERSON_AFTER = /\b(?:I|we|my|our)\b/i;
const SPACE = /\s/;

/**
 * Where the last sentence of `text` starts: after its last ".", "!", "?", ";" or line break
 * followed by white space, looked for from the end.
 */
function lastSentenceStart(text: string): number {
  for (let index = text.length - 2; index >= 0; index--) {
    const code = text.charCodeAt(index);
    const breaks = code === 46 || code === 33 || code === 63 || code === 59 || code === 10;
    if (breaks && SPACE.test(text[index + 1] as string)) return index + 1;
  }
  return 0;
}

function namedSourceBefore(before: string): boolean {
  const sentence = before.slice(lastSentenceStart(before));
  const source = NAMED_SOURCE.exec(sentence);
  return source !== null && !FIRST_PERSON_AFTER.test(sentence.slice(source.index));
}

/**
 * Whether a figure of an option is someone else's or the past's rather than the model's own:
 * "the market gives Democrats 99%", "Democrats won 52% of the vote last time", "in 2020 they
 * got 51%", "Democrats: 60% (polls)", "Nate Silver gives Democrats 45%". `blanked` is the text with its option names blanked.
 */
export function isAttributed(blanked: string, figure: { start: number; end: number }): boolean {
  const from = Math.max(0, figure.start - BEFORE_REACH);
  const after = blanked
    .slice(figure.end, figure.end + AFTER_REACH)
    .replace(BRACKETED_SOURCE, (_, space: string, inside: string) => `${space} ${inside} `);
  const before = blanked.slice(from, figure.start);
  const near = before + blanked.slice(figure.start, figure.end) + after;
  return isEvidence(near, figure.start - from, figure.end - from) || namedSourceBefore(before);
}
