/**
 * Non-streaming chat completions: Sibyl in front of a model server against that model server
 * alone, at 1 and at 10 connections, each driven by autocannon from its own process. A bare
 * proxy (proxy-process.ts) is measured beside them as the floor any extra hop costs here.
 * With `upstreamDelayMs` the model server takes that long per reply, which shows Sibyl's
 * overhead next to a realistic model; that run is reported without targets.
 */
import { runChild, startChild } from "./children.js";
import type { LoadArgs, LoadResult } from "./load-process.js";

export interface CompletionsBenchOptions {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number[];
  /** How long the fake model server takes per reply (default 0: at once). */
  upstreamDelayMs?: number;
}

export interface CompletionsBenchRow {
  connections: number;
  direct: LoadResult;
  /** The bare proxy: a reference, with no target of its own. */
  proxy: LoadResult;
  sibyl: LoadResult;
}

export interface CompletionsBenchReport {
  rows: CompletionsBenchRow[];
  upstreamDelayMs: number;
  /**
   * Every response 2xx, and with an instant upstream every target met: Sibyl ≥ 50% of the direct
   * rate, ≤ 1 ms added p50 at one connection.
   */
  passed: boolean;
}

/** Sibyl must keep at least this share of the model server's request rate. */
export const MIN_RATE_RATIO = 0.5;
/** Sibyl may add at most this much to the median latency at one connection. */
export const MAX_ADDED_P50_MS = 1;

const question = {
  messages: [{ role: "user", content: "Will the central bank cut rates at its next meeting?" }],
  max_tokens: 64,
};

export async function benchCompletions(
  options: CompletionsBenchOptions,
): Promise<CompletionsBenchReport> {
  const upstreamDelayMs = options.upstreamDelayMs ?? 0;
  const upstream = await startChild<{ url: string }>("./upstream-process.ts", {
    delayMs: upstreamDelayMs,
  });
  const proxy = await startChild<{ url: string }>("./proxy-process.ts", {
    upstreamUrl: upstream.ready.url,
  });
  try {
    const sibyl = await startChild<{ url: string; apiKey: string; model: string }>(
      "./sibyl-process.ts",
      { upstreamUrl: upstream.ready.url },
    );
    try {
      const direct = {
        url: `${upstream.ready.url}/chat/completions`,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "bench-upstream", ...question }),
      };
      const bareProxy = { ...direct, url: `${proxy.ready.url}/v1/chat/completions` };
      const proxied = {
        url: `${sibyl.ready.url}/v1/chat/completions`,
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${sibyl.ready.apiKey}`,
        },
        body: JSON.stringify({ model: sibyl.ready.model, ...question }),
      };
      const rows: CompletionsBenchRow[] = [];
      for (const connections of options.connections) {
        const common = {
          connections,
          durationSeconds: options.durationSeconds,
          warmupSeconds: options.warmupSeconds,
        };
        const directResult = await load({ ...direct, ...common });
        const proxyResult = await load({ ...bareProxy, ...common });
        const sibylResult = await load({ ...proxied, ...common });
        rows.push({ connections, direct: directResult, proxy: proxyResult, sibyl: sibylResult });
      }
      const report = {
        rows,
        upstreamDelayMs,
        passed: verdicts(rows, upstreamDelayMs).every((verdict) => verdict.ok),
      };
      printReport(report);
      return report;
    } finally {
      await sibyl.stop();
    }
  } finally {
    await proxy.stop();
    await upstream.stop();
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
    .flatMap((row) => [row.direct, row.proxy, row.sibyl])
    .filter((result) => result.non2xx > 0 || result.errors > 0);
  list.push({ label: "every response 2xx, no errors", ok: failures.length === 0 });
  return list;
}

function targetVerdicts(rows: CompletionsBenchRow[]): Verdict[] {
  const list: Verdict[] = rows.map((row) => {
    const ratio = row.sibyl.requestsPerSecond / row.direct.requestsPerSecond;
    return {
      label: `Sibyl ≥ ${MIN_RATE_RATIO * 100}% of the direct rate at ${row.connections} connection(s): ${pct(ratio)}`,
      ok: ratio >= MIN_RATE_RATIO,
    };
  });
  const single = rows.find((row) => row.connections === 1);
  if (single) {
    const added = single.sibyl.p50 - single.direct.p50;
    list.push({
      label: `≤ ${MAX_ADDED_P50_MS} ms added p50 at 1 connection: ${ms(added)}`,
      ok: added <= MAX_ADDED_P50_MS,
    });
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
    "conns  target  req/s      p50 ms   p99 ms   (autocannon p50/p99)  non-2xx  errors",
  ];
  for (const row of report.rows) {
    for (const [name, result] of [
      ["direct", row.direct],
      ["proxy", row.proxy],
      ["sibyl", row.sibyl],
    ] as const) {
      lines.push(
        [
          String(row.connections).padStart(5),
          name.padEnd(6),
          result.requestsPerSecond.toFixed(0).padStart(9),
          ms(result.p50).padStart(8),
          ms(result.p99).padStart(8),
          `(${result.autocannonP50}/${result.autocannonP99})`.padStart(22),
          String(result.non2xx).padStart(8),
          String(result.errors).padStart(7),
        ].join("  "),
      );
    }
    const ratio = row.sibyl.requestsPerSecond / row.direct.requestsPerSecond;
    const proxyRatio = row.proxy.requestsPerSecond / row.direct.requestsPerSecond;
    const sibylToProxy = row.sibyl.requestsPerSecond / row.proxy.requestsPerSecond;
    lines.push(
      `       ratio Sibyl/direct: ${pct(ratio)}   added p50: ${ms(row.sibyl.p50 - row.direct.p50)} ms   added p99: ${ms(row.sibyl.p99 - row.direct.p99)} ms`,
      `       bare proxy/direct: ${pct(proxyRatio)}   Sibyl/bare proxy: ${pct(sibylToProxy)}   Sibyl p50 over the bare proxy: ${ms(row.sibyl.p50 - row.proxy.p50)} ms`,
    );
  }
  lines.push("", report.upstreamDelayMs === 0 ? "targets:" : "checks (no targets):");
  for (const verdict of verdicts(report.rows, report.upstreamDelayMs)) {
    lines.push(`  [${verdict.ok ? "pass" : "FAIL"}] ${verdict.label}`);
  }
  console.log(lines.join("\n"));
}

function pct(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

function ms(value: number): string {
  return value.toFixed(3);
}
