/** How choice `choiceIndex` of `choiceCount` is worded; varies reproducibly by choice and seed. */
export interface ReplyVariant {
  choiceIndex: number;
  choiceCount: number;
  seed: number | null;
}

const MAX_QUESTION_CHARS = 300;

const LEAD_INS = ["The question is", "Question under consideration", "Restated, the question asks"];
const ENDS_A_SENTENCE = /[.?!…]$/u;

const METHOD =
  "This is a reference forecast from an uninformative prior: it takes the base rate implied " +
  "by the form of the question and weighs no evidence, news or reasoning about its subject.";

/**
 * The baseline's reply: restates the question, names the method and, when given, ends with the
 * forecast sentence.
 */
export function composeReply(
  question: string,
  variant: ReplyVariant,
  forecastSentence: string | null,
): string {
  const stated = summarize(question);
  const opening = stated
    ? `${leadIn(variant.seed)}: ${stated}${ENDS_A_SENTENCE.test(stated) ? "" : "."}`
    : "The question was not stated, so nothing is known about it.";
  const ordinal =
    variant.choiceCount > 1 ? `Sample ${variant.choiceIndex + 1} of ${variant.choiceCount}. ` : "";
  const body = `${ordinal}${opening} ${METHOD}`;
  return forecastSentence ? `${body}\n\n${forecastSentence}` : body;
}

function leadIn(seed: number | null): string {
  const position = seed === null ? 0 : Math.abs(Math.trunc(seed)) % LEAD_INS.length;
  return LEAD_INS[position] ?? "The question is";
}

/** One line, and short enough that a long prompt does not make a long reply. */
function summarize(question: string): string {
  // Only the beginning is kept, so only the beginning is read: questions may be megabytes long.
  const oneLine = question
    .slice(0, 8 * MAX_QUESTION_CHARS)
    .replace(/\s+/g, " ")
    .trim();
  if (oneLine.length <= MAX_QUESTION_CHARS) return oneLine;
  const cut = oneLine.slice(0, MAX_QUESTION_CHARS);
  const lastSpace = cut.lastIndexOf(" ");
  return `${(lastSpace > 0 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}
