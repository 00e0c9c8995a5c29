import { forgetKeptReadings } from "../last-reading.js";
import type { AnswerType, ForecastAnswer, OptionMap } from "../types.js";
import { extractBinary } from "./binary.js";
import { revisesAfterChoices } from "./choice-revision.js";
import { opensUnderHeading } from "./choice-unread-heading.js";
import { choiceWindow } from "./choice-window.js";
import { extractChoices } from "./choices.js";
import { lastCommitment } from "./commitments.js";
import { extractContinuous } from "./continuous.js";
import { finalQuantity } from "./final-statement.js";
import { freeResponseFromReply, freeResponseFromTag } from "./free-response.js";
import { lastNoSideChance } from "./no-side.js";
import { contradictsItself, statesNoAnswer } from "./non-answers.js";
import type { Outcome } from "./outcome.js";
import { plainProbabilities } from "./probability-phrases.js";
import { inQuestionUnit, questionScale } from "./question-scale.js";
import { type ReadingWindow, readingWindow } from "./reading-window.js";
import { lastAnswerTag, plainText, withoutThinking } from "./reply-text.js";
import { extractSingleValue } from "./single-value.js";
import { changedAfterTag } from "./tag-revision.js";
import { toProbability } from "./validate.js";

/**
 * How an answer was read: the rule that produced it ("answer_tag", "label", "revision", …),
 * or, with no answer, the rule that found the reply states none ("placeholder", "refusal",
 * "contradiction", "invalid_figure", "nothing_found").
 */
export interface Reading {
  answer: ForecastAnswer | null;
  rule: string;
}

/**
 * The part of `text` an answer of `type` is read from. A written answer is read from the whole
 * text: its first line may be the answer, and its reading does not look at every figure.
 */
function windowFor(type: AnswerType, text: string): ReadingWindow {
  if (type === "free_response") return { text, start: 0, cut: false };
  return type === "multiple_choice" ? choiceWindow(text) : readingWindow(text);
}

/**
 * The answer in `window` of `text`, read only by the rules for committed statements when the
 * window leaves part of the text unread.
 */
function extractFrom(
  type: AnswerType,
  text: string,
  window: ReadingWindow,
  options: OptionMap | null,
  fromTag: boolean,
): Outcome<ForecastAnswer> {
  switch (type) {
    case "binary":
      return extractBinary(window.text, window.cut);
    case "multiple_choice":
      return extractChoices(
        window.text,
        options,
        window.cut && opensUnderHeading(text, window.start),
      );
    case "continuous":
      return extractContinuous(window.text, window.cut);
    case "continuous_value_only":
      return extractSingleValue(window.text, window.cut);
    case "free_response":
      return fromTag ? freeResponseFromTag(text) : freeResponseFromReply(text);
  }
}

// A change made on a condition or to the spread, written after every statement of the answer,
// leaves it open: the earlier figure may no longer be the one the reply commits to.
const OPEN: Reading = { answer: null, rule: "invalid_figure" };

/**
 * Whether the binary reading `outcome` is also what the text after `from` in `plain` reads as:
 * figures after a revision may state the answer anew ("cut from 4.50% to 4.00%" in the
 * reasoning, then "I'd put this at 0.3"), but a label before the revision never does.
 */
function restatedAfter(plain: string, from: number, outcome: Outcome<ForecastAnswer>): boolean {
  if (outcome.kind !== "found" || outcome.answer.type !== "binary") return false;
  const after = extractBinary(plain.slice(from));
  return (
    after.kind === "found" &&
    after.answer.type === "binary" &&
    after.answer.probability === outcome.answer.probability
  );
}

/** A revision or point estimate that is the reply's last word on a numeric answer. */
function committedFigure(type: AnswerType, { text, cut }: ReadingWindow): Reading | null {
  if (type === "binary") {
    const plain = plainProbabilities(plainText(text));
    const commitment = lastCommitment(plain, true);
    if (commitment?.settles === false) return OPEN;
    const probability = commitment === null ? null : toProbability(commitment.figure);
    if (commitment === null || probability === null) return null;
    if (commitment.figuresAfter) {
      const reading = extractBinary(text, cut);
      if (reading.kind === "found" && reading.answer.type === "binary") {
        if (reading.answer.probability === probability) {
          return { answer: { type, probability }, rule: commitment.rule };
        }
      }
      return restatedAfter(plain, commitment.figure.end, reading) ? null : OPEN;
    }
    return { answer: { type, probability }, rule: commitment.rule };
  }
  if (type !== "continuous_value_only" && type !== "continuous") return null;
  const commitment = lastCommitment(plainText(text), false);
  if (commitment === null) return null;
  if (!commitment.settles) return OPEN;
  if (type === "continuous_value_only") {
    return { answer: { type, value: commitment.figure.value }, rule: commitment.rule };
  }
  const spread = extractContinuous(text, cut);
  return spread.kind === "found" && spread.answer.type === "continuous"
    ? {
        answer: Object.assign({}, spread.answer, { mean: commitment.figure.value }),
        rule: commitment.rule,
      }
    : null;
}

/**
 * Whether a reading took a figure that is not the answer's: the chance of "no" read as the
 * chance of "yes", or option lines whose figures a later paragraph changes.
 */
function readsWrongSide(answer: ForecastAnswer, text: string, options: OptionMap | null): boolean {
  if (answer.type === "binary") return lastNoSideChance(text) === answer.probability;
  return answer.type === "multiple_choice" && revisesAfterChoices(text, options);
}

function fromOutcome(outcome: Outcome<ForecastAnswer>, cut: boolean): Reading {
  if (outcome.kind === "found") return { answer: outcome.answer, rule: outcome.rule };
  if (outcome.kind === "invalid") return { answer: null, rule: "invalid_figure" };
  return { answer: null, rule: cut ? "nothing_found_at_end" : "nothing_found" };
}

/**
 * The structured answer of a model's reply and the rule that read it. The reply is read as a
 * sequence of statements, and the last committed one decides: an answer tag holding a figure,
 * a revision or point estimate written after every label, else the type's own readings from
 * the most explicit to the loosest. A reply whose last statement is a placeholder, a refusal
 * or two contradicting figures has no answer, whatever figures it holds elsewhere. Given the
 * question, figures of a quantity are read in the unit it asks for ("in billions of dollars").
 * A long reply is read from its end, by the rules for committed statements only (see
 * reading-window.ts).
 */
export function readAnswer(
  type: AnswerType,
  reply: string,
  options: OptionMap | null,
  question = "",
): Reading {
  forgetKeptReadings();
  try {
    return readReply(type, reply, options, question);
  } finally {
    forgetKeptReadings();
  }
}

function readReply(
  type: AnswerType,
  reply: string,
  options: OptionMap | null,
  question: string,
): Reading {
  const scale =
    type === "continuous" || type === "continuous_value_only" ? questionScale(question) : null;
  const thought = withoutThinking(reply);
  const text = scale === null ? thought : inQuestionUnit(thought, scale);
  if (statesNoAnswer(text, type === "free_response")) {
    return { answer: null, rule: "no_answer_stated" };
  }
  if (type === "binary" && contradictsItself(text)) return { answer: null, rule: "contradiction" };
  const tag = lastAnswerTag(text);
  if (tag !== null) {
    const fromTag = extractFrom(type, tag, windowFor(type, tag), options, true);
    if (fromTag.kind === "found") {
      return changedAfterTag(text, fromTag.answer)
        ? OPEN
        : { answer: fromTag.answer, rule: "answer_tag" };
    }
    if (fromTag.kind === "invalid") return { answer: null, rule: "invalid_answer_tag" };
  }
  const window = windowFor(type, text);
  const committed = committedFigure(type, window);
  if (committed !== null) return committed;
  if (type === "continuous" || type === "continuous_value_only") {
    const final = finalQuantity(type, window.text);
    if (final.kind !== "none") return fromOutcome(final, window.cut);
  }
  const outcome = extractFrom(type, text, window, options, false);
  if (outcome.kind === "found" && readsWrongSide(outcome.answer, window.text, options)) return OPEN;
  return fromOutcome(outcome, window.cut);
}

/** The structured answer of a model's reply, or null when it states none that is valid. */
export function extractAnswer(
  type: AnswerType,
  reply: string,
  options: OptionMap | null,
  question = "",
): ForecastAnswer | null {
  return readAnswer(type, reply, options, question).answer;
}
