import { batchesSecurityRoutes } from "../../batches/support/security-routes.js";
import { filesSecurityRoutes } from "../../files/support/security-routes.js";
import { organizationSecurityRoutes } from "../../organization/support/security-routes.js";
import type { RouteSecurity } from "../../support/route-checks.js";
import { trackSecurityRoutes } from "../../track/support/security-routes.js";
import { modelsSecurityRoutes } from "./security-routes.js";

/**
 * The `/v1/compat` routes under an alias `prefix` that responses/ does not already check there
 * (it checks the completions, responses, model list and balance); they need MODELS_CONFIG.
 */
export const aliasedApiSecurityRoutes = (prefix: string): RouteSecurity[] => [
  ...modelsSecurityRoutes(prefix).filter((route) => route.path.endsWith("/models/{model_id}")),
  ...filesSecurityRoutes(prefix),
  ...batchesSecurityRoutes(prefix),
  ...organizationSecurityRoutes(prefix),
  ...trackSecurityRoutes(prefix),
];
