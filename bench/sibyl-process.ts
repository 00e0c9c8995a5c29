/**
 * A Sibyl server for the benchmark: the real app, from the build (`npm run build` first) as
 * deployments run it, on loopback over a fresh SQLite file (or the PostgreSQL database given),
 * with an upstream model, authentication, credits, rate limiting and usage accounting all on.
 * Argument: `{"upstreamUrl": …, "databaseUrl"?: …}`. Prints `{"url", "apiKey", "model"}` once it
 * listens, with `floorUrl` and `forwardingFloorUrl`: the same server's chat completions routes
 * with nothing, or only the model call, behind them (floor-route.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { stringify } from "yaml";
import { addFloorRoutes, FLOOR_PATH, FORWARDING_FLOOR_PATH } from "./floor-route.js";

const build = new URL("../dist/", import.meta.url);
const fromBuild = <T>(file: string) => import(new URL(file, build).href) as Promise<T>;
await fromBuild("runtime-flags.js");
const { buildApp } = await fromBuild<typeof import("../src/app.js")>("app.js");
const { usdToNanos } =
  await fromBuild<typeof import("../src/billing/money.js")>("billing/money.js");
const { loadConfig } = await fromBuild<typeof import("../src/config/index.js")>("config/index.js");
const { createServices } = await fromBuild<typeof import("../src/services.js")>("services.js");

const BENCH_MODEL = "bench-model";

const { upstreamUrl, databaseUrl } = JSON.parse(process.argv[2] ?? "{}") as {
  upstreamUrl: string;
  databaseUrl?: string;
};
const dataDir = mkdtempSync(path.join(tmpdir(), "sibyl-bench-"));
const file = path.join(dataDir, "sibyl.yaml");
writeFileSync(
  file,
  stringify({
    server: { log_level: "warn" },
    ...(databaseUrl ? { database: { url: databaseUrl } } : {}),
    limits: { requests_per_minute: 100_000_000 },
    models: [
      {
        id: BENCH_MODEL,
        provider: "openai",
        base_url: upstreamUrl,
        pricing: { prompt: "0.0000002", completion: "0.0000008" },
        max_completion_tokens: 256,
        context_length: 32_768,
      },
    ],
  }),
);
const config = loadConfig({ file, env: { SIBYL_DATA_DIR: dataDir }, cwd: dataDir });
const services = await createServices(config);
const app = await buildApp(services);
await addFloorRoutes(app, services, build, upstreamUrl);
const url = await app.listen({ host: "127.0.0.1", port: 0 });

const { key } = await services.accounts.open({
  name: "benchmark",
  creditsNanos: usdToNanos("1000000"),
});

process.stdout.write(
  `${JSON.stringify({
    url,
    floorUrl: `${url}${FLOOR_PATH}`,
    forwardingFloorUrl: `${url}${FORWARDING_FLOOR_PATH}`,
    apiKey: key.api_key,
    model: BENCH_MODEL,
  })}\n`,
);

process.on("SIGTERM", () => {
  void (async () => {
    app.server.closeAllConnections();
    await app.close();
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  })();
});
