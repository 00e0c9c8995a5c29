import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { registerFitCalibrationRoute } from "./fit.js";
import { registerListCalibrationsRoute } from "./list.js";
import { registerRetrieveCalibrationRoute } from "./retrieve.js";

/** Calibration maps fitted on the track record (docs/track-record.md), one operation per module. */
export function registerCalibrationRoutes(app: App, services: Services): void {
  registerFitCalibrationRoute(app, services);
  registerListCalibrationsRoute(app, services);
  registerRetrieveCalibrationRoute(app, services);
}
