import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAnswer } from "../../src/forecast/index.js";
import { sameAnswer } from "./answer-match.js";
import { answerFirst, committedReply } from "./generators/committed-replies.js";
import { reasoning } from "./generators/reasoning.js";

/*
 * Whole replies of every answer type: reasoning full of figures, the committed answer in one
 * of many phrasings, traps after it, and sometimes pages more of reasoning than the reading
 * window holds. The answer read is the committed one or none, never another.
 */

describe("a composed reply", () => {
  it("is read as its committed answer or as none", async () => {
    await fc.assert(
      fc.property(committedReply, fc.boolean(), reasoning(4), (composed, long, filler) => {
        const { type, reply, options, committed } = long ? answerFirst(composed, filler) : composed;
        const { answer } = readAnswer(type, reply, options);
        if (answer !== null) expect(sameAnswer(answer, committed)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
