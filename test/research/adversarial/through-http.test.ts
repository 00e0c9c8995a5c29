import type OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countTextTokens } from "../../../src/inference/tokens.js";
import { researchContext } from "../../../src/research/context.js";
import { laterMention } from "../../../src/research/dates/grammar.js";
import { shownVerdict } from "../../../src/research/leak-guard.js";
import { upstreamBody } from "../../completions/support/sibyl-types.js";
import { MODEL, type ResearchEnv, startResearchEnv } from "../support/env.js";
import { reportOf } from "../support/report.js";
import { adversarialCorpus, CUTOFF } from "./corpus.js";

const corpus = adversarialCorpus();

/** The research system message the model server received for the last request. */
function researchMessage(env: ResearchEnv): string {
  const messages = upstreamBody(env.fake.requests.at(-1)?.body).messages ?? [];
  const found = messages.find((message) => message.content?.startsWith("Research results"));
  return found?.content ?? "";
}

describe("the adversarial corpus through /v1/chat/completions", () => {
  let env: ResearchEnv;
  let apiKey: string;

  beforeAll(async () => {
    env = await startResearchEnv({
      research: {
        sources: { news_search: { provider: "scripted-news", max_results: 50 } },
        cache_seconds: 0,
        context_tokens: 30_000,
      },
    });
    apiKey = (await env.org("100")).apiKey;
  });
  afterAll(async () => {
    await env?.close();
  });

  it("gives the model no leak and every control, as the prompt it received shows", async () => {
    const wrong: string[] = [];
    for (let start = 0; start < corpus.length; start += 40) {
      const documents = corpus.slice(start, start + 40);
      env.reset();
      env.news.script = { results: documents.map((document) => document.result) };
      const response = await env.client(apiKey).chat.completions.create({
        model: MODEL,
        messages: [{ role: "user", content: "Will the water bill pass?" }],
        research: true,
        prediction_date: CUTOFF.toISOString(),
      } as OpenAI.ChatCompletionCreateParamsNonStreaming);
      const prompt = researchMessage(env);
      const report = reportOf(response);
      for (const document of documents) {
        const shown = prompt.includes(document.marker);
        if (shown !== (document.expect === "keep"))
          wrong.push(`${document.expect}: ${document.id}`);
        const listed = report.sources.some((source) => source.url === document.result.url);
        expect(listed, document.id).toBe(shown);
      }
      // Every untrusted block in the prompt, re-read whole, names nothing at or after the cutoff.
      for (const block of prompt.split("\n\n").slice(1)) {
        const number = Number(/^\[(\d+)\]/.exec(block)?.[1]);
        const source = report.sources.find((given) => given.number === number);
        expect(source, block).toBeDefined();
        if (source?.trust === "untrusted") {
          const dated = new Date(source.published_at ?? source.first_seen_at ?? CUTOFF);
          expect(laterMention(block, dated, CUTOFF), block).toBeNull();
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe("the guard's input", () => {
  it("is byte for byte the text of each source in the message", () => {
    const documents = corpus.filter((document) => document.expect === "keep").slice(0, 60);
    const guarded: string[] = [];
    const context = researchContext(
      documents.map((document) => ({
        result: document.result,
        source: "news_search",
        provider: "corpus",
      })),
      {
        asOf: CUTOFF,
        cutoff: CUTOFF,
        tokenBudget: 60_000,
        admit: (result, shown) => {
          guarded.push(shown);
          return shownVerdict(result, shown, CUTOFF);
        },
      },
    );
    const [head, ...blocks] = context.message.split("\n\n");
    expect(head).toMatch(/^Research results for this question, as of 2026-05-10\./);
    expect(blocks).toEqual(guarded);
    expect(context.sources).toHaveLength(guarded.length);
    expect(context.tokens).toBe(4 + countTextTokens(context.message));
  });

  it("leaves out whole a source whose block the guard refuses, and numbers the rest in order", () => {
    const leak = corpus.find(
      (document) => document.expect === "drop" && document.kind.startsWith("split"),
    );
    const control = corpus.find((document) => document.expect === "keep");
    if (!leak || !control) throw new Error("corpus without a split leak or a control");
    const context = researchContext(
      [leak, control].map((document) => ({
        result: document.result,
        source: "news_search",
        provider: "corpus",
      })),
      {
        asOf: CUTOFF,
        cutoff: CUTOFF,
        tokenBudget: 10_000,
        admit: (result, shown) => shownVerdict(result, shown, CUTOFF),
      },
    );
    expect(context.message).not.toContain(leak.marker);
    expect(context.message).toContain(`[1] ${control.result.title}`);
    expect(context.rejected.map((rejection) => rejection.verdict.reason)).toEqual([
      "later_date_shown",
    ]);
  });
});
