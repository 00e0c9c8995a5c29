import { Type } from "@sinclair/typebox";
import type { Services } from "../../services.js";
import type { App } from "../app-instance.js";
import { principalOf } from "../auth.js";
import { ErrorResponse, withErrors } from "../schemas/common.js";
import { CostsQuerySchema, OrganizationCostsPageSchema } from "./organization-cost-schemas.js";
import { costsPageObject, queryEndTime, usagePageStart } from "./organization-objects.js";

/** What the organization was charged, in the shape of OpenAI's Costs API: readable with any key. */
export function registerOrganizationCostRoutes(app: App, services: Services): void {
  app.get(
    "/organization/costs",
    {
      schema: {
        summary: "Costs by day",
        description:
          "Dollars charged per UTC day from `start_time` to `end_time` (batch lines and research included), optionally grouped by `line_item` (each charge's model or research source) or by `model` and `api_key_id`. Every day of the range is listed, `limit` days per page.",
        tags: ["organization"],
        querystring: CostsQuerySchema,
        response: withErrors({
          200: Type.Ref(OrganizationCostsPageSchema),
          400: Type.Ref(ErrorResponse),
        }),
      },
    },
    async (request) => {
      const { query } = request;
      const endTime = queryEndTime(query.start_time, query.end_time, services.clock);
      const page = await services.costs.costs(principalOf(request).organizationId, {
        startTime: query.start_time,
        endTime,
        groupBy: query.group_by ?? [],
        limit: query.limit,
        page:
          query.page === undefined
            ? undefined
            : usagePageStart(query.page, query.start_time, endTime),
      });
      return costsPageObject(page);
    },
  );
}
