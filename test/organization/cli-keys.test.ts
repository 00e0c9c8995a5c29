import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { singleJson } from "../support/cli.js";
import { runInProcess } from "../support/cli-in-process.js";
import { TempDirs } from "../support/temp-dir.js";

const temp = new TempDirs();
let env: Record<string, string>;

const sibyl = (args: string[]) => runInProcess(args, env);

beforeAll(() => {
  const dataDir = temp.make("sibyl-cli-keys-");
  const emptyConfig = path.join(dataDir, "empty.yaml");
  writeFileSync(emptyConfig, "");
  env = { SIBYL_DATA_DIR: dataDir, SIBYL_CONFIG: emptyConfig };
});

afterAll(() => {
  temp.removeAll();
});

describe("sibyl keys", () => {
  it("creates keys with a scope, name, expiry and spend limit, and lists them", async () => {
    const org = singleJson(await sibyl(["orgs", "create", "--name", "cli keys"]));
    const orgId = String(org.organization_id);
    const limited = singleJson(
      await sibyl([
        ...["keys", "create", "--org", orgId, "--scope", "inference", "--name", "bot"],
        ...["--expires-at", "2100-01-01", "--spend-limit-usd", "12.5"],
      ]),
    );
    expect(Object.keys(limited).sort()).toEqual(["api_key", "api_key_id"]);
    const plain = singleJson(await sibyl(["keys", "create", "--org", orgId]));

    const listed = singleJson(await sibyl(["keys", "list", "--org", orgId])) as {
      data: Record<string, unknown>[];
    };
    const byId = new Map(listed.data.map((key) => [key.id, key]));
    expect(byId.get(limited.api_key_id)).toMatchObject({
      scope: "inference",
      name: "bot",
      expires_at: Date.UTC(2100, 0, 1) / 1000,
      last_used_at: null,
      spend_limit_usd: 12.5,
      spent_usd: 0,
    });
    expect(byId.get(plain.api_key_id)).toMatchObject({
      scope: "admin",
      name: null,
      expires_at: null,
      spend_limit_usd: null,
    });
    expect(byId.get(org.api_key_id)).toMatchObject({ scope: "admin" });
    for (const key of listed.data) expect(key).not.toHaveProperty("key_hash");
  });

  it.each([
    [["--scope", "root"], "--scope"],
    [["--expires-at", "tomorrow"], "--expires-at"],
    [["--expires-at", "2001-01-01"], "--expires-at"],
    [["--spend-limit-usd", "0"], "--spend-limit-usd"],
    [["--spend-limit-usd", "-1"], "--spend-limit-usd"],
  ])("refuses %j with a usage error", async (options, flag) => {
    const org = singleJson(await sibyl(["orgs", "create", "--name", "bad options"]));
    const result = await sibyl([
      "keys",
      "create",
      "--org",
      String(org.organization_id),
      ...options,
    ]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(flag);
  });
});
