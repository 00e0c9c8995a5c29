// The dashboard's Track record page with months of forecasts, in light and dark, at desktop and
// phone width: what a person sees of its charts and tables.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ForecasterUpstream,
  startForecasterUpstream,
} from "../evaluation/support/forecaster-upstream.js";
import { watchedBrowser } from "../support/browser.js";
import { BUILT_DASHBOARD } from "../support/builds.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { seededRandom } from "../track/support/scripted-forecasts.js";

const MODEL = "scripted-forecaster-with-a-long-name";
/** Questions forecast a week apart, about seven months of them. */
const QUESTIONS = 30;
const OPEN = 6;

const random = seededRandom(36);
const questions = Array.from({ length: QUESTIONS }, (_, index) => {
  const probability = Math.round((0.03 + 0.94 * random()) * 100) / 100;
  return {
    id: `regional-election-turnout-question-${index}`,
    text: `Will turnout in regional election number ${index} exceed the average of the previous three elections held in the same region?`,
    probability,
    outcome: random() < probability ? 1 : 0,
    predictionDate: new Date(Date.UTC(2025, 0, 6 + 7 * index)).toISOString().slice(0, 10),
  };
});

let upstream: ForecasterUpstream;
let server: TestServer;
let apiKey: string;
let shots: string;
/** Every page of every test: nothing the CSP blocked, no script error. */
const { open } = watchedBrowser();

const post = (route: string, body: unknown) =>
  fetch(`${server.url}${route}`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  upstream = await startForecasterUpstream((prompt) => {
    const asked = questions.find((question) => prompt.includes(question.text));
    return `Probability: ${Math.round((asked?.probability ?? 0.5) * 100)}%`;
  });
  server = await startTestServer({
    app: { dashboard: { dir: BUILT_DASHBOARD } },
    config: { models: [{ id: MODEL, provider: "openai", base_url: upstream.url }] },
  });
  ({ apiKey } = await server.createOrg("5"));
  for (const [index, question] of questions.entries()) {
    const forecast = await post("/v1/chat/completions", {
      model: MODEL,
      messages: [{ role: "user", content: question.text }],
      answer_type: "binary",
      question_id: question.id,
      prediction_date: question.predictionDate,
    });
    expect(forecast.status, await forecast.text()).toBe(200);
    if (index >= QUESTIONS - OPEN) continue;
    const resolution = await post(`/v1/questions/${question.id}/resolution`, {
      outcome: question.outcome,
      resolved_at: "2025-09-01",
    });
    expect(resolution.status, await resolution.text()).toBe(200);
  }
  shots = mkdtempSync(path.join(tmpdir(), "sibyl-track-record-shots-"));
}, 180_000);

afterAll(async () => {
  await server?.close();
  await upstream?.close();
  process.stdout.write(`track record screenshots: ${shots}\n`);
});

async function trackRecord(colorScheme: "light" | "dark", width: number): Promise<Page> {
  const page = await open({ colorScheme, width, height: 900 });
  await page.goto(`${server.url}/dashboard/`);
  await page.getByLabel("API key").fill(apiKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
  await page
    .getByRole("navigation", { name: "Dashboard" })
    .getByRole("link", { name: "Track record" })
    .click();
  await page.getByRole("heading", { level: 1, name: "Track record" }).waitFor();
  await page.locator(".score-time-box .recharts-line-dot").first().waitFor();
  await page.locator(".calibration-points .recharts-symbols").first().waitFor();
  // Newest first: the last question asked heads the first page.
  await page.getByRole("row", { name: new RegExp(questions.at(-1)?.id ?? "") }).waitFor();
  return page;
}

/** Evaluates an expression in the page (text: this file is compiled without DOM types). */
const inPage = <T = unknown>(page: Page, expression: string) =>
  page.evaluate(expression) as Promise<T>;

/** The colours the charts are drawn in, and the theme's, as computed rgb() values. */
const CHART_COLOURS = `(() => {
  const theme = (name) => {
    const probe = document.createElement("span");
    probe.style.color = "var(" + name + ")";
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  };
  const drawn = (selector) => getComputedStyle(document.querySelector(selector));
  return {
    theme: { accent: theme("--accent"), muted: theme("--muted") },
    brierLine: drawn(".score-time-box .recharts-line-curve").stroke,
    brierDot: drawn(".score-time-box .recharts-line-dot").fill,
    calibrationDot: drawn(".calibration-points .recharts-symbols").fill,
    calibrationLine: drawn(".calibration-box .recharts-scatter-line path").stroke,
    calibrationLineFill: drawn(".calibration-box .recharts-scatter-line path").fill,
    tick: drawn(".calibration-box .recharts-cartesian-axis-tick-value").fill,
    axisTitle: drawn(".score-time-box .recharts-label").fill,
  };
})()`;

interface ChartColours {
  theme: { accent: string; muted: string };
  brierLine: string;
  brierDot: string;
  calibrationDot: string;
  calibrationLine: string;
  calibrationLineFill: string;
  tick: string;
  axisTitle: string;
}

/** How far each chart's drawing reaches past the right edge of its card, in pixels. */
const CHART_OVERHANG = `[...document.querySelectorAll(".chart-box svg")].map(
  (svg) => svg.getBoundingClientRect().right - svg.closest(".card").getBoundingClientRect().right,
)`;

describe("the Track record page", () => {
  it("draws months of scores and its calibration plot", async () => {
    const page = await trackRecord("light", 1280);
    await page
      .getByText(
        `Brier score of ${MODEL} by month: ${QUESTIONS - OPEN} binary forecasts in 6 months`,
      )
      .waitFor();
    expect(await page.locator(".score-time-box .recharts-line-dot").count()).toBe(6);
    await page.screenshot({ path: path.join(shots, "desktop-light.png"), fullPage: true });
  });

  for (const colorScheme of ["light", "dark"] as const) {
    for (const width of [375, 1280]) {
      it(`draws in the ${colorScheme} theme's colours at ${width} px, within the screen`, async () => {
        const page = await trackRecord(colorScheme, width);
        await page.screenshot({
          path: path.join(shots, `${colorScheme}-${width}.png`),
          fullPage: true,
        });
        await page
          .locator("section", {
            has: page.getByRole("heading", { name: "Scores of resolved forecasts" }),
          })
          .screenshot({ path: path.join(shots, `${colorScheme}-${width}-scores.png`) });
        expect(
          await inPage<number>(page, "document.documentElement.scrollWidth - window.innerWidth"),
        ).toBeLessThanOrEqual(0);
        const overhangs = await inPage<number[]>(page, CHART_OVERHANG);
        expect(overhangs).toHaveLength(2);
        for (const overhang of overhangs) expect(overhang).toBeLessThanOrEqual(0);

        const colours = await inPage<ChartColours>(page, CHART_COLOURS);
        const { accent, muted } = colours.theme;
        expect(colours).toEqual({
          theme: colours.theme,
          brierLine: accent,
          brierDot: accent,
          calibrationDot: accent,
          calibrationLine: accent,
          // The line joining the bins is a line: filled, it covered the plot in one shape.
          calibrationLineFill: "none",
          tick: muted,
          axisTitle: muted,
        });
        expect(accent).toBe(colorScheme === "dark" ? "rgb(138, 164, 255)" : "rgb(47, 79, 199)");
      });
    }
  }

  it("wraps long model names and question ids on a phone, so scores and texts start on screen", async () => {
    const page = await trackRecord("light", 375);
    const screen = 375;
    const scoreCell = page
      .getByRole("table", { name: "Scores by Model" })
      .getByRole("row", { name: new RegExp(MODEL) })
      .locator("td")
      .first();
    const textCell = page
      .getByRole("row", { name: new RegExp(questions.at(-1)?.id ?? "") })
      .locator("td")
      .first();
    for (const cell of [scoreCell, textCell]) {
      const box = await cell.boundingBox();
      expect(box?.x ?? screen).toBeLessThan(screen / 2);
    }
  });
});
