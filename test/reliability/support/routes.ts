import { V1_PREFIXES } from "../../support/http.js";

/** A route as the fuzzer sees it. */
export interface FuzzRoute {
  method: "GET" | "POST" | "DELETE";
  /** As /openapi.json names it; `{model_path}` is the unlisted route for ids with slashes. */
  path: string;
  /** The component schema of its JSON body, or a multipart upload. */
  body?:
    | "ChatCompletionRequest"
    | "CompletionRequest"
    | "ResponseCreateRequest"
    | "BatchCreateRequest"
    | "ApiKeyCreateRequest"
    | "ApiKeyUpdateRequest"
    | "QuestionCreateRequest"
    | "ResolutionRequest"
    | "CalibrationCreateRequest"
    | "multipart";
  /** Kept out of /openapi.json. */
  hidden?: boolean;
}

const SYSTEM_ROUTES: FuzzRoute[] = [
  { method: "GET", path: "/healthz", hidden: true },
  { method: "GET", path: "/metrics", hidden: true },
  { method: "GET", path: "/openapi.json", hidden: true },
];

/** Every `/v1` route (src/http/routes/*.ts); deletions last, so the others find files to read. */
const API_ROUTES: FuzzRoute[] = [
  { method: "GET", path: "/models" },
  { method: "GET", path: "/models/{model_id}" },
  { method: "GET", path: "/models/{model_path}", hidden: true },
  { method: "GET", path: "/balance" },
  { method: "POST", path: "/chat/completions", body: "ChatCompletionRequest" },
  { method: "POST", path: "/completions", body: "CompletionRequest" },
  { method: "POST", path: "/responses", body: "ResponseCreateRequest" },
  { method: "POST", path: "/files", body: "multipart" },
  { method: "GET", path: "/files" },
  { method: "GET", path: "/files/{file_id}" },
  { method: "GET", path: "/files/{file_id}/content" },
  { method: "POST", path: "/batches", body: "BatchCreateRequest" },
  { method: "GET", path: "/batches" },
  { method: "GET", path: "/batches/{batch_id}" },
  { method: "POST", path: "/batches/{batch_id}/cancel" },
  { method: "GET", path: "/organization/api_keys" },
  { method: "POST", path: "/organization/api_keys", body: "ApiKeyCreateRequest" },
  { method: "GET", path: "/organization/api_keys/{key_id}" },
  { method: "POST", path: "/organization/api_keys/{key_id}", body: "ApiKeyUpdateRequest" },
  { method: "GET", path: "/organization/usage/completions" },
  { method: "GET", path: "/organization/costs" },
  { method: "GET", path: "/organization/ledger" },
  { method: "POST", path: "/questions", body: "QuestionCreateRequest" },
  { method: "GET", path: "/questions" },
  { method: "GET", path: "/questions/{question_id}" },
  { method: "POST", path: "/questions/{question_id}/resolution", body: "ResolutionRequest" },
  { method: "GET", path: "/scores" },
  { method: "POST", path: "/calibrations", body: "CalibrationCreateRequest" },
  { method: "GET", path: "/calibrations" },
  { method: "GET", path: "/calibrations/{calibration_id}" },
  { method: "DELETE", path: "/files/{file_id}" },
  { method: "DELETE", path: "/organization/api_keys/{key_id}" },
];

export const FUZZ_ROUTES: FuzzRoute[] = [
  ...SYSTEM_ROUTES,
  ...V1_PREFIXES.flatMap((prefix) =>
    API_ROUTES.map((route) => ({ ...route, path: `${prefix}${route.path}` })),
  ),
];

export const routeName = (route: FuzzRoute) => `${route.method} ${route.path}`;

/** The placeholders of a route's path, e.g. `["file_id"]`. */
export const placeholders = (route: FuzzRoute) =>
  [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
