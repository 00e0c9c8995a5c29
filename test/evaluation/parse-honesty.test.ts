import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BatchServer, startBatchServer } from "../batches/support/batch-server.js";
import { evalRun, fixture, readSummary, tempDir } from "./support/backtest-cli.js";
import { type ForecasterUpstream, startForecasterUpstream } from "./support/forecaster-upstream.js";

/**
 * Two models that do not answer in their first reply: one never gives a forecast, the other
 * only when the endpoint asks again (its re-ask prompt holds no "Question:" line).
 */
describe("parse rates and the 5% rule on models that do not answer", () => {
  let refuser: ForecasterUpstream;
  let hesitant: ForecasterUpstream;
  let server: BatchServer;
  let apiKey: string;

  beforeAll(async () => {
    refuser = await startForecasterUpstream(() => "I cannot say.");
    hesitant = await startForecasterUpstream((prompt) =>
      prompt.includes("Question:") ? "It is hard to tell." : "Probability: 70%",
    );
    server = await startBatchServer({
      config: {
        models: [
          { id: "refuser", provider: "openai", base_url: refuser.url, owned_by: "Refusal Labs" },
          { id: "hesitant", provider: "openai", base_url: hesitant.url },
        ],
      },
    });
    ({
      org: { apiKey },
    } = await server.client("10"));
  });
  afterAll(async () => {
    await server.close();
    await refuser.close();
    await hesitant.close();
  });

  it("counts a refusal as unread, a re-asked answer apart, and flags the 5% rule everywhere", async () => {
    const out = path.join(tempDir(), "refusals");
    const run = await evalRun(
      {
        questions: fixture("2026-07-05-llm.json"),
        resolutions: fixture("2026-07-05_resolution_set.json"),
        models: ["refuser", "hesitant"],
        baseUrl: server.url,
        out,
        flags: ["--organization", "Our Team", "--no-upload"],
      },
      apiKey,
    );
    expect(run.code).toBe(0);
    const summary = readSummary(out);
    expect(summary.models.refuser).toMatchObject({
      raw_parse_rate: 0,
      parse_rate: 0,
      re_asked: 0,
      imputed: 8,
      pooled_brier: 0.25,
    });
    expect(summary.models.refuser?.forecastbench?.imputation).toMatchObject({
      overall_pct: 100,
      market_pct: 100,
      dataset_pct: 100,
      over_cutoff: true,
    });
    // Every answer came only after a re-ask: read, but not in the first reply.
    expect(summary.models.hesitant).toMatchObject({
      raw_parse_rate: 0,
      parse_rate: 1,
      re_asked: 21,
      imputed: 0,
    });
    expect(summary.models.hesitant?.forecastbench?.imputation.over_cutoff).toBe(false);

    expect(summary.imputation_rule).toEqual({ cutoff_pct: 5, over_cutoff: ["refuser"] });
    expect(summary.warnings[0]).toMatch(/^refuser: 100% of its forecasts are imputed/);
    const printed = JSON.parse(run.stdout) as {
      models: Record<
        string,
        { raw_parse_rate: number; forecastbench: { over_imputation_cutoff: boolean } }
      >;
      imputation_rule: { over_cutoff: string[] };
    };
    expect(printed.models.refuser?.forecastbench.over_imputation_cutoff).toBe(true);
    expect(printed.models.hesitant?.raw_parse_rate).toBe(0);
    expect(printed.imputation_rule.over_cutoff).toEqual(["refuser"]);
    expect(run.stderr).toMatch(/warning: refuser: 100% of its forecasts are imputed/);
    const html = readFileSync(path.join(out, "report.html"), "utf8");
    expect(html).toContain("Over ForecastBench&#39;s 5% imputation limit: refuser.");

    // The model's organization comes from the endpoint (owned_by), the team's from --organization.
    const submission = JSON.parse(
      readFileSync(path.join(out, "forecastbench", "2026-07-05.Our_Team.hesitant.json"), "utf8"),
    ) as { organization: string; model_organization: string; forecasts: { forecast: number }[] };
    expect(submission.organization).toBe("Our Team");
    expect(submission.forecasts.every((f) => f.forecast === 0.7)).toBe(true);
    const refused = JSON.parse(
      readFileSync(path.join(out, "forecastbench", "2026-07-05.Our_Team.refuser.json"), "utf8"),
    ) as { model_organization: string; forecasts: unknown[] };
    expect(refused.model_organization).toBe("Refusal Labs");
    expect(refused.forecasts).toEqual([]);
  });
});
