import type { OptionMap } from "../types.js";
import { extractChoices } from "./choices.js";
import { lastCommitment } from "./commitments.js";
import { paragraphBefore } from "./paragraphs-from-end.js";
import { plainText } from "./reply-text.js";

// A paragraph that gives the split the reply came from: "Updated from A: 50%, B: 30%, …".
const EARLIER_SPLIT =
  /^[\s*_#>-]*(?:(?:updated|revised|changed|adjusted|moved|down|up)\s+from|previous(?:ly)?|earlier|originally|was|before)\b/i;

/**
 * Whether the reply's last paragraph changes a figure of its own ("On reflection I'd move
 * Anthropic up to 30% and OpenAI down to 25%") without stating the options' probabilities
 * anew, or states the split it was changed from ("Updated from A: 50%, B: 30%, …"): the option
 * lines before it are then no longer the answer, or its own are not.
 */
export function revisesAfterChoices(text: string, options: OptionMap | null): boolean {
  const span = paragraphBefore(text, text.length);
  if (span === null || span.start === 0) return false;
  const last = text.slice(span.start, span.end);
  const plain = plainText(last);
  if (EARLIER_SPLIT.test(plain)) return extractChoices(last, options).kind === "found";
  const commitment = lastCommitment(plain, false);
  return (
    commitment !== null &&
    commitment.rule === "revision" &&
    extractChoices(last, options).kind !== "found"
  );
}
