import { Type } from "@sinclair/typebox";
import type { Services } from "../../../services.js";
import type { App } from "../../app-instance.js";
import { principalOf } from "../../auth.js";
import { CalibrationListQuerySchema, CalibrationListSchema } from "../../schemas/calibrations.js";
import { ErrorResponse, withErrors } from "../../schemas/common.js";

export function registerListCalibrationsRoute(app: App, services: Services): void {
  app.get(
    "/calibrations",
    {
      schema: {
        summary: "List calibrations, newest first",
        tags: ["track record"],
        querystring: CalibrationListQuerySchema,
        response: withErrors({
          200: Type.Ref(CalibrationListSchema),
          404: Type.Ref(ErrorResponse),
        }),
      },
    },
    async (request) =>
      services.calibrations.list(principalOf(request).organizationId, request.query),
  );
}
