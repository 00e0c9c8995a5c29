/**
 * The benchmark's own Sibyl server for the floor rows: the real app from the build (`npm run
 * build` first) over a fresh SQLite file, with the chat completions routes of floor-route.ts
 * added, which stop short of the pipeline (or only call the model). The Sibyl rows measure the
 * shipped server instead (shipped-sibyl.ts); this one exists because those routes cannot be
 * added to it. It logs at the default level to a file, like the shipped server in the bench.
 * Argument: `{"upstreamUrl": …}`. Prints `{"floorUrl", "forwardingFloorUrl", "apiKey"}` once it
 * listens.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { destination } from "pino";
import { stringify } from "yaml";
import { addFloorRoutes, FLOOR_PATH, FORWARDING_FLOOR_PATH } from "./floor-route.js";

const build = new URL("../dist/", import.meta.url);
const fromBuild = <T>(file: string) => import(new URL(file, build).href) as Promise<T>;
await fromBuild("runtime-flags.js");
const { buildApp } = await fromBuild<typeof import("../src/app.js")>("app.js");
const { usdToNanos } = await fromBuild<typeof import("../src/util/money.js")>("util/money.js");
const { loadConfig } = await fromBuild<typeof import("../src/config/index.js")>("config/index.js");
const { createServices } = await fromBuild<typeof import("../src/services.js")>("services.js");

const BENCH_MODEL = "bench-model";

const { upstreamUrl } = JSON.parse(process.argv[2] ?? "{}") as { upstreamUrl: string };
const dataDir = mkdtempSync(path.join(tmpdir(), "sibyl-bench-"));
const file = path.join(dataDir, "sibyl.yaml");
writeFileSync(
  file,
  stringify({
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
// The shipped server's logger (app.ts), written to a file as the shipped server's is.
const app = await buildApp(services, {
  logger: {
    level: config.server.log_level,
    redact: ["req.headers.authorization", 'req.headers["x-api-key"]'],
    stream: destination({ dest: path.join(dataDir, "sibyl.log"), sync: true }),
  },
});
await addFloorRoutes(app, services, build, upstreamUrl);
const url = await app.listen({ host: "127.0.0.1", port: 0 });

const { key } = await services.accounts.open({
  name: "benchmark",
  creditsNanos: usdToNanos("1000000"),
});

process.stdout.write(
  `${JSON.stringify({
    floorUrl: `${url}${FLOOR_PATH}`,
    forwardingFloorUrl: `${url}${FORWARDING_FLOOR_PATH}`,
    apiKey: key.api_key,
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
