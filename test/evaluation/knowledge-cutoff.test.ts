import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { ConfigError, loadConfig } from "../../src/config/index.js";
import { type BatchServer, startBatchServer } from "../batches/support/batch-server.js";
import { request, V1_PREFIXES } from "../support/http.js";
import { evalRun, fixture, readSummary, tempDir } from "./support/backtest-cli.js";
import { type ForecasterUpstream, startForecasterUpstream } from "./support/forecaster-upstream.js";

/** The ForecastBench fixture is asked as of 2026-07-05. */
const LATE_CUTOFF = "2026-09-01";
const EARLY_CUTOFF = "2026-07-04T23:59:59Z";

function loadModels(models: unknown[]) {
  const dir = mkdtempSync(path.join(tmpdir(), "sibyl-cutoff-"));
  const file = path.join(dir, "sibyl.yaml");
  writeFileSync(file, stringify({ models }));
  return loadConfig({ file, env: { SIBYL_DATA_DIR: dir }, cwd: dir });
}

describe("knowledge_cutoff in the model configuration", () => {
  it.each([
    "2025-01-31",
    "2025-01-31T12:00:00Z",
    "2025-01-31T12:00:00.250+02:00",
    "2024-02-29t23:59:59z",
  ])("accepts %s", (cutoff) => {
    const config = loadModels([
      { id: "m", provider: "baseline", knowledge_cutoff: cutoff },
      { id: "plain", provider: "baseline" },
    ]);
    expect(config.models.map((model) => model.knowledge_cutoff)).toEqual([cutoff, undefined]);
  });

  it.each([
    ["June 2025"],
    ["2025-1-31"],
    ["2025-13-01"],
    ["2025-01-32"],
    ["2025-01-31T12:00"],
    ["2025-01-31T25:00:00Z"],
    ["2025-01-31 12:00:00"],
    [20250131],
    [""],
  ])("rejects %j with a message naming the key", (cutoff) => {
    expect(() =>
      loadModels([
        { id: "plain", provider: "baseline" },
        { id: "m", provider: "baseline", knowledge_cutoff: cutoff },
      ]),
    ).toThrowError(
      expect.objectContaining({
        constructor: ConfigError,
        message: expect.stringMatching(/^invalid configuration at models\.1\.knowledge_cutoff: /),
      }),
    );
  });
});

describe("knowledge_cutoff in /v1/models and sibyl eval", () => {
  let upstream: ForecasterUpstream;
  let server: BatchServer;
  let apiKey: string;

  beforeAll(async () => {
    upstream = await startForecasterUpstream(() => "Probability: 70%");
    server = await startBatchServer({
      config: {
        models: [
          { id: "sibyl-baseline", provider: "baseline" },
          {
            id: "late-model",
            provider: "openai",
            base_url: upstream.url,
            knowledge_cutoff: LATE_CUTOFF,
          },
          {
            id: "early-model",
            provider: "openai",
            base_url: upstream.url,
            knowledge_cutoff: EARLY_CUTOFF,
          },
        ],
      },
    });
    ({
      org: { apiKey },
    } = await server.client("10"));
  });
  afterAll(async () => {
    await server.close();
    await upstream.close();
  });

  describe.each(V1_PREFIXES)("under %s", (prefix) => {
    it("lists each declared cutoff and leaves it out where none is declared", async () => {
      const response = await request(server.url, `${prefix}/models`, { apiKey });
      expect(response.status).toBe(200);
      const { data } = response.body as { data: Record<string, unknown>[] };
      expect(data.map((model) => [model.id, model.knowledge_cutoff])).toEqual([
        ["sibyl-baseline", undefined],
        ["late-model", LATE_CUTOFF],
        ["early-model", EARLY_CUTOFF],
      ]);
      expect(Object.keys(data[0] ?? {})).not.toContain("knowledge_cutoff");
    });

    it("shows the cutoff on the model itself", async () => {
      const late = await request(server.url, `${prefix}/models/late-model`, { apiKey });
      expect(late.status).toBe(200);
      expect(late.body).toEqual({
        id: "late-model",
        object: "model",
        created: 0,
        owned_by: "sibyl",
        name: "",
        description: "",
        context_length: 0,
        max_completion_tokens: 0,
        pricing: { prompt: "0", completion: "0" },
        knowledge_cutoff: LATE_CUTOFF,
      });
      const plain = await request(server.url, `${prefix}/models/sibyl-baseline`, { apiKey });
      expect(plain.status).toBe(200);
      expect(plain.body).not.toHaveProperty("knowledge_cutoff");
    });
  });

  it("passes through the openai SDK", async () => {
    const client = new OpenAI({ apiKey, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const model = (await client.models.retrieve("early-model")) as unknown as Record<
      string,
      unknown
    >;
    expect(model.knowledge_cutoff).toBe(EARLY_CUTOFF);
  });

  it("is described in /openapi.json, optional, and matches what the routes send", async () => {
    const document = (await request(server.url, "/openapi.json")).body as {
      components: { schemas: Record<string, { properties: object; required: string[] }> };
    };
    const schema = document.components.schemas.ModelObject;
    expect(schema?.properties).toHaveProperty("knowledge_cutoff.type", "string");
    expect(schema?.required).not.toContain("knowledge_cutoff");
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: "openapi.json", components: document.components });
    const validator = ajv.compile({ $ref: "openapi.json#/components/schemas/ModelListResponse" });
    const list = await request(server.url, "/v1/models", { apiKey });
    expect(validator(list.body) ? [] : validator.errors).toEqual([]);
  });

  it("makes sibyl eval warn about a model whose cutoff is after the as-of dates, and only that one", async () => {
    const out = path.join(tempDir(), "cutoff");
    const run = await evalRun(
      {
        questions: fixture("2026-07-05-llm.json"),
        resolutions: fixture("2026-07-05_resolution_set.json"),
        models: ["sibyl-baseline", "late-model", "early-model"],
        baseUrl: server.url,
        out,
      },
      apiKey,
    );
    expect(run.code).toBe(0);
    const lines = run.stderr.split("\n");
    const warnings = lines.filter((line) => line.includes("knowledge cutoff"));
    // Said before any batch runs, and again with the scores.
    expect(warnings).toEqual([
      `eval: warning: late-model has knowledge cutoff ${LATE_CUTOFF}, after the prediction date of 21 request(s) (earliest 2026-07-05): the model may know the answers`,
      `eval: warning: late-model: knowledge cutoff ${LATE_CUTOFF} is after the prediction date of 21 request(s) (earliest 2026-07-05): the model may know the answers; this backtest is contaminated for it.`,
    ]);
    const firstProgress = lines.findIndex((line) => /^eval: \d+\/\d+ done/.test(line));
    expect(firstProgress).toBeGreaterThan(-1);
    expect(lines.indexOf(warnings[0] ?? "")).toBeLessThan(firstProgress);
    const summary = readSummary(out);
    expect(summary.leak_check.knowledge_cutoff_warnings).toEqual([
      {
        model: "late-model",
        knowledge_cutoff: LATE_CUTOFF,
        requests_before_cutoff: 21,
        earliest_prediction_date: "2026-07-05",
      },
    ]);
    // A warning, not a failed check: the requests themselves were sound.
    expect(summary.leak_check.ok).toBe(true);
    expect(summary.warnings.join("\n")).toContain(
      `late-model: knowledge cutoff ${LATE_CUTOFF} is after the prediction date of 21 request(s)`,
    );
    const html = readFileSync(path.join(out, "report.html"), "utf8");
    expect(html).toContain(`late-model: knowledge cutoff ${LATE_CUTOFF} is after`);
    expect(html).not.toContain("early-model: knowledge cutoff");
  });
});
