import { statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Summary } from "../../src/evaluation/summary.js";
import { type BatchServer, startBatchServer } from "../batches/support/batch-server.js";
import { watchedBrowser } from "../support/browser.js";
import { evalRun, fixture, readSummary, tempDir } from "./support/backtest-cli.js";
import { type ForecasterUpstream, startForecasterUpstream } from "./support/forecaster-upstream.js";

const MODELS = ["sibyl-baseline", "fake-forecaster"];
/** Every series the plot draws: the models, the market baseline and the models' ensemble. */
const PLOTTED = [...MODELS, "market_freeze", "ensemble_median"];
const VIEWPORT = { width: 1280, height: 900 };

/** A different but fixed probability for every question and resolution date. */
function answer(prompt: string): string {
  let hash = 0;
  for (const char of prompt) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 1_000_003;
  return `Looking at base rates.\nProbability: ${5 + (hash % 91)}%`;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 1 &&
  inner.y >= outer.y - 1 &&
  inner.x + inner.width <= outer.x + outer.width + 1 &&
  inner.y + inner.height <= outer.y + outer.height + 1;

/** A table's text as rows of cells, the header row first. */
async function tableText(page: Page, selector: string): Promise<string[][]> {
  const rows = await page.locator(`${selector} tr`).all();
  return Promise.all(
    rows.map(async (row) =>
      (await row.locator("th, td").allTextContents()).map((text) => text.trim()),
    ),
  );
}

describe("report.html in headless Chromium", () => {
  let upstream: ForecasterUpstream;
  let server: BatchServer;
  let out: string;
  let summary: Summary;
  /** The report's page is checked after the test: nothing its CSP blocked, no script error. */
  const { open } = watchedBrowser();

  beforeAll(async () => {
    upstream = await startForecasterUpstream(answer);
    server = await startBatchServer({
      config: {
        models: [
          { id: "sibyl-baseline", provider: "baseline" },
          { id: "fake-forecaster", provider: "openai", base_url: upstream.url },
        ],
      },
    });
    const { org } = await server.client("10");
    out = path.join(tempDir(), "report");
    const run = await evalRun(
      {
        questions: fixture("2026-07-05-llm.json"),
        resolutions: fixture("2026-07-05_resolution_set.json"),
        models: MODELS,
        baseUrl: server.url,
        out,
      },
      org.apiKey,
    );
    expect(run.code, run.stderr).toBe(0);
    summary = readSummary(out);
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
  });

  it("renders the calibration plot, the scores with intervals and the per-source breakdown", async () => {
    const page = await open(VIEWPORT);
    const requested: string[] = [];
    page.on("request", (req) => requested.push(req.url()));
    const report = pathToFileURL(path.join(out, "report.html")).href;
    await page.goto(report);
    // Self-contained: the page asked for nothing but itself.
    expect(requested).toEqual([report]);

    const plot = page.locator("figure#calibration > svg");
    expect(await plot.count()).toBe(1);
    const plotBox = await plot.boundingBox();
    expect(plotBox).not.toBeNull();
    if (plotBox === null) return;
    // Drawn at a readable size, and not cut off by the page's width.
    expect(plotBox.width).toBeGreaterThan(400);
    expect(plotBox.height).toBeGreaterThan(400);
    expect(plotBox.x + plotBox.width).toBeLessThanOrEqual(VIEWPORT.width);
    const legend = await plot.locator("text").allTextContents();

    for (const name of PLOTTED) {
      expect(legend, name).toContain(name);
      for (const role of ["circle", "bar"]) {
        const marks = plot.locator(`[aria-roledescription="${role}"][aria-label^="${name}: "]`);
        const count = await marks.count();
        expect(count, `${name} ${role}s`).toBeGreaterThan(0);
        for (let index = 0; index < count; index += 1) {
          const box = await marks.nth(index).boundingBox();
          expect(box, `${name} ${role} ${index}`).not.toBeNull();
          if (box === null) continue;
          expect(box.width).toBeGreaterThan(0);
          expect(box.height).toBeGreaterThan(0);
          expect(inside(box, plotBox), `${name} ${role} ${index} inside the plot`).toBe(true);
        }
      }
    }
    // The model's bins hold exactly the forecasts it was scored on.
    const labels = await plot
      .locator('[aria-roledescription="circle"][aria-label^="fake-forecaster: "]')
      .evaluateAll((marks) => marks.map((mark) => mark.getAttribute("aria-label") ?? ""));
    const binned = labels.reduce((sum, label) => sum + Number(/n=(\d+)$/.exec(label)?.[1]), 0);
    expect(binned).toBe(summary.models["fake-forecaster"]?.n);
    expect(summary.models["fake-forecaster"]?.n).toBeGreaterThan(0);

    const scores = await tableText(page, "#scores table");
    expect(scores[0]).toEqual([
      "forecaster",
      "n (binary)",
      "pooled Brier",
      "95% interval",
      "log score",
      "ECE",
      "parse rate (first reply)",
      "parse rate (after re-asks)",
      "re-asked",
      "imputed",
      "cost",
    ]);
    const forecasters = [
      ...MODELS,
      "ensemble_median",
      "baseline: always_0.5",
      "baseline: market_freeze",
    ];
    expect(scores.slice(1).map((row) => row[0])).toEqual(forecasters);
    for (const row of scores.slice(1)) {
      const [, n, brier, interval] = row;
      expect(Number(n), row.join(" | ")).toBeGreaterThan(0);
      const bounds = /^\[(\d\.\d{4}), (\d\.\d{4})\]$/.exec(interval ?? "");
      expect(bounds, row.join(" | ")).not.toBeNull();
      expect(Number(bounds?.[1])).toBeLessThanOrEqual(Number(brier));
      expect(Number(brier)).toBeLessThanOrEqual(Number(bounds?.[2]));
    }
    expect(scores[2]?.[2]).toBe(summary.models["fake-forecaster"]?.pooled_brier?.toFixed(4));

    const bySource = await tableText(page, "#by-source table");
    expect(bySource[0]).toEqual(["source", ...MODELS]);
    const sources = Object.keys(summary.models["fake-forecaster"]?.by_source ?? {}).sort();
    expect(sources).toEqual(["fred", "infer", "manifold", "metaculus", "polymarket", "yfinance"]);
    expect(bySource.slice(1)).toEqual(
      sources.map((source) => [
        source,
        ...MODELS.map((model) => {
          const entry = summary.models[model]?.by_source[source];
          return `${entry?.brier?.toFixed(4)} (n=${entry?.n})`;
        }),
      ]),
    );
    // ForecastBench's figures: the fake's equal-weight overall as summary.json has it.
    const bench = await tableText(page, "#forecastbench table");
    const fakeBench = summary.models["fake-forecaster"]?.forecastbench;
    expect(bench.find((row) => row[0] === "fake-forecaster")?.[3]).toBe(
      `${fakeBench?.overall.brier?.toFixed(4)} (n=${fakeBench?.overall.n})`,
    );

    // The per-question table: filtered by source, sorted by a model's score.
    const questionRows = page.locator("#questions-table tbody tr");
    expect(await questionRows.count()).toBe(summary.questions.length);
    await page.locator("#filter-source").selectOption("fred");
    const fred = summary.questions.filter((row) => row.source === "fred").length;
    expect(fred).toBeGreaterThan(0);
    expect(await page.locator("#questions-table tbody tr:not([hidden])").count()).toBe(fred);
    expect(await page.locator("#questions-shown").textContent()).toBe(String(fred));
    await page.locator("#filter-source").selectOption("");
    await page.getByRole("button", { name: "fake-forecaster score" }).click();
    const sorted = await page
      .locator("#questions-table tbody tr")
      .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-source") ?? ""));
    expect(sorted).toHaveLength(summary.questions.length);
    const scoresInOrder = summary.questions
      .map((row) => row.forecasts["fake-forecaster"]?.score ?? Number.POSITIVE_INFINITY)
      .sort((a, b) => a - b);
    const shownScores = await page
      .locator("#questions-table tbody tr")
      .evaluateAll(
        (rows, column) =>
          rows.map((row) =>
            Number(
              (row as unknown as { cells: { dataset: { sort?: string } }[] }).cells[column]?.dataset
                .sort ?? "Infinity",
            ),
          ),
        8 + MODELS.indexOf("fake-forecaster") * 2,
      );
    expect(shownScores).toEqual(scoresInOrder);

    for (const selector of ["#scores table", "#by-source table", "figure#calibration"]) {
      expect(await page.locator(selector).isVisible(), selector).toBe(true);
    }

    const screenshot = path.join(out, "report.png");
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(statSync(screenshot).size).toBeGreaterThan(10_000);
  });
});
