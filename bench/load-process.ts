/**
 * Drives one target with autocannon for a while and prints one JSON line: autocannon's own
 * figures and percentiles of every 2xx response time, kept at full (sub-millisecond) precision.
 */
import autocannon from "autocannon";
import { processCpuMs } from "./process-cpu.js";
import { quantile } from "./stats.js";

export interface LoadArgs {
  url: string;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  headers: Record<string, string>;
  body: string;
  /** The process whose CPU is the target's own cost, read after warm-up and at the end. */
  cpuPid: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Milliseconds, from every response time recorded. */
  p50: number;
  p99: number;
  mean: number;
  /** autocannon's own percentiles (whole milliseconds). */
  autocannonP50: number;
  autocannonP99: number;
  completed: number;
  /** Responses during warm-up, not counted in the figures above. */
  warmupResponses: number;
  non2xx: number;
  errors: number;
  /** CPU milliseconds `cpuPid` spent per response while measured, warm-up left out. */
  cpuMsPerResponse: number;
}

const args = JSON.parse(process.argv[2] ?? "{}") as LoadArgs;
const options = {
  url: args.url,
  method: "POST",
  headers: args.headers,
  body: args.body,
  connections: args.connections,
  timeout: 10,
};

const warmup =
  args.warmupSeconds > 0 ? await autocannon({ ...options, duration: args.warmupSeconds }) : null;
const warmupResponses = warmup ? warmup["2xx"] + warmup.non2xx : 0;

const cpuBefore = processCpuMs(args.cpuPid);
const times: number[] = [];
const instance = autocannon({ ...options, duration: args.durationSeconds });
instance.on("response", (_client, statusCode, _bytes, ms) => {
  if (statusCode >= 200 && statusCode < 300) times.push(ms);
});
const result = await instance;
const cpuMs = processCpuMs(args.cpuPid) - cpuBefore;
times.sort((a, b) => a - b);

const report: LoadResult = {
  requestsPerSecond: result["2xx"] / result.duration,
  p50: quantile(times, 0.5),
  p99: quantile(times, 0.99),
  mean: times.reduce((sum, ms) => sum + ms, 0) / Math.max(1, times.length),
  autocannonP50: result.latency.p50,
  autocannonP99: result.latency.p99,
  completed: result["2xx"],
  warmupResponses,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
  cpuMsPerResponse: cpuMs / Math.max(1, result["2xx"] + result.non2xx),
};
process.stdout.write(`${JSON.stringify(report)}\n`);
