/**
 * `npm run bench`: runs each benchmark in turn and exits non-zero when one misses its targets
 * (or fails). `npm run bench -- completions` runs only the benchmarks named.
 * Environment: BENCH_SECONDS (default 8) per measurement, BENCH_WARMUP_SECONDS (default 10: a
 * fresh server spends its first seconds compiling; after 1 s, Sibyl on PostgreSQL measured 19% of
 * the bare proxy's rate, after 10 s 28.5%, and a server users run has long been warm).
 * To add a benchmark, append an entry to `benchmarks`.
 */
import { availableParallelism, loadavg } from "node:os";
import { benchArchive } from "./archive.js";
import { benchBatches } from "./batches.js";
import { benchCompletions } from "./completions.js";
import { benchExtraction } from "./extraction.js";
import { benchResearch } from "./research.js";
import { benchScores } from "./scores.js";

interface Benchmark {
  name: string;
  /** Resolves true when the benchmark met its targets. */
  run(): Promise<boolean>;
}

const durationSeconds = positiveNumber(process.env.BENCH_SECONDS, 8);
const warmupSeconds = positiveNumber(process.env.BENCH_WARMUP_SECONDS, 10);

const benchmarks: Benchmark[] = [
  {
    name: "completions",
    run: async () =>
      (await benchCompletions({ durationSeconds, warmupSeconds, connections: [32, 1] })).passed,
  },
  {
    // Sibyl's overhead next to a model that takes a realistic 20 ms per reply; no targets.
    name: "completions-20ms",
    run: async () =>
      (
        await benchCompletions({
          durationSeconds,
          warmupSeconds,
          connections: [32, 1],
          upstreamDelayMs: 20,
        })
      ).passed,
  },
  {
    // Reading the answer out of ~10 kB replies; target p99 under 1 ms per answer type.
    name: "extraction",
    run: async () => benchExtraction().passed,
  },
  {
    // A 50,000-line batch: target peak RSS under 200 MB; it throws when a batch or upload fails.
    name: "batches",
    run: async () => (await benchBatches()).passed,
  },
  {
    // Import throughput and search p50/p99 over 100,000 articles on SQLite; target p50 < 20 ms.
    name: "archive",
    run: async () => (await benchArchive()).passed,
  },
  {
    // The leak guard: adversarial corpus (leaks caught 100%, controls kept ≥ 95%) and p99 < 1 ms
    // per 2 kB result.
    name: "research",
    run: async () => (await benchResearch()).passed,
  },
  {
    // The track record's score report over 100,000 resolved forecasts, SQLite and PostgreSQL;
    // target p50 < 50 ms.
    name: "scores",
    run: async () => (await benchScores()).passed,
  },
];

console.log(
  `node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(" ")}; ${durationSeconds} s per measurement after ${warmupSeconds} s of warm-up`,
);

const wanted = process.argv.slice(2);
const selected = wanted.length
  ? benchmarks.filter((benchmark) => wanted.includes(benchmark.name))
  : benchmarks;
if (selected.length === 0) {
  throw new Error(
    `no benchmark named ${wanted.join(", ")}; known: ${benchmarks.map((b) => b.name).join(", ")}`,
  );
}

let allPassed = true;
for (const benchmark of selected) {
  console.log(`\n== ${benchmark.name} ==`);
  const started = Date.now();
  const passed = await benchmark.run();
  console.log(`(${benchmark.name}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  allPassed &&= passed;
}
process.exitCode = allPassed ? 0 : 1;

function positiveNumber(text: string | undefined, fallback: number): number {
  const value = Number(text);
  return text !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
