import { type Static, Type } from "@sinclair/typebox";
import type { UsageQuery } from "../../billing/usage-report.js";
import { listPage } from "../../db/list-pages.js";
import type { Services } from "../../services.js";
import type { Clock } from "../../util/clock.js";
import type { App } from "../app-instance.js";
import { principalOf } from "../auth.js";
import { ErrorResponse, withErrors } from "../schemas/common.js";
import {
  ledgerEntryObject,
  queryEndTime,
  usagePageObject,
  usagePageStart,
} from "./organization-objects.js";
import {
  LedgerQuerySchema,
  OrganizationLedgerListSchema,
  OrganizationUsagePageSchema,
  UsageQuerySchema,
} from "./organization-schemas.js";

/** What the organization used and paid: readable with any of its keys. */
export function registerOrganizationUsageRoutes(app: App, services: Services): void {
  app.get(
    "/organization/usage/completions",
    {
      schema: {
        summary: "Completion usage by day",
        description:
          "Requests, tokens and cost of settled completions (batch lines included) per UTC day from `start_time` to `end_time`, optionally grouped by `model` and `api_key_id` and filtered by `models` and `api_key_ids` (a key that is not the organization's: 404). Every day of the range is listed, `limit` days per page.",
        tags: ["organization"],
        querystring: UsageQuerySchema,
        response: withErrors({
          200: Type.Ref(OrganizationUsagePageSchema),
          400: Type.Ref(ErrorResponse),
          404: Type.Ref(ErrorResponse),
        }),
      },
    },
    async (request) => {
      const query = usageQuery(request.query, services.clock);
      const page = await services.usage.completions(principalOf(request).organizationId, query);
      return usagePageObject(page);
    },
  );

  app.get(
    "/organization/ledger",
    {
      schema: {
        summary: "The organization's ledger, newest first",
        description:
          "Every movement of money: top-ups, charges (memo: the model or research source), refunds and adjustments (credits granted by the operator).",
        tags: ["organization"],
        querystring: LedgerQuerySchema,
        response: withErrors({
          200: Type.Ref(OrganizationLedgerListSchema),
          400: Type.Ref(ErrorResponse),
          404: Type.Ref(ErrorResponse),
        }),
      },
    },
    async (request) => {
      const page = await services.ledgerHistory.page(principalOf(request).organizationId, {
        after: request.query.after,
        limit: request.query.limit,
        kind: request.query.kind,
      });
      return listPage(page.entries.map(ledgerEntryObject), page.hasMore);
    },
  );
}

/** The usage query as the report reads it: the range's end defaulted, the page cursor checked. */
function usageQuery(query: Static<typeof UsageQuerySchema>, clock: Clock): UsageQuery {
  const endTime = queryEndTime(query.start_time, query.end_time, clock);
  return {
    startTime: query.start_time,
    endTime,
    groupBy: query.group_by ?? [],
    models: query.models,
    apiKeyIds: query.api_key_ids,
    limit: query.limit,
    page:
      query.page === undefined ? undefined : usagePageStart(query.page, query.start_time, endTime),
  };
}
