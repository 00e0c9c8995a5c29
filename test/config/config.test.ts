import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BASELINE_MODEL_ID, ConfigError, loadConfig } from "../../src/config/index.js";
import { TempDirs } from "../support/temp-dir.js";

const temp = new TempDirs();
afterEach(() => temp.removeAll());

/** A fresh working directory, optionally holding `sibyl.yaml`. */
function workdir(yaml?: string): string {
  const dir = temp.make("sibyl-config-");
  if (yaml !== undefined) writeFileSync(path.join(dir, "sibyl.yaml"), yaml);
  return dir;
}

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

/** Loads `yaml` as ./sibyl.yaml of a fresh directory and returns the error it raises. */
function rejectYaml(yaml: string, env: Record<string, string> = {}): string {
  const cwd = workdir(yaml);
  return configError(() => loadConfig({ env, cwd })).message;
}

describe("configuration defaults", () => {
  it("needs no file", () => {
    const cwd = workdir();
    const config = loadConfig({ env: {}, cwd });
    expect(config.server).toEqual({
      host: "127.0.0.1",
      port: 8080,
      public_url: "http://127.0.0.1:8080",
      log_level: "info",
      body_stall_seconds: 30,
      max_connections_per_address: 256,
    });
    expect(config.data_dir).toBe(path.join(cwd, "data"));
    expect(config.database.url).toBe(`sqlite:${path.join(cwd, "data", "sibyl.db")}`);
    expect(config.files.store).toBe("disk");
    expect(config.files.dir).toBe(path.join(cwd, "data", "files"));
    expect(config.limits.requests_per_minute).toBe(120);
    expect(config.batches).toEqual({
      price_multiplier: 0.5,
      concurrency: 16,
      lease_seconds: 15,
      max_attempts: 5,
    });
    expect(config.classification).toEqual({ model: BASELINE_MODEL_ID, cost_usd: "0.0005" });
    expect(config.payments).toBeNull();
    expect(config.models.map((m) => m.id)).toEqual([BASELINE_MODEL_ID, "sibyl-demo"]);
    // The demo model is the baseline at a price, so a first run shows spending.
    expect(config.models[1]).toMatchObject({
      provider: "baseline",
      pricing: { prompt: "0.000002", completion: "0.00001" },
    });
    expect(config.models[0]).toMatchObject({
      provider: "baseline",
      context_length: 32768,
      max_completion_tokens: 4096,
      pricing: { prompt: "0", completion: "0" },
    });
  });

  it("treats an empty file as defaults", () => {
    const config = loadConfig({ env: {}, cwd: workdir("") });
    expect(config.server.port).toBe(8080);
  });
});

describe("configuration file", () => {
  const yaml = [
    "server: { host: 0.0.0.0, port: 9090, public_url: https://sibyl.example }",
    "database: { url: 'sqlite:./db/main.db' }",
    "limits: { requests_per_minute: 30 }",
    "batches: { price_multiplier: 0.25, concurrency: 4, lease_seconds: 30, max_attempts: 3 }",
    "classification: { model: my-model, cost_usd: '0.001' }",
    "models:",
    "  - { id: sibyl-baseline, provider: baseline }",
    "  - id: my-model",
    "    provider: openai",
    "    base_url: http://127.0.0.1:8000/v1",
    "    upstream_model: Qwen/Qwen3-8B",
    "    context_length: 32768",
    "    pricing: { prompt: '0.0000002', completion: '0.0000008' }",
  ].join("\n");

  it("reads relative paths in a file from the file's folder, and the environment's from the working directory", () => {
    const home = workdir();
    const elsewhere = workdir();
    const file = path.join(home, "sibyl.yaml");
    const relative = path.relative(elsewhere, file);
    writeFileSync(file, 'database: { url: "sqlite:db/main.db" }\nfiles: { dir: blobs }\n');
    const fromFile = loadConfig({ file: relative, env: {}, cwd: elsewhere });
    expect(fromFile.database.url).toBe(`sqlite:${path.join(home, "db", "main.db")}`);
    expect(fromFile.files.dir).toBe(path.join(home, "blobs"));
    expect(fromFile.data_dir).toBe(path.join(home, "data"));

    writeFileSync(file, "");
    const defaults = loadConfig({ env: { SIBYL_CONFIG: file }, cwd: elsewhere });
    expect(defaults.database.url).toBe(`sqlite:${path.join(home, "data", "sibyl.db")}`);
    expect(defaults.files.dir).toBe(path.join(home, "data", "files"));

    const overridden = loadConfig({
      file,
      env: { SIBYL_DATABASE_URL: "sqlite:here.db", SIBYL_DATA_DIR: "var" },
      cwd: elsewhere,
    });
    expect(overridden.database.url).toBe(`sqlite:${path.join(elsewhere, "here.db")}`);
    expect(overridden.data_dir).toBe(path.join(elsewhere, "var"));
    expect(loadConfig({ file, env: { SIBYL_DATA_DIR: "" }, cwd: elsewhere }).data_dir).toBe(
      path.join(home, "data"),
    );
  });

  it("reads ./sibyl.yaml from the working directory", () => {
    const cwd = workdir(yaml);
    const config = loadConfig({ env: {}, cwd });
    expect(config.server).toMatchObject({
      host: "0.0.0.0",
      port: 9090,
      public_url: "https://sibyl.example",
    });
    expect(config.database.url).toBe(`sqlite:${path.join(cwd, "db", "main.db")}`);
    expect(config.limits.requests_per_minute).toBe(30);
    expect(config.batches).toEqual({
      price_multiplier: 0.25,
      concurrency: 4,
      lease_seconds: 30,
      max_attempts: 3,
    });
    expect(config.classification).toEqual({ model: "my-model", cost_usd: "0.001" });
    expect(config.models.map((m) => m.id)).toEqual(["sibyl-baseline", "my-model"]);
    expect(config.models[1]).toMatchObject({
      base_url: "http://127.0.0.1:8000/v1",
      upstream_model: "Qwen/Qwen3-8B",
      pricing: { prompt: "0.0000002", completion: "0.0000008" },
    });
  });

  it("reads an explicit file, and SIBYL_CONFIG when no file is given", () => {
    const elsewhere = workdir();
    const file = path.join(elsewhere, "custom.yaml");
    writeFileSync(file, "server: { port: 7001 }");
    const cwd = workdir("server: { port: 7002 }");
    expect(loadConfig({ file, env: {}, cwd }).server.port).toBe(7001);
    expect(loadConfig({ env: { SIBYL_CONFIG: file }, cwd }).server.port).toBe(7001);
    expect(loadConfig({ env: {}, cwd }).server.port).toBe(7002);
  });

  it("derives public_url from host and port when unset", () => {
    const config = loadConfig({ env: {}, cwd: workdir("server: { host: 10.0.0.5, port: 81 }") });
    expect(config.server.public_url).toBe("http://10.0.0.5:81");
  });

  it("keeps a PostgreSQL URL as written", () => {
    const url = "postgres://sibyl@db.internal:5432/sibyl";
    const config = loadConfig({ env: {}, cwd: workdir(`database: { url: "${url}" }`) });
    expect(config.database.url).toBe(url);
  });
});

describe("environment and command-line overrides", () => {
  const yaml = "server: { host: 127.0.0.2, port: 9000 }\ndatabase: { url: 'sqlite:./file.db' }";

  it("lets SIBYL_* variables override the file", () => {
    const cwd = workdir(yaml);
    const config = loadConfig({
      env: {
        SIBYL_PORT: "9100",
        SIBYL_HOST: "0.0.0.0",
        SIBYL_DATABASE_URL: "postgres://postgres@127.0.0.1:5432/other",
        SIBYL_DATA_DIR: "var/sibyl",
      },
      cwd,
    });
    expect(config.server.port).toBe(9100);
    expect(config.server.host).toBe("0.0.0.0");
    expect(config.database.url).toBe("postgres://postgres@127.0.0.1:5432/other");
    expect(config.data_dir).toBe(path.join(cwd, "var", "sibyl"));
    expect(config.files.dir).toBe(path.join(cwd, "var", "sibyl", "files"));
  });

  it("puts the default SQLite file under SIBYL_DATA_DIR", () => {
    const cwd = workdir();
    const dataDir = path.join(workdir(), "state");
    const config = loadConfig({ env: { SIBYL_DATA_DIR: dataDir }, cwd });
    expect(config.database.url).toBe(`sqlite:${path.join(dataDir, "sibyl.db")}`);
  });

  it("lets command-line flags win over the environment and the file", () => {
    const cwd = workdir(yaml);
    const config = loadConfig({
      env: { SIBYL_PORT: "9100", SIBYL_HOST: "0.0.0.0" },
      cwd,
      overrides: { port: 9200, host: "127.0.0.3" },
    });
    expect(config.server.port).toBe(9200);
    expect(config.server.host).toBe("127.0.0.3");
    expect(config.server.public_url).toBe("http://127.0.0.3:9200");
  });

  it.each(["abc", "", "0x1F90", "1e3", "80.5", "70000"])(
    "rejects SIBYL_PORT=%j naming server.port",
    (port) => {
      const cwd = workdir();
      const error = configError(() => loadConfig({ env: { SIBYL_PORT: port }, cwd }));
      expect(error.message).toContain("server.port");
    },
  );

  it("rejects a SIBYL_DATABASE_URL of an unsupported kind naming database.url", () => {
    const cwd = workdir();
    const error = configError(() =>
      loadConfig({ env: { SIBYL_DATABASE_URL: "mysql://root@localhost/db" }, cwd }),
    );
    expect(error.message).toContain("database.url");
  });
});

describe("invalid configuration names the key", () => {
  it.each([
    ["server: { port: abc }", "server.port"],
    ["server: { port: 70000 }", "server.port"],
    ["server: { host: '' }", "server.host"],
    ["server: { log_level: loud }", "server.log_level"],
    ["bogus: 1", "bogus"],
    ["server: { bogus: 1 }", "server.bogus"],
    ["limits: { requests_per_minute: 0 }", "limits.requests_per_minute"],
    ["batches: { price_multiplier: -1 }", "batches.price_multiplier"],
    ["batches: { concurrency: 0 }", "batches.concurrency"],
    ["batches: { lease_seconds: 0 }", "batches.lease_seconds"],
    ["batches: { max_attempts: 0 }", "batches.max_attempts"],
    ["files: { store: s3 }", "files.bucket"],
    ["models: [{ id: x, provider: nope }]", "models.0.provider"],
    ["models: [{ id: 'has space', provider: baseline }]", "models.0.id"],
    ["models: [{ id: x, provider: openai }]", "models.0.base_url"],
    ["models: [{ id: a, provider: baseline }, { id: a, provider: baseline }]", "models.1.id"],
    [
      "models: [{ id: x, provider: baseline, pricing: { prompt: '-1', completion: '0' } }]",
      "models.0.pricing.prompt",
    ],
    [
      // A price finer than a femto-dollar per token cannot be billed exactly.
      "models: [{ id: x, provider: baseline, pricing: { prompt: '0', completion: '0.0000000000000001' } }]",
      "models.0.pricing.completion",
    ],
    ["classification: { model: zzz }", "classification.model"],
    // Fixed charges are billed in whole nano-dollars.
    ["classification: { cost_usd: '0.0000000001' }", "classification.cost_usd"],
    [
      "research: { sources: { news_search: { provider: archive, cost_usd: '0.00000000015' } } }",
      "research.sources.news_search.cost_usd",
    ],
  ])("%s → %s", (yaml, key) => {
    expect(rejectYaml(yaml)).toContain(`invalid configuration at ${key}:`);
  });

  it("reports YAML syntax errors with the file name", () => {
    const message = rejectYaml("server: [1, 2");
    expect(message).toMatch(/sibyl\.yaml is not valid YAML/);
  });

  it("requires a mapping at the top level", () => {
    expect(rejectYaml("- 1\n- 2")).toMatch(/must hold a mapping/);
  });

  it("fails when an explicit file is missing", () => {
    const cwd = workdir();
    const missing = path.join(cwd, "absent.yaml");
    expect(configError(() => loadConfig({ file: missing, env: {}, cwd })).message).toContain(
      `config file not found: ${missing}`,
    );
    expect(
      configError(() => loadConfig({ env: { SIBYL_CONFIG: "absent.yaml" }, cwd })).message,
    ).toContain("absent.yaml");
  });
});
