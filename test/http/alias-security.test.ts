import { FORESIGHT_PREFIXES } from "../../src/http/routes/v1.js";
import { describeRouteSecurity, routeSecurityServer } from "../support/route-checks.js";
import { aliasedApiSecurityRoutes } from "./support/alias-security-routes.js";
import { MODELS_CONFIG } from "./support/security-routes.js";

// The aliases answer as `/v1/compat` does, checked against what /openapi.json documents there.
const target = routeSecurityServer({ config: MODELS_CONFIG });

for (const prefix of FORESIGHT_PREFIXES) {
  for (const route of aliasedApiSecurityRoutes(prefix)) describeRouteSecurity(target, route);
}
