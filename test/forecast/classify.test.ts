import { describe, expect, it } from "vitest";
import {
  type AnswerType,
  classificationMessages,
  classifyByRules,
  parseClassification,
} from "../../src/forecast/index.js";

describe("classifyByRules", () => {
  it.each<[string, AnswerType]>([
    ["Will the Federal Reserve cut rates at its September 2025 meeting?", "binary"],
    ["Is it likely that SpaceX reaches orbit with Starship before 2026?", "binary"],
    ["Will Tesla's stock price exceed $300 on 30 June 2025?", "binary"],
    ["Does the EU adopt the product liability directive this year?", "binary"],
    ["Has Ukraine signed a ceasefire agreement by the end of March?", "binary"],
    ["What is the probability that a hurricane makes landfall in Florida in August?", "binary"],
    ["How likely is it that the UK rejoins the single market by 2030?", "binary"],
    ["Predict whether the merger will be blocked by the CMA.", "binary"],
    ["Question: Will the U.S. GDP grow in Q3 2025?\nBackground: growth was 1.4% in Q2.", "binary"],
    [
      "Context: the court hears the case on 3 March.\nWould the Supreme Court overturn the ruling?",
      "binary",
    ],
    ["How many seats will Labour win at the next general election?", "continuous"],
    ["What will be the price of Bitcoin on 31 December 2025?", "continuous"],
    ["What will the closing value of the S&P 500 be on June 30?", "continuous"],
    ["What will the US unemployment rate be in October 2025?", "continuous"],
    ["By how much will global temperatures rise by 2030 compared to 1990?", "continuous"],
    ["What percentage of votes will the winning candidate receive?", "continuous"],
    ["How much will the average house cost in London in 2026?", "continuous"],
    ["What will be the maximum temperature in Phoenix on July 4?", "continuous"],
    ["Estimate the number of measles cases in Texas by June.", "continuous"],
    [
      "Which party will win the most seats?\nA) Labour\nB) Conservative\nC) Reform UK",
      "multiple_choice",
    ],
    ["Who will win the 2026 World Cup? Options: ['Brazil', 'France', 'Other']", "multiple_choice"],
    ["Which month will the launch happen in? (A) July (B) August (C) Later", "multiple_choice"],
    ["Who will be the next Secretary-General of the United Nations?", "free_response"],
    ["Why did the central bank pause its hiking cycle?", "free_response"],
    ["Describe the most likely outcome of the coalition talks.", "free_response"],
    ["Which company will release the first 10-trillion-parameter model?", "free_response"],
    ["What will be the name of the next hurricane to hit Texas?", "free_response"],
    ["Summarize the outlook for the European car market.", "free_response"],
  ])("%s → %s", (question, expected) => {
    expect(classifyByRules(question)).toBe(expected);
  });
});

describe("classificationMessages", () => {
  it("is a system instruction naming the four types, then the question", () => {
    const messages = classificationMessages("Will it rain in London tomorrow?");
    expect(messages.map((message) => message.role)).toEqual(["system", "user"]);
    const [system, user] = messages;
    for (const word of ["binary", "multiple_choice", "continuous", "free_response"]) {
      expect(system?.content).toContain(word);
    }
    expect(system?.content).toMatch(/exactly one word/);
    expect(user?.content).toContain("Will it rain in London tomorrow?");
  });

  it("bounds a very long question", () => {
    const messages = classificationMessages(`Will it happen? ${"background ".repeat(5000)}`);
    expect(messages[1]?.content.length).toBeLessThan(5000);
  });
});

describe("parseClassification", () => {
  it.each<[string, AnswerType | null]>([
    ["binary", "binary"],
    ["BINARY", "binary"],
    ["multiple_choice", "multiple_choice"],
    ["Multiple choice.", "multiple_choice"],
    ["continuous", "continuous"],
    ["free_response", "free_response"],
    ["free response", "free_response"],
    ["<type>continuous</type>", "continuous"],
    ["<answer>multiple_choice</answer>", "multiple_choice"],
    ["The question asks for a number, so: continuous", "continuous"],
    ["It is not binary; the answer is a quantity, so the type is continuous.", "continuous"],
    ["<think>Could be binary... but it lists options.</think>multiple_choice", "multiple_choice"],
    ["This is a yes/no question.", "binary"],
    ["numeric", "continuous"],
    ["I am not sure.", null],
    ["", null],
  ])("%j → %s", (reply, expected) => {
    expect(parseClassification(reply)).toBe(expected);
  });
});
