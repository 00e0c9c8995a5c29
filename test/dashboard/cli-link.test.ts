import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInProcess } from "../support/cli-in-process.js";
import { startTestServer } from "../support/server.js";
import { sqliteUrl } from "../support/services.js";
import { TempDirs } from "../support/temp-dir.js";

const temp = new TempDirs();
let env: Record<string, string>;
let configFile: string;
let dataDir: string;

const sibyl = (args: string[]) => runInProcess(args, env);

function single(run: { code: number; stdout: string; stderr: string }) {
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const lines = run.stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] as string) as Record<string, unknown>;
}

beforeAll(() => {
  dataDir = temp.make("sibyl-dashboard-cli-");
  configFile = path.join(dataDir, "sibyl.yaml");
  writeFileSync(configFile, "server:\n  public_url: https://sibyl.example.org/base\n");
  env = { SIBYL_DATA_DIR: dataDir, SIBYL_CONFIG: configFile };
});

afterAll(() => {
  temp.removeAll();
});

describe("sibyl dashboard link", () => {
  it("prints a one-time link under the public URL, its token in the fragment, good for 15 minutes", async () => {
    const created = await sibyl(["orgs", "create", "--name", "humans"]);
    // The first command on a fresh folder says where it created the database.
    expect(created.stderr).toBe(
      `sibyl: created a new database at ${path.join(dataDir, "sibyl.db")} (from the configuration ${configFile})\n`,
    );
    const org = single({ ...created, stderr: "" });
    const started = Math.floor(Date.now() / 1000);
    const printed = single(
      await sibyl(["dashboard", "link", "--org", String(org.organization_id)]),
    );
    expect(Object.keys(printed).sort()).toEqual(["expires_at", "url"]);
    const url = new URL(String(printed.url));
    expect(`${url.origin}${url.pathname}${url.search}`).toBe(
      "https://sibyl.example.org/base/dashboard/",
    );
    const token = /^#sign-in=([A-Za-z0-9]{43})$/.exec(url.hash)?.[1];
    expect(token).toBeDefined();
    const lifetime = Number(printed.expires_at) - started;
    expect(lifetime).toBeGreaterThanOrEqual(15 * 60 - 1);
    expect(lifetime).toBeLessThanOrEqual(15 * 60 + 1);

    // The printed link works once against a server on the same database.
    const server = await startTestServer({ databaseUrl: sqliteUrl(dataDir) });
    try {
      const exchange = () =>
        server.app.inject({ method: "POST", url: "/v1/dashboard/sign-in", payload: { token } });
      const first = await exchange();
      expect(first.statusCode).toBe(200);
      expect(first.json().organization_id).toBe(org.organization_id);
      expect((await exchange()).statusCode).toBe(401);
    } finally {
      await server.close();
    }
  });

  it("takes --minutes", async () => {
    const org = single(await sibyl(["orgs", "create", "--name", "brief"]));
    const started = Math.floor(Date.now() / 1000);
    const printed = single(
      await sibyl(["dashboard", "link", "--org", String(org.organization_id), "--minutes", "2"]),
    );
    expect(Number(printed.expires_at) - started).toBeLessThanOrEqual(121);
    expect(Number(printed.expires_at) - started).toBeGreaterThanOrEqual(119);
  });

  it("explains what is wrong, on stderr, with nothing on stdout", async () => {
    const cases: [string[], number, RegExp][] = [
      [["dashboard", "link"], 2, /--org is required/],
      [["dashboard", "open", "--org", "org_x"], 2, /unknown command "dashboard open"/],
      [["dashboard", "link", "--org", "org_x", "--minutes", "soon"], 2, /--minutes must be/],
      [["dashboard", "link", "--org", "org_missing"], 1, /No organization found/],
    ];
    for (const [args, code, message] of cases) {
      const run = await sibyl(args);
      expect(run.code, args.join(" ")).toBe(code);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(message);
    }
    const org = single(await sibyl(["orgs", "create", "--name", "limits"]));
    const tooLong = await sibyl([
      "dashboard",
      "link",
      "--org",
      String(org.organization_id),
      "--minutes",
      "100000",
    ]);
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toMatch(/1 to 1440 whole minutes/);
  });

  it("is listed by the dashboard group and in the usage text", async () => {
    const group = await sibyl(["dashboard"]);
    expect(group.code).toBe(0);
    expect(group.stdout).toContain("dashboard link");
    const help = await sibyl(["--help"]);
    expect(help.stdout).toContain("dashboard link --org ORG_ID [--minutes N]");
  });
});
