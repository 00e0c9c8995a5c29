import { describe, expect, it } from "vitest";
import { parseAnswerType } from "../../src/forecast/index.js";

describe("parseAnswerType", () => {
  it.each([
    ["binary", "binary"],
    ["BINARY", "binary"],
    ["Multiple_Choice", "multiple_choice"],
    ["MULTIPLE_CHOICE", "multiple_choice"],
    ["continuous", "continuous"],
    ["CONTINUOUS_VALUE_ONLY", "continuous_value_only"],
    ["continuous_value_only", "continuous_value_only"],
    ["FREE_RESPONSE", "free_response"],
    ["auto", "auto"],
    ["AUTO", "auto"],
  ])("reads %s as %s", (input, expected) => {
    expect(parseAnswerType(input)).toBe(expected);
  });

  it.each(["", "bool", "multiple choice", "numeric", "auto-detect", " binary", "binary "])(
    "rejects %j",
    (input) => {
      expect(parseAnswerType(input)).toBeNull();
    },
  );
});
