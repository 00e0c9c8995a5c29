import { V1_PREFIXES } from "../support/http.js";
import { describeRouteSecurity, routeSecurityServer } from "../support/route-checks.js";
import { organizationSecurityRoutes } from "./support/security-routes.js";

const target = routeSecurityServer();

for (const prefix of V1_PREFIXES) {
  for (const route of organizationSecurityRoutes(prefix)) describeRouteSecurity(target, route);
}
