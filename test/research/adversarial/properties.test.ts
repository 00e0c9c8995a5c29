import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CUTOFF, placed, type ShownField } from "./corpus.js";
import {
  DAY_FORMS,
  type DateForm,
  type Day,
  disguised,
  PERIOD_FORMS,
  periodEnd,
  periodStart,
} from "./forms.js";
import { screen } from "./harness.js";

const DAY_MS = 86_400_000;
const SPACES = [
  " ",
  "  ",
  "    ",
  "\n",
  "\u00a0",
  "\u2009",
  "\u3000",
  "\u202f",
  "</b> <b>",
  "&nbsp;",
  "\u3164",
  "\u2800",
  "\u115f",
];
const FIELDS: ShownField[] = ["title", "source", "snippet", "text", "url-as-title"];
const CASES = [
  (text: string) => text,
  (text: string) => text.toLowerCase(),
  (text: string) => text.toUpperCase(),
];
/** Latin letters left as they are, or some or all swapped for Cyrillic or Greek look-alikes. */
const DISGUISES = [
  (text: string) => text,
  (text: string) => disguised(text, "cyrillic", "all"),
  (text: string) => disguised(text, "cyrillic", "first"),
  (text: string) => disguised(text, "greek", "all"),
  (text: string) => disguised(text, "greek", "first"),
];

function dayOf(time: number): Day {
  const date = new Date(time);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** A day in [from, to). */
const dayBetween = (from: string, to: string) =>
  fc
    .integer({ min: Date.parse(from) / DAY_MS, max: Date.parse(to) / DAY_MS - 1 })
    .map((days) => dayOf(days * DAY_MS));

type Rewrite = (text: string) => string;

/** Dashes and minus signs a reader takes for a hyphen between a date's parts, and the underscore. */
const DASHES = [
  "-",
  "\u2010",
  "\u2011",
  "\u2012",
  "\u2013",
  "\u2014",
  "\u2015",
  "\u2212",
  "\u02d7",
  "\u2e3a",
  "\ufe58",
  "\ufe63",
  "\uff0d",
  "_",
];
/** What a renderer shows as nothing: format and ignorable characters, blank fillers, markup. */
const INVISIBLES = [
  "\u200b",
  "\u00ad",
  "\u034f",
  "\ufe0f",
  "\u2060",
  "\u{e0020}",
  "\u200d",
  "\u17b4",
  "\u180e",
  "<!-- -->",
  "<![CDATA[]]>",
  "<span></span>",
];
type Scramble = Rewrite & { markup: boolean };

/** Its hyphens swapped for one dash, and one invisible thing put anywhere in it. */
const scramble = fc
  .tuple(fc.constantFrom(...DASHES), fc.constantFrom(...INVISIBLES), fc.nat())
  .map(([dash, invisible, at]): Scramble => {
    const rewrite = (text: string) => {
      const chars = Array.from(text.replaceAll("-", dash));
      chars.splice(at % (chars.length + 1), 0, invisible);
      return chars.join("");
    };
    return Object.assign(rewrite, {
      markup: invisible.startsWith("<"),
      toString: () => `dash ${JSON.stringify(dash)}, ${JSON.stringify(invisible)} at ${at}`,
    });
  });

/**
 * Markup hides nothing in an address: a reader sees it as written, and it may part a date there
 * (a control split by it may read as another day), so controls in addresses take no markup.
 */
const plainInAddress = (where: ShownField, scrambled: Scramble) =>
  !(where.startsWith("url") && scrambled.markup);

function rendering(
  form: DateForm,
  day: Day,
  spaces: string,
  caseOf: Rewrite,
  disguise: Rewrite,
  scrambled: Scramble,
) {
  return scrambled(disguise(caseOf(form.render(day)))).replaceAll(" ", spaces);
}

/** Day and month either way round both before the cutoff, when a form leaves the order open. */
function unambiguouslyBefore(form: DateForm, day: Day): boolean {
  if (!/slashes|dashes|dots|two-digit|day-mon/.test(form.name) || day.day > 12) return true;
  return Date.UTC(day.year, day.day - 1, day.month) < CUTOFF.getTime();
}

async function reachesModel(field: ShownField, words: string, marker: string): Promise<boolean> {
  const outcome = await screen([placed({ field, words }, marker)], CUTOFF);
  return outcome.message.includes(marker);
}

const form = fc.constantFrom(...DAY_FORMS);
const period = fc.constantFrom(...PERIOD_FORMS);
const spaces = fc.constantFrom(...SPACES);
const caseOf = fc.constantFrom(...CASES);
const field = fc.constantFrom(...FIELDS);
const disguise = fc.constantFrom(...DISGUISES);

describe("the guard over generated dates", () => {
  it("never lets a day after the cutoff reach the model, in any form, case, spacing, letters or field", async () => {
    await fc.assert(
      fc.asyncProperty(
        form,
        dayBetween("2026-05-10", "2031-01-01"),
        spaces,
        caseOf,
        field,
        disguise,
        scramble,
        async (f, day, s, c, where, d, x) => {
          const words = rendering(f, day, s, c, d, x);
          expect(
            await reachesModel(where, words, "Zqxmark"),
            `${f.name}: ${JSON.stringify(words)} in ${where}`,
          ).toBe(false);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("always lets a day before the cutoff reach the model", async () => {
    await fc.assert(
      fc.asyncProperty(
        form,
        dayBetween("2019-01-01", "2026-05-10"),
        spaces,
        caseOf,
        field,
        disguise,
        scramble,
        async (f, day, s, c, where, d, x) => {
          fc.pre(unambiguouslyBefore(f, day) && plainInAddress(where, x));
          const words = rendering(f, day, s, c, d, x);
          expect(
            await reachesModel(where, words, "Zqxmark"),
            `${f.name}: ${JSON.stringify(words)} in ${where}`,
          ).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("reads every form of a day in an address as it reads it in the text", async () => {
    // Addresses are read raw and decoded: escaped letters and ideographs must group as they do
    // unescaped, or a control turns into a yearless day that the cutoff's own year makes later.
    await fc.assert(
      fc.asyncProperty(
        form,
        dayBetween("2019-01-01", "2031-01-01"),
        fc.constantFrom<ShownField>("url", "url-as-title"),
        async (f, day, where) => {
          fc.pre(unambiguouslyBefore(f, day));
          const words = f.render(day);
          expect(
            await reachesModel(where, words, "Zqxmark"),
            `${f.name}: ${JSON.stringify(words)} in ${where}`,
          ).toBe(await reachesModel("text", words, "Zqxmark"));
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it("drops a period that starts at or after the cutoff and keeps one wholly before it", async () => {
    await fc.assert(
      fc.asyncProperty(
        period,
        dayBetween("2019-01-01", "2031-01-01"),
        spaces,
        caseOf,
        field,
        disguise,
        scramble,
        async (f, day, s, c, where, d, x) => {
          const after = periodStart(f, day).getTime() >= CUTOFF.getTime();
          const before = periodEnd(f, day).getTime() < CUTOFF.getTime();
          fc.pre((after || before) && (after || plainInAddress(where, x)));
          const words = rendering(f, day, s, c, d, x);
          expect(
            await reachesModel(where, words, "Zqxmark"),
            `${f.name}: ${JSON.stringify(words)} in ${where}`,
          ).toBe(before);
        },
      ),
      { numRuns: 400 },
    );
  });
});
