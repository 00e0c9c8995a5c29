import { describe, expect, it } from "vitest";
import {
  NANOS_PER_USD,
  nanosToUsd,
  parseTokenPrice,
  tokenCostNanos,
  usdToNanos,
} from "../../src/util/money.js";

describe("usdToNanos", () => {
  it("converts decimal strings exactly", () => {
    expect(usdToNanos("0")).toBe(0);
    expect(usdToNanos("5")).toBe(5 * NANOS_PER_USD);
    expect(usdToNanos("12.345")).toBe(12_345_000_000);
    expect(usdToNanos("0.1")).toBe(100_000_000);
    expect(usdToNanos("0.000000001")).toBe(1);
    expect(usdToNanos("0.30")).toBe(300_000_000);
    expect(usdToNanos(" 2.5 ")).toBe(2_500_000_000);
  });

  it("accepts trailing zeros beyond nine decimals but not digits", () => {
    expect(usdToNanos("1.0000000010000")).toBe(1_000_000_001);
    expect(() => usdToNanos("0.0000000001")).toThrow(RangeError);
    expect(() => usdToNanos("1.1234567891")).toThrow(/precision/);
  });

  it("converts numbers without floating-point drift", () => {
    expect(usdToNanos(0.1)).toBe(100_000_000);
    expect(usdToNanos(0.3)).toBe(300_000_000);
    expect(usdToNanos(19.99)).toBe(19_990_000_000);
    expect(usdToNanos(100)).toBe(100 * NANOS_PER_USD);
  });

  it.each(["-1", "-0.5", "", "abc", "1.", ".5", "1e3", "0x10", "1,5", "1.2.3", "Infinity", "NaN"])(
    "rejects %j",
    (text) => {
      expect(() => usdToNanos(text)).toThrow(RangeError);
    },
  );

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])("rejects the number %s", (value) => {
    expect(() => usdToNanos(value)).toThrow(RangeError);
  });

  it("rejects amounts that do not fit a safe integer of nano-dollars", () => {
    expect(usdToNanos("9007199.254740991")).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => usdToNanos("9007199.254740992")).toThrow(/too large/);
    expect(() => usdToNanos("100000000000")).toThrow(RangeError);
  });

  it("round-trips through nanosToUsd", () => {
    expect(nanosToUsd(usdToNanos("7.25"))).toBe(7.25);
    expect(nanosToUsd(1)).toBe(1e-9);
    expect(nanosToUsd(0)).toBe(0);
  });
});

describe("token prices", () => {
  it("parses per-token prices exactly, in femto-dollars", () => {
    expect(parseTokenPrice("0")).toBe(0n);
    expect(parseTokenPrice("0.0000002")).toBe(200_000_000n);
    expect(parseTokenPrice("0.000000000000001")).toBe(1n);
    expect(parseTokenPrice("1")).toBe(10n ** 15n);
    expect(parseTokenPrice("0.0000008000000000000")).toBe(800_000_000n);
  });

  it.each(["-0.1", "", "free", "1e-7", "0.0000000000000001"])("rejects the price %j", (text) => {
    expect(() => parseTokenPrice(text)).toThrow(RangeError);
  });

  it("prices whole nano-dollars exactly", () => {
    const prompt = parseTokenPrice("0.0000002");
    expect(tokenCostNanos(0, prompt)).toBe(0);
    expect(tokenCostNanos(1, prompt)).toBe(200);
    expect(tokenCostNanos(1_000_000, prompt)).toBe(200_000_000);
    expect(tokenCostNanos(1000, parseTokenPrice("0"))).toBe(0);
  });

  it("rounds sub-nano-dollar remainders up", () => {
    const tiny = parseTokenPrice("0.0000000001");
    expect(tokenCostNanos(1, tiny)).toBe(1);
    expect(tokenCostNanos(10, tiny)).toBe(1);
    expect(tokenCostNanos(11, tiny)).toBe(2);
    const odd = parseTokenPrice("0.0000001234567");
    // 3 × 123.4567 nano-dollars = 370.3701 → 371
    expect(tokenCostNanos(3, odd)).toBe(371);
    expect(tokenCostNanos(1, parseTokenPrice("0.000000000000001"))).toBe(1);
  });

  it("stays exact for large token counts", () => {
    const price = parseTokenPrice("0.0000008");
    expect(tokenCostNanos(2_000_000_000, price)).toBe(1_600_000_000_000);
  });
});
