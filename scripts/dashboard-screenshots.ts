/**
 * Takes the README's screenshots of the dashboard: starts Sibyl on loopback over a throw-away
 * data directory, gives one organization four weeks of activity through the real API (the clock
 * is moved back while it does) and a backtest, then signs in with headless Chromium and saves
 * the main pages to docs/screenshots/.
 *
 * Run: npm run build && npm run screenshots
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { stringify } from "yaml";
import { buildApp } from "../src/app.js";
import { createBatchWorker } from "../src/cli/worker.js";
import { loadConfig } from "../src/config/index.js";
import { runBacktest } from "../src/evaluation/run/backtest.js";
import { BUILT_DASHBOARD_DIR } from "../src/http/dashboard-assets.js";
import { createServices, type Services } from "../src/services.js";
import type { Clock } from "../src/util/clock.js";
import { usdToNanos } from "../src/util/money.js";

const CHROMIUM = "/usr/bin/chromium";
const OUT_DIR = fileURLToPath(new URL("../docs/screenshots/", import.meta.url));
/** A small ForecastBench question set and its resolutions, from the backtest tests. */
const FORECASTBENCH = fileURLToPath(new URL("../test/evaluation/fixtures/", import.meta.url));
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Two priced models on the built-in baseline provider, so every request has a visible cost. */
const MODELS = [
  {
    id: "sibyl-baseline",
    provider: "baseline",
    name: "Sibyl baseline",
    pricing: { prompt: "0.000005", completion: "0.00002" },
  },
  {
    id: "sibyl-baseline-xl",
    provider: "baseline",
    name: "Sibyl baseline XL",
    pricing: { prompt: "0.00003", completion: "0.00012" },
  },
];

const QUESTIONS = [
  { answer_type: "binary", text: "Will the ECB cut its deposit rate at its next meeting?" },
  { answer_type: "binary", text: "Will the city council approve the 2026 budget by June 30?" },
  {
    answer_type: "continuous",
    text: "What will the 30-day average price of Brent crude be at the end of the quarter, in USD?",
  },
  {
    answer_type: "multiple_choice",
    text: "Which party will win the most seats in the next state election?\nA) Greens\nB) Social Democrats\nC) Conservatives\nD) Another party",
  },
  { answer_type: "binary", text: "Will the bridge on Route 9 reopen to traffic before winter?" },
  {
    answer_type: "continuous",
    text: "How many named Atlantic storms will form this hurricane season?",
  },
  { answer_type: "free_response", text: "Who is most likely to be appointed as the next CEO?" },
];

/** What the organization's forecasting tools send before each question. */
const INSTRUCTIONS =
  "You forecast for the planning team of a logistics company. Start from the base rate of " +
  "comparable events, then adjust for the specifics of the question. State your reasoning " +
  "briefly, name the main uncertainty, and end with a calibrated answer in the requested " +
  "format. Prefer well-sourced figures and say when the evidence is thin.";

/** Days of history before today, about the span of the overview's spend chart. */
const HISTORY_DAYS = 27;
const LAPTOP_REVOKED_DAYS_AGO = 9;

/** The system clock shifted into the past while the history is written. */
class ShiftedClock implements Clock {
  private at: number | null = null;
  now(): number {
    return this.at ?? Date.now();
  }
  set(ms: number | null): void {
    this.at = ms;
  }
}

interface Sibyl {
  url: string;
  services: Services;
  clock: ShiftedClock;
  close(): Promise<void>;
}

const reportToStderr = (details: object, message: string) =>
  process.stderr.write(`batch worker: ${message} ${JSON.stringify(details)}\n`);
const batchWorkerLog = { error: reportToStderr, warn: reportToStderr };

async function startSibyl(): Promise<Sibyl> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "sibyl-screenshots-"));
  const file = path.join(dataDir, "sibyl.yaml");
  writeFileSync(file, stringify({ models: MODELS, limits: { requests_per_minute: 1000 } }));
  const config = loadConfig({ file, env: { SIBYL_DATA_DIR: dataDir }, cwd: dataDir });
  const clock = new ShiftedClock();
  const services = await createServices(config, { clock });
  const app = await buildApp(services, { logger: false, dashboard: { dir: BUILT_DASHBOARD_DIR } });
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  const worker = createBatchWorker(services, batchWorkerLog, { pollMs: 50 });
  return {
    url,
    services,
    clock,
    close: async () => {
      await worker.stop();
      await app.close();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A JSON call to the API; any refusal stops the script with the server's answer. */
async function call<T>(sibyl: Sibyl, key: string, route: string, init: RequestInit = {}) {
  const response = await fetch(`${sibyl.url}${route}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, ...(init.headers ?? {}) },
  });
  if (!response.ok) {
    throw new Error(
      `${init.method ?? "GET"} ${route}: ${response.status} ${await response.text()}`,
    );
  }
  return (await response.json()) as T;
}

const post = <T>(sibyl: Sibyl, key: string, route: string, body: unknown) =>
  call<T>(sibyl, key, route, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** Start of the UTC day `daysAgo` days before today, in milliseconds. */
const utcDay = (daysAgo: number) => Math.floor(Date.now() / DAY_MS - daysAgo) * DAY_MS;

/** An organization with four weeks of completions on both models from three keys, and batches. */
async function generateActivity(sibyl: Sibyl): Promise<string> {
  const { services, clock } = sibyl;
  clock.set(utcDay(HISTORY_DAYS) + 8 * HOUR_MS);
  const organization = await services.organizations.create("Northwind Forecasting");
  const admin = await services.apiKeys.issue(organization.id, undefined, { name: "ops-admin" });
  await services.ledger.credit(organization.id, usdToNanos("50"), "topup");
  clock.set(utcDay(HISTORY_DAYS) + 9 * HOUR_MS);
  const bot = await createKey(sibyl, admin.api_key, { name: "forecast-bot", spend_limit_usd: 20 });
  const laptop = await createKey(sibyl, admin.api_key, { name: "old-laptop" });

  let asked = 0;
  for (let daysAgo = HISTORY_DAYS; daysAgo >= 0; daysAgo--) {
    if (daysAgo === LAPTOP_REVOKED_DAYS_AGO) {
      clock.set(utcDay(daysAgo) + 8 * HOUR_MS);
      await call(sibyl, admin.api_key, `/v1/organization/api_keys/${laptop.id}`, {
        method: "DELETE",
      });
    }
    const keys = [
      bot.value,
      bot.value,
      admin.api_key,
      daysAgo > LAPTOP_REVOKED_DAYS_AGO ? laptop.value : bot.value,
    ];
    const times = requestTimes(daysAgo, requestsOn(daysAgo));
    for (const at of times) {
      clock.set(at);
      const question = QUESTIONS[asked % QUESTIONS.length] ?? { answer_type: "binary", text: "" };
      await post(sibyl, keys[asked % keys.length] ?? bot.value, "/v1/chat/completions", {
        model: MODELS[asked % 3 === 0 ? 1 : 0]?.id,
        messages: [
          { role: "system", content: INSTRUCTIONS },
          { role: "user", content: question.text },
        ],
        answer_type: question.answer_type,
      });
      asked++;
    }
    if (daysAgo === 5 || daysAgo === 0) {
      clock.set((times.at(-1) ?? utcDay(daysAgo)) + 60_000);
      await runBatch(sibyl, admin.api_key, daysAgo === 0 ? 5 : 12);
    }
  }
  clock.set(null);
  await backtest(sibyl, admin.api_key);
  return admin.api_key;
}

/** A backtest of both models, which `sibyl eval run` keeps on the server for the dashboard. */
async function backtest(sibyl: Sibyl, key: string): Promise<void> {
  const outDir = mkdtempSync(path.join(tmpdir(), "sibyl-screenshots-backtest-"));
  try {
    const { evaluationFileId } = await runBacktest({
      questionsFile: path.join(FORECASTBENCH, "2026-07-05-llm.json"),
      resolutionsFile: path.join(FORECASTBENCH, "2026-07-05_resolution_set.json"),
      models: MODELS.map((model) => model.id),
      baseUrl: sibyl.url,
      apiKey: key,
      research: false,
      samples: 1,
      aggregate: "median",
      limit: null,
      outDir,
      pollMs: 200,
      organization: "Northwind Forecasting",
      knowledgeCutoffs: new Map(),
      upload: true,
      progress: { tty: false, write: () => undefined, line: () => undefined },
      log: (line) => process.stderr.write(`${line}\n`),
    });
    if (evaluationFileId === null) throw new Error("the backtest was not kept on the server");
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

const createKey = (sibyl: Sibyl, admin: string, terms: Record<string, unknown>) =>
  post<{ id: string; value: string }>(sibyl, admin, "/v1/organization/api_keys", {
    scope: "inference",
    ...terms,
  });

/** A working rhythm: busy weekdays, quiet weekends, varying from day to day. */
function requestsOn(daysAgo: number): number {
  const weekday = new Date(utcDay(daysAgo)).getUTCDay();
  if (weekday === 0 || weekday === 6) return 2 + (daysAgo % 4);
  return 14 + ((daysAgo * 7) % 19);
}

/** Spread over the working day; today's end before now, whatever the hour. */
function requestTimes(daysAgo: number, requests: number): number[] {
  const start = utcDay(daysAgo) + (daysAgo === 0 ? 0 : 8 * HOUR_MS);
  const span = daysAgo === 0 ? Date.now() - start - 5 * 60_000 : 10 * HOUR_MS;
  const step = Math.max(span, 0) / (requests + 1);
  return Array.from({ length: requests }, (_, index) => Math.round(start + (index + 1) * step));
}

/** Uploads `lines` questions as a batch file and waits until the batch worker has run them all. */
async function runBatch(sibyl: Sibyl, key: string, lines: number): Promise<void> {
  const body = Array.from({ length: lines }, (_, index) => {
    const question = QUESTIONS[index % QUESTIONS.length] ?? { answer_type: "binary", text: "" };
    return JSON.stringify({
      custom_id: `question-${index + 1}`,
      method: "POST",
      url: "/v1/chat/completions",
      body: {
        model: "sibyl-baseline",
        messages: [{ role: "user", content: question.text }],
        answer_type: question.answer_type,
      },
    });
  });
  const form = new FormData();
  form.append("purpose", "batch");
  form.append("file", new Blob([`${body.join("\n")}\n`]), `questions-${lines}.jsonl`);
  const file = await call<{ id: string }>(sibyl, key, "/v1/files", { method: "POST", body: form });
  const batch = await post<{ id: string }>(sibyl, key, "/v1/batches", {
    input_file_id: file.id,
    endpoint: "/v1/chat/completions",
    completion_window: "24h",
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const seen = await call<{ status: string }>(sibyl, key, `/v1/batches/${batch.id}`);
    if (seen.status === "completed") return;
    if (seen.status === "failed" || seen.status === "expired" || Date.now() > deadline) {
      throw new Error(`batch ${batch.id} did not complete: ${seen.status}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Script errors and failed loads each page logged: a picture of a broken page is no use. */
const scriptErrors = new WeakMap<Page, string[]>();

async function openPage(
  browser: Browser,
  url: string,
  key: string,
  view: { width: number; height: number },
  colorScheme: "light" | "dark",
): Promise<Page> {
  const context = await browser.newContext({
    viewport: view,
    colorScheme,
    locale: "en-US",
    timezoneId: "UTC",
  });
  const page = await context.newPage();
  const seen: string[] = [];
  page.on("pageerror", (error) => seen.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") seen.push(message.text());
  });
  scriptErrors.set(page, seen);
  await page.goto(`${url}/dashboard/`);
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
  await page.locator(".chart-bar path, .chart-bar rect").first().waitFor();
  await page.getByRole("heading", { name: "Top models" }).waitFor();
  return page;
}

const navTo = async (page: Page, link: string, title: string) => {
  await page
    .getByRole("navigation", { name: "Dashboard" })
    .getByRole("link", { name: link })
    .click();
  await page.getByRole("heading", { level: 1, name: title }).waitFor();
};

async function shoot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  const errors = [
    ...(scriptErrors.get(page) ?? []),
    ...(await page.locator(".notice-error").allTextContents()),
  ];
  if (errors.length > 0) throw new Error(`${name} shows an error: ${errors.join("; ")}`);
  // The heading took focus on navigation; its outline is not part of the picture.
  await page.evaluate("document.activeElement && document.activeElement.blur()");
  const file = path.join(OUT_DIR, `${name}.png`);
  await page.screenshot({ path: file, animations: "disabled", ...options });
  process.stdout.write(`${path.relative(process.cwd(), file)} (${statSync(file).size} bytes)\n`);
}

async function takeScreenshots(browser: Browser, url: string, key: string): Promise<void> {
  // The overviews first: the playground's question below spends from the balance they show.
  const dark = await openPage(browser, url, key, DESKTOP, "dark");
  await shoot(dark, "overview-dark");
  await navTo(dark, "Evaluations", "Evaluations");
  await dark
    .getByRole("button", { name: /Open the report/ })
    .first()
    .click();
  await dark.getByRole("img", { name: /Calibration plot/ }).waitFor();
  await shoot(dark, "evaluations-dark", { fullPage: true });
  await dark.context().close();

  const phone = await openPage(browser, url, key, PHONE, "light");
  await shoot(phone, "overview-phone");
  await phone.context().close();

  const page = await openPage(browser, url, key, DESKTOP, "light");
  await shoot(page, "overview");

  await navTo(page, "API keys", "API keys");
  await page.getByRole("row", { name: /forecast-bot/ }).waitFor();
  await shoot(page, "keys");

  await page.getByRole("button", { name: "Edit the spend limit of key forecast-bot" }).click();
  await page.getByLabel("New limit in USD for key forecast-bot").fill("35");
  await shoot(page, "keys-limit");
  await page.getByRole("button", { name: "Cancel" }).click();

  await navTo(page, "Usage", "Usage");
  await page.locator("tfoot").waitFor();
  await shoot(page, "usage");

  await navTo(page, "Ledger", "Ledger");
  await page
    .getByRole("row", { name: /charge/ })
    .first()
    .waitFor();
  await shoot(page, "ledger");

  await navTo(page, "Batches", "Batches");
  await page.getByText("12 of 12 done").waitFor();
  await page.getByText("5 of 5 done").waitFor();
  await shoot(page, "batches");

  await navTo(page, "Evaluations", "Evaluations");
  await page
    .getByRole("button", { name: /Open the report/ })
    .first()
    .click();
  await page.getByRole("img", { name: /Calibration plot/ }).waitFor();
  await shoot(page, "evaluations", { fullPage: true });

  await navTo(page, "Playground", "Playground");
  await page
    .getByRole("textbox", { name: "Question" })
    .fill("Will the city council approve the 2026 budget by June 30?");
  await page.getByLabel("Model").selectOption("sibyl-baseline-xl");
  await page.getByLabel("Answer type").selectOption("binary");
  await page.getByLabel("Prediction date (optional)").fill(new Date().toISOString().slice(0, 10));
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByTestId("answer-cost").waitFor();
  await shoot(page, "playground");
  await page.context().close();
}

async function main(): Promise<void> {
  if (!existsSync(path.join(BUILT_DASHBOARD_DIR, "index.html"))) {
    throw new Error(`no dashboard build in ${BUILT_DASHBOARD_DIR}: run npm run build first`);
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is needed at ${CHROMIUM} (Debian: apt-get install chromium)`);
  }
  mkdirSync(OUT_DIR, { recursive: true });
  const sibyl = await startSibyl();
  let browser: Browser | null = null;
  try {
    const key = await generateActivity(sibyl);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox"],
    });
    await takeScreenshots(browser, sibyl.url, key);
  } finally {
    await browser?.close();
    await sibyl.close();
  }
}

await main();
