import type OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { countTextTokens } from "../../src/inference/tokens.js";
import { upstreamBody } from "../completions/support/sibyl-types.js";
import { MODEL, type ResearchEnv, startResearchEnv } from "./support/env.js";
import { givenUrls, reportOf } from "./support/report.js";
import { result } from "./support/scripted-provider.js";

const NEWS = [
  result({
    url: "https://news.example/a?utm_source=rss&utm_medium=feed",
    title: "Ceasefire talks resume",
    publishedAt: new Date("2024-05-01T10:00:00Z"),
    source: "News Example",
    snippet: "Negotiators met in Doha on Tuesday.",
  }),
  result({
    url: "https://news.example/b",
    title: "Envoys expect a deal within weeks",
    publishedAt: new Date("2024-05-02T10:00:00Z"),
    text: "Envoys said a deal could come within weeks.",
  }),
];
const WEB = [
  // The same page as the first news result: cited once.
  result({
    url: "HTTPS://NEWS.EXAMPLE/a/",
    title: "Ceasefire talks resume (copy)",
    publishedAt: new Date("2024-05-01T10:00:00Z"),
    snippet: "A copy.",
  }),
  result({
    url: "https://web.example/analysis",
    title: "Analysis: what a deal would need",
    publishedAt: new Date("2024-04-20T10:00:00Z"),
    snippet: "Three sticking points remain.",
  }),
];

/** Round robin in each source's order: the web's first result repeats the news' first. */
const GIVEN = [
  { url: "https://news.example/a?utm_source=rss&utm_medium=feed", title: "Ceasefire talks resume" },
  { url: "https://news.example/b", title: "Envoys expect a deal within weeks" },
  { url: "https://web.example/analysis", title: "Analysis: what a deal would need" },
];

describe("citations and the research message", () => {
  let env: ResearchEnv;
  let apiKey: string;

  beforeAll(async () => {
    env = await startResearchEnv({
      research: {
        sources: {
          news_search: { provider: "scripted-news" },
          web_search: { provider: "scripted-web" },
        },
        cache_seconds: 0,
      },
    });
    apiKey = (await env.org()).apiKey;
  });
  afterEach(() => env.reset());
  afterAll(async () => {
    await env?.close();
  });

  const request = {
    model: MODEL,
    messages: [
      { role: "system" as const, content: "You are a careful forecaster." },
      { role: "user" as const, content: "Will a ceasefire be signed by the end of June?" },
    ],
    research: true,
    answer_type: "binary",
  };

  function script(): void {
    env.news.script = { results: NEWS };
    env.web.script = { results: WEB };
  }

  it("reports each page given once, sources interleaved, through the openai SDK", async () => {
    script();
    const response = await env
      .client(apiKey)
      .chat.completions.create(request as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const report = reportOf(response);
    expect(report.as_of).toBeNull();
    expect(report.sources.map(({ url, title }) => ({ url, title }))).toEqual(GIVEN);
    expect(report.sources.map((source) => [source.number, source.source, source.trust])).toEqual([
      [1, "news_search", "untrusted"],
      [2, "news_search", "untrusted"],
      [3, "web_search", "untrusted"],
    ]);
    expect(report.sources[0]).toMatchObject({
      published_at: "2024-05-01T10:00:00.000Z",
      first_seen_at: null,
      provider: "scripted-news",
    });
    expect(report.dropped).toEqual({ duplicate: 1 });
    // The echoed prompt cites nothing in brackets.
    expect(response.choices[0]?.message.annotations).toEqual([]);
  });

  it("annotates each citation the reply writes, with its span and the source's title", async () => {
    script();
    const content =
      "Talks resumed [1]; a deal needs three things [3]. Envoys agree [2, 1]. [9] is no source.";
    env.fake.setDefault({ contents: [content] });
    const response = await env
      .client(apiKey)
      .chat.completions.create(request as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const reply = response.choices[0]?.message.content ?? "";
    const annotations = response.choices[0]?.message.annotations ?? [];
    expect(
      annotations.map(({ url_citation: c }) => [c.url, reply.slice(c.start_index, c.end_index)]),
    ).toEqual([
      [GIVEN[0]?.url, "[1]"],
      [GIVEN[2]?.url, "[3]"],
      [GIVEN[1]?.url, "[2, 1]"],
      [GIVEN[0]?.url, "[2, 1]"],
    ]);
    expect(annotations[1]?.url_citation.title).toBe("Analysis: what a deal would need");
  });

  it("gives the model one numbered list after the date line and before the guidance", async () => {
    script();
    await env
      .client(apiKey)
      .chat.completions.create(request as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const messages = upstreamBody(env.fake.requests[0]?.body).messages ?? [];
    expect(messages.map((message) => message.role)).toEqual([
      "system",
      "system",
      "system",
      "system",
      "user",
    ]);
    expect(messages[0]?.content).toMatch(/^Today's date is/);
    const research = messages[1]?.content ?? "";
    expect(research).toContain("[1] Ceasefire talks resume");
    expect(research).toContain("Published: 2024-05-01 · Source: News Example");
    expect(research).toContain("URL: https://web.example/analysis");
    expect(research).toContain("[2] Envoys expect a deal within weeks");
    expect(research).toContain("Envoys said a deal could come within weeks.");
    expect(research).not.toContain("A copy.");
    expect(messages[2]?.content).toMatch(/probability/i);
    expect(messages[3]?.content).toBe("You are a careful forecaster.");
  });

  it("streams the citations in each choice's final chunk and the report in the last chunk", async () => {
    script();
    env.fake.setDefault({ contents: ["See [2] and [1]."] });
    const stream = await env.client(apiKey).chat.completions.create({
      ...request,
      n: 2,
      stream: true,
    } as OpenAI.ChatCompletionCreateParamsStreaming);
    const finals = new Map<number, unknown>();
    const elsewhere: unknown[] = [];
    const chunks: unknown[] = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      for (const choice of chunk.choices) {
        const annotations = (choice.delta as { annotations?: unknown }).annotations;
        if (choice.finish_reason) finals.set(choice.index, annotations);
        else if (annotations !== undefined) elsewhere.push(annotations);
      }
    }
    expect(elsewhere).toEqual([]);
    const span = (url: string | undefined, start: number) => ({
      type: "url_citation",
      url_citation: {
        url,
        title: GIVEN.find((g) => g.url === url)?.title,
        start_index: start,
        end_index: start + 3,
      },
    });
    const expected = [span(GIVEN[1]?.url, 4), span(GIVEN[0]?.url, 12)];
    expect([...finals.entries()].sort()).toEqual([
      [0, expected],
      [1, expected],
    ]);
    expect(givenUrls(chunks.at(-1))).toEqual(GIVEN.map((given) => given.url));
    expect(chunks.slice(0, -1).some((chunk) => "research" in (chunk as object))).toBe(false);
  });

  it("keeps the message within the configured token budget", async () => {
    const long = "The talks went on through the night with many proposals. ".repeat(400);
    env.news.script = {
      results: Array.from({ length: 8 }, (_, index) =>
        result({
          url: `https://long.example/${index}`,
          title: `Long report ${index}`,
          publishedAt: new Date("2024-05-01T10:00:00Z"),
          text: long,
        }),
      ),
    };
    const response = await env.client(apiKey).chat.completions.create({
      ...request,
      research: { sources: ["news_search"] },
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const messages = upstreamBody(env.fake.requests[0]?.body).messages ?? [];
    const research = messages[1]?.content ?? "";
    // 2,000 tokens by default: some of the eight reports fit, each cut short.
    const cited = reportOf(response).sources;
    expect(cited.length).toBeGreaterThan(2);
    expect(cited.length).toBeLessThan(8);
    expect(research.match(/^\[\d+\] /gm)).toHaveLength(cited.length);
    expect(countTextTokens(research) + 4).toBeLessThanOrEqual(2_000);
  });
});
