import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../../src/config/index.js";
import { TempDirs } from "../../support/temp-dir.js";

const temp = new TempDirs();
afterEach(() => temp.removeAll());

function load(yaml: string) {
  const cwd = temp.make("sibyl-feeds-config-");
  writeFileSync(path.join(cwd, "sibyl.yaml"), yaml);
  return loadConfig({ env: {}, cwd });
}

function rejection(yaml: string): string {
  try {
    load(yaml);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("news.feeds configuration", () => {
  it("watches no feeds by default", () => {
    expect(load("").news).toEqual({ feeds: [] });
  });

  it("reads feeds with a default of every 15 minutes", () => {
    const config = load(`
news:
  feeds:
    - url: https://news.example/rss.xml
    - { url: "http://wire.example/atom", every_minutes: 5 }
`);
    expect(config.news.feeds).toEqual([
      { url: "https://news.example/rss.xml", every_minutes: 15 },
      { url: "http://wire.example/atom", every_minutes: 5 },
    ]);
  });

  it("refuses urls that are not http(s), and bad intervals", () => {
    expect(rejection("news: { feeds: [ { url: ftp://news.example/rss } ] }")).toMatch(
      /news\.feeds\.0\.url/,
    );
    expect(rejection("news: { feeds: [ { url: 'https://' } ] }")).toMatch(/news\.feeds\.0\.url/);
    expect(
      rejection("news: { feeds: [ { url: 'https://a.example', every_minutes: 0 } ] }"),
    ).toMatch(/news\.feeds\.0\.every_minutes/);
    expect(rejection("news: { feeds: [ { url: 'https://a.example', every: 5 } ] }")).toMatch(
      /news\.feeds\.0/,
    );
    expect(rejection("news: { feeds: [ { every_minutes: 5 } ] }")).toMatch(/news\.feeds\.0/);
  });
});
