import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { registerCancelBatchRoute } from "./cancel.js";
import { registerCreateBatchRoute } from "./create.js";
import { registerListBatchesRoute } from "./list.js";
import { registerRetrieveBatchRoute } from "./retrieve.js";

/** The Batch API, one operation per module. */
export function registerBatchRoutes(app: App, services: Services): void {
  registerCreateBatchRoute(app, services);
  registerListBatchesRoute(app, services);
  registerRetrieveBatchRoute(app, services);
  registerCancelBatchRoute(app, services);
}
