import { parseOptions } from "./options.js";
import type { AnswerType } from "./types.js";

const LABELLED_QUESTION = /^\s*(?:#+\s*)?(?:question|q)\s*[:.]\s*(\S.*)$/im;
// Sentence breaks inside the question's line; "U.S. GDP" is not one, "Context: Will…" is.
const SENTENCE_BREAK = /(?<=[.!])\s+(?=[A-Z][a-z])|(?<=:)\s+/;
const LINE_LEAD = /^[\s>#*•\-\d.)]*/;

const PROBABILITY_PHRASE =
  /\b(?:how (?:likely|probable)|is it (?:likely|probable)|what (?:is|are) the (?:probability|chances?|odds|likelihood)|(?:probability|chances?|odds|likelihood) (?:that|of)|whether|yes or no)\b/i;
const QUANTITY_NOUNS =
  "value|prices?|numbers?|rates?|temperature|level|count|amount|total|percentage|percent|share|population|score|cost|gdp|index|yield|revenue|sales|size|margin|turnout|inflation|unemployment|closing|close|volume|height|weight|speed|distance|duration|growth|valuation|debt|deficit|spending|production|output|capacity|attendance|votes|seats|deaths|cases";
const QUANTITY_QUESTION = new RegExp(
  String.raw`^(?:how (?:many|much|high|low|large|big|long|far|fast|often|tall|hot|cold)\b|by how much\b|what (?:percentage|percent|share|fraction|proportion) of\b|(?:at )?what\s+(?:will|would|is|was|are|were)?\s*(?:be\s+)?(?:the\s+)?(?:\S+\s+){0,3}?(?:${QUANTITY_NOUNS})\b)`,
  "i",
);
const QUANTITY_REQUEST = new RegExp(
  String.raw`\b(?:estimate|predict|forecast|project)\s+(?:the\s+)?(?:\S+\s+){0,2}?(?:${QUANTITY_NOUNS})\b`,
  "i",
);
const AUXILIARY_START =
  /^(?:will|won't|is|isn't|are|aren't|was|were|does|doesn't|do|don't|did|can|could|has|have|had|would|should|shall|may|might|must)\b/i;

/** The sentence that asks the question: a "Question:" line, else the first sentence with "?". */
function focusQuestion(text: string): string {
  const labelled = LABELLED_QUESTION.exec(text)?.[1];
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  const line = labelled ?? lines.find((candidate) => candidate.includes("?")) ?? lines[0] ?? "";
  const questionEnd = line.indexOf("?");
  const asked = questionEnd === -1 ? line : line.slice(0, questionEnd + 1);
  const sentences = asked.split(SENTENCE_BREAK);
  return (sentences[sentences.length - 1] ?? "").replace(LINE_LEAD, "").trim();
}

/** The answer type a question calls for, by fixed rules (no model call). */
export function classifyByRules(question: string): AnswerType {
  if (parseOptions(question) !== null) return "multiple_choice";
  const focus = focusQuestion(question);
  if (PROBABILITY_PHRASE.test(focus)) return "binary";
  if (QUANTITY_QUESTION.test(focus) || QUANTITY_REQUEST.test(focus)) return "continuous";
  if (AUXILIARY_START.test(focus)) return "binary";
  // Who / which / what / why / describe… without options or a quantity want a written answer.
  return "free_response";
}
