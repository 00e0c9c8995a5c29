import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { registerCreateKeyRoute } from "./create.js";
import { registerListKeysRoute } from "./list.js";
import { registerRetrieveKeyRoute } from "./retrieve.js";
import { registerRevokeKeyRoute } from "./revoke.js";
import { registerUpdateKeyRoute } from "./update.js";

/** The organization's keys, one operation per module; every route needs an `admin` key. */
export function registerOrganizationKeyRoutes(app: App, services: Services): void {
  registerListKeysRoute(app, services);
  registerCreateKeyRoute(app, services);
  registerRetrieveKeyRoute(app, services);
  registerUpdateKeyRoute(app, services);
  registerRevokeKeyRoute(app, services);
}
