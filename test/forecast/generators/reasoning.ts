import * as fc from "fast-check";

/*
 * The reasoning a forecasting reply writes before (or after) its answer: sentences full of
 * figures that are not the answer: base rates, polls, market prices, past values, quoted
 * sources and changes of quantities of the world.
 */

const percent = fc.integer({ min: 1, max: 99 });
const count = fc.integer({ min: 2, max: 9_000 });

const SOURCES = ["Polymarket", "Metaculus", "Kalshi", "The market", "Analysts", "Pollsters"];
const QUANTITIES = ["Turnout", "Support for the bill", "Unemployment", "The index", "Approval"];

const sentence: fc.Arbitrary<string> = fc.oneof(
  percent.map((p) => `The base rate for similar events is about ${p}%.`),
  fc
    .tuple(fc.constantFrom(...SOURCES), percent)
    .map(([source, p]) => `${source} currently puts this at ${p}%.`),
  fc.tuple(percent, percent).map(([a, b]) => `Recent polls show ${a}% support against ${b}%.`),
  fc
    .tuple(fc.constantFrom(...QUANTITIES), percent, percent)
    .map(([quantity, from, to]) => `${quantity} moved from ${from}% to ${to}% over the year.`),
  count.map((n) => `Last year the figure was ${n.toLocaleString("en-US")}.`),
  fc.tuple(count, percent).map(([n, p]) => `In 2019 there were ${n} cases, a ${p}% rise.`),
  percent.map((p) => `Historically, about ${p}% of such bills pass.`),
  fc.constantFrom(
    "Several factors matter here.",
    "Key uncertainties remain around timing.",
    "The committee has not yet scheduled a vote.",
  ),
);

/** One to `maxSentences` sentences of reasoning, in one or more paragraphs. */
export function reasoning(maxSentences = 6): fc.Arbitrary<string> {
  return fc
    .array(fc.tuple(sentence, fc.constantFrom(" ", "\n\n")), {
      minLength: 1,
      maxLength: maxSentences,
    })
    .map((parts) =>
      parts
        .map(([text, gap]) => text + gap)
        .join("")
        .trim(),
    );
}

/** A probability in whole percent, 1 to 99. */
export const wholePercent = percent;
