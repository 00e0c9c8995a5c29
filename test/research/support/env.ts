import type OpenAI from "openai";
import {
  ArchiveStore,
  type ArticleOrigin,
  type NewArticle,
} from "../../../src/research/archive/archive-store.js";
import type { Services } from "../../../src/services.js";
import type { Clock } from "../../../src/util/clock.js";
import { MODEL, sdkClient, upstreamModel } from "../../completions/support/env.js";
import { type FakeUpstream, startFakeUpstream } from "../../support/fake-upstream.js";
import { startTestServer, type TestOrg } from "../../support/server.js";
import { ScriptedProvider } from "./scripted-provider.js";

export { MODEL };

export interface LogLine {
  level: "warn" | "debug";
  message: string;
  details: Record<string, unknown>;
}

export interface ResearchEnvOptions {
  /** The `research` section of the configuration. */
  research?: Record<string, unknown>;
  databaseUrl?: string;
  clock?: Clock;
  env?: Record<string, string>;
}

export interface ResearchEnv {
  url: string;
  fake: FakeUpstream;
  services: Services;
  /** Providers `scripted-news` (honours a cutoff) and `scripted-web` (does not). */
  news: ScriptedProvider;
  web: ScriptedProvider;
  /** What research logged. */
  logs: LogLine[];
  org(usd?: string): Promise<TestOrg>;
  client(apiKey: string): OpenAI;
  /** Archives articles the way `sibyl news import` does. */
  archive(articles: NewArticle[]): Promise<void>;
  /** Forgets upstream requests, scripts, calls and logs. */
  reset(): void;
  close(): Promise<void>;
}

/** The real server over a real database, the fake upstream as its model and scripted sources. */
export async function startResearchEnv(options: ResearchEnvOptions = {}): Promise<ResearchEnv> {
  const fake = await startFakeUpstream();
  const news = new ScriptedProvider("scripted-news", true);
  const web = new ScriptedProvider("scripted-web", false);
  const logs: LogLine[] = [];
  const server = await startTestServer({
    config: {
      models: [upstreamModel(fake.url)],
      limits: { requests_per_minute: 100_000 },
      ...(options.research ? { research: options.research } : {}),
    },
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    services: {
      env: options.env ?? {},
      researchProviders: { "scripted-news": news, "scripted-web": web },
      researchLog: {
        warn: (details, message) => logs.push({ level: "warn", message, details: { ...details } }),
        debug: (details, message) =>
          logs.push({ level: "debug", message, details: { ...details } }),
      },
    },
  });
  const store = new ArchiveStore(server.services.database.db, server.services.clock);
  return {
    url: server.url,
    fake,
    services: server.services,
    news,
    web,
    logs,
    org: (usd = "10") => server.createOrg(usd),
    client: (apiKey) => sdkClient(server.url, apiKey),
    archive: async (articles) => {
      await store.insertMany(articles);
    },
    reset: () => {
      fake.reset();
      news.reset();
      web.reset();
      logs.length = 0;
    },
    close: async () => {
      await server.close();
      await fake.close();
    },
  };
}

export interface ArticleInput {
  url: string;
  title: string;
  text: string;
  /** ISO 8601 in UTC. */
  publishedAt: string;
  /** Default: when it was published. */
  firstSeenAt?: string;
  summary?: string;
  /** Default: import. */
  origin?: ArticleOrigin;
}

/** An article for the archive. */
export function article(input: ArticleInput): NewArticle {
  const publishedAt = Date.parse(input.publishedAt);
  return {
    url: input.url,
    title: input.title,
    source: null,
    summary: input.summary ?? null,
    text: input.text,
    publishedAt,
    firstSeenAt: input.firstSeenAt ? Date.parse(input.firstSeenAt) : publishedAt,
    origin: input.origin ?? "import",
  };
}
