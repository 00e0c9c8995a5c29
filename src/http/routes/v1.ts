import type { App } from "../../app.js";
import type { Services } from "../../services.js";
import { registerBalanceRoutes } from "./balance.js";
import { registerBatchRoutes } from "./batches.js";
import { registerCompletionRoutes } from "./completions.js";
import { registerFileRoutes } from "./files.js";
import { registerModelRoutes } from "./models.js";

/** Every `/v1` route; mounted at `/v1` and again at `/v1/compat`. */
export async function v1Routes(app: App, services: Services): Promise<void> {
  registerModelRoutes(app, services);
  registerBalanceRoutes(app, services);
  registerCompletionRoutes(app, services);
  await registerFileRoutes(app, services);
  registerBatchRoutes(app, services);
}
