import { afterEach, describe, expect, it, vi } from "vitest";
import { isWellFormedId, newId } from "../../src/util/ids.js";

describe("identifiers", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sort in the order they were made, across every base62 digit", () => {
    vi.useFakeTimers();
    const made: string[] = [];
    // Steps that carry through the low digits (61 → 0) and across years.
    for (const milliseconds of [0, 61, 62, 3_843, 3_844, 1_700_000_000_000, 1_800_000_000_061]) {
      vi.setSystemTime(milliseconds);
      made.push(newId("chatcmpl-"));
    }
    expect([...made].sort()).toEqual(made);
  });

  it("keep their length and alphabet, and differ when made in the same millisecond", () => {
    vi.useFakeTimers();
    vi.setSystemTime(1_795_000_000_000);
    const ids = Array.from({ length: 1000 }, () => newId("file-"));
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) {
      expect(id).toMatch(/^file-[0-9A-Za-z]{24}$/);
      expect(isWellFormedId(id)).toBe(true);
    }
    expect(newId("req_", 20)).toMatch(/^req_[0-9A-Za-z]{20}$/);
  });
});
