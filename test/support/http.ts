import { expect } from "vitest";

export interface JsonResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the raw text when the body is not JSON. */
  body: unknown;
}

/** One real HTTP request against the server under test. */
export async function request(
  baseUrl: string,
  path: string,
  init: RequestInit & { apiKey?: string } = {},
): Promise<JsonResponse> {
  const { apiKey, headers, ...rest } = init;
  const merged = new Headers(headers);
  if (apiKey !== undefined) merged.set("authorization", `Bearer ${apiKey}`);
  const response = await fetch(`${baseUrl}${path}`, { ...rest, headers: merged });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (e.g. /metrics); keep the text.
  }
  return { status: response.status, headers: response.headers, body };
}

export interface ExpectedError {
  status: number;
  code: string | null;
  type?: string;
  param?: string | null;
}

/**
 * The error shape every failure shares: an OpenAI-style `error` object so SDKs show the
 * message, plus `detail` (FastAPI style).
 */
export function expectErrorResponse(response: JsonResponse, expected: ExpectedError): void {
  expect(response.status).toBe(expected.status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = response.body as {
    error: { message: unknown; type: unknown; param: unknown; code: unknown };
    detail: unknown;
  };
  expect(Object.keys(body).sort()).toEqual(["detail", "error"]);
  expect(Object.keys(body.error).sort()).toEqual(["code", "message", "param", "type"]);
  expect(typeof body.error.message).toBe("string");
  expect((body.error.message as string).length).toBeGreaterThan(0);
  expect(typeof body.error.type).toBe("string");
  expect(body.error.code).toBe(expected.code);
  if (expected.type !== undefined) expect(body.error.type).toBe(expected.type);
  if (expected.param !== undefined) expect(body.error.param).toBe(expected.param);
  if (typeof body.detail === "string") expect(body.detail).toBe(body.error.message);
  else expect(Array.isArray(body.detail)).toBe(true);
}

/** Both mounts of every `/v1` route. */
export const V1_PREFIXES = ["/v1", "/v1/compat"] as const;
