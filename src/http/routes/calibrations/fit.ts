import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { CalibrationRequest } from "../../../track/calibration/calibrations-service.js";
import type { App } from "../../app-instance.js";
import { adminOf } from "../../auth.js";
import {
  CalibrationCreateRequestSchema,
  CalibrationObjectSchema,
} from "../../schemas/calibrations.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";

export function registerFitCalibrationRoute(app: App, services: Services): void {
  app.post(
    "/calibrations",
    {
      schema: {
        summary: "Fit a calibration map for a model",
        description:
          "Needs an `admin` key. Fits a map from the model's resolved binary forecasts (logistic recalibration in logit space; isotonic regression too from 100 forecasts), picks the method by five-fold cross-validation and stores it with its out-of-sample Brier score before and after. The forecasts are the organization's recorded ones, or with `evaluation` those of a backtest `sibyl eval run` kept on the server (an unknown one is a 404; a model the run did not forecast with a 400 naming the run's models). Fewer than 30 resolved forecasts is a 422.",
        tags: ["track record"],
        body: Type.Ref(CalibrationCreateRequestSchema),
        response: withErrors({
          200: Type.Ref(CalibrationObjectSchema),
          400: Type.Ref(ErrorResponse),
          403: Type.Ref(ErrorResponse),
          404: Type.Ref(ErrorResponse),
        }),
      },
    },
    async (request) => {
      const admin = adminOf(request, "fitting calibrations");
      return services.calibrations.fit(admin.organizationId, request.body as CalibrationRequest);
    },
  );
}
