import type { Services } from "../../services.js";
import type { App } from "../app-instance.js";
import { registerOrganizationCostRoutes } from "./organization-costs.js";
import { registerOrganizationKeyRoutes } from "./organization-keys/index.js";
import { registerOrganizationUsageRoutes } from "./organization-usage.js";

/** The organization API (`/v1/organization/…`): keys, usage, costs and the ledger. */
export function registerOrganizationRoutes(app: App, services: Services): void {
  registerOrganizationKeyRoutes(app, services);
  registerOrganizationUsageRoutes(app, services);
  registerOrganizationCostRoutes(app, services);
}
