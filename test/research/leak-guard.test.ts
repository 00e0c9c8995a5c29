import { describe, expect, it } from "vitest";
import { dateMentions } from "../../src/research/date-mentions.js";
import { boundResult, leakVerdict } from "../../src/research/leak-guard.js";
import { result } from "./support/scripted-provider.js";

const CUTOFF = new Date("2024-03-15T00:00:00Z");
const BEFORE = new Date("2024-03-10T00:00:00Z");

function verdictFor(text: string, publishedAt: Date | null = BEFORE) {
  return (
    leakVerdict(result({ url: "https://x.example", publishedAt, text }), CUTOFF)?.reason ?? null
  );
}

describe("the leak guard", () => {
  it("drops results with no date, or published or first seen after the cutoff", () => {
    const base = { url: "https://x.example" };
    expect(leakVerdict(result(base), CUTOFF)?.reason).toBe("no_date");
    expect(
      leakVerdict(result({ ...base, publishedAt: new Date("2024-03-15T00:00:01Z") }), CUTOFF)
        ?.reason,
    ).toBe("published_after_cutoff");
    expect(
      leakVerdict(
        result({ ...base, publishedAt: BEFORE, firstSeenAt: new Date("2024-04-01") }),
        CUTOFF,
      )?.reason,
    ).toBe("first_seen_after_cutoff");
    expect(leakVerdict(result({ ...base, publishedAt: new Date("invalid") }), CUTOFF)?.reason).toBe(
      "published_after_cutoff",
    );
    expect(leakVerdict(result({ ...base, publishedAt: CUTOFF }), CUTOFF)).toBeNull();
    expect(leakVerdict(result({ ...base, firstSeenAt: BEFORE }), CUTOFF)).toBeNull();
  });

  it.each([
    "On April 2, 2024 the bill passed.",
    "The bill passed on 2 April 2024.",
    "Passed 2nd of April, 2024 after a long debate.",
    "Signed into law (2024-04-02).",
    "Updated 2024/03/16",
    "Results were announced April 2nd.",
    "Apr. 2024: the bill is law.",
    "By APRIL 2024 it had passed.",
    "Filed 3/16/2024.",
    "As of March 15, 2024 the count stood at 51.",
  ])("drops text that names a later date: %s", (text) => {
    expect(verdictFor(text)).toBe("later_date_in_text");
  });

  it.each([
    "On March 14, 2024 the committee met.",
    "The vote is planned for spring; emissions targets run to 2030.",
    "In March 2024 the bill was introduced.",
    "The 2025 budget and fiscal 2026 plans were debated.",
    "Version 1.2.3 shipped; 12 of 50 senators agreed.",
    "It may 2024 be different.",
    "Reported on 2024-02-30, which is no date.",
  ])("keeps text whose dates are not later: %s", (text) => {
    expect(verdictFor(text)).toBeNull();
  });

  it("reads a day without a year as the nearest one to the item's date", () => {
    expect(verdictFor("On December 28 markets rallied.", new Date("2024-01-03"))).toBeNull();
    expect(verdictFor("The vote took place on March 20.", new Date("2024-03-10"))).toBe(
      "later_date_in_text",
    );
    const december = leakVerdict(
      result({
        url: "https://x.example",
        publishedAt: new Date("2023-12-30"),
        text: "Trading resumes on January 2nd.",
      }),
      new Date("2024-01-01T00:00:00Z"),
    );
    expect(december?.reason).toBe("later_date_in_text");
  });

  it("keeps the day of a cutoff that has a time, drops the next one", () => {
    const noon = new Date("2024-03-15T12:00:00Z");
    const dated = { url: "https://x.example", publishedAt: BEFORE };
    expect(
      leakVerdict(result({ ...dated, text: "On March 15, 2024 talks began." }), noon),
    ).toBeNull();
    expect(
      leakVerdict(result({ ...dated, text: "On March 16, 2024 talks began." }), noon)?.reason,
    ).toBe("later_date_in_text");
  });

  it("reads every field the model may see, within bounded lengths", () => {
    const dated = { url: "https://x.example", publishedAt: BEFORE };
    expect(leakVerdict(result({ ...dated, title: "April 3, 2024 recap" }), CUTOFF)?.reason).toBe(
      "later_date_in_text",
    );
    expect(leakVerdict(result({ ...dated, snippet: "2024-04-03" }), CUTOFF)?.reason).toBe(
      "later_date_in_text",
    );
    const long = boundResult(result({ ...dated, text: "x".repeat(1_000_000) }));
    expect(long.text?.length).toBeLessThan(100_000);
  });

  it("reads both orders of an ambiguous numeric date", () => {
    const readings = dateMentions("on 4/3/2024", BEFORE).map((m) =>
      m.start.toISOString().slice(0, 10),
    );
    expect(readings.sort()).toEqual(["2024-03-04", "2024-04-03"]);
  });
});
