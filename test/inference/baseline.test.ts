import { describe, expect, it } from "vitest";
import { createBaselineProvider } from "../../src/inference/baseline/index.js";
import type {
  InferenceRequest,
  SamplingParams,
  StreamEvent,
} from "../../src/inference/provider.js";
import { countChatTokens, countTextTokens } from "../../src/inference/tokens.js";
import { collect } from "./provider-fixtures.js";

const QUESTION = "Will the Fed cut rates before July 2026?";

function chat(params: Partial<SamplingParams> = {}, extra: Partial<InferenceRequest> = {}) {
  const request: InferenceRequest = {
    input: {
      kind: "chat",
      messages: [
        { role: "system", content: "You are a forecaster." },
        { role: "user", content: QUESTION },
      ],
    },
    params: { n: 1, ...params },
    ...extra,
  };
  return request;
}

const baseline = createBaselineProvider();

describe("baseline replies", () => {
  it("restates the question and names the uninformative prior, without numbers", async () => {
    const [choice] = (await baseline.complete(chat())).choices;
    expect(choice?.text).toContain(QUESTION);
    expect(choice?.text).toMatch(/uninformative prior/);
    expect(choice?.text).toMatch(/base rate/);
    expect(choice?.text).not.toMatch(/%/);
    expect(choice?.thinking).toBeNull();
    expect(choice?.finishReason).toBe("stop");
  });

  it("is deterministic", async () => {
    expect(await baseline.complete(chat({ n: 3, seed: 7 }))).toEqual(
      await createBaselineProvider().complete(chat({ n: 3, seed: 7 })),
    );
  });

  it("gives n different, reproducible choices", async () => {
    const { choices } = await baseline.complete(chat({ n: 3 }));
    expect(choices.map((choice) => choice.index)).toEqual([0, 1, 2]);
    expect(new Set(choices.map((choice) => choice.text)).size).toBe(3);
  });

  it("varies wording with the seed", async () => {
    const texts = await Promise.all(
      [1, 2, 3].map(async (seed) => (await baseline.complete(chat({ seed }))).choices[0]?.text),
    );
    expect(new Set(texts).size).toBe(3);
  });

  it("ends with the forecast sentence for a forecast request", async () => {
    const forecasting = createBaselineProvider({
      describeForecast: (hint) => `Probability: 50% (${hint.answerType})`,
    });
    const request = chat({}, { forecastHint: { answerType: "binary", question: "Rain?" } });
    const text = (await forecasting.complete(request)).choices[0]?.text ?? "";
    expect(text.endsWith("Probability: 50% (binary)")).toBe(true);
    expect(text).toContain(": Rain? ");
  });

  it("says nothing about numbers for a forecast request without a describer", async () => {
    const request = chat({}, { forecastHint: { answerType: "binary", question: "Rain?" } });
    expect((await baseline.complete(request)).choices[0]?.text).not.toMatch(/\d/);
  });

  it("answers each text prompt n times, numbered as OpenAI does", async () => {
    const result = await baseline.complete({
      input: { kind: "text", prompt: ["Alpha?", "Beta?"] },
      params: { n: 2 },
    });
    expect(result.choices.map((choice) => choice.index)).toEqual([0, 1, 2, 3]);
    expect(result.choices[1]?.text).toContain("Alpha?");
    expect(result.choices[2]?.text).toContain("Beta?");
    expect(result.usage?.promptTokens).toBe(countTextTokens("Alpha?") + countTextTokens("Beta?"));
  });
});

describe("baseline limits", () => {
  it("cuts at the first stop sequence", async () => {
    const full = (await baseline.complete(chat())).choices[0]?.text ?? "";
    const [choice] = (await baseline.complete(chat({ stop: ["prior", "question"] }))).choices;
    expect(choice?.text).toBe(full.slice(0, full.indexOf("question")));
    expect(choice?.finishReason).toBe("stop");
  });

  it("cuts at max_tokens with finish reason length", async () => {
    const result = await baseline.complete(chat({ max_tokens: 5 }));
    expect(result.choices[0]?.finishReason).toBe("length");
    expect(countTextTokens(result.choices[0]?.text ?? "")).toBe(5);
    expect(result.usage?.completionTokens).toBe(5);
  });

  it("counts prompt and completion tokens", async () => {
    const request = chat({ n: 2 });
    const result = await baseline.complete(request);
    expect(result.usage).toEqual({
      promptTokens: countChatTokens(request.input.kind === "chat" ? request.input.messages : []),
      completionTokens: result.choices.reduce((sum, c) => sum + countTextTokens(c.text), 0),
      reasoningTokens: 0,
    });
  });
});

describe("baseline streaming", () => {
  it("streams the same text word by word, then finishes, then usage", async () => {
    const complete = await baseline.complete(chat({ n: 2, max_tokens: 12 }));
    const events = await collect(await baseline.stream(chat({ n: 2, max_tokens: 12 })));
    for (const choice of complete.choices) {
      const deltas = events.filter(
        (event): event is Extract<StreamEvent, { type: "delta" }> =>
          event.type === "delta" && event.index === choice.index,
      );
      expect(deltas.length).toBeGreaterThan(3);
      expect(deltas.map((delta) => delta.text).join("")).toBe(choice.text);
    }
    expect(events.slice(-3)).toEqual([
      { type: "finish", index: 0, finishReason: "length" },
      { type: "finish", index: 1, finishReason: "length" },
      { type: "usage", usage: complete.usage },
    ]);
  });

  it("stops with 'aborted' when the caller cancels", async () => {
    const controller = new AbortController();
    const events = await baseline.stream(chat({}, { signal: controller.signal }));
    const received: StreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of events) {
          received.push(event);
          controller.abort();
        }
      })(),
    ).rejects.toMatchObject({ name: "UpstreamError", failure: "aborted" });
    expect(received).toHaveLength(1);
  });
});
