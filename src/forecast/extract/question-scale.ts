/*
 * Questions often ask for a quantity in a unit of their own ("in billions of dollars"), while
 * models write figures with scale words ("$68.5B", "850 million"). The answer must be in the
 * question's unit, so such figures are restated in it before the reply is read.
 */

import { scaleOfWord } from "../numbers.js";

/** "in billions (of dollars)", "(millions of barrels)", "in $bn", "in thousands". */
const QUESTION_UNIT =
  /\b(?:in\s+(?:[$€£]\s*|US\$\s*)?(thousands|millions|billions|trillions|bn|mn|tn)\b|(thousands|millions|billions|trillions)\s+of\b)/i;

/** A figure followed by a scale word: "68.5B", "$1.2 billion", "850M", "3.4 tn". */
const SCALED_FIGURE =
  /(?<![\w.])([$€£]?)(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s?(thousand|million|billion|trillion|bn|mn|tn|k|K|M|B|T)(?![\w])/g;

/** The unit the question asks for, as a multiple of one, or null when it names none. */
export function questionScale(question: string): number | null {
  const match = QUESTION_UNIT.exec(question);
  const word = match?.[1] ?? match?.[2];
  return word === undefined ? null : (scaleOfWord(word) ?? null);
}

/** The reply with every scaled figure restated in the question's unit ("$68.5B" → "$68.5"). */
export function inQuestionUnit(reply: string, scale: number): string {
  return reply.replace(SCALED_FIGURE, (figure, currency: string, digits: string, word: string) => {
    const wordScale = scaleOfWord(word);
    if (wordScale === undefined) return figure;
    const value = (Number(digits.replaceAll(",", "")) * wordScale) / scale;
    return `${currency}${Number(value.toPrecision(12))}`;
  });
}
