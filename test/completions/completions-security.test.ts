import { V1_PREFIXES } from "../support/http.js";
import { describeRouteSecurity, routeSecurityServer } from "../support/route-checks.js";

const target = routeSecurityServer();
const question = "Will the Seine freeze over in Paris before 2030?";

for (const prefix of V1_PREFIXES) {
  describeRouteSecurity(target, {
    method: "POST",
    path: `${prefix}/chat/completions`,
    body: () => ({ model: "sibyl-baseline", messages: [{ role: "user", content: question }] }),
  });
  describeRouteSecurity(target, {
    method: "POST",
    path: `${prefix}/completions`,
    body: () => ({ model: "sibyl-baseline", prompt: question }),
  });
}
