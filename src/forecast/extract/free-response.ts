import type { ForecastAnswer } from "../types.js";
import {
  markedAnswer,
  unwrapAnswer,
  withoutClosingStop,
  withoutReason,
} from "./free-response-marks.js";
import type { Outcome } from "./outcome.js";
import { paragraphBefore } from "./paragraphs-from-end.js";
import { withoutAnswerTagMarks } from "./reply-text.js";

const MAX_FREE_RESPONSE_LENGTH = 2000;

// "either Spain or France": the model names two answers and commits to neither.
const UNDECIDED = /^either\b[^\n]*\bor\b/i;
// The answer format's slot copied unfilled: "[city name]", "<city>", "{answer}", "...". A
// filled slot names something ("[Doha]"), so a slot of lower-case words alone is the template.
const UNFILLED_SLOT = /^(?:[[<{]\s*[a-z][a-z _-]*[\]>}]|[.…_\s-]+)$/;
// A paragraph about the answer's rivals ("Other candidates include Riyadh and Istanbul",
// "John Doe is the main rival"): never the answer, and never a name alone.
const ABOUT_RIVALS =
  /\b(?:also|others?|alternatives?|rivals?|runners?-up|contenders?|competitors?|challengers?|trail(?:s|ing)?|close behind|outside chance|dark horses?|worth watching|include|includes|considered)\b/i;

function asAnswer(text: string, marked: boolean, rule: string): Outcome<ForecastAnswer> {
  const unwrapped = unwrapAnswer(text.trim().slice(0, MAX_FREE_RESPONSE_LENGTH));
  const answer = marked ? withoutClosingStop(unwrapAnswer(withoutReason(unwrapped))) : unwrapped;
  if (answer === "" || UNDECIDED.test(answer) || UNFILLED_SLOT.test(answer))
    return { kind: "none" };
  return { kind: "found", answer: { type: "free_response", text: answer }, rule };
}

/** The text of an answer tag, or the answer marked inside it. */
export function freeResponseFromTag(content: string): Outcome<ForecastAnswer> {
  const marked = markedAnswer(content);
  return marked === null ? asAnswer(content, false, "tag") : asAnswer(marked, true, "tag");
}

// Looked for only where a line break is written: see holdsAny in matches.ts.
const PARAGRAPH_BREAK = /\n\s*\n/;

// A paragraph that is a name and nothing else ("**Rep. Okafor**", "Doha."): the answer the
// reply commits to, when prose about it (often its rivals) follows.
const SHORT_ANSWER_WORDS = 6;
const SHORT_ANSWER_LENGTH = 60;
const HEADING =
  /^(?:reasoning|analysis|summary|evidence|conclusion|answer|final answer|prediction|forecast|key (?:factors|drivers|points|considerations)|considerations|background|context|rationale|overview|notes?|sources?|caveats?|uncertainty|risks?)\b/i;

// "Rep. Lin is possible": a sentence about a name, not the name.
const SENTENCE_VERB =
  /\b(?:is|are|was|were|remains?|will|would|could|may|might|seems?|looks?|has|have|had|wins?|leads?)\b/i;

// A word of a name: capitalised or a figure ("Rep. Okafor", "Guinea-Bissau", "Apollo 11"), or
// a joiner ("Trinidad and Tobago", "Côte d'Ivoire"). "Several factors matter here" is a sentence.
const NAME_WORD =
  /^(?:[\p{Lu}\p{N}"“'‘(]|(?:and|of|the|de|del|la|le|les|du|da|von|van|der|den|y|d['’]\p{L}+|al|bin|el|&)$)/u;

function isCommittedName(paragraph: string): boolean {
  // Checked on length first: a long paragraph is prose, whatever its wrappers.
  if (paragraph.length > 2 * SHORT_ANSWER_LENGTH || paragraph.includes("\n")) return false;
  if (/^#|[:：]\s*\**$/.test(paragraph)) return false;
  const name = withoutClosingStop(unwrapAnswer(paragraph));
  return (
    name.length > 0 &&
    name.length <= SHORT_ANSWER_LENGTH &&
    name.split(/\s+/).length <= SHORT_ANSWER_WORDS &&
    !/[,;:!?]/.test(name) &&
    !HEADING.test(name) &&
    !SENTENCE_VERB.test(name) &&
    !ABOUT_RIVALS.test(name) &&
    name.split(/\s+/).every((word) => NAME_WORD.test(word))
  );
}

/**
 * The last explicitly marked answer; failing that a paragraph that is a name alone, written
 * before the prose about it; failing that the reply's last paragraph, where an unmarked
 * answer ends up, unless it is about rivals and others come before it: the answer is then in
 * an earlier paragraph, written in prose that cannot be cut to a name, and none is read. A
 * marked answer beats the last paragraph, which often lists runners-up.
 */
export function freeResponseFromReply(text: string): Outcome<ForecastAnswer> {
  const unmarked = withoutAnswerTagMarks(text);
  const marked = markedAnswer(unmarked);
  if (marked !== null) return asAnswer(marked, true, "marked_answer");
  // A reply of one paragraph, however many lines, is told by one search, not read line by line.
  const parted = unmarked.includes("\n") && PARAGRAPH_BREAK.test(unmarked);
  const lastSpan = parted ? paragraphBefore(unmarked, unmarked.length) : null;
  const last = lastSpan === null ? unmarked.trim() : unmarked.slice(lastSpan.start, lastSpan.end);
  if (last === "") return { kind: "none" };
  if (isCommittedName(last)) return asAnswer(last, true, "last_paragraph");
  const named = lastSpan === null ? null : lastNamedParagraph(unmarked, lastSpan.start);
  if (named !== null) return asAnswer(named, true, "named_paragraph");
  return lastSpan !== null && lastSpan.start > 0 && ABOUT_RIVALS.test(last)
    ? { kind: "none" }
    : asAnswer(last, false, "last_paragraph");
}

/** The last paragraph before `before` that is a name alone, read back from there. */
function lastNamedParagraph(text: string, before: number): string | null {
  for (let span = paragraphBefore(text, before); span !== null; ) {
    const paragraph = text.slice(span.start, span.end);
    if (isCommittedName(paragraph)) return paragraph;
    span = paragraphBefore(text, span.start);
  }
  return null;
}
