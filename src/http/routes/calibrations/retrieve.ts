import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { principalOf } from "../../auth.js";
import { CalibrationObjectSchema, CalibrationParams } from "../../schemas/calibrations.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";

export function registerRetrieveCalibrationRoute(app: App, services: Services): void {
  app.get(
    "/calibrations/:calibration_id",
    {
      schema: {
        summary: "Retrieve a calibration",
        tags: ["track record"],
        params: CalibrationParams,
        response: withErrors({
          200: Type.Ref(CalibrationObjectSchema),
          404: Type.Ref(ErrorResponse),
        }),
      },
    },
    async (request) =>
      services.calibrations.retrieve(
        principalOf(request).organizationId,
        request.params.calibration_id,
      ),
  );
}
