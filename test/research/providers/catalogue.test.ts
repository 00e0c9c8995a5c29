import { describe, expect, it } from "vitest";
import {
  HTTP_PROVIDERS,
  type HttpProviderName,
  isHttpProviderName,
} from "../../../src/research/providers/catalogue.js";
import { ResearchSourceError } from "../../../src/research/source.js";

const NAMES = Object.keys(HTTP_PROVIDERS) as HttpProviderName[];

describe("HTTP provider catalogue", () => {
  it("lists the six providers, news ones honouring a cutoff and web ones not", () => {
    const table = NAMES.map((name) => [name, HTTP_PROVIDERS[name].honoursCutoff]);

    expect(table).toEqual([
      ["gdelt", true],
      ["exa", true],
      ["asknews", true],
      ["searxng", false],
      ["tavily", false],
      ["brave", false],
    ]);
  });

  it.each(NAMES)("%s builds a source that matches its entry", (name) => {
    const entry = HTTP_PROVIDERS[name];
    const source = entry.create({
      baseUrl: entry.defaultBaseUrl ?? "https://searx.example.org",
      apiKey: "key",
      timeoutMs: 1_000,
    });

    expect(source.provider).toBe(name);
    expect(source.honoursCutoff).toBe(entry.honoursCutoff);
  });

  it.each(NAMES)("%s without a key fails at construction only when it needs one", (name) => {
    const entry = HTTP_PROVIDERS[name];
    const build = () =>
      entry.create({
        baseUrl: entry.defaultBaseUrl ?? "https://searx.example.org",
        apiKey: null,
        timeoutMs: 1_000,
      });

    if (entry.needsApiKey) expect(build).toThrow(ResearchSourceError);
    else expect(build).not.toThrow();
  });

  it("has https default base URLs, and none for self-hosted SearXNG", () => {
    expect(
      Object.fromEntries(NAMES.map((name) => [name, HTTP_PROVIDERS[name].defaultBaseUrl])),
    ).toEqual({
      gdelt: "https://api.gdeltproject.org",
      exa: "https://api.exa.ai",
      asknews: "https://api.asknews.app",
      searxng: null,
      tavily: "https://api.tavily.com",
      brave: "https://api.search.brave.com",
    });
  });

  it.each(["not a url", "ftp://files.example.com", "file:///etc/passwd"])(
    "refuses the base URL %s",
    (baseUrl) => {
      expect(() =>
        HTTP_PROVIDERS.gdelt.create({ baseUrl, apiKey: null, timeoutMs: 1_000 }),
      ).toThrow(/^gdelt: base url/);
    },
  );

  it("refuses a time limit that is not a positive number", () => {
    expect(() =>
      HTTP_PROVIDERS.gdelt.create({
        baseUrl: "https://api.gdeltproject.org",
        apiKey: null,
        timeoutMs: 0,
      }),
    ).toThrow("gdelt: timeout must be a positive number of milliseconds");
  });

  it("recognises provider names from configuration", () => {
    expect(isHttpProviderName("gdelt")).toBe(true);
    expect(isHttpProviderName("archive")).toBe(false);
    expect(isHttpProviderName("toString")).toBe(false);
  });
});
