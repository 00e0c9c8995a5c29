import { V1_PREFIXES } from "../support/http.js";
import { describeRouteSecurity, routeSecurityServer } from "../support/route-checks.js";

// A model whose id holds a slash reaches the unescaped `/models/*` route; it is never called.
const target = routeSecurityServer({
  config: {
    models: [
      { id: "sibyl-baseline", provider: "baseline" },
      { id: "Qwen/Qwen3-8B", provider: "openai", base_url: "http://127.0.0.1:9/v1" },
    ],
  },
});

for (const prefix of V1_PREFIXES) {
  describeRouteSecurity(target, { method: "GET", path: `${prefix}/models` });
  for (const model_id of ["sibyl-baseline", "Qwen/Qwen3-8B"]) {
    describeRouteSecurity(target, {
      method: "GET",
      path: `${prefix}/models/{model_id}`,
      params: { model_id },
    });
  }
  describeRouteSecurity(target, { method: "GET", path: `${prefix}/balance` });
}

describeRouteSecurity(target, {
  method: "GET",
  path: "/healthz",
  public: true,
  undocumented: {
    contentType: /^application\/json/,
    schema: { type: "object", required: ["status"], properties: { status: { const: "ok" } } },
  },
});
describeRouteSecurity(target, {
  method: "GET",
  path: "/metrics",
  public: true,
  undocumented: { contentType: /^text\/plain; version=0\.0\.4/ },
});
describeRouteSecurity(target, {
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
});
