import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignInLinks } from "../../src/auth/sign-in-links.js";
import { ArchiveStore } from "../../src/research/archive/archive-store.js";
import { watchedBrowser } from "../support/browser.js";
import { BUILT_DASHBOARD } from "../support/builds.js";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream.js";
import { startTestServer, type TestServer } from "../support/server.js";

const BASELINE = "sibyl-baseline";
const THINKER = "thinker";

let upstream: FakeUpstream;
let server: TestServer;
/** Every page of every test: nothing the CSP blocked, no script error. */
const { open } = watchedBrowser();

beforeAll(async () => {
  upstream = await startFakeUpstream();
  upstream.setDefault({
    contents: ["Turnout looks weak.\n\nProbability: 30%"],
    reasoning: { field: "reasoning_content", text: "Start from the base rate of such votes." },
  });
  server = await startTestServer({
    app: { dashboard: { dir: BUILT_DASHBOARD } },
    config: {
      models: [
        {
          id: BASELINE,
          provider: "baseline",
          pricing: { prompt: "0.000001", completion: "0.000002" },
        },
        {
          id: THINKER,
          provider: "openai",
          base_url: upstream.url,
          pricing: { prompt: "0.000001", completion: "0.000002" },
        },
      ],
      research: { sources: { news_search: { provider: "archive", cost_usd: "0.005" } } },
    },
  });
  const day = Date.UTC(2025, 1, 20);
  await new ArchiveStore(server.services.database.db, server.services.clock).insertMany([
    {
      url: "https://news.example/council-budget",
      title: "Council schedules the budget vote",
      source: "Example News",
      summary: null,
      text: "The city council will vote on the budget in May.",
      publishedAt: day,
      firstSeenAt: day,
      origin: "feed",
    },
  ]);
}, 180_000);

afterAll(async () => {
  await server?.close();
  await upstream?.close();
});

async function signedIn(apiKey: string): Promise<Page> {
  const page = await open();
  await page.goto(`${server.url}/dashboard/`);
  await page.getByLabel("API key").fill(apiKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
  return page;
}

const nav = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name });

async function ask(page: Page, model: string, question: string): Promise<void> {
  await nav(page, "Playground").click();
  await page.getByLabel("Model").selectOption(model);
  await page.getByLabel("Answer type").selectOption("binary");
  await page.getByLabel("Prediction date and research cutoff (optional)").fill("2025-03-01");
  await page.getByRole("textbox", { name: "Question" }).fill(question);
}

describe("the playground in headless Chromium", () => {
  it("sends research, reasoning effort and an ensemble, and shows citations, members and the cost split", async () => {
    const org = await server.createOrg("5");
    const page = await signedIn(org.apiKey);
    await ask(page, BASELINE, "Will the city council approve the budget by June?");
    await page.getByLabel("News archive (news_search)").check();
    await page.getByLabel("Reasoning effort").selectOption("high");
    await page.getByLabel("Ensemble samples").fill("3");
    await page.getByLabel("Aggregate").selectOption("mean");
    const sent = page.waitForRequest((request) => request.url().endsWith("/v1/chat/completions"));
    await page.getByRole("button", { name: "Send" }).click();
    expect((await sent).postDataJSON()).toMatchObject({
      model: BASELINE,
      research: { sources: ["news_search"] },
      reasoning_effort: "high",
      ensemble: { samples: 3, aggregate: "mean" },
      prediction_date: "2025-03-01T00:00:00Z",
    });

    const citations = page.getByTestId("citations");
    await citations.waitFor();
    await citations.getByRole("link", { name: "Council schedules the budget vote" }).waitFor();
    await expect(citations.textContent()).resolves.toMatch(
      /published 2025-02-20 · first seen 2025-02-20 · \w+, trusted/,
    );
    const members = page.getByTestId("ensemble").locator("tbody tr");
    await expect(members.count()).resolves.toBe(3);
    const split = page.getByTestId("cost-split");
    await expect(split.getByRole("row", { name: /Research/ }).textContent()).resolves.toContain(
      "$0.005",
    );
    await expect(split.getByRole("row", { name: /Inference/ }).textContent()).resolves.toMatch(
      /\$0\.0/,
    );
    await expect(
      split.getByRole("row", { name: /Classification/ }).textContent(),
    ).resolves.toContain("—");
  });

  it("shows the model's thinking apart from its reply", async () => {
    const org = await server.createOrg("5");
    const page = await signedIn(org.apiKey);
    await ask(page, THINKER, "Will turnout pass 50%?");
    await page.getByRole("button", { name: "Send" }).click();
    const thinking = page.getByTestId("thinking");
    await thinking.waitFor();
    await thinking.getByText("Thinking").click();
    await thinking.getByText("Start from the base rate of such votes.").waitFor();
    await expect(page.getByTestId("parsed-answer").locator("code").textContent()).resolves.toBe(
      "0.3",
    );
  });

  it("shows the fee for classifying an auto question in the cost split, and the ledger names it classification", async () => {
    const org = await server.createOrg("5");
    const page = await signedIn(org.apiKey);
    await ask(page, BASELINE, "Will the bill pass before July?");
    await page.getByLabel("Answer type").selectOption("auto");
    await page.getByRole("button", { name: "Send" }).click();
    const split = page.getByTestId("cost-split");
    await split.waitFor();
    await expect(
      split.getByRole("row", { name: /Classification/ }).textContent(),
    ).resolves.toContain("$0.0005");

    await nav(page, "Ledger").click();
    const rows = page.getByRole("table").getByRole("row", { name: /charge/ });
    await rows.first().waitFor();
    const labels = await rows.locator("td:last-child").allTextContents();
    // One request, two charges: the model's tokens under its name, the classification fee apart.
    expect(labels.map((text) => text.replace(/chatcmpl-\S+$/, "")).sort()).toEqual([
      "classification",
      BASELINE,
    ]);
  });

  it("marks the keys that sign-in links issued", async () => {
    const org = await server.createOrg("1");
    const { services } = server;
    const links = new SignInLinks(
      services.database.db,
      services.clock,
      services.organizations,
      services.apiKeys,
    );
    const link = await links.create(org.organizationId);
    await fetch(`${server.url}/v1/dashboard/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: link.token }),
    });
    const page = await signedIn(org.apiKey);
    await nav(page, "API keys").click();
    const row = page.getByRole("row", { name: /dashboard sign-in/ });
    await row.waitFor();
    await expect(row.locator(".badge-sign-in").textContent()).resolves.toBe("sign-in");
    await expect(page.locator(".badge-sign-in").count()).resolves.toBe(1);
  });
});
