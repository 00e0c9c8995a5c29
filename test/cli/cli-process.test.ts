import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completion, runCli, singleJson, spawnCli } from "../support/cli.js";
import { freePort } from "../support/free-port.js";
import { request } from "../support/http.js";
import { sqliteBytes } from "../support/sqlite-bytes.js";
import { TempDirs } from "../support/temp-dir.js";

const temp = new TempDirs();
let dataDir: string;
let org: { organization_id: string; api_key: string; api_key_id: string };
let racingOrgId: string;

const sibyl = (args: string[]) => runCli(args, { cwd: dataDir });

beforeAll(async () => {
  dataDir = temp.make("sibyl-cli-process-");
  const [created, racing] = await Promise.all([
    sibyl(["orgs", "create", "--name", "acme", "--credits-usd", "5"]),
    sibyl(["orgs", "create", "--name", "racing"]),
  ]);
  // Nothing on stderr but, from whichever process made it, where the new database is.
  expect(created.stderr).toMatch(
    /^(sibyl: created a new database at \S+ \(from the built-in defaults\)\n)?$/,
  );
  org = singleJson(created) as typeof org;
  racingOrgId = String(singleJson(racing).organization_id);
});

afterAll(() => {
  temp.removeAll();
});

describe("the sibyl command", () => {
  it("lets several processes migrate a fresh SQLite file at once", async () => {
    const fresh = temp.make("sibyl-cli-migrate-");
    const results = await Promise.all(
      Array.from({ length: 4 }, () => runCli(["migrate"], { cwd: fresh })),
    );
    for (const result of results) {
      // At most the line saying where the new database is.
      expect(result.stderr).toMatch(
        /^(sibyl: created a new database at \S+ \(from the built-in defaults\)\n)?$/,
      );
      expect(result.code).toBe(0);
    }
    expect(results.some((result) => result.stderr.includes("created a new database"))).toBe(true);
    // Every migration applied once, by one process or another, and none left half done.
    const applied = results.flatMap((result) => singleJson(result).applied as string[]);
    expect(applied.filter((name) => name === "0001_foundation")).toHaveLength(1);
    expect(new Set(applied).size).toBe(applied.length);
    expect(applied).toContain("0008_batch_keys");
  });

  it("prints exactly one JSON line for a command that creates something", async () => {
    const result = await sibyl(["keys", "create", "--org", org.organization_id]);
    expect(result.code).toBe(0);
    expect(result.stdout.endsWith("}\n")).toBe(true);
    expect(result.stdout.trim().split("\n")).toHaveLength(1);
    expect(Object.keys(singleJson(result)).sort()).toEqual(["api_key", "api_key_id"]);
  });

  it("exits 2 with usage on stderr, and 1 naming the key of a bad ./sibyl.yaml", async () => {
    const configured = temp.make("sibyl-cli-yaml-");
    writeFileSync(
      path.join(configured, "sibyl.yaml"),
      "models:\n  - { id: x, provider: openai }\n",
    );
    const [usage, badConfig] = await Promise.all([
      sibyl([]),
      runCli(["orgs", "list"], { cwd: configured }),
    ]);
    expect(usage.code).toBe(2);
    expect(usage.stdout).toBe("");
    expect(usage.stderr).toContain("Usage: sibyl <command>");
    expect(badConfig.code).toBe(1);
    expect(badConfig.stdout).toBe("");
    expect(badConfig.stderr).toContain("invalid configuration at models.0.base_url");
  });

  it("loses no credits when several processes add them at once", async () => {
    const racing = await Promise.all(
      [0, 1, 2, 3].map(() => sibyl(["credits", "add", "--org", racingOrgId, "--usd", "0.25"])),
    );
    for (const result of racing) expect(result.code).toBe(0);
    const listed = singleJson(await sibyl(["orgs", "list"])) as {
      data: { organization_id: string; balance_dollars: number }[];
    };
    const balance = listed.data.find((o) => o.organization_id === racingOrgId);
    expect(balance?.balance_dollars).toBe(1);
  });
});

describe("sibyl serve", () => {
  let child: ChildProcess;
  let exited: ReturnType<typeof completion>;
  let baseUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    child = spawnCli(["serve", "--port", String(port)], { cwd: dataDir });
    exited = completion(child);
    await waitUntilServing(baseUrl, exited);
  });

  afterAll(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });

  it("serves models and the balance to the printed key", async () => {
    const models = await request(baseUrl, "/v1/models", { apiKey: org.api_key });
    expect(models.status).toBe(200);
    expect((models.body as { data: { id: string }[] }).data.map((m) => m.id)).toContain(
      "sibyl-baseline",
    );
    const balance = await request(baseUrl, "/v1/compat/balance", { apiKey: org.api_key });
    expect(balance.status).toBe(200);
    expect(balance.body).toEqual({ balance_dollars: 5 });
  });

  it("stops accepting a key revoked by another process", async () => {
    const spare = singleJson(await sibyl(["keys", "create", "--org", org.organization_id]));
    const apiKey = String(spare.api_key);
    expect((await request(baseUrl, "/v1/balance", { apiKey })).status).toBe(200);
    const revoked = await sibyl(["keys", "revoke", String(spare.api_key_id)]);
    expect(revoked.code).toBe(0);
    expect((await request(baseUrl, "/v1/balance", { apiKey })).status).toBe(401);
  });

  it("keeps keys out of the database file and the logs, and exits 0 promptly on SIGTERM", async () => {
    const bytes = sqliteBytes(path.join(dataDir, "sibyl.db"));
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.includes(org.api_key)).toBe(false);

    const started = Date.now();
    child.kill("SIGTERM");
    const result = await exited;
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(`${result.stdout}${result.stderr}`).not.toContain(org.api_key);
    expect(result.stdout).toContain("shutting down");
  });
});

/** Polls /healthz until the server answers; fails early if the process dies. */
async function waitUntilServing(baseUrl: string, exited: Promise<unknown>): Promise<void> {
  let dead = false;
  void exited.then(() => {
    dead = true;
  });
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (dead) throw new Error(`sibyl serve exited early: ${JSON.stringify(await exited)}`);
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error("sibyl serve did not start listening within 45 s");
}
