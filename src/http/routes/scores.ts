import { Type } from "@sinclair/typebox";
import type { Services } from "../../services.js";
import type { App } from "../app-instance.js";
import { principalOf } from "../auth.js";
import { ErrorResponse, withErrors } from "../schemas/common.js";
import { ScoreReportSchema, ScoresQuerySchema } from "../schemas/scores.js";

/** Scores of the track record's resolved forecasts (docs/track-record.md). */
export function registerScoreRoutes(app: App, services: Services): void {
  app.get(
    "/scores",
    {
      schema: {
        summary: "Score resolved forecasts by model, API key or tag",
        description:
          "Sibyl's track record: the mean Brier and log scores (CRPS for continuous forecasts) of the organization's forecasts on resolved questions, with calibration bins, scored with the same rules as `sibyl eval`. Forecasts are counted by their prediction date.",
        tags: ["track record"],
        querystring: ScoresQuerySchema,
        response: withErrors({ 200: Type.Ref(ScoreReportSchema), 400: Type.Ref(ErrorResponse) }),
      },
    },
    async (request) => services.scores.report(principalOf(request).organizationId, request.query),
  );
}
