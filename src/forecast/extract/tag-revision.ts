import type { ForecastAnswer } from "../types.js";
import { lastCommitment } from "./commitments.js";
import { plainProbabilities } from "./probability-phrases.js";
import { readingWindow } from "./reading-window.js";
import { afterLastAnswerTag, plainText } from "./reply-text.js";
import { toProbability } from "./validate.js";

/**
 * Whether the text after the reply's last answer tag changes the figure the tag holds
 * ("<answer>0.3</answer> … Update: I revise to 40%"): the tag is then no longer the reply's
 * last word, and which of the two it commits to is not settled.
 */
export function changedAfterTag(text: string, answer: ForecastAnswer): boolean {
  // Read from its end, as a long reply is: see reading-window.ts.
  const after = readingWindow(afterLastAnswerTag(text)).text;
  if (after.trim() === "") return false;
  if (answer.type === "binary") {
    const commitment = lastCommitment(plainProbabilities(plainText(after)), true);
    return commitment !== null && toProbability(commitment.figure) !== answer.probability;
  }
  if (answer.type !== "continuous" && answer.type !== "continuous_value_only") return false;
  const commitment = lastCommitment(plainText(after), false);
  const value = answer.type === "continuous" ? answer.mean : answer.value;
  return commitment !== null && commitment.figure.value !== value;
}
