import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignInLinks } from "../../src/auth/sign-in-links.js";
import { evalRun, fixture, readSummary } from "../evaluation/support/backtest-cli.js";
import { watchedBrowser } from "../support/browser.js";
import { BUILT_DASHBOARD } from "../support/builds.js";
import { startTestServer, type TestServer } from "../support/server.js";

const MODEL = "sibyl-baseline";
const KEY_STORAGE = "sibyl.dashboard.api_key";

let server: TestServer;
let shots: string;
/** Every page of every test: nothing the CSP blocked, no script error. */
const { open } = watchedBrowser();

beforeAll(async () => {
  server = await startTestServer({
    app: { dashboard: { dir: BUILT_DASHBOARD } },
    worker: true,
    config: {
      models: [
        {
          id: MODEL,
          provider: "baseline",
          pricing: { prompt: "0.000001", completion: "0.000002" },
        },
      ],
    },
  });
  shots = mkdtempSync(path.join(tmpdir(), "sibyl-dashboard-shots-"));
}, 120_000);

afterAll(async () => {
  await server?.close();
  process.stdout.write(`dashboard screenshots: ${shots}\n`);
});

async function signIn(page: Page, apiKey: string): Promise<void> {
  await page.goto(`${server.url}/dashboard/`);
  await page.getByLabel("API key").fill(apiKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
}

/** Evaluates an expression in the page (written as text: this file is compiled without DOM types). */
const inPage = <T = unknown>(page: Page, expression: string) =>
  page.evaluate(expression) as Promise<T>;

const nav = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name });

const api = (apiKey: string, route: string, init: RequestInit = {}) =>
  fetch(`${server.url}${route}`, {
    ...init,
    headers: { authorization: `Bearer ${apiKey}`, ...(init.headers ?? {}) },
  });

describe("the dashboard in headless Chromium", () => {
  it("signs in with a key kept in session storage only, shows the balance, and signs out", async () => {
    const org = await server.createOrg("12.5");
    const page = await open();
    await signIn(page, org.apiKey);
    await expect(page.getByTestId("balance").textContent()).resolves.toBe("$12.50");
    expect(page.url()).not.toContain(org.apiKey);
    expect(await inPage(page, `sessionStorage.getItem("${KEY_STORAGE}")`)).toBe(org.apiKey);
    expect(await inPage(page, "localStorage.length")).toBe(0);
    expect((await page.context().cookies()).length).toBe(0);

    // A reload keeps the session; a client-side route reloads to the same page.
    await nav(page, "Usage").click();
    await page.getByRole("heading", { level: 1, name: "Usage" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/dashboard/usage");
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Usage" }).waitFor();

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("API key").waitFor();
    expect(await inPage(page, "sessionStorage.length")).toBe(0);
    await page.reload();
    await page.getByLabel("API key").waitFor();
  });

  it("refuses a wrong key with the server's message", async () => {
    const page = await open();
    await page.goto(`${server.url}/dashboard/`);
    await page.getByLabel("API key").fill(`sk_${"x".repeat(43)}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toContain("Invalid or revoked");
    expect(await inPage(page, "sessionStorage.length")).toBe(0);
  });

  it("creates a key whose secret is shown once and copyable, then revokes it", async () => {
    const org = await server.createOrg("1");
    const page = await open();
    await signIn(page, org.apiKey);
    await nav(page, "API keys").click();
    await page.getByLabel("Name").fill("ci-runner");
    await page.getByLabel("Scope").selectOption("inference");
    await page.getByLabel("Spend limit in USD (optional)").fill("2.5");
    await page.getByRole("button", { name: "Create key" }).click();

    const secretField = page.getByLabel("Secret key", { exact: true });
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^sk_/);
    expect((await api(secret, "/v1/balance")).status).toBe(200);
    await page.getByRole("button", { name: "Copy the new secret key" }).click();
    await page.getByText("Copied", { exact: true }).waitFor();
    expect(await inPage(page, "navigator.clipboard.readText()")).toBe(secret);

    const row = page.getByRole("row", { name: /ci-runner/ });
    await expect(row.getByText("inference").count()).resolves.toBe(1);
    await expect(row.getByText("$2.50").count()).resolves.toBe(1);
    await page.getByRole("button", { name: "I have saved it" }).click();
    await expect(page.getByLabel("Secret key", { exact: true }).count()).resolves.toBe(0);
    expect(await page.content()).not.toContain(secret);

    await page.getByRole("button", { name: "Revoke key ci-runner" }).click();
    await page.getByRole("button", { name: "Yes, revoke" }).click();
    await page.getByText("Key ci-runner is revoked.").waitFor();
    await row.getByText(/^revoked /).waitFor();
    expect((await api(secret, "/v1/balance")).status).toBe(401);
  });

  it("explains that an inference key cannot manage keys", async () => {
    const org = await server.createOrg("1");
    const created = (await (
      await api(org.apiKey, "/v1/organization/api_keys", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "bot", scope: "inference" }),
      })
    ).json()) as { value: string };
    const page = await open();
    await signIn(page, created.value);
    await nav(page, "API keys").click();
    await page.getByText("needs a key with the admin scope", { exact: false }).waitFor();
    await expect(page.getByRole("button", { name: "Create key" }).count()).resolves.toBe(0);
  });

  it("runs a playground completion and shows its answer and cost, which usage then lists", async () => {
    const org = await server.createOrg("5");
    const page = await open();
    await signIn(page, org.apiKey);
    await nav(page, "Playground").click();
    await page.getByLabel("Model").selectOption(MODEL);
    await page.getByLabel("Answer type").selectOption("binary");
    await page.getByLabel("Prediction date and research cutoff (optional)").fill("2025-03-01");
    await page
      .getByRole("textbox", { name: "Question" })
      .fill("Will the city council approve the budget by June?");
    await page.getByRole("button", { name: "Send" }).click();

    const parsed = page.getByTestId("parsed-answer");
    await parsed.waitFor();
    const answer = Number(await parsed.locator("code").textContent());
    expect(answer).toBeGreaterThan(0);
    expect(answer).toBeLessThan(1);
    const cost = await page.getByTestId("answer-cost").textContent();
    expect(cost).toMatch(/^\$0\.0\d*[1-9]\d*$/);

    await nav(page, "Usage").click();
    const usageRow = page.getByRole("row", { name: new RegExp(MODEL) }).first();
    await usageRow.waitFor();
    const cells = await usageRow.locator("td").allTextContents();
    expect(cells.at(-1)).toBe(cost);
    expect(cells[3]).toBe("1");

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const csv = readFileSync(await (await download).path(), "utf8");
    const [header, line] = csv.trim().split("\r\n");
    expect(header).toBe("day,model,api_key,requests,input_tokens,output_tokens,cost_usd");
    expect(line).toContain(`,${MODEL},`);
  });

  it("shows a batch finish and downloads its output with the key", async () => {
    const org = await server.createOrg("5");
    const form = new FormData();
    const line = {
      custom_id: "q1",
      method: "POST",
      url: "/v1/chat/completions",
      body: { model: MODEL, messages: [{ role: "user", content: "Will it rain?" }] },
    };
    form.append("purpose", "batch");
    form.append("file", new Blob([`${JSON.stringify(line)}\n`]), "input.jsonl");
    const upload = await api(org.apiKey, "/v1/files", { method: "POST", body: form });
    const file = (await upload.json()) as { id: string };
    const batch = (await (
      await api(org.apiKey, "/v1/batches", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          input_file_id: file.id,
          endpoint: "/v1/chat/completions",
          completion_window: "24h",
        }),
      })
    ).json()) as { id: string };

    const page = await open();
    await signIn(page, org.apiKey);
    await nav(page, "Batches").click();
    const row = page.getByRole("row", { name: new RegExp(batch.id) });
    await row.getByText("completed").waitFor({ timeout: 20_000 });
    await row.getByText("1 of 1 done").waitFor();
    // The line's charge, as the API reports it.
    const costed = (await (await api(org.apiKey, `/v1/batches/${batch.id}`)).json()) as {
      cost_usd: number;
    };
    expect(costed.cost_usd).toBeGreaterThan(0);
    await expect(page.getByTestId(`cost-${batch.id}`).textContent()).resolves.toBe(
      dollars(costed.cost_usd),
    );

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: `Download the output of batch ${batch.id}` }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe(`${batch.id}_output.jsonl`);
    const output = JSON.parse(readFileSync(await saved.path(), "utf8").trim());
    expect(output.custom_id).toBe("q1");
    expect(output.response.status_code).toBe(200);

    await nav(page, "Files").click();
    await page.getByRole("row", { name: /input\.jsonl/ }).waitFor();
  });

  it("edits a key's spend limit, and removes it", async () => {
    const org = await server.createOrg("1");
    const created = (await (
      await api(org.apiKey, "/v1/organization/api_keys", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "bot", spend_limit_usd: 2 }),
      })
    ).json()) as { id: string };
    const limitOf = async () =>
      (
        (await (await api(org.apiKey, `/v1/organization/api_keys/${created.id}`)).json()) as {
          spend_limit_usd: number | null;
        }
      ).spend_limit_usd;

    const page = await open();
    await signIn(page, org.apiKey);
    await nav(page, "API keys").click();
    const row = page.getByRole("row", { name: /bot/ });
    await row.getByText("$2.00").waitFor();
    await page.getByRole("button", { name: "Edit the spend limit of key bot" }).click();
    const field = page.getByLabel("New limit in USD for key bot");
    expect(await inPage(page, "document.activeElement?.id")).toBe(await field.getAttribute("id"));
    await field.fill("7.5");
    await page.keyboard.press("Enter");
    await page.getByText("Key bot may now spend up to $7.50 in all.").waitFor();
    await row.getByText("$7.50").waitFor();
    expect(await limitOf()).toBe(7.5);

    await page.getByRole("button", { name: "Edit the spend limit of key bot" }).click();
    await page.getByRole("button", { name: "Remove limit" }).click();
    await page.getByText("Key bot has no spend limit now.").waitFor();
    await row.getByText("none").waitFor();
    expect(await limitOf()).toBeNull();
  });

  it("pages through the ledger's charges and top-ups, and filters them by kind", async () => {
    const org = await server.createOrg("3");
    for (let i = 0; i < 26; i++) {
      await api(org.apiKey, "/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: MODEL, messages: [{ role: "user", content: `Q${i}?` }] }),
      });
    }
    const page = await open();
    await signIn(page, org.apiKey);
    await nav(page, "Ledger").click();
    const table = page.getByRole("table");
    await table.getByText("charge").first().waitFor();
    expect(await table.getByRole("row").count()).toBe(26);
    expect(await table.getByText("top-up").count()).toBe(0);
    await expect(page.getByRole("button", { name: "Newer entries" }).isDisabled()).resolves.toBe(
      true,
    );

    await page.getByRole("button", { name: "Older entries" }).click();
    await page.getByText("Page 2").waitFor();
    const topUp = page.getByRole("row", { name: /top-up/ });
    await topUp.waitFor();
    await topUp.getByText("+$3.00").waitFor();
    // While page 1 is on its way, page 2's entries are not shown as page 1's.
    await page.route("**/v1/organization/ledger*", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue();
    });
    await page.getByRole("button", { name: "Newer entries" }).click();
    await page.getByText("Loading the ledger…").waitFor();
    expect(await table.getByRole("row").count()).toBe(0);
    await page.getByText("Page 1").waitFor();
    await page.unrouteAll();
    expect(await table.getByRole("row").count()).toBe(26);

    await page.getByLabel("Show").selectOption("topup");
    await page.getByRole("row", { name: /top-up/ }).waitFor();
    expect(await page.getByRole("table").getByRole("row").count()).toBe(2);
  });

  it("lists a backtest that sibyl eval run kept on the server, with its scores and report", async () => {
    const org = await server.createOrg("2");
    const out = path.join(shots, "backtest");
    const run = await evalRun(
      {
        questions: fixture("questions.jsonl"),
        models: [MODEL],
        baseUrl: server.url,
        out,
      },
      org.apiKey,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).evaluation_file_id).toMatch(/^file-/);
    const summary = readSummary(out);
    const scores = summary.models[MODEL];

    const page = await open();
    await signIn(page, org.apiKey);
    await nav(page, "Evaluations").click();
    const row = page.getByRole("row", { name: new RegExp(summary.question_set.name) });
    await row.waitFor();
    const cells = await row.locator("td").allTextContents();
    expect(cells[0]).toBe(MODEL);
    expect(cells.slice(2, 6)).toEqual([
      String(summary.question_set.questions),
      scores?.pooled_brier?.toFixed(4),
      scores?.log_score?.toFixed(4),
      `${((scores?.parse_rate ?? 0) * 100).toFixed(1)}%`,
    ]);

    await row.getByRole("button", { name: /Open the report/ }).click();
    await page.getByRole("heading", { name: `Report: ${summary.question_set.name}` }).waitFor();
    const plot = page.getByRole("img", { name: /Calibration plot/ });
    await plot.waitFor();
    await expect
      .poll(() =>
        plot.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBeGreaterThan(0);
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download report.html" }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe("report.html");
    expect(readFileSync(await saved.path(), "utf8")).toBe(
      readFileSync(path.join(out, "report.html"), "utf8"),
    );
  });

  it("shows the track record: scores of resolved forecasts, their calibration and every question", async () => {
    const org = await server.createOrg("5");
    const questions = [
      { id: "bridge-reopens", text: "Will the bridge reopen by May?", outcome: 1 },
      { id: "budget-passes", text: "Will the council pass the budget?", outcome: 0 },
      { id: "rain-in-july", text: "Will July be wetter than June?", outcome: null },
    ];
    for (const question of questions) {
      const forecast = await api(org.apiKey, "/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          model: MODEL,
          messages: [{ role: "user", content: question.text }],
          answer_type: "binary",
          question_id: question.id,
          prediction_date: "2025-03-01",
        }),
      });
      expect(forecast.status).toBe(200);
      if (question.outcome === null) continue;
      const resolution = await api(
        org.apiKey,
        `/v1/questions/${encodeURIComponent(question.id)}/resolution`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ outcome: question.outcome, resolved_at: "2025-06-01" }),
        },
      );
      expect(resolution.status).toBe(200);
    }

    const page = await open();
    await signIn(page, org.apiKey);
    await nav(page, "Track record").click();
    await page.getByRole("heading", { level: 1, name: "Track record" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/dashboard/track-record");

    // Two resolved binary forecasts are scored; the open one is not.
    const scoreRow = page
      .getByRole("table", { name: "Scores by Model" })
      .getByRole("row", { name: new RegExp(MODEL) });
    await scoreRow.waitFor();
    const scoreCells = await scoreRow.locator("td").allTextContents();
    expect(scoreCells[0]).toBe("2");
    expect(Number(scoreCells[1])).toBeGreaterThan(0);
    expect(Number(scoreCells[2])).toBeLessThan(0);
    await page.getByRole("img", { name: new RegExp(`Calibration plot of ${MODEL}`) }).waitFor();
    expect(
      await page.locator(".calibration-points path, .calibration-points .recharts-symbols").count(),
    ).toBeGreaterThan(0);

    // Every forecast was made on one day: the score over time is drawn by week, one point.
    await page
      .getByRole("img", { name: new RegExp(`Brier score of ${MODEL} by week of prediction date`) })
      .waitFor();
    await page.getByText(`Brier score of ${MODEL} by week: 2 binary forecasts in 1 week`).waitFor();
    expect(await page.locator(".score-time-n path, .score-time-n rect").count()).toBe(1);
    expect(await page.locator(".score-time-box .recharts-line-dot").count()).toBe(1);
    await page.screenshot({ path: path.join(shots, "track-record-scores.png"), fullPage: true });

    for (const question of questions) {
      const row = page.getByRole("row", { name: new RegExp(question.id) });
      const cells = await row.locator("td").allTextContents();
      const detail = (await (
        await api(org.apiKey, `/v1/questions/${encodeURIComponent(question.id)}`)
      ).json()) as { forecasts: { answer: number; scores: { brier: number } | null }[] };
      const forecast = detail.forecasts[0];
      expect(cells).toEqual([
        question.text,
        "binary",
        question.outcome === null ? "open" : "resolved",
        question.outcome === null ? "–" : String(question.outcome),
        // The latest forecast: its answer, the model under it, and its Brier once resolved.
        `${((forecast?.answer ?? Number.NaN) * 100).toFixed(1)}% probability${MODEL}`,
        question.outcome === null ? "–" : (forecast?.scores?.brier ?? Number.NaN).toFixed(4),
        "1",
      ]);
    }

    // Grouped by tag: these questions have none, so nothing is scored.
    await page.getByLabel("Group by").selectOption("tag");
    await page.getByText("No resolved forecasts yet.").waitFor();
  });

  it("signs in from a one-time link, which then works no more", async () => {
    const org = await server.createOrg("7");
    const { services } = server;
    const links = new SignInLinks(
      services.database.db,
      services.clock,
      services.organizations,
      services.apiKeys,
    );
    const link = await links.create(org.organizationId);
    const page = await open();
    await page.goto(`${server.url}/dashboard/#sign-in=${link.token}`);
    const shown = page.getByLabel("Your new API key");
    await shown.waitFor();
    expect(page.url()).toBe(`${server.url}/dashboard/`);
    const key = await shown.inputValue();
    expect(await inPage(page, `sessionStorage.getItem("${KEY_STORAGE}")`)).toBe(key);
    await page.getByRole("button", { name: "Continue to the dashboard" }).click();
    await expect(page.getByTestId("balance").textContent()).resolves.toBe("$7.00");
    const balanceWithKey = () =>
      fetch(`${server.url}/v1/balance`, { headers: { authorization: `Bearer ${key}` } });
    expect((await balanceWithKey()).status).toBe(200);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("API key").waitFor();
    // Signing out revokes the key the link made, so a copy left anywhere stops working.
    await expect.poll(async () => (await balanceWithKey()).status).toBe(401);

    const again = await open();
    await again.goto(`${server.url}/dashboard/#sign-in=${link.token}`);
    await again.getByText("already used", { exact: false }).waitFor();
    await again.getByLabel("API key").waitFor();
    expect(again.url()).toBe(`${server.url}/dashboard/`);
    expect(await inPage(again, "sessionStorage.length")).toBe(0);
  });

  it("reaches the main controls with the keyboard alone, with a visible focus", async () => {
    const org = await server.createOrg("1");
    const page = await open();
    await page.goto(`${server.url}/dashboard/`);
    // React renders after the load event: Tab before the form exists would focus nothing.
    await page.locator("#api-key").waitFor();
    await page.keyboard.press("Tab");
    expect(await inPage(page, "document.activeElement?.id")).toBe("api-key");
    await page.keyboard.type(org.apiKey);
    await page.keyboard.press("Enter");
    await page.getByTestId("balance").waitFor();

    const reached: string[] = [];
    for (let step = 0; step < 12; step++) {
      await page.keyboard.press("Tab");
      reached.push(
        await inPage<string>(
          page,
          `(() => {
            const active = document.activeElement;
            const outline = active ? getComputedStyle(active).outlineStyle : "none";
            return (active?.textContent ?? "").trim() + "|" + outline;
          })()`,
        ),
      );
    }
    for (const name of ["Skip to content", "Overview", "API keys", "Playground", "Sign out"]) {
      const entry = reached.find((text) => text.startsWith(`${name}|`));
      expect(entry, name).toBeDefined();
      expect(entry?.endsWith("|none"), `${name} shows no focus`).toBe(false);
    }

    // Enter on a link changes the page and moves focus to its title.
    await page.getByRole("link", { name: "API keys" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
    expect(await inPage(page, "document.activeElement?.tagName")).toBe("H1");
    await page.getByLabel("Name").focus();
    await page.keyboard.type("keyboard key");
    await page.keyboard.press("Enter");
    await page.getByLabel("Secret key", { exact: true }).waitFor();
  });

  it("draws every page in light and dark, at desktop and phone width", async () => {
    const org = await server.createOrg("25");
    await api(org.apiKey, "/v1/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: MODEL,
        messages: [{ role: "user", content: "Will the bridge reopen this year?" }],
        answer_type: "binary",
        // Resolved below, so the track record draws its scores and calibration plot.
        question_id: "bridge-this-year",
        prediction_date: "2025-03-01",
      }),
    });
    await api(org.apiKey, "/v1/questions/bridge-this-year/resolution", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ outcome: 1, resolved_at: "2025-06-01" }),
    });
    const views = [
      { name: "desktop", width: 1280, height: 900 },
      { name: "phone", width: 375, height: 812 },
    ];
    for (const colorScheme of ["light", "dark"] as const) {
      for (const view of views) {
        const page = await open({ colorScheme, width: view.width, height: view.height });
        await signIn(page, org.apiKey);
        await page.locator(".chart-box svg").waitFor();
        expect(await page.locator(".chart-bar path, .chart-bar rect").count()).toBeGreaterThan(0);
        for (const route of [
          "overview",
          "keys",
          "usage",
          "ledger",
          "batches",
          "reports",
          "track-record",
          "playground",
        ]) {
          if (route !== "overview") {
            await nav(page, NAV_LABELS[route] ?? capitalized(route)).click();
            await page.waitForLoadState("networkidle");
          }
          // Nothing is wider than the screen: tables scroll inside their own box.
          const overflow = await inPage<number>(
            page,
            "document.documentElement.scrollWidth - window.innerWidth",
          );
          expect(overflow, `${route} ${view.name}`).toBeLessThanOrEqual(0);
          await page.screenshot({
            path: path.join(shots, `${route}-${view.name}-${colorScheme}.png`),
            fullPage: true,
          });
        }
      }
    }
  }, 120_000);
});

const capitalized = (text: string) => `${text[0]?.toUpperCase()}${text.slice(1)}`;

const NAV_LABELS: Record<string, string> = {
  keys: "API keys",
  reports: "Evaluations",
  "track-record": "Track record",
};

const dollarFormat = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 6,
});

/** Dollars as the dashboard shows them. */
const dollars = (usd: number) => dollarFormat.format(usd);
