import type { RouteSecurity } from "../../support/route-checks.js";

/**
 * The configuration these routes need: a model whose id holds a slash reaches the unescaped
 * `/models/*` route; it is never called.
 */
export const MODELS_CONFIG = {
  models: [
    { id: "sibyl-baseline", provider: "baseline" },
    { id: "Qwen/Qwen3-8B", provider: "openai", base_url: "http://127.0.0.1:9/v1" },
  ],
};

/** The model and balance routes under `prefix`, as the route security checks send them. */
export const modelsSecurityRoutes = (prefix: string): RouteSecurity[] => [
  { method: "GET", path: `${prefix}/models` },
  ...["sibyl-baseline", "Qwen/Qwen3-8B"].map(
    (model_id): RouteSecurity => ({
      method: "GET",
      path: `${prefix}/models/{model_id}`,
      params: { model_id },
    }),
  ),
  { method: "GET", path: `${prefix}/balance` },
];

/** The routes outside `/v1`: served without a key, kept out of /openapi.json. */
export const SYSTEM_SECURITY_ROUTES: RouteSecurity[] = [
  {
    method: "GET",
    path: "/healthz",
    public: true,
    undocumented: {
      contentType: /^application\/json/,
      schema: { type: "object", required: ["status"], properties: { status: { const: "ok" } } },
    },
  },
  {
    method: "GET",
    path: "/metrics",
    public: true,
    undocumented: { contentType: /^text\/plain; version=0\.0\.4/ },
  },
  {
    method: "GET",
    path: "/openapi.json",
    public: true,
    undocumented: {
      contentType: /^application\/json/,
      schema: {
        type: "object",
        required: ["openapi", "info", "paths", "components"],
        properties: { openapi: { const: "3.1.0" } },
      },
    },
  },
];
