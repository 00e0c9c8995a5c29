/**
 * Non-streaming chat completions under one load (the same connections, body and duration) sent
 * to the model server directly, through a bare proxy (proxy-process.ts: the least an extra HTTP
 * hop costs here) and through Sibyl on SQLite and on PostgreSQL, each driven by autocannon from
 * its own process. The Sibyl rows are the shipped server as a user runs it (shipped-sibyl.ts:
 * `dist/cli.js serve`, npm start's Node options, the default configuration with its access log
 * and batch worker). Sibyl is judged against the bare proxy, which carries the same hop. The
 * "reading proxy" row (reading-proxy-process.ts) is the bare proxy checking a key, parsing what it
 * passes on both ways and tallying usage: the least any gateway that bills what it reads adds.
 * The "Fastify proxy" row is the bare proxy on Sibyl's framework (fastify-proxy-process.ts): what
 * the framework alone adds. The "Sibyl floor" row is a route of the benchmark's own Sibyl server
 * (floor-process.ts) that stops short of the pipeline (floor-route.ts): what Sibyl's HTTP layer,
 * authentication and rate limit cost
 * on their own. The "Sibyl forward" row is that route passing the parsed body to the model server
 * and its parsed reply back: the most Sibyl could reach were its holds, settlement, usage records
 * and answer step free.
 * With `upstreamDelayMs` the model server takes that long per reply, which shows Sibyl's
 * overhead next to a realistic model; that run is reported without targets.
 * Each row also shows the CPU the target's own process spent per response once warm: on a shared
 * machine rates swing with the neighbours' load, CPU per response much less.
 */
import { createTestDatabase } from "../test/support/postgres.js";
import { runChild, startChild } from "./children.js";
import type { LoadArgs, LoadResult } from "./load-process.js";
import { DEPLOYED_NODE_OPTIONS } from "./node-options.js";
import { BENCH_MODEL, startShippedSibyl } from "./shipped-sibyl.js";

export interface CompletionsBenchOptions {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number[];
  /** How long the fake model server takes per reply (default 0: at once). */
  upstreamDelayMs?: number;
}

export const TARGET_NAMES = [
  "direct",
  "proxy",
  "reading",
  "fastify",
  "floor",
  "forward",
  "sqlite",
  "postgres",
] as const;
export type TargetName = (typeof TARGET_NAMES)[number];

export interface CompletionsBenchRow {
  connections: number;
  results: Record<TargetName, LoadResult>;
}

export interface CompletionsBenchReport {
  rows: CompletionsBenchRow[];
  /** Each shipped server's resident set once it answered, before any load (MB). */
  startupRssMb: Record<Database, number>;
  upstreamDelayMs: number;
  /** Every response 2xx, and with an instant upstream every target met. */
  passed: boolean;
}

type Database = "sqlite" | "postgres";

/** The connections at which the rate and tail targets apply. */
export const LOADED_CONNECTIONS = 32;
/** The least share of the bare proxy's request rate Sibyl keeps at 32 connections. */
export const MIN_RATE_TO_PROXY: Record<Database, number> = { sqlite: 0.6, postgres: 0.45 };
/** Sibyl's p99 at 32 connections may be at most this many times the bare proxy's. */
export const MAX_P99_TO_PROXY = 3;
/** What Sibyl may add to the bare proxy's median latency at one connection (ms). */
export const MAX_ADDED_P50_MS: Record<Database, number> = { sqlite: 0.3, postgres: 0.5 };

const LABELS: Record<TargetName, string> = {
  direct: "model server",
  proxy: "bare proxy",
  reading: "reading proxy",
  fastify: "Fastify proxy",
  floor: "Sibyl floor",
  forward: "Sibyl forward",
  sqlite: "Sibyl SQLite",
  postgres: "Sibyl Postgres",
};

/** The one key the reading proxy accepts. */
const READING_PROXY_KEY = "sk_bench_reading_proxy";

const question = {
  messages: [{ role: "user", content: "Will the central bank cut rates at its next meeting?" }],
  max_tokens: 64,
};

interface Request {
  url: string;
  headers: Record<string, string>;
  body: string;
}

interface Started {
  request: Request;
  pid: number;
  startupRssMb: number;
  stop(): Promise<void>;
}

/** The shipped server (shipped-sibyl.ts), asked for the benchmark's chat completion. */
async function startSibyl(upstreamUrl: string, databaseUrl?: string): Promise<Started> {
  const sibyl = await startShippedSibyl(upstreamUrl, databaseUrl);
  return {
    request: {
      url: `${sibyl.url}/v1/chat/completions`,
      headers: { "content-type": "application/json", authorization: `Bearer ${sibyl.apiKey}` },
      body: JSON.stringify({ model: BENCH_MODEL, ...question }),
    },
    pid: sibyl.pid,
    startupRssMb: sibyl.startupRssMb,
    stop: () => sibyl.stop(),
  };
}

/** The benchmark's own server with the floor routes (floor-process.ts). */
async function startFloors(upstreamUrl: string) {
  const floors = await startChild<{ floorUrl: string; forwardingFloorUrl: string; apiKey: string }>(
    "./floor-process.ts",
    { upstreamUrl },
    DEPLOYED_NODE_OPTIONS,
  );
  const request = (url: string): Request => ({
    url,
    headers: { "content-type": "application/json", authorization: `Bearer ${floors.ready.apiKey}` },
    body: JSON.stringify({ model: BENCH_MODEL, ...question }),
  });
  return {
    floor: request(floors.ready.floorUrl),
    forward: request(floors.ready.forwardingFloorUrl),
    pid: floors.process.pid as number,
    stop: () => floors.stop(),
  };
}

export async function benchCompletions(
  options: CompletionsBenchOptions,
): Promise<CompletionsBenchReport> {
  const upstreamDelayMs = options.upstreamDelayMs ?? 0;
  const stops: (() => Promise<void>)[] = [];
  try {
    const upstream = await startChild<{ url: string }>("./upstream-process.ts", {
      delayMs: upstreamDelayMs,
    });
    stops.push(() => upstream.stop());
    const proxy = await startChild<{ url: string }>("./proxy-process.ts", {
      upstreamUrl: upstream.ready.url,
    });
    stops.push(() => proxy.stop());
    const readingProxy = await startChild<{ url: string }>("./reading-proxy-process.ts", {
      upstreamUrl: upstream.ready.url,
      apiKey: READING_PROXY_KEY,
    });
    stops.push(() => readingProxy.stop());
    const fastifyProxy = await startChild<{ url: string }>("./fastify-proxy-process.ts", {
      upstreamUrl: upstream.ready.url,
    });
    stops.push(() => fastifyProxy.stop());
    const database = await createTestDatabase({ durable: true });
    stops.push(() => database.drop());
    const sqlite = await startSibyl(upstream.ready.url);
    stops.push(() => sqlite.stop());
    const postgres = await startSibyl(upstream.ready.url, database.url);
    stops.push(() => postgres.stop());
    const floors = await startFloors(upstream.ready.url);
    stops.push(() => floors.stop());

    const direct: Request = {
      url: `${upstream.ready.url}/chat/completions`,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "bench-upstream", ...question }),
    };
    const requests: Record<TargetName, Request> = {
      direct,
      proxy: { ...direct, url: `${proxy.ready.url}/v1/chat/completions` },
      reading: {
        ...direct,
        url: `${readingProxy.ready.url}/v1/chat/completions`,
        headers: { ...direct.headers, authorization: `Bearer ${READING_PROXY_KEY}` },
      },
      fastify: { ...direct, url: `${fastifyProxy.ready.url}/v1/chat/completions` },
      floor: floors.floor,
      forward: floors.forward,
      sqlite: sqlite.request,
      postgres: postgres.request,
    };
    // The process whose CPU is the target's own cost: the model server itself when direct.
    const pids: Record<TargetName, number> = {
      direct: upstream.process.pid as number,
      proxy: proxy.process.pid as number,
      reading: readingProxy.process.pid as number,
      fastify: fastifyProxy.process.pid as number,
      floor: floors.pid,
      forward: floors.pid,
      sqlite: sqlite.pid,
      postgres: postgres.pid,
    };
    const rows: CompletionsBenchRow[] = [];
    for (const connections of options.connections) {
      const common = {
        connections,
        durationSeconds: options.durationSeconds,
        warmupSeconds: options.warmupSeconds,
      };
      const results = {} as Record<TargetName, LoadResult>;
      for (const name of TARGET_NAMES) {
        results[name] = await load({ ...requests[name], ...common, cpuPid: pids[name] });
      }
      rows.push({ connections, results });
    }
    const report = {
      rows,
      startupRssMb: { sqlite: sqlite.startupRssMb, postgres: postgres.startupRssMb },
      upstreamDelayMs,
      passed: verdicts(rows, upstreamDelayMs).every((verdict) => verdict.ok),
    };
    printReport(report);
    return report;
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

function load(args: LoadArgs): Promise<LoadResult> {
  return runChild<LoadResult>("./load-process.ts", args);
}

interface Verdict {
  label: string;
  ok: boolean;
}

function verdicts(rows: CompletionsBenchRow[], upstreamDelayMs: number): Verdict[] {
  // The targets are about Sibyl's own cost, measured against an upstream that costs nothing.
  const list = upstreamDelayMs === 0 ? targetVerdicts(rows) : [];
  const failures = rows
    .flatMap((row) => Object.values(row.results))
    .filter((result) => result.non2xx > 0 || result.errors > 0);
  list.push({ label: "every response 2xx, no errors", ok: failures.length === 0 });
  return list;
}

function targetVerdicts(rows: CompletionsBenchRow[]): Verdict[] {
  const list: Verdict[] = [];
  const loaded = rows.find((row) => row.connections === LOADED_CONNECTIONS);
  if (loaded) {
    const proxy = loaded.results.proxy;
    for (const name of ["sqlite", "postgres"] as const) {
      const ratio = loaded.results[name].requestsPerSecond / proxy.requestsPerSecond;
      const target = MIN_RATE_TO_PROXY[name];
      list.push({
        label: `${LABELS[name]} ≥ ${target * 100}% of the bare proxy's rate at ${LOADED_CONNECTIONS} connections: ${pct(ratio)}`,
        ok: ratio >= target,
      });
    }
    for (const name of ["sqlite", "postgres"] as const) {
      const ratio = loaded.results[name].p99 / proxy.p99;
      list.push({
        label: `${LABELS[name]} p99 ≤ ${MAX_P99_TO_PROXY}× the bare proxy's at ${LOADED_CONNECTIONS} connections: ${ms(loaded.results[name].p99)} ms, ${ratio.toFixed(2)}×`,
        ok: ratio <= MAX_P99_TO_PROXY,
      });
    }
  }
  const single = rows.find((row) => row.connections === 1);
  if (single) {
    for (const name of ["sqlite", "postgres"] as const) {
      const added = single.results[name].p50 - single.results.proxy.p50;
      list.push({
        label: `${LABELS[name]} adds ≤ ${MAX_ADDED_P50_MS[name]} ms to the bare proxy's p50 at 1 connection: ${ms(added)} ms`,
        ok: added <= MAX_ADDED_P50_MS[name],
      });
    }
  }
  return list;
}

function printReport(report: CompletionsBenchReport): void {
  const upstream =
    report.upstreamDelayMs === 0
      ? "upstream answers at once"
      : `upstream answers after ${report.upstreamDelayMs} ms`;
  const lines = [
    `POST /v1/chat/completions (non-streaming), loopback, ${upstream}`,
    "",
    "conns  target            req/s    p50 ms    p99 ms  rate/proxy  p50-proxy ms  CPU ms/req  non-2xx  errors",
  ];
  for (const row of report.rows) {
    const proxy = row.results.proxy;
    for (const name of TARGET_NAMES) {
      const result = row.results[name];
      lines.push(
        [
          String(row.connections).padStart(5),
          LABELS[name].padEnd(14),
          result.requestsPerSecond.toFixed(0).padStart(9),
          ms(result.p50).padStart(8),
          ms(result.p99).padStart(8),
          pct(result.requestsPerSecond / proxy.requestsPerSecond).padStart(10),
          ms(result.p50 - proxy.p50).padStart(12),
          ms(result.cpuMsPerResponse).padStart(10),
          String(result.non2xx).padStart(7),
          String(result.errors).padStart(6),
        ].join("  "),
      );
    }
  }
  lines.push(
    "",
    `start-up RSS of the shipped server (answering, before any load): SQLite ${report.startupRssMb.sqlite} MB, PostgreSQL ${report.startupRssMb.postgres} MB`,
  );
  lines.push("", report.upstreamDelayMs === 0 ? "targets:" : "checks (no targets):");
  for (const verdict of verdicts(report.rows, report.upstreamDelayMs)) {
    lines.push(`  [${verdict.ok ? "PASS" : "FAIL"}] ${verdict.label}`);
  }
  console.log(lines.join("\n"));
}

function pct(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

/** A figure in milliseconds; a target that answered nothing with a 2xx has none. */
function ms(value: number | null): string {
  return value === null || Number.isNaN(value) ? "n/a" : value.toFixed(3);
}
