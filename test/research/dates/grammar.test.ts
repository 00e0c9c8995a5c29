import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dateMentions, laterMention } from "../../../src/research/dates/grammar.js";

/** The document's own date, which yearless and relative forms are read against. */
const DOCUMENT = new Date("2026-05-01T08:00:00Z");
const DAY_MS = 86_400_000;

/** The first day of every time `text` names, as YYYY-MM-DD. */
function read(text: string, documentDate: Date = DOCUMENT): string[] {
  return dateMentions(text, documentDate).map((mention) =>
    mention.start.toISOString().slice(0, 10),
  );
}

describe("month names", () => {
  it.each([
    ["June 3, 2026", "2026-06-03"],
    ["june 3, 2026", "2026-06-03"],
    ["JUNE 3, 2026", "2026-06-03"],
    ["SEPT. 14 2026", "2026-09-14"],
    ["3rd of June 2026", "2026-06-03"],
    ["3 June 2026", "2026-06-03"],
    ["Jun '26", "2026-06-01"],
    ["June 2026", "2026-06-01"],
  ])("reads %j in any case", (text, day) => {
    expect(read(text)).toEqual([day]);
  });

  it.each([
    ["3 de junio de 2026", "2026-06-03"],
    ["3 juin 2026", "2026-06-03"],
    ["11. Mai 2026", "2026-05-11"],
    ["3 de junho de 2026", "2026-06-03"],
    ["3 giugno 2026", "2026-06-03"],
    ["3 juni 2026", "2026-06-03"],
    ["3 июня 2026", "2026-06-03"],
    ["3 ИЮНЯ 2026", "2026-06-03"],
    ["2026年6月3日", "2026-06-03"],
  ])("reads %j in its language", (text, day) => {
    expect(read(text)).toEqual([day]);
  });

  it.each([
    ["\u039cay 11, 2026", "2026-05-11"],
    ["\u0408un\u0435 3, 2026", "2026-06-03"],
    ["\u041c\u0410\u0423 11 2026", "2026-05-11"],
    ["3 \u0458uin 2026", "2026-06-03"],
    ["\u041c\u0410\u0420\u0422 3 2026", "2026-03-03"],
  ])("reads %j, whose letters only look Latin, as a reader sees it", (text, day) => {
    expect(read(text)).toEqual([day]);
  });

  it("leaves Russian words that do not all look Latin in Russian", () => {
    expect(read("3 марта 2026")).toEqual(["2026-03-03"]);
    expect(read("май 2026")).toEqual(["2026-05-01"]);
  });
});

describe("ordinals", () => {
  it.each([
    ["June third, 2026", "2026-06-03"],
    ["the twenty-first of June 2026", "2026-06-21"],
    ["June 21st 2026", "2026-06-21"],
    ["1er juin 2026", "2026-06-01"],
  ])("reads %j", (text, day) => {
    expect(read(text)).toEqual([day]);
  });
});

describe("numeric dates", () => {
  it.each([
    ["2026-06-03", ["2026-06-03"]],
    ["20260603", ["2026-06-03"]],
    ["２０２６-０６-０３", ["2026-06-03"]],
    ["13/06/2026", ["2026-06-13"]],
    ["06/13/2026", ["2026-06-13"]],
    ["13.06.26", ["2026-06-13"]],
    ["13–06–2026", ["2026-06-13"]],
  ])("reads %j", (text, days) => {
    expect(read(text)).toEqual(days);
  });

  it("reads an ambiguous day and month both ways, so either later reading counts", () => {
    expect([...read("03-06-2026")].sort()).toEqual(["2026-03-06", "2026-06-03"]);
    expect(laterMention("03-06-2026", DOCUMENT, new Date("2026-05-10"))?.start).toEqual(
      new Date("2026-06-03"),
    );
    // Both readings before the cutoff: nothing later.
    expect(laterMention("03-04-2026", DOCUMENT, new Date("2026-05-10"))).toBeNull();
  });

  it("reads two-digit years as 2000–2069 or 1970–1999", () => {
    expect(read("13/06/69")).toEqual(["2069-06-13"]);
    expect(read("13/06/70")).toEqual(["1970-06-13"]);
  });
});

describe("periods count from their first day", () => {
  it.each([
    ["Q3 2026", "2026-07-01"],
    ["H2 2026", "2026-07-01"],
    ["FY2027", "2027-01-01"],
    ["summer 2026", "2026-06-01"],
    ["2026-W23", "2026-06-01"],
    ["end of June 2026", "2026-06-30"],
  ])("reads %j", (text, day) => {
    expect(read(text)).toEqual([day]);
  });
});

describe("relative expressions are read against the document's date (2026-05-01)", () => {
  it.each([
    ["yesterday", "2026-04-30"],
    ["tomorrow", "2026-05-02"],
    ["in two weeks", "2026-05-15"],
    ["next month", "2026-06-01"],
  ])("reads %j", (text, day) => {
    expect(read(text)).toEqual([day]);
  });
});

describe("yearless days", () => {
  it("reads a day on or after the document's date as that coming day", () => {
    expect(read("on June 3 the Senate votes")).toEqual(["2026-06-03"]);
    expect(read("May eleventh")).toEqual(["2026-05-11"]);
    expect(read("June 3", new Date("2025-11-01T00:00:00Z"))).toEqual(["2026-06-03"]);
  });

  it("reads a day within the four months before the document's date as that past day", () => {
    expect(read("April 28")).toEqual(["2026-04-28"]);
    expect(read("January 2")).toEqual(["2026-01-02"]);
  });

  it("reads a day longer ago than four months as next year's", () => {
    expect(read("December 20")).toEqual(["2026-12-20"]);
  });

  it("reads a day of last December in January as that past day", () => {
    expect(read("December 20", new Date("2026-01-05T00:00:00Z"))).toEqual(["2025-12-20"]);
  });

  it("holds the rule for every day of the year and any document date", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2020, 0, 1) / DAY_MS, max: Date.UTC(2030, 0, 1) / DAY_MS }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 28 }),
        (documentDays, month, day) => {
          const documentDate = new Date(documentDays * DAY_MS);
          const names = ["January", "February", "March", "April", "May", "June", "July"];
          const more = ["August", "September", "October", "November", "December"];
          const name = [...names, ...more][month - 1] as string;
          const [reading] = read(`${name} ${day}`, documentDate);
          const time = Date.parse(reading as string);
          expect(new Date(time).getUTCMonth() + 1).toBe(month);
          expect(new Date(time).getUTCDate()).toBe(day);
          const sinceDocument = time - documentDate.getTime();
          // Within the 122 days before, or the first such day on or after the document's date.
          expect(sinceDocument).toBeGreaterThanOrEqual(-122 * DAY_MS);
          expect(sinceDocument).toBeLessThan(366 * DAY_MS);
          if (sinceDocument >= 0) {
            const aYearEarlier = new Date(time);
            aYearEarlier.setUTCFullYear(aYearEarlier.getUTCFullYear() - 1);
            expect(documentDate.getTime() - aYearEarlier.getTime()).toBeGreaterThan(122 * DAY_MS);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("what is not a date", () => {
  it.each([
    "by 2030",
    "next year",
    "ISBN 978-3-16-148410-0",
    "at 10:30",
    "The 2026 budget",
    "Section 12.06.1",
  ])("reads nothing in %j", (text) => {
    expect(read(text)).toEqual([]);
  });
});

describe("months named alone", () => {
  const july31 = new Date("2024-07-31T00:00:00Z");

  it.each([
    ["a cut may come in September", "2024-09-01"],
    ["by the September meeting", "2024-09-01"],
    ["this September", "2024-09-01"],
    ["en septiembre", "2024-09-01"],
    ["im September", "2024-09-01"],
    ["в сентябре", "2024-09-01"],
    ["mi-septembre", "2024-09-01"],
    ["jusqu'en septembre", "2024-09-01"],
    ["in may", "2024-05-01"],
    ["since March", "2024-03-01"],
    ["in July", "2024-07-01"],
    ["in December", "2024-12-01"],
    ["next July", "2025-07-01"],
    ["next August", "2024-08-01"],
  ])("reads %j after a word that makes it a time, against the document's month", (text, day) => {
    expect(read(text, july31)).toEqual([day]);
  });

  it("reads a month of the four before the document's as that past month", () => {
    expect(read("sales fell in April")).toEqual(["2026-04-01"]);
    expect(read("in January")).toEqual(["2026-01-01"]);
    expect(read("in December")).toEqual(["2026-12-01"]);
    expect(read("in November", new Date("2026-02-10T00:00:00Z"))).toEqual(["2025-11-01"]);
  });

  it.each([
    ["The September meeting", "2024-09-01"],
    ["its October session", "2024-10-01"],
    ["September's vote", "2024-09-01"],
    ["the first week of September", "2024-09-01"],
  ])("reads %j before a word, as a possessive or after 'of'", (text, day) => {
    expect(read(text, july31)).toEqual([day]);
  });

  it.each([
    "last September",
    "last September's vote",
    "Mayo Clinic researchers",
    "from Mayo Clinic",
    "June's husband",
    "Theresa May's government",
    "the June Carter songbook",
    "the march to the sea",
    "a may pole",
  ])("reads nothing in %j", (text) => {
    expect(read(text, july31)).toEqual([]);
  });

  it("leaves a month followed by a day or a year to the whole date", () => {
    expect(read("in September 2026", july31)).toEqual(["2026-09-01"]);
    expect(read("in the May 3 vote", july31)).toEqual(["2024-05-03"]);
  });
});

describe("month names that are English words", () => {
  it.each([
    "3 may be enough",
    "it may rain",
    "they may 2x it",
    "plans to march",
    "during the march",
    "an august body",
    "for may",
    "10 march on",
    "troops march 10 miles",
    "could mar 2 events",
  ])("reads nothing in %j", (text) => {
    expect(read(text)).toEqual([]);
  });

  it.each([
    ["3 May", "2026-05-03"],
    ["May 3", "2026-05-03"],
    ["3 MAY", "2026-05-03"],
    ["on 3 may", "2026-05-03"],
    ["by may 3", "2026-05-03"],
    ["3 may 2027", "2027-05-03"],
    ["to March", "2026-03-01"],
  ])("reads %j as a date", (text, day) => {
    expect(read(text)).toEqual([day]);
  });
});

describe("forms a second audit found", () => {
  const may9 = new Date("2026-05-09T12:00:00Z");

  it.each([
    ["3.VI.2026", "2026-06-03"],
    ["15/vi/2026", "2026-06-15"],
    ["2026-VI-03", "2026-06-03"],
    ["XII 2026", "2026-12-01"],
    ["2026-06", "2026-06-01"],
    ["06/2026", "2026-06-01"],
    ["2026_06_03", "2026-06-03"],
    ["2026 06 03", "2026-06-03"],
    ["2026\u2e3a06\u2e3a03", "2026-06-03"],
    ["early 2027", "2027-01-01"],
    ["mid-2026", "2026-05-01"],
    ["late '26", "2026-09-01"],
    ["the end of 2026", "2026-12-31"],
    ["year-end 2026", "2026-12-31"],
    ["the back half of 2026", "2026-07-01"],
    ["summer '26", "2026-06-01"],
    ["Summer26", "2026-06-01"],
    ["Q3 FY26", "2026-07-01"],
    ["FY26 Q3", "2026-07-01"],
    ["3QFY26", "2026-07-01"],
    ["June 3d, 2026", "2026-06-03"],
    ["3 czerwca 2026", "2026-06-03"],
    ["3 червня 2026", "2026-06-03"],
    ["3. června 2026", "2026-06-03"],
    ["3 Haziran 2026", "2026-06-03"],
    ["Christmas 2026", "2026-12-25"],
    ["Easter 2027", "2027-03-28"],
    ["Thanksgiving 2026", "2026-11-26"],
    ["New Year's Eve 2026", "2026-12-31"],
  ])("reads %j", (text, day) => {
    expect(read(text)).toEqual([day]);
  });

  it.each([
    ["by the end of the month", "2026-05-31"],
    ["at month-end", "2026-05-31"],
    ["by year-end", "2026-12-31"],
    ["next weekend", "2026-05-16"],
    ["36 hours from now", "2026-05-10"],
    ["10 days later", "2026-05-19"],
    ["demain", "2026-05-10"],
    ["la semaine prochaine", "2026-05-11"],
    ["la semana que viene", "2026-05-11"],
    ["nächsten Monat", "2026-06-01"],
    ["в следующем месяце", "2026-06-01"],
    ["by Christmas", "2026-12-25"],
  ])("reads %j against the document's day", (text, day) => {
    expect(read(text, may9)).toEqual([day]);
  });

  it.each([
    "the 2026/27 season",
    "Ley 3.2026",
    "Easter Island",
    "an Easter egg",
    "last Christmas",
    "last year-end",
    "World War II",
    "Morgen früh",
    "le prochain sommet",
    "3 leden van de raad",
    "Ocak başı",
    "2025-6 budgets",
    "Ley 7/2026",
    "Order No. 12/2026",
    "Decree 11.2026",
    "it rose to 2030.12 points",
    "Christmas tree sales",
    "Halloween costumes sold out",
    "year-end bonus paid",
    "in summer camp",
    "in spring training",
    "in 24 hours the index fell",
    "within 48 hours of the attack",
    "48 hours later",
    "score 2026-27",
  ])("reads nothing in %j", (text) => {
    expect(read(text, may9)).toEqual([]);
  });
});
