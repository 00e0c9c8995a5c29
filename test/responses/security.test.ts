import { FORESIGHT_PREFIXES } from "../../src/http/routes/v1.js";
import { V1_PREFIXES } from "../support/http.js";
import {
  describeRouteSecurity,
  type RouteSecurity,
  routeSecurityServer,
} from "../support/route-checks.js";

const target = routeSecurityServer();
const question = "Will the Seine freeze over in Paris before 2030?";

for (const prefix of V1_PREFIXES) {
  describeRouteSecurity(target, {
    method: "POST",
    path: `${prefix}/responses`,
    body: () => ({ model: "sibyl-baseline", input: question }),
  });
}

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

/** Routes of `/v1/compat` as the aliases serve them, by path below the prefix. */
const ALIASED: [string, Omit<RouteSecurity, "path">][] = [
  [
    "/responses",
    {
      method: "POST",
      body: () => ({ model: "sibyl-baseline", input: question }),
      undocumented: answeredAs("ResponseObject"),
    },
  ],
  [
    "/chat/completions",
    {
      method: "POST",
      body: () => ({ model: "sibyl-baseline", messages: [{ role: "user", content: question }] }),
      undocumented: answeredAs("ChatCompletionResponse"),
    },
  ],
  [
    "/completions",
    {
      method: "POST",
      body: () => ({ model: "sibyl-baseline", prompt: question }),
      undocumented: answeredAs("CompletionResponse"),
    },
  ],
  ["/models", { method: "GET", undocumented: answeredAs("ModelListResponse") }],
  ["/balance", { method: "GET", undocumented: answeredAs("BalanceResponse") }],
];

for (const prefix of FORESIGHT_PREFIXES) {
  for (const [path, route] of ALIASED) {
    describeRouteSecurity(target, { ...route, path: `${prefix}${path}` });
  }
}
