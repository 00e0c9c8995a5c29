import { describe, expect, it } from "vitest";
import { extractAnswer } from "../../src/forecast/index.js";
import { sameAnswer } from "./answer-match.js";
import { binaryReplies } from "./corpus/binary.js";
import { choiceReplies } from "./corpus/choices.js";
import { freeResponseReplies } from "./corpus/free-response.js";
import { quantityReplies } from "./corpus/quantities.js";
import type { CorpusReply } from "./corpus/reply.js";

const corpus: CorpusReply[] = [
  ...binaryReplies,
  ...choiceReplies,
  ...quantityReplies,
  ...freeResponseReplies,
];

type Verdict = "right" | "miss" | "misread";

/** A miss reads nothing where an answer was stated; a misread reads a wrong answer. */
function verdictOf(entry: CorpusReply): { verdict: Verdict; actual: unknown } {
  const actual = extractAnswer(entry.type, entry.reply, entry.options ?? null, entry.question);
  if (sameAnswer(actual, entry.expected)) return { verdict: "right", actual };
  return { verdict: actual === null ? "miss" : "misread", actual };
}

describe("answer extraction over a corpus of realistic replies", () => {
  const verdicts = corpus.map((entry) => ({ entry, ...verdictOf(entry) }));
  const wrong = verdicts.filter((result) => result.verdict !== "right");
  const report = wrong
    .map(
      (result) =>
        `${result.verdict}: ${result.entry.id} expected ${JSON.stringify(result.entry.expected)} got ${JSON.stringify(result.actual)}`,
    )
    .join("\n");

  it("holds at least 300 replies with distinct ids", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
    expect(new Set(corpus.map((entry) => entry.id)).size).toBe(corpus.length);
  });

  it("reads no wrong answer", () => {
    expect(
      report.split("\n").filter((line) => line.startsWith("misread")),
      report,
    ).toEqual([]);
  });

  it("reads at least 99.5% of the replies right", () => {
    const right = verdicts.length - wrong.length;
    console.log(
      `corpus: ${right}/${verdicts.length} right (${((100 * right) / verdicts.length).toFixed(1)}%), ${wrong.filter((result) => result.verdict === "miss").length} missed, ${wrong.filter((result) => result.verdict === "misread").length} misread`,
    );
    expect(right / verdicts.length, report).toBeGreaterThanOrEqual(0.995);
  });
});
