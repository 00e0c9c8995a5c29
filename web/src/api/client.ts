/** An error answer from the API, with its OpenAI-style message and code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

interface ErrorShape {
  error?: { message?: unknown; code?: unknown };
}

async function failure(response: Response): Promise<ApiError> {
  let body: ErrorShape = {};
  try {
    body = (await response.json()) as ErrorShape;
  } catch {
    // Not JSON (a proxy's page, say): the status alone says what happened.
  }
  const message =
    typeof body.error?.message === "string"
      ? body.error.message
      : `The server answered ${response.status} ${response.statusText}.`;
  const code = typeof body.error?.code === "string" ? body.error.code : null;
  return new ApiError(response.status, message, code);
}

export type Query = Record<string, string | number | undefined | null | readonly string[]>;

function withQuery(path: string, query: Query | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, item);
    else params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** Calls the API of the server that serves the page, with the signed-in key. */
export class Api {
  constructor(private readonly key: string) {}

  async raw(method: string, path: string, init: { query?: Query; body?: unknown } = {}) {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}` };
    if (init.body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(withQuery(path, init.query), {
      method,
      headers,
      body: init.body === undefined ? null : JSON.stringify(init.body),
      cache: "no-store",
    });
    if (!response.ok) throw await failure(response);
    return response;
  }

  async get<T>(path: string, query?: Query): Promise<T> {
    return (await (await this.raw("GET", path, query ? { query } : {})).json()) as T;
  }

  async post<T>(path: string, body?: unknown): Promise<T> {
    return (await (await this.raw("POST", path, { body })).json()) as T;
  }

  async delete<T>(path: string): Promise<T> {
    return (await (await this.raw("DELETE", path)).json()) as T;
  }

  /** A file's content as a blob, for a download the page starts itself. */
  async blob(path: string): Promise<Blob> {
    return (await this.raw("GET", path)).blob();
  }
}

/** Exchanges a one-time sign-in token for a new key; needs no key itself. */
export async function exchangeSignInToken(token: string): Promise<string> {
  const response = await fetch("/v1/dashboard/sign-in", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token }),
    cache: "no-store",
  });
  if (!response.ok) throw await failure(response);
  const body = (await response.json()) as { api_key: string };
  return body.api_key;
}

/**
 * Tells the server the session ends: a key a sign-in link issued is revoked there, a key pasted
 * in is left alone. Signing out goes on in the page whatever the answer, even offline.
 */
export async function endSession(key: string): Promise<void> {
  try {
    await fetch("/v1/dashboard/sign-out", {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      cache: "no-store",
    });
  } catch {
    // The key still expires on its own; the page must sign out regardless.
  }
}

export const messageOf = (error: unknown) =>
  error instanceof Error ? error.message : "Something went wrong.";
