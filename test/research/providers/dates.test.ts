import { describe, expect, it } from "vitest";
import {
  formatGdeltDate,
  parseDate,
  parseGdeltDate,
  parseLongDate,
} from "../../../src/research/providers/dates.js";

describe("parseDate", () => {
  it.each([
    ["2024-03-14T12:00:00Z", "2024-03-14T12:00:00.000Z"],
    ["2024-03-14T12:00:00.547Z", "2024-03-14T12:00:00.547Z"],
    ["2024-03-14T12:00:00.123456789Z", "2024-03-14T12:00:00.123Z"],
    ["2024-03-14T12:00:00+00:00", "2024-03-14T12:00:00.000Z"],
    ["2024-03-14T17:30:00+05:30", "2024-03-14T12:00:00.000Z"],
    ["2024-03-14T04:00:00-0800", "2024-03-14T12:00:00.000Z"],
    ["2024-03-14T14:00+02", "2024-03-14T12:00:00.000Z"],
    ["2024-03-14 12:00:00", "2024-03-14T12:00:00.000Z"],
    ["2024-03-14T12:00:00", "2024-03-14T12:00:00.000Z"],
    ["  2024-03-14T12:00:00Z ", "2024-03-14T12:00:00.000Z"],
    ["2024-02-29", "2024-02-29T23:59:59.999Z"],
    ["Thu, 14 Mar 2024 12:00:00 GMT", "2024-03-14T12:00:00.000Z"],
    ["14 Mar 2024 13:00 +0100", "2024-03-14T12:00:00.000Z"],
    ["thu, 14 mar 2024 12:00:00 utc", "2024-03-14T12:00:00.000Z"],
  ])("reads %s", (value, expected) => {
    expect(parseDate(value)?.toISOString()).toBe(expected);
  });

  it.each([
    "",
    "yesterday",
    "March 14",
    "2024-3-14",
    "20240314",
    "2024-02-30",
    "2023-02-29",
    "2024-13-01",
    "2024-00-10",
    "2024-03-14T24:00:00Z",
    "2024-03-14T12:60:00Z",
    "2024-03-14T12:00:61Z",
    "2024-03-14T12:00:00+15:00",
    "2024-03-14T12:00:00+05:75",
    "2024-03-14T12:00:00 PST",
    "1969-12-31T23:59:59Z",
    "1970-01-01T00:00:00Z",
    "0099-01-01",
    "Thu, 31 Feb 2024 12:00:00 GMT",
    "Thu, 14 Foo 2024 12:00:00 GMT",
    "Thu, 14 Mar 2024 12:00:00",
  ])("refuses %j", (value) => {
    expect(parseDate(value)).toBeNull();
  });

  it.each([null, undefined, 1710417600, 1710417600000, {}, ["2024-03-14"], true])(
    "refuses the non-string %j",
    (value) => {
      expect(parseDate(value)).toBeNull();
    },
  );
});

describe("parseLongDate", () => {
  it.each([
    ["June 13, 2023", "2023-06-13T23:59:59.999Z"],
    ["Jun 13, 2023", "2023-06-13T23:59:59.999Z"],
    ["Sept. 5, 2023", "2023-09-05T23:59:59.999Z"],
  ])("reads %s as the end of that day", (value, expected) => {
    expect(parseLongDate(value)?.toISOString()).toBe(expected);
  });

  it.each(["3 days ago", "1 hour ago", "February 30, 2024", "June 2023", "13 June 2023", 5])(
    "refuses %j",
    (value) => {
      expect(parseLongDate(value)).toBeNull();
    },
  );
});

describe("GDELT dates", () => {
  it("reads seendate", () => {
    expect(parseGdeltDate("20240314T120000Z")?.toISOString()).toBe("2024-03-14T12:00:00.000Z");
  });

  it.each(["20240314T120000", "20241314T120000Z", "20240314T126000Z", "2024-03-14", 20240314])(
    "refuses %j",
    (value) => {
      expect(parseGdeltDate(value)).toBeNull();
    },
  );

  it("formats a date as YYYYMMDDHHMMSS in UTC", () => {
    expect(formatGdeltDate(new Date("2024-03-14T12:34:56.789+02:00"))).toBe("20240314103456");
  });
});
