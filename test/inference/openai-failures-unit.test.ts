import { describe, expect, it } from "vitest";
import { parseRetryAfter, retryDelayMs } from "../../src/inference/openai/backoff.js";
import { requestFailure, transferError } from "../../src/inference/openai/failures.js";

function codedError(code: string): Error {
  return Object.assign(new Error(code), { code });
}

describe("failure classification", () => {
  it("retries a connect timeout and reports it as 'timeout'", () => {
    const failure = requestFailure(codedError("UND_ERR_CONNECT_TIMEOUT"), undefined);
    expect([failure.error.failure, failure.retryable]).toEqual(["timeout", true]);
  });

  it("finds the code on a wrapped cause", () => {
    const wrapped = new Error("fetch failed", { cause: codedError("ECONNRESET") });
    const failure = requestFailure(wrapped, undefined);
    expect([failure.error.failure, failure.retryable]).toEqual(["unavailable", true]);
  });

  it("never retries once the caller aborted", () => {
    const failure = requestFailure(codedError("UND_ERR_SOCKET"), AbortSignal.abort());
    expect([failure.error.failure, failure.retryable]).toEqual(["aborted", false]);
  });

  it("maps header and body timeouts to 'timeout'", () => {
    expect(transferError(codedError("UND_ERR_HEADERS_TIMEOUT"), undefined).failure).toBe("timeout");
    expect(transferError(codedError("UND_ERR_BODY_TIMEOUT"), undefined).failure).toBe("timeout");
  });
});

describe("backoff", () => {
  const policy = { attempts: 3, baseDelayMs: 100, maxDelayMs: 1_000 };

  it("draws full jitter below an exponentially growing ceiling", () => {
    for (let i = 0; i < 50; i += 1) {
      expect(retryDelayMs(0, policy, null)).toBeLessThanOrEqual(100);
      expect(retryDelayMs(2, policy, null)).toBeLessThanOrEqual(400);
      expect(retryDelayMs(10, policy, null)).toBeLessThanOrEqual(1_000);
    }
  });

  it("honours retry-after seconds up to the maximum delay", () => {
    expect(retryDelayMs(0, policy, parseRetryAfter("0.5"))).toBe(500);
    expect(retryDelayMs(0, policy, parseRetryAfter("120"))).toBe(1_000);
    expect(parseRetryAfter(undefined)).toBeNull();
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT")).toBeNull();
  });
});
