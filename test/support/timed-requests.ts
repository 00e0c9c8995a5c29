import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "vitest";

/** An answer with the time it took and its size, for tests of what a request may cost. */
export interface TimedReply {
  status: number;
  /** Characters of the body. */
  bytes: number;
  ms: number;
  text: string;
}

/** POSTs a JSON body with the key and times the whole answer. */
export async function timedPost(url: string, apiKey: string, body: string): Promise<TimedReply> {
  const started = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body,
  });
  const text = await response.text();
  return { status: response.status, bytes: text.length, ms: performance.now() - started, text };
}

/**
 * Probes `/healthz` until `stop` settles, each probe `pauseMs` after the last; returns each
 * probe's time. A server whose event loop is held shows it in these times.
 */
export async function probeHealth(
  baseUrl: string,
  stop: Promise<unknown>,
  pauseMs = 20,
): Promise<number[]> {
  let stopped = false;
  void stop.finally(() => {
    stopped = true;
  });
  const times: number[] = [];
  while (!stopped) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}/healthz`);
    await response.arrayBuffer();
    expect(response.status).toBe(200);
    times.push(performance.now() - started);
    if (pauseMs > 0) await sleep(pauseMs);
  }
  return times;
}
