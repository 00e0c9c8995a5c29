import type { RouteSecurity } from "../../support/route-checks.js";

const question = "Will the Seine freeze over in Paris before 2030?";

/** The responses route under `prefix`, as the route security checks send it. */
export const responsesSecurityRoutes = (prefix: string): RouteSecurity[] => [
  {
    method: "POST",
    path: `${prefix}/responses`,
    body: () => ({ model: "sibyl-baseline", input: question }),
  },
];

/** An answer of an alias route: what its `/v1/compat` original documents, or an error. */
const answeredAs = (component: string) => ({
  contentType: /^application\/json/,
  schema: {
    anyOf: [
      { $ref: `#/components/schemas/${component}` },
      { $ref: "#/components/schemas/ErrorResponse" },
    ],
  },
});

/** Routes of `/v1/compat` as the aliases under `prefix` serve them. */
export const aliasSecurityRoutes = (prefix: string): RouteSecurity[] => [
  {
    method: "POST",
    path: `${prefix}/responses`,
    body: () => ({ model: "sibyl-baseline", input: question }),
    undocumented: answeredAs("ResponseObject"),
  },
  {
    method: "POST",
    path: `${prefix}/chat/completions`,
    body: () => ({ model: "sibyl-baseline", messages: [{ role: "user", content: question }] }),
    undocumented: answeredAs("ChatCompletionResponse"),
  },
  {
    method: "POST",
    path: `${prefix}/completions`,
    body: () => ({ model: "sibyl-baseline", prompt: question }),
    undocumented: answeredAs("CompletionResponse"),
  },
  { method: "GET", path: `${prefix}/models`, undocumented: answeredAs("ModelListResponse") },
  { method: "GET", path: `${prefix}/balance`, undocumented: answeredAs("BalanceResponse") },
];
