import { type JsonResponse, request } from "../../support/http.js";

export interface ApiKeyObject {
  object: "organization.api_key";
  id: string;
  name: string | null;
  redacted_value: string;
  scope: "admin" | "inference";
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
  revoked_at: number | null;
  spend_limit_usd: number | null;
  value?: string;
}

export interface ListObject<T> {
  object: "list";
  data: T[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

/** A JSON request to the organization API with a key. */
export function call(
  baseUrl: string,
  apiKey: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<JsonResponse> {
  return request(baseUrl, path, {
    method,
    apiKey,
    ...(body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
}

/** Creates a key through the API; fails the test unless it is created. */
export async function createKey(
  baseUrl: string,
  adminKey: string,
  body: Record<string, unknown> = {},
): Promise<ApiKeyObject & { value: string }> {
  const response = await call(baseUrl, adminKey, "POST", "/v1/organization/api_keys", body);
  if (response.status !== 200) {
    throw new Error(`key creation answered ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return response.body as ApiKeyObject & { value: string };
}
