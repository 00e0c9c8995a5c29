import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInProcess } from "../support/cli-in-process.js";
import { startTestServer, type TestOrg, type TestServer } from "../support/server.js";
import { DATABASES, suiteDatabase } from "./support/databases.js";
import { call, getQuestion, ok } from "./support/track-api.js";

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;

describe.each(DATABASES)("sibyl questions resolve on %s", (databaseName) => {
  const databaseUrl = suiteDatabase(databaseName);
  let server: TestServer;
  let org: TestOrg;
  let files = 0;

  beforeAll(async () => {
    const url = databaseUrl();
    server = await startTestServer(url ? { databaseUrl: url } : {});
    org = await server.createOrg("1");
    const questions = [
      { id: "s1", answer_type: "binary" },
      { id: "s2", answer_type: "multiple_choice", options: { A: "red", B: "blue" } },
      { id: "s3", answer_type: "binary" },
      { id: "fred/GDP@2025-06-30", answer_type: "binary" },
      { id: "manifold/abc", answer_type: "binary" },
    ];
    for (const question of questions) {
      await ok(call(server.url, org.apiKey, "POST", "/v1/questions", question));
    }
    await ok(
      call(server.url, org.apiKey, "POST", "/v1/chat/completions", {
        model: "sibyl-baseline",
        messages: [{ role: "user", content: "Will s1 happen?" }],
        answer_type: "binary",
        question_id: "s1",
        prediction_date: "2025-01-01",
      }),
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  function write(content: string): string {
    files += 1;
    const file = path.join(server.dataDir, `resolutions-${files}.jsonl`);
    writeFileSync(file, content);
    return file;
  }

  const sibyl = (args: string[]) =>
    runInProcess(args, {
      SIBYL_DATA_DIR: server.dataDir,
      SIBYL_CONFIG: path.join(server.dataDir, "sibyl.yaml"),
      SIBYL_DATABASE_URL: server.config.database.url,
    });

  it("resolves Sibyl JSON Lines, reporting each refusal and skipped line by its number", async () => {
    const file = write(
      [
        JSON.stringify({ question_id: "s1", outcome: 1, resolved_at: "2025-02-01" }),
        JSON.stringify({ question_id: "s2", outcome: "B", resolved_at: "2025-02-01" }),
        "{not json",
        JSON.stringify({ question_id: "never-asked", outcome: 1 }),
        JSON.stringify({ question_id: "s3", outcome: "A" }),
        "",
      ].join("\n"),
    );
    const run = await sibyl(["questions", "resolve", file, "--org", org.organizationId]);
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      format: "sibyl_jsonl",
      resolved: 2,
      unchanged: 0,
      unknown: 1,
      refused: 1,
      skipped: 1,
    });
    expect(run.stderr).toMatch(/line 3: skipped: not valid JSON/);
    expect(run.stderr).toMatch(/line 4: no question never-asked/);
    expect(run.stderr).toMatch(/line 5: s3: outcome must be 0 or 1 \(binary question\)/);
    const s1 = await getQuestion(server.url, org.apiKey, "s1");
    expect(s1).toMatchObject({ status: "resolved", outcome: 1, resolved_at: day("2025-02-01") });
    expect(s1.resolutions[0]?.recorded_by).toBe("cli");
    expect(s1.forecasts[0]?.scores?.brier).toBeTypeOf("number");
    expect((await getQuestion(server.url, org.apiKey, "s2")).outcome).toBe("B");

    const again = await sibyl(["questions", "resolve", file, "--org", org.organizationId]);
    expect(JSON.parse(again.stdout)).toMatchObject({ resolved: 0, unchanged: 2 });
  });

  it("changes a resolution only with --force, and keeps the history", async () => {
    const file = write(
      `${JSON.stringify({ question_id: "s1", outcome: 0, resolved_at: "2025-02-03" })}\n`,
    );
    const refused = await sibyl(["questions", "resolve", file, "--org", org.organizationId]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already resolved.*--force/);
    const forced = await sibyl([
      "questions",
      "resolve",
      file,
      "--org",
      org.organizationId,
      "--force",
    ]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({ resolved: 1, refused: 0 });
    const s1 = await getQuestion(server.url, org.apiKey, "s1");
    expect(s1.resolutions.map((r) => [r.outcome, r.forced])).toEqual([
      [1, false],
      [0, true],
    ]);
  });

  it("resolves a ForecastBench resolution set: dataset questions by date, markets once", async () => {
    const file = write(
      JSON.stringify({
        forecast_due_date: "2025-05-01",
        question_set: "2025-05-01-llm.json",
        resolutions: [
          {
            id: "GDP",
            source: "fred",
            direction: null,
            resolution_date: "2025-06-30",
            resolved_to: 1,
            resolved: true,
          },
          {
            id: "abc",
            source: "manifold",
            direction: null,
            resolution_date: "2025-07-30",
            resolved_to: 0,
            resolved: true,
          },
          {
            id: "abc",
            source: "manifold",
            direction: null,
            resolution_date: "2025-06-30",
            resolved_to: 0,
            resolved: true,
          },
          {
            id: "open",
            source: "polymarket",
            direction: null,
            resolution_date: "2025-06-30",
            resolved_to: 0.4,
            resolved: false,
          },
          {
            id: ["GDP", "abc"],
            source: "fred",
            direction: [1, -1],
            resolution_date: "2025-06-30",
            resolved_to: 1,
            resolved: true,
          },
        ],
      }),
    );
    const run = await sibyl(["questions", "resolve", file, "--org", org.organizationId]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      format: "forecastbench",
      resolved: 2,
      unchanged: 0,
      unknown: 0,
      refused: 0,
      skipped: 2,
    });
    expect(await getQuestion(server.url, org.apiKey, "fred/GDP@2025-06-30")).toMatchObject({
      outcome: 1,
      resolved_at: day("2025-06-30"),
    });
    expect(await getQuestion(server.url, org.apiKey, "manifold/abc")).toMatchObject({
      outcome: 0,
      resolved_at: day("2025-06-30"),
    });
  });

  it("needs --org and a FILE, and an organization that exists", async () => {
    const file = write("");
    expect((await sibyl(["questions", "resolve", file])).code).toBe(2);
    expect((await sibyl(["questions", "resolve", "--org", org.organizationId])).code).toBe(2);
    const unknown = await sibyl(["questions", "resolve", file, "--org", "org_nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No organization found with id 'org_nope'/);
    const missing = await sibyl([
      "questions",
      "resolve",
      path.join(server.dataDir, "absent.jsonl"),
      "--org",
      org.organizationId,
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read/);
  });
});
