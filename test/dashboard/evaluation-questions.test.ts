import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evalRun, fixture, readSummary } from "../evaluation/support/backtest-cli.js";
import { watchedBrowser } from "../support/browser.js";
import { BUILT_DASHBOARD } from "../support/builds.js";
import { startTestServer, type TestServer } from "../support/server.js";

const MODEL = "sibyl-baseline";

let server: TestServer;
/** Its page is checked after the test: nothing the CSP blocked, no script error. */
const { open } = watchedBrowser();
let out: string;

beforeAll(async () => {
  server = await startTestServer({
    app: { dashboard: { dir: BUILT_DASHBOARD } },
    worker: true,
    config: { models: [{ id: MODEL, provider: "baseline" }] },
  });
  out = mkdtempSync(path.join(tmpdir(), "sibyl-dashboard-questions-"));
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(out, { recursive: true, force: true });
});

async function backtest(apiKey: string) {
  const run = await evalRun(
    {
      questions: fixture("questions.jsonl"),
      models: [MODEL],
      baseUrl: server.url,
      out,
    },
    apiKey,
  );
  expect(run.code, run.stderr).toBe(0);
}

describe("the Evaluations page's per-question view", () => {
  it("shows one evaluation per run and every question, filterable and sortable", async () => {
    const org = await server.createOrg("2");
    // The same run twice (it resumes, and uploads its files again): one evaluation.
    await backtest(org.apiKey);
    await backtest(org.apiKey);
    const summary = readSummary(out);

    const page = await open();
    await page.goto(`${server.url}/dashboard/`);
    await page.getByLabel("API key").fill(org.apiKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
    await page
      .getByRole("navigation", { name: "Dashboard" })
      .getByRole("link", { name: "Evaluations" })
      .click();
    const openButtons = page.getByRole("button", { name: /Open the report/ });
    await openButtons.first().waitFor();
    expect(await openButtons.count()).toBe(1);
    await openButtons.first().click();

    // Multiple-choice and continuous scores, each with its own n.
    const other = page.getByRole("table", { name: "Multiple-choice and continuous scores" });
    const cells = await other
      .getByRole("row", { name: new RegExp(MODEL) })
      .locator("td")
      .allTextContents();
    const scores = summary.models[MODEL];
    expect(cells[0]).toBe(String(scores?.multiple_choice?.n));
    expect(cells[1]).toBe(scores?.multiple_choice?.brier?.toFixed(4));
    expect(cells[2]).toBe(String(scores?.continuous?.n));

    const table = page.getByRole("table", { name: "Forecasts by question" });
    const body = table.locator("tbody tr");
    await body.first().waitFor();
    expect(await body.count()).toBe(summary.questions.length);
    expect(summary.questions.length).toBeGreaterThan(3);

    await page.getByLabel("Answer type").selectOption("multiple_choice");
    expect(await body.count()).toBe(1);
    expect(await body.first().getByRole("rowheader").textContent()).toBe(
      "Which team wins the 2025 final?",
    );
    await expect(page.getByTestId("questions-shown").textContent()).resolves.toBe(
      `1 of ${summary.questions.length} shown`,
    );
    await page.getByLabel("Answer type").selectOption("");

    await page.getByRole("button", { name: `${MODEL} score` }).click();
    const shown = await body.locator("td:nth-last-child(2)").allTextContents();
    const expected = summary.questions
      .map((row) => row.forecasts[MODEL]?.score ?? null)
      .sort((a, b) => (a ?? Number.POSITIVE_INFINITY) - (b ?? Number.POSITIVE_INFINITY));
    expect(shown.map((text) => text.split(" ")[0])).toEqual(
      expected.map((score) => (score === null ? "–" : score.toFixed(4))),
    );
    const header = page.getByRole("columnheader", { name: `${MODEL} score` });
    expect(await header.getAttribute("aria-sort")).toBe("ascending");

    await body.first().locator("summary").click();
    await body.first().getByText(MODEL, { exact: true }).waitFor();
  });
});
