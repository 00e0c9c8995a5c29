import { V1_PREFIXES } from "../support/http.js";
import { describeRouteSecurity, routeSecurityServer } from "../support/route-checks.js";
import {
  MODELS_CONFIG,
  modelsSecurityRoutes,
  SYSTEM_SECURITY_ROUTES,
} from "./support/security-routes.js";

const target = routeSecurityServer({ config: MODELS_CONFIG });

for (const prefix of V1_PREFIXES) {
  for (const route of modelsSecurityRoutes(prefix)) describeRouteSecurity(target, route);
}
for (const route of SYSTEM_SECURITY_ROUTES) describeRouteSecurity(target, route);
