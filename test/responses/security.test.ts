import { FORESIGHT_PREFIXES } from "../../src/http/routes/v1.js";
import { V1_PREFIXES } from "../support/http.js";
import { describeRouteSecurity, routeSecurityServer } from "../support/route-checks.js";
import { aliasSecurityRoutes, responsesSecurityRoutes } from "./support/security-routes.js";

const target = routeSecurityServer();

for (const prefix of V1_PREFIXES) {
  for (const route of responsesSecurityRoutes(prefix)) describeRouteSecurity(target, route);
}
for (const prefix of FORESIGHT_PREFIXES) {
  for (const route of aliasSecurityRoutes(prefix)) describeRouteSecurity(target, route);
}
