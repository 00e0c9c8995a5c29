import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { loadQuestionSet } from "../../src/evaluation/question-sets/load.js";
import { baselineForecast } from "../../src/forecast/index.js";
import { runCli, singleJson } from "../support/cli.js";
import { TempDirs } from "../support/temp-dir.js";

const EXAMPLES = fileURLToPath(new URL("../../examples/", import.meta.url));
const temp = new TempDirs();
afterAll(() => temp.removeAll());

describe("the example files shipped in examples/", () => {
  it("are a question set sibyl eval reads, with outcomes for all but the open question", async () => {
    const set = await loadQuestionSet(`${EXAMPLES}questions.jsonl`, null, null);
    expect(set.format).toBe("sibyl_jsonl");
    expect(set.items).toHaveLength(7);
    expect(set.notes).toEqual([]);
    expect(set.resolutions.filter((resolution) => resolution.resolved)).toHaveLength(6);
    expect(new Set(set.items.map((item) => item.answerType))).toEqual(
      new Set(["binary", "multiple_choice", "continuous"]),
    );
  });

  it("give the baseline a figure for every continuous question, never a year", async () => {
    const set = await loadQuestionSet(`${EXAMPLES}questions.jsonl`, null, null);
    for (const item of set.items.filter((entry) => entry.answerType === "continuous")) {
      const answer = baselineForecast("continuous", item.prompt, null);
      expect(answer, item.questionId).not.toBeNull();
      expect(answer?.type === "continuous" && answer.mean < 1900, item.questionId).toBe(true);
    }
  });

  it("fill the news archive through sibyl news import", async () => {
    const cwd = temp.make("sibyl-examples-");
    const result = await runCli(["news", "import", `${EXAMPLES}articles.jsonl`], { cwd });
    expect(singleJson({ ...result, stderr: "" })).toMatchObject({ imported: 3, rejected: 0 });
  });
});
