/**
 * Sibyl as a user runs it: the shipped entry point (`dist/cli.js serve`, `npm run build` first)
 * with npm start's Node options, the default configuration (access log at info, the batch
 * worker on) and, as a service manager would, its log written to a file. The configuration
 * names the benchmark's model and lifts the per-organization rate limit, which a load test
 * exceeds by design; nothing else. The organization and its key come from `sibyl orgs create`.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { stringify } from "yaml";
import { DEPLOYED_NODE_OPTIONS } from "./node-options.js";

const CLI = new URL("../dist/cli.js", import.meta.url).pathname;
export const BENCH_MODEL = "bench-model";
const READY_TIMEOUT_MS = 60_000;

export interface ShippedSibyl {
  url: string;
  apiKey: string;
  pid: number;
  /** Resident set once it answered its first health check, before any load (MB). */
  startupRssMb: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
}

async function waitUntilHealthy(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(
        `sibyl serve exited with ${child.exitCode}: ${readFileSync(logFile, "utf8")}`,
      );
    }
    try {
      const response = await fetch(`${url}/healthz`);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error(`sibyl serve did not answer within ${READY_TIMEOUT_MS} ms`);
}

export async function startShippedSibyl(
  upstreamUrl: string,
  databaseUrl?: string,
): Promise<ShippedSibyl> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "sibyl-bench-shipped-"));
  const config = path.join(dataDir, "sibyl.yaml");
  writeFileSync(
    config,
    stringify({
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
  const env = { ...process.env, SIBYL_DATA_DIR: dataDir };
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [CLI, "orgs", "create", "--name", "benchmark", "--credits-usd", "1000000", "--config", config],
    { cwd: dataDir, env },
  );
  const { api_key: apiKey } = JSON.parse(stdout) as { api_key: string };
  const port = await freePort();
  const logFile = path.join(dataDir, "sibyl.log");
  const log = openSync(logFile, "a");
  const child = spawn(
    process.execPath,
    [...DEPLOYED_NODE_OPTIONS, CLI, "serve", "--config", config, "--port", String(port)],
    { cwd: dataDir, env, stdio: ["ignore", log, log] },
  );
  closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  const pid = child.pid as number;
  const stop = async () => {
    if (child.exitCode === null) {
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      });
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilHealthy(url, child, logFile);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, apiKey, pid, startupRssMb: rssMb(pid), stop };
}
