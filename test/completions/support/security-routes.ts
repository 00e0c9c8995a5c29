import type { RouteSecurity } from "../../support/route-checks.js";

const question = "Will the Seine freeze over in Paris before 2030?";

/** The completion routes under `prefix`, as the route security checks send them. */
export const completionsSecurityRoutes = (prefix: string): RouteSecurity[] => [
  {
    method: "POST",
    path: `${prefix}/chat/completions`,
    body: () => ({ model: "sibyl-baseline", messages: [{ role: "user", content: question }] }),
  },
  {
    method: "POST",
    path: `${prefix}/completions`,
    body: () => ({ model: "sibyl-baseline", prompt: question }),
  },
];
