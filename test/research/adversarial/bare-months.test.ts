import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dateMentions } from "../../../src/research/dates/grammar.js";
import { placed, type ShownField } from "./corpus.js";
import { disguised, MONTH_NAMES } from "./forms.js";
import { screen } from "./harness.js";

/**
 * Months named alone ("a cut may come in September") and month names that are English words
 * ("3 may be enough"), through the real research path: a month alone that the document's date
 * places at or after the cutoff never reaches the model from untrusted text, one before it
 * always does, trusted feed text keeps it as a schedule, and the English words are no dates.
 */

const DAY_MS = 86_400_000;
const FIELDS: ShownField[] = ["title", "source", "snippet", "text"];

/** Phrases that name a month alone, by language, with the month words they take. */
const PHRASES: { names: string[]; templates: string[] }[] = [
  {
    names: MONTH_NAMES.en as string[],
    templates: ["a cut may come in {m}", "by {m}", "until {m}", "from {m} on", "by the {m} vote"],
  },
  { names: MONTH_NAMES.es as string[], templates: ["en {m}", "desde {m}", "hasta {m}"] },
  { names: MONTH_NAMES.fr as string[], templates: ["en {m}", "fin {m}", "mi-{m}", "jusqu'en {m}"] },
  { names: MONTH_NAMES.de as string[], templates: ["im {m}", "ab {m}", "bis {m}", "Ende {m}"] },
  { names: MONTH_NAMES.pt as string[], templates: ["em {m}", "até {m}"] },
  { names: MONTH_NAMES.it as string[], templates: ["entro {m}", "da {m}"] },
  { names: MONTH_NAMES.nl as string[], templates: ["in {m}", "vanaf {m}"] },
  // Russian genitive: до сентября (until September), с сентября (from September).
  { names: MONTH_NAMES.ru as string[], templates: ["до {m}", "с {m}"] },
];

const CASES = [
  (text: string) => text,
  (text: string) => text.toUpperCase(),
  (text: string) => text.toLowerCase(),
];

/**
 * The month a month named alone names, by the documented rule, computed apart from the
 * grammar: the document's month or one of the four before it, else the next occurrence.
 */
function namedMonth(month: number, documentDate: Date): number {
  for (let offset = -4; offset <= 7; offset++) {
    const start = Date.UTC(documentDate.getUTCFullYear(), documentDate.getUTCMonth() + offset, 1);
    if (new Date(start).getUTCMonth() === month) return start;
  }
  throw new Error("unreachable: twelve consecutive months hold every month");
}

const scenario = fc.record({
  cutoffDays: fc.integer({
    min: Date.UTC(2020, 0, 1) / DAY_MS,
    max: Date.UTC(2030, 0, 1) / DAY_MS,
  }),
  /** The document is this many days (and eight hours) before the cutoff. */
  daysBefore: fc.integer({ min: 1, max: 400 }),
  month: fc.integer({ min: 0, max: 11 }),
  phrase: fc.constantFrom(...PHRASES),
  template: fc.nat(),
  caseOf: fc.constantFrom(...CASES),
  field: fc.constantFrom(...FIELDS),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function setting(s: Scenario) {
  const cutoff = new Date(s.cutoffDays * DAY_MS);
  const documentDate = new Date(cutoff.getTime() - s.daysBefore * DAY_MS - 8 * 3_600_000);
  const template = s.phrase.templates[s.template % s.phrase.templates.length] as string;
  const words = s.caseOf(template.replace("{m}", s.phrase.names[s.month] as string));
  const later = namedMonth(s.month, documentDate) >= cutoff.getTime();
  // "by the march": small "may", "march" and "august" after "the" are words (see the guide).
  const aWord = /\bthe (may|march|august)\b/.test(words);
  return { cutoff, documentDate, words, later, aWord };
}

async function reachesModel(
  field: ShownField,
  words: string,
  documentDate: Date,
  cutoff: Date,
  trusted = false,
): Promise<boolean> {
  const marker = "Zqxmark";
  const result = placed(
    trusted
      ? { field, words, publishedAt: documentDate, firstSeenAt: documentDate, trust: "trusted" }
      : { field, words, publishedAt: documentDate },
    marker,
  );
  const outcome = await screen([result], cutoff);
  return outcome.message.includes(marker);
}

describe("a month named alone", () => {
  it("never reaches the model from untrusted text when the document's date places it at or after the cutoff", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { cutoff, documentDate, words, later, aWord } = setting(s);
        fc.pre(later && !aWord);
        expect(
          await reachesModel(s.field, words, documentDate, cutoff),
          `${JSON.stringify(words)} in ${s.field}, document ${documentDate.toISOString()}, cutoff ${cutoff.toISOString()}`,
        ).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("always reaches the model when it names a month before the cutoff", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { cutoff, documentDate, words, later } = setting(s);
        fc.pre(!later);
        expect(
          await reachesModel(s.field, words, documentDate, cutoff),
          `${JSON.stringify(words)} in ${s.field}, document ${documentDate.toISOString()}, cutoff ${cutoff.toISOString()}`,
        ).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("is kept in trusted feed text first seen before the cutoff, as a schedule", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { cutoff, documentDate, words } = setting(s);
        expect(await reachesModel(s.field, words, documentDate, cutoff, true)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});

describe("month names that are English words", () => {
  const VERBS = ["rise", "fall", "be enough", "not pass", "help", "2x it", "3D-print parts"];
  const sentence = fc.oneof(
    fc
      .tuple(fc.integer({ min: 1, max: 31 }), fc.constantFrom(...VERBS))
      .map(([count, verb]) => `${count} may ${verb}`),
    fc.constantFrom(...VERBS).map((verb) => `it may ${verb}`),
    fc.integer({ min: 1, max: 31 }).map((count) => `troops march ${count} miles`),
    fc.integer({ min: 1, max: 31 }).map((count) => `${count} march on the capital`),
    fc.integer({ min: 1, max: 31 }).map((count) => `rain could mar ${count} events`),
    fc.constantFrom("they plan to march", "during the march", "an august body", "a march for may"),
  );

  it("are no dates where they stand as words, in any field and under any document date", async () => {
    await fc.assert(
      fc.asyncProperty(
        sentence,
        fc.constantFrom(...FIELDS),
        fc.integer({ min: 1, max: 700 }),
        async (words, field, daysBefore) => {
          const cutoff = new Date("2026-05-10T00:00:00Z");
          const documentDate = new Date(cutoff.getTime() - daysBefore * DAY_MS);
          expect(
            await reachesModel(field, words, documentDate, cutoff),
            `${JSON.stringify(words)} in ${field}`,
          ).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("are dates where they name one: May 3, 3 May, 3 MAY, on 3 may, by may 3, 3 may 2027", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 28 }),
        fc.constantFrom(
          "{d} May",
          "May {d}",
          "{d} MAY",
          "MAY {d}",
          "on {d} may",
          "by may {d}",
          "from {d} march",
          "{d} march 2027",
          "{d} mar 2027",
        ),
        (day, form) => {
          const text = form.replace("{d}", String(day));
          const documentDate = new Date("2026-01-15T00:00:00Z");
          const [mention] = dateMentions(text, documentDate);
          const start = mention?.start as Date;
          expect(start.getUTCMonth(), text).toBe(/may/i.test(text) ? 4 : 2);
          expect(start.getUTCDate(), text).toBe(day);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("an address holding an escaped letter inside a month name", () => {
  /** Swaps the `nth` letter that has a look-alike, so the escape falls inside the word. */
  function swappedAt(text: string, nth: number): string {
    const candidates = [...text].flatMap((char, index) =>
      disguised(char, "greek", "all") !== char || disguised(char, "cyrillic", "all") !== char
        ? [index]
        : [],
    );
    if (candidates.length === 0) return text;
    const index = candidates[nth % candidates.length] as number;
    const chars = [...text];
    const char = chars[index] as string;
    const greek = disguised(char, "greek", "all");
    chars[index] = greek !== char ? greek : disguised(char, "cyrillic", "all");
    return chars.join("");
  }

  const addressed = fc.record({
    month: fc.integer({ min: 0, max: 11 }),
    day: fc.integer({ min: 1, max: 28 }),
    nth: fc.nat(),
    template: fc.constantFrom("{d} de {m} de {y}", "{d} {m} {y}", "{m} {d}, {y}"),
    language: fc.constantFrom("es", "fr", "it", "pt", "en", "nl"),
    field: fc.constantFrom<ShownField>("url", "url-as-title"),
  });

  function words(a: typeof addressed extends fc.Arbitrary<infer T> ? T : never, year: number) {
    const name = (MONTH_NAMES[a.language] as string[])[a.month] as string;
    return a.template
      .replace("{m}", swappedAt(name, a.nth))
      .replace("{d}", String(a.day))
      .replace("{y}", String(year));
  }

  it("keeps a day before the cutoff and drops one after it", async () => {
    const cutoff = new Date("2026-05-10T00:00:00Z");
    const documentDate = new Date("2026-05-01T08:00:00Z");
    await fc.assert(
      fc.asyncProperty(addressed, fc.boolean(), async (a, after) => {
        const text = words(a, after ? 2027 : 2019);
        expect(
          await reachesModel(a.field, text, documentDate, cutoff),
          `${JSON.stringify(text)} in ${a.field}`,
        ).toBe(!after);
      }),
      { numRuns: 300 },
    );
  });
});
