import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "vitest";
import { threadCpuMsOf } from "./loop-stall.js";

/** An answer with what it cost and its size, for tests of what a request may cost. */
export interface TimedReply {
  status: number;
  /** Characters of the body. */
  bytes: number;
  /** CPU milliseconds of this thread, where an in-process server runs, while it was answered. */
  cpuMs: number;
  text: string;
}

/** POSTs a JSON body with the key and measures the CPU the whole answer took. */
export async function timedPost(url: string, apiKey: string, body: string): Promise<TimedReply> {
  let status = 0;
  let text = "";
  const cpuMs = await threadCpuMsOf(async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body,
    });
    status = response.status;
    text = await response.text();
  });
  return { status, bytes: text.length, cpuMs, text };
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
