import { V1_PREFIXES } from "../support/http.js";
import { describeRouteSecurity, routeSecurityServer } from "../support/route-checks.js";
import { batchesSecurityRoutes } from "./support/security-routes.js";

// No batch worker runs here, so every batch stays `validating` and can be cancelled.
const target = routeSecurityServer();

for (const prefix of V1_PREFIXES) {
  for (const route of batchesSecurityRoutes(prefix)) describeRouteSecurity(target, route);
}
