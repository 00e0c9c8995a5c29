import { extractAnswer } from "../../../src/forecast/index.js";
import { sameAnswer } from "../../forecast/answer-match.js";
import { binaryHeldOut } from "./binary.js";
import { choiceHeldOut } from "./choices.js";
import { freeResponseHeldOut } from "./free-response.js";
import { quantityHeldOut } from "./quantities.js";
import type { HeldOutReply } from "./reply.js";

export const heldOut: HeldOutReply[] = [
  ...binaryHeldOut,
  ...choiceHeldOut,
  ...quantityHeldOut,
  ...freeResponseHeldOut,
];

/** right: the expected answer, or none where none is stated · miss: none where one is · misread: a wrong one. */
export type Verdict = "right" | "miss" | "misread";

export interface Scored {
  entry: HeldOutReply;
  verdict: Verdict;
  actual: unknown;
}

export function score(entries: HeldOutReply[] = heldOut): Scored[] {
  return entries.map((entry) => {
    const actual = extractAnswer(entry.type, entry.reply, entry.options ?? null, entry.question);
    if (sameAnswer(actual, entry.expected)) return { entry, verdict: "right", actual };
    return { entry, verdict: actual === null ? "miss" : "misread", actual };
  });
}

/** One line of totals, as the benchmark and the test print it. */
export function summary(scored: Scored[]): string {
  const count = (verdict: Verdict) => scored.filter((result) => result.verdict === verdict).length;
  const right = count("right");
  return `${right}/${scored.length} right (${((100 * right) / scored.length).toFixed(1)}%), ${count("miss")} missed, ${count("misread")} misread`;
}

export function report(scored: Scored[]): string {
  return scored
    .filter((result) => result.verdict !== "right")
    .map(
      (result) =>
        `${result.verdict}: ${result.entry.id} [${result.entry.kind}] expected ${JSON.stringify(result.entry.expected)} got ${JSON.stringify(result.actual)}`,
    )
    .join("\n");
}
