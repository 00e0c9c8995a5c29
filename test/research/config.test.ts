import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/index.js";
import { createServices } from "../../src/services.js";
import { writeTestConfig } from "../support/server.js";

function configWith(research: Record<string, unknown>) {
  return writeTestConfig({ config: { research } }).config;
}

describe("research configuration", () => {
  it("defaults to the local archive, free, with a cache and a token budget", () => {
    const { config } = writeTestConfig({});
    expect(config.research).toEqual({
      cache_seconds: 900,
      context_tokens: 2_000,
      sources: {
        news_search: { provider: "archive", cost_usd: "0", max_results: 8, timeout_ms: 10_000 },
      },
    });
  });

  it("keeps the archive as news_search when only web_search is configured", () => {
    const config = configWith({
      sources: {
        web_search: { provider: "searxng", base_url: "http://127.0.0.1:9", timeout_ms: 500 },
      },
    });
    expect(config.research.sources.news_search.provider).toBe("archive");
    expect(config.research.sources.web_search).toMatchObject({
      provider: "searxng",
      timeout_ms: 500,
    });
  });

  it.each([
    [{ cache_seconds: -1 }, "research.cache_seconds"],
    [{ context_tokens: 10 }, "research.context_tokens"],
    [{ sources: { news_search: { provider: "gdelt", timeout_ms: 5 } } }, "timeout_ms"],
    [{ sources: { news_search: { provider: "gdelt", cost_usd: "cheap" } } }, "cost_usd"],
    [{ sources: { maps_search: { provider: "gdelt" } } }, "research.sources"],
  ])("refuses %j, naming the setting", (research, setting) => {
    expect(() => configWith(research)).toThrow(ConfigError);
    expect(() => configWith(research)).toThrow(setting);
  });

  it.each([
    [
      { news_search: { provider: "bing" } },
      'research.sources.news_search.provider: unknown provider "bing" (known: archive, gdelt',
    ],
    [
      { web_search: { provider: "searxng" } },
      "research.sources.web_search.base_url: required for provider searxng",
    ],
    [
      { web_search: { provider: "tavily" } },
      "research.sources.web_search.api_key_env: required for provider tavily",
    ],
    [
      { news_search: { provider: "exa", api_key_env: "EXA_KEY_MISSING" } },
      "environment variable EXA_KEY_MISSING is not set",
    ],
  ])("stops the start on %j with a clear message", async (sources, message) => {
    const config = configWith({ sources });
    await expect(createServices(config, { env: {} })).rejects.toThrow(ConfigError);
    await expect(createServices(config, { env: {} })).rejects.toThrow(message);
  });

  it("starts with a provider whose key is in the environment", async () => {
    const config = configWith({
      sources: { news_search: { provider: "exa", api_key_env: "EXA_KEY", cost_usd: "0.005" } },
    });
    const services = await createServices(config, { env: { EXA_KEY: "secret" } });
    await services.close();
  });
});
