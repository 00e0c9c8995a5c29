import { setTimeout as sleep } from "node:timers/promises";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventLoopLag } from "../../src/observability/event-loop-lag.js";
import { request } from "../support/http.js";
import { parsePrometheus, sampleValue } from "../support/prometheus.js";
import { startTestServer, type TestServer } from "../support/server.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

/** Keeps the event loop busy, as a long synchronous computation would. */
function blockEventLoop(ms: number): void {
  const until = performance.now() + ms;
  let spins = 0;
  while (performance.now() < until) spins++;
  expect(spins).toBeGreaterThan(0);
}

async function scrape(): Promise<ReturnType<typeof parsePrometheus>> {
  const response = await request(server.url, "/metrics");
  expect(response.status).toBe(200);
  return parsePrometheus(response.body as string);
}

describe("event-loop lag on /metrics", () => {
  it("reports delay quantiles and the longest delay", async () => {
    const samples = await scrape();
    for (const quantile of ["0.5", "0.9", "0.99"]) {
      const value = sampleValue(samples, "sibyl_event_loop_lag_seconds", { quantile });
      expect(value).toBeGreaterThanOrEqual(0);
    }
    expect(sampleValue(samples, "sibyl_event_loop_lag_max_seconds", {})).toBeGreaterThanOrEqual(0);
  });

  it("shows a stall in the next scrape, and only in that one", async () => {
    await scrape();
    blockEventLoop(300);
    // The sampling timer records the stall when it next runs.
    await sleep(50);
    const afterStall = sampleValue(await scrape(), "sibyl_event_loop_lag_max_seconds", {});
    expect(afterStall).toBeGreaterThanOrEqual(0.25);
    await sleep(50);
    const later = sampleValue(await scrape(), "sibyl_event_loop_lag_max_seconds", {});
    expect(later).toBeLessThan(0.25);
  });
});

describe("the event-loop sampler", () => {
  async function longestDelay(registry: Registry): Promise<number | undefined> {
    const samples = parsePrometheus(await registry.metrics());
    return sampleValue(samples, "sibyl_event_loop_lag_max_seconds", {});
  }

  it("records nothing once stopped", async () => {
    const registry = new Registry();
    const lag = new EventLoopLag(registry);
    lag.start();
    blockEventLoop(100);
    await sleep(30);
    expect(await longestDelay(registry)).toBeGreaterThanOrEqual(0.08);
    lag.stop();
    blockEventLoop(100);
    await sleep(30);
    expect(await longestDelay(registry)).toBe(0);
  });
});
