import type { OptionMap } from "../types.js";
import { extractChoices } from "./choices.js";
import { lastCommitment } from "./commitments.js";
import { paragraphBefore } from "./paragraphs-from-end.js";
import { plainText } from "./reply-text.js";

/**
 * Whether the reply's last paragraph changes a figure of its own ("On reflection I'd move
 * Anthropic up to 30% and OpenAI down to 25%") without stating the options' probabilities
 * anew: the option lines before it are then no longer the answer, and the changed split is
 * not written whole.
 */
export function revisesAfterChoices(text: string, options: OptionMap | null): boolean {
  const span = paragraphBefore(text, text.length);
  if (span === null || span.start === 0) return false;
  const last = text.slice(span.start, span.end);
  const commitment = lastCommitment(plainText(last), false);
  return (
    commitment !== null &&
    commitment.rule === "revision" &&
    extractChoices(last, options).kind !== "found"
  );
}
