import type { Services } from "../../services.js";
import type { App } from "../app-instance.js";
import { registerBalanceRoutes } from "./balance.js";
import { registerBatchRoutes } from "./batches/index.js";
import { registerCalibrationRoutes } from "./calibrations/index.js";
import { registerCompletionRoutes } from "./completions.js";
import { registerFileRoutes } from "./files/index.js";
import { registerModelRoutes } from "./models.js";
import { registerTopupRoute } from "./mpp-topup.js";
import { registerOrganizationRoutes } from "./organization.js";
import { registerQuestionRoutes } from "./questions/index.js";
import { registerResponseRoutes } from "./responses.js";
import { registerScoreRoutes } from "./scores.js";

/** The hosted Foresight API's paths: every `/v1/compat` route again, for drop-in clients. */
export const FORESIGHT_PREFIXES = ["/v1/openai", "/api/public/v1/openai"];

/** Every `/v1` route; mounted at `/v1`, `/v1/compat` and the Foresight prefixes. */
export async function v1Routes(app: App, services: Services): Promise<void> {
  registerModelRoutes(app, services);
  registerBalanceRoutes(app, services);
  registerCompletionRoutes(app, services);
  registerResponseRoutes(app, services);
  await registerFileRoutes(app, services);
  registerBatchRoutes(app, services);
  registerTopupRoute(app, services);
  registerOrganizationRoutes(app, services);
  registerQuestionRoutes(app, services);
  registerScoreRoutes(app, services);
  registerCalibrationRoutes(app, services);
}
