import { writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { singleJson } from "../support/cli.js";
import { runInProcess } from "../support/cli-in-process.js";
import { openServices, sqliteUrl } from "../support/services.js";
import { sqliteBytes } from "../support/sqlite-bytes.js";
import { TempDirs } from "../support/temp-dir.js";

const temp = new TempDirs();
let dataDir: string;
let env: Record<string, string>;
const issuedKeys: string[] = [];

const sibyl = (args: string[], extraEnv: Record<string, string> = {}) =>
  runInProcess(args, { ...env, ...extraEnv });

beforeAll(() => {
  dataDir = temp.make("sibyl-cli-");
  // An explicit empty file, so a sibyl.yaml in the working directory can never leak in.
  const emptyConfig = path.join(dataDir, "empty.yaml");
  writeFileSync(emptyConfig, "");
  env = { SIBYL_DATA_DIR: dataDir, SIBYL_CONFIG: emptyConfig };
});

afterAll(() => {
  temp.removeAll();
});

async function createOrg(name: string, credits?: string) {
  const args = ["orgs", "create", "--name", name];
  if (credits !== undefined) args.push("--credits-usd", credits);
  const created = singleJson(await sibyl(args));
  issuedKeys.push(String(created.api_key));
  return {
    organizationId: String(created.organization_id),
    apiKey: String(created.api_key),
    apiKeyId: String(created.api_key_id),
  };
}

describe("organizations and credits", () => {
  it("creates an organization with a key and credits, printing one JSON object", async () => {
    const result = await sibyl(["orgs", "create", "--name", "acme", "--credits-usd", "5"]);
    expect(result.stderr).toMatch(/^(sibyl: created a new database at .*\n)?$/);
    const created = singleJson(result);
    issuedKeys.push(String(created.api_key));
    expect(Object.keys(created).sort()).toEqual(["api_key", "api_key_id", "organization_id"]);
    expect(created.organization_id).toMatch(/^org_/);
    expect(created.api_key).toMatch(/^sk_[A-Za-z0-9]{32,}$/);
    expect(created.api_key_id).toMatch(/^key_/);

    const listed = singleJson(await sibyl(["orgs", "list"]));
    expect(listed.object).toBe("list");
    expect(listed.data).toContainEqual({
      organization_id: created.organization_id,
      name: "acme",
      balance_dollars: 5,
      created_at: expect.any(Number),
    });
  });

  it("creates an organization without credits", async () => {
    const org = await createOrg("empty");
    const listed = singleJson(await sibyl(["orgs", "list"])) as {
      data: { organization_id: string; balance_dollars: number }[];
    };
    expect(listed.data.find((o) => o.organization_id === org.organizationId)).toMatchObject({
      balance_dollars: 0,
    });
  });

  it("adds credits and prints the new balance", async () => {
    const org = await createOrg("credits", "1");
    const added = singleJson(
      await sibyl(["credits", "add", "--org", org.organizationId, "--usd", "2.5"]),
    );
    expect(added).toEqual({ organization_id: org.organizationId, balance_dollars: 3.5 });
    const again = singleJson(
      await sibyl(["credits", "add", "--org", org.organizationId, "--usd", "0.000000001"]),
    );
    expect(again.balance_dollars).toBe(3.500000001);
  });
});

describe("keys", () => {
  it("creates, lists and revokes keys", async () => {
    const org = await createOrg("keys");
    const second = singleJson(await sibyl(["keys", "create", "--org", org.organizationId]));
    const secondKey = String(second.api_key);
    issuedKeys.push(secondKey);
    expect(Object.keys(second).sort()).toEqual(["api_key", "api_key_id"]);
    expect(secondKey).toMatch(/^sk_/);

    const revoked = singleJson(await sibyl(["keys", "revoke", org.apiKeyId]));
    expect(revoked).toEqual({
      api_key_id: org.apiKeyId,
      revoked: true,
      revoked_at: expect.any(Number),
    });

    const listed = singleJson(await sibyl(["keys", "list", "--org", org.organizationId])) as {
      object: string;
      data: Record<string, unknown>[];
    };
    expect(listed.object).toBe("list");
    expect(listed.data.map((k) => k.id).sort()).toEqual([org.apiKeyId, second.api_key_id].sort());
    for (const key of listed.data) {
      expect(key).not.toHaveProperty("key_hash");
      expect(key).not.toHaveProperty("api_key");
      const prefix = String(key.prefix);
      expect([org.apiKey, secondKey].some((k) => k.startsWith(prefix))).toBe(true);
    }
    const byId = new Map(listed.data.map((k) => [k.id, k]));
    expect(byId.get(org.apiKeyId)?.revoked_at).toEqual(expect.any(Number));
    expect(byId.get(second.api_key_id)?.revoked_at).toBeNull();

    const services = await openServices(sqliteUrl(dataDir), dataDir);
    try {
      expect(await services.apiKeys.authenticate(org.apiKey)).toBeNull();
      expect(await services.apiKeys.authenticate(secondKey)).toMatchObject({
        organizationId: org.organizationId,
      });
    } finally {
      await services.close();
    }
  });

  it("never writes a plaintext key to the database file", () => {
    expect(issuedKeys.length).toBeGreaterThanOrEqual(4);
    const bytes = sqliteBytes(path.join(dataDir, "sibyl.db"));
    expect(bytes.length).toBeGreaterThan(0);
    for (const key of issuedKeys) {
      expect(bytes.includes(key)).toBe(false);
      expect(bytes.includes(key.slice(12))).toBe(false);
    }
  });
});

describe("migrate", () => {
  it("applies every migration once", async () => {
    const fresh = temp.make("sibyl-cli-migrate-");
    const freshEnv = { SIBYL_DATA_DIR: fresh, SIBYL_CONFIG: env.SIBYL_CONFIG as string };
    const first = singleJson(await runInProcess(["migrate"], freshEnv));
    expect(first.applied).toEqual(expect.arrayContaining(["0001_foundation"]));
    const second = singleJson(await runInProcess(["migrate"], freshEnv));
    expect(second).toEqual({ applied: [] });
  });
});

describe("mistakes", () => {
  it.each([
    ["an unknown command", ["frobnicate"], 'unknown command "frobnicate"', "sibyl"],
    [
      "an unknown flag",
      ["orgs", "list", "--bogus"],
      "orgs list has no option --bogus",
      "orgs list",
    ],
    ["a missing --name", ["orgs", "create"], "--name is required", "orgs create"],
    ["an empty --name", ["orgs", "create", "--name", " "], "--name is required", "orgs create"],
    ["a missing --org", ["credits", "add", "--usd", "1"], "--org is required", "credits add"],
    [
      "a negative amount",
      ["credits", "add", "--org", "org_x", "--usd", "-1"],
      "--usd cannot be negative, got -1",
      "credits add",
    ],
    [
      "a garbage amount",
      ["orgs", "create", "--name", "x", "--credits-usd", "lots"],
      '--credits-usd must be an amount in dollars such as 5 or 0.25, not "lots"',
      "orgs create",
    ],
    ["a missing key id", ["keys", "revoke"], "keys revoke needs KEY_ID", "keys revoke"],
    ["a bad --port", ["serve", "--port", "eighty"], "--port must be a whole number", "serve"],
  ])("exits 2 with a sentence on stderr for %s", async (_label, args, message, command) => {
    const result = await sibyl(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(message);
    const helpCommand = command === "sibyl" ? "sibyl" : `sibyl ${command}`;
    expect(result.stderr).toContain(`Run "${helpCommand} --help" for its usage`);
  });

  it("exits 2 with the usage on stderr when no command is given", async () => {
    const result = await sibyl([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Usage: sibyl <command>");
  });

  it("creates nothing when an argument is wrong", async () => {
    const before = singleJson(await sibyl(["orgs", "list"])) as { data: unknown[] };
    await sibyl(["orgs", "create", "--name", "never", "--credits-usd", "-3"]);
    const after = singleJson(await sibyl(["orgs", "list"])) as { data: unknown[] };
    expect(after.data).toHaveLength(before.data.length);
  });

  it("prints usage on stdout and exits 0 for --help", async () => {
    const result = await sibyl(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: sibyl <command>");
    expect(result.stderr).toBe("");
  });

  it.each([
    ["an unknown organization", ["credits", "add", "--org", "org_gone", "--usd", "1"], "org_gone"],
    ["an unknown key", ["keys", "revoke", "key_gone"], "key_gone"],
    ["keys of an unknown organization", ["keys", "list", "--org", "org_gone"], "org_gone"],
    ["a key for an unknown organization", ["keys", "create", "--org", "org_gone"], "org_gone"],
  ])("exits 1 naming %s", async (_label, args, message) => {
    const result = await sibyl(args);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(message);
    // A message for the operator, not a stack trace.
    expect(result.stderr).not.toContain("    at ");
  });
});

describe("configuration errors", () => {
  it("exits 1 naming the key of a bad --config file", async () => {
    const file = path.join(temp.make("sibyl-cli-config-"), "bad.yaml");
    writeFileSync(file, "server: { port: abc }\n");
    const result = await sibyl(["orgs", "list", "--config", file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("invalid configuration at server.port");
  });

  it("exits 1 for a missing --config file, a bad SIBYL_PORT or SIBYL_DATABASE_URL", async () => {
    const missing = await sibyl(["orgs", "list", "--config", path.join(dataDir, "absent.yaml")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("config file not found");
    const badPort = await sibyl(["orgs", "list"], { SIBYL_PORT: "http" });
    expect(badPort.code).toBe(1);
    expect(badPort.stderr).toContain("server.port");
    const badUrl = await sibyl(["orgs", "list"], { SIBYL_DATABASE_URL: "mysql://x" });
    expect(badUrl.code).toBe(1);
    expect(badUrl.stderr).toContain("database.url");
  });

  it("exits 1 with one line, no stack, when the PostgreSQL server cannot be reached", async () => {
    const refused = await sibyl(["migrate"], {
      SIBYL_DATABASE_URL: `postgres://sibyl@127.0.0.1:${await closedPort()}/sibyl`,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("sibyl: could not migrate the database: connect ECONNREFUSED");
    expect(refused.stderr).not.toContain("    at ");
  });
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
